"""Where the items come from: one skill (kind × system × level), a set (a link), or the review
queue; and the item each source is at.

A skill's items are drawn afresh for each learner and session (:func:`session_seed`: the learner
and the moment), and "another like this" never serves a question of the session again
(:func:`parsing_core.exercises.draw_fresh`); each item stays reproducible from its spec.

A session's first run reads the link: ``?set=<id>`` opens a set the store keeps (its results are
collected), ``?items=<specs>`` a set carried whole in the link (a ready-made one, or one composed
while the database is away; ``&title=`` names it), ``&item=<id>`` the item to start at,
``&view=results`` its results; ``?kind=&system=&level=`` a skill (the page keeps its choice there,
so a reload keeps it).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from server.progress import ProgressError, Store
from ui.practice import models
from ui.widgets import limits
from ui.widgets.progress_store import signed_in_learner

SOURCE, PROBLEMS = "practice.source", "practice.link_problems"
SKILL_PARAMS, SET_PARAMS = ("kind", "system", "level"), ("set", "items", "item", "title")


@st.cache_resource(show_spinner=False)
def pool() -> ex.SentencePool:
    """The sentences items are made of: the teaching set.  (With the short sentences of a treebank
    added, more skills found no item within a draw's tries at levels 2 and 3: such sentences are
    plainer, or too long for the exhaustive search that is the only exact oracle of some systems.)"""
    return ex.SentencePool()


@st.cache_resource(max_entries=512, show_spinner=False)
def item_of(text: str) -> ex.Item[Any]:
    """The item a spec's text names (ExerciseError when it cannot be made; a predict-parser item
    needs the finished run its spec names)."""
    spec = ex.ItemSpec.parse(text)
    name = models.model_name(spec)
    model = models.model_of(name) if ex.get_kind(spec.kind).needs_model and name else None
    return ex.rebuild(spec, pool(), model)


@st.cache_data(max_entries=256, show_spinner=False)
def drawn_spec(kind: str, system: str, level: int, seed: int, model: str = "",
               served: tuple[str, ...] = ()) -> str | None:
    """The text of an item of this skill unlike those ``served`` (None when the skill has no items
    here; once every question was served, they come again); ``model``: the finished run that
    predict-parser items ask about."""
    limits.take("exercises")
    options = (("model", model),) if model else ()
    try:
        chooser = models.model_of(model) if model else None
    except ex.ExerciseError:
        return None
    before = [ex.ItemSpec.parse(t) for t in served]
    spec = ex.draw_fresh(kind, system, level, seed, pool(), before, options, chooser)
    if spec is None and before:  # every question of the skill was served: a new round
        spec = ex.draw_fresh(kind, system, level, seed + len(before), pool(), [], options, chooser)
    return spec.text if spec else None


def session_seed() -> int:
    """The seed of this session's draws: the learner (if signed in) and the moment, hashed."""
    who = signed_in_learner()
    text = f"{who.id if who else ''}/{time.time_ns()}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


@dataclass(frozen=True)
class Source:
    """What is being practised: ``mode`` is ``skill``, ``set`` or ``review``; ``specs`` are the texts
    of a set's (or the queue's) items and ``position`` the one shown; ``set_id`` a stored set's id."""

    mode: str = "skill"
    kind: str = "next-move"
    system: str = "arc-eager"
    level: int = 1
    seed: int = 0
    specs: tuple[str, ...] = ()
    position: int = 0
    set_id: str | None = None
    title: str = ""
    model: str = ""  # the finished run a predict-parser skill asks about
    served: tuple[str, ...] = ()  # the skill items served in this session, oldest first

    def spec_text(self) -> str | None:
        if self.mode == "skill":
            return drawn_spec(self.kind, self.system, self.level, self.seed, self.model, self.served)
        return self.specs[self.position] if self.position < len(self.specs) else None

    def another(self) -> Source:
        """Another item like this one: a question not served yet, or the next item of the set."""
        if self.mode == "skill":
            text = self.spec_text()
            return replace(self, served=(*self.served, text)) if text else self
        return replace(self, position=self.position + 1)

    def skill(self, kind: str, system: str, level: int, model: str) -> Source:
        """This session's source for a skill (the seed and the items served so far are kept)."""
        return Source(kind=kind, system=system, level=level, model=model, seed=self.seed, served=self.served)

    @property
    def same_skill(self) -> tuple[str, str, str, int, str]:
        return self.mode, self.kind, self.system, self.level, self.model

    @property
    def finished(self) -> bool:
        return self.mode != "skill" and self.position >= len(self.specs)


def get() -> Source:
    if SOURCE not in st.session_state:
        st.session_state[SOURCE] = Source(seed=session_seed())
    return st.session_state[SOURCE]


def put(source: Source) -> None:
    st.session_state[SOURCE] = source


def change(**fields: Any) -> None:
    """Callback: the source with these fields changed."""
    put(replace(get(), **fields))


def stored_set(store: Store | None, set_id: str) -> tuple[Source | None, list[str]]:
    """The source of a stored set, and what was wrong on the way (unknown set, stale items)."""
    if store is None:
        return None, ["this link names a set kept in the database, which cannot be opened now"]
    try:
        found = store.practice_set(set_id)
    except ProgressError as error:
        return None, [str(error)]
    texts, problems = [], []
    for item_id, text in zip(found.items, found.spec.get("items", [])):
        problem = stale(text, item_id)
        if problem:
            problems.append(problem)
        else:
            texts.append(text)
    return Source(mode="set", specs=tuple(texts), set_id=found.id, title=found.title), problems


def stale(text: str, item_id: str | None = None) -> str | None:
    """Why an item of a set can no longer be made as it was (None when it can)."""
    try:
        spec = ex.ItemSpec.parse(text)
        item_of(text)
    except ex.ExerciseError as error:
        return f"the item {item_id or text[:40]!r} cannot be made any more ({error}); it is left out"
    if item_id is not None and spec.id != item_id:
        return f"the item {item_id!r} is stale (its spec now names item {spec.id}); it is left out"
    return None


def linked_items(encoded: str, title: str) -> tuple[Source | None, list[str]]:
    """The source of a set carried whole in the link."""
    try:
        specs = ex.decode_set(encoded)
    except ex.ExerciseError as error:
        return None, [f"the set in this link cannot be read: {error}"]
    texts = [s.text for s in specs if stale(s.text) is None]
    problems = [p for s in specs if (p := stale(s.text))]
    return Source(mode="set", specs=tuple(texts), title=title[:80] or "A set from a link"), problems


def read_link(store: Store | None) -> None:
    """On a session's first run: the source the link names, and its problems (shown once)."""
    if SOURCE in st.session_state:
        return
    query = st.query_params.to_dict()
    source: Source | None = None
    problems: list[str] = []
    if "set" in query:
        source, problems = stored_set(store, query["set"])
    elif "items" in query:
        source, problems = linked_items(query["items"], query.get("title", ""))
    if source is not None and "item" in query:
        ids = [ex.ItemSpec.parse(t).id for t in source.specs]
        if query["item"] in ids:
            source = replace(source, position=ids.index(query["item"]))
        else:
            problems.append(f"this set has no item {query['item'][:20]!r} (the link may be older than the "
                            "set): starting at its first item")
    put(source or Source(seed=session_seed()))
    if source is None:
        problems += skill_from_link(query)
    st.session_state[PROBLEMS] = problems


def skill_from_link(query: dict[str, str]) -> list[str]:
    """The sidebar's kind, system and level as the link names them, each only when it is one
    offered; what the link names that is not, in one sentence (the page's own choice stays)."""
    unknown = []
    kind, system, level = query.get("kind"), query.get("system"), query.get("level")
    if kind in ex.KINDS:
        st.session_state["practice.kind"] = kind
        st.session_state["practice.mode"] = "skill"
    elif kind is not None:
        unknown.append(f"no kind of exercise {kind[:30]!r}")
    if system in pc.list_systems():
        st.session_state["practice.system"] = system
    elif system is not None:
        unknown.append(f"no transition system {system[:30]!r}")
    if level in ("1", "2", "3"):
        st.session_state["practice.level"] = int(level)
    elif level is not None:
        unknown.append(f"no level {level[:10]!r} (the levels are 1, 2 and 3)")
    if not unknown:
        return []
    listed = unknown[0] if len(unknown) == 1 else f"{', '.join(unknown[:-1])} and {unknown[-1]}"
    return [f"there is {listed}: the page's own choices are shown instead"]


def keep_in_address(current: Source) -> None:
    """The address names what is practised: the skill's kind, system and level (a set keeps its link)."""
    wanted = ({"kind": current.kind, "system": current.system, "level": str(current.level)}
              if current.mode == "skill" else {})
    for name in SKILL_PARAMS + (SET_PARAMS if current.mode == "skill" else ()):
        if name in wanted and st.query_params.get(name) != wanted[name]:
            st.query_params[name] = wanted[name]
        elif name not in wanted and name in st.query_params:
            del st.query_params[name]


def link_problems() -> list[str]:
    return st.session_state.pop(PROBLEMS, [])
