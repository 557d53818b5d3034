"""Where the items come from: one skill (kind × system × level, a seed per item), a set (a link),
or the review queue; and the item each source is at.

A session's first run reads the link: ``?set=<id>`` opens a set the store keeps (its results are
collected), ``?items=<specs>`` a set carried whole in the link (a ready-made one, or one composed
while the database is away; ``&title=`` names it), ``&item=<id>`` the item to start at,
``&view=results`` its results.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

import parsing_core.exercises as ex
from parsing_core.progress import ProgressError, Store
from ui.practice import models
from ui.widgets import limits

SOURCE, PROBLEMS = "practice.source", "practice.link_problems"


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
def drawn_spec(kind: str, system: str, level: int, seed: int, model: str = "") -> str | None:
    """The text of the item of this skill for ``seed`` (None when the skill has no items here);
    ``model``: the finished run that predict-parser items ask about."""
    limits.take("exercises")
    options = (("model", model),) if model else ()
    try:
        chooser = models.model_of(model) if model else None
    except ex.ExerciseError:
        return None
    specs = ex.draw(kind, system, level, 1, seed, pool(), options, chooser)
    return specs[0].text if specs else None


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

    def spec_text(self) -> str | None:
        if self.mode == "skill":
            return drawn_spec(self.kind, self.system, self.level, self.seed, self.model)
        return self.specs[self.position] if self.position < len(self.specs) else None

    def another(self) -> Source:
        """Another item like this one: the next seed, or the next item of the set."""
        if self.mode == "skill":
            return replace(self, seed=self.seed + 1)
        return replace(self, position=self.position + 1)

    @property
    def finished(self) -> bool:
        return self.mode != "skill" and self.position >= len(self.specs)


def get() -> Source:
    return st.session_state.setdefault(SOURCE, Source())


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
    put(source or Source())
    st.session_state[PROBLEMS] = problems


def link_problems() -> list[str]:
    return st.session_state.pop(PROBLEMS, [])
