"""A teacher's sets: compose one (kinds, systems, level, count, seed) and get its link; the
results of a set, item by item (who solved it, with how many hints, the commonest wrong answer)."""

from __future__ import annotations

import urllib.parse

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from server.limits import LimitReached
from server.progress import ProgressError, Store
from ui.practice.items_view import COMPOSABLE, kind_title
from ui.practice.progress_view import READY, results_frame, set_spec
from ui.practice.source import PROBLEMS, item_of, linked_items, pool, put, stale
from ui.views.safe_text import inert
from ui.widgets import limits


def link(query: dict[str, str]) -> str:
    base = (st.context.url or "").split("?")[0]
    return f"{base}?{urllib.parse.urlencode(query)}"


@st.cache_data(max_entries=64, show_spinner=False)
def composed(kinds: tuple[str, ...], systems: tuple[str, ...], level: int, count: int,
             seed: int) -> list[str]:
    """The texts of a composed set's items (the same for the same arguments)."""
    return [s.text for s in ex.compose(list(kinds), list(systems), level, count, seed, pool())]


def ready_query(title: str) -> dict[str, str]:
    """The link of a ready-made set, as query parameters: its items carried whole, and its title."""
    kinds, systems, level, count, seed = READY[title]
    specs = [ex.ItemSpec.parse(t) for t in composed(tuple(kinds), tuple(systems), level, count, seed)]
    return {"items": ex.encode_set(specs), "title": title}


def open_ready(title: str) -> None:
    """Callback: open a ready-made set in this tab (the learner stays signed in), its link in the address."""
    query = ready_query(title)
    opened_set, problems = linked_items(query["items"], title)
    if opened_set is None:
        return
    put(opened_set)
    st.session_state[PROBLEMS] = problems
    for name in ("kind", "system", "level", "set", "item"):
        if name in st.query_params:
            del st.query_params[name]
    st.query_params.update(query)


def composer(store: Store | None) -> None:
    """The teacher's form; on *Make the link*, a new set and the link to it."""
    with st.form("practice.compose"):
        title = st.text_input("Title", "Homework", key="practice.set_title", max_chars=80)
        kinds = st.multiselect("Kinds", list(COMPOSABLE), default=["next-move"], format_func=kind_title,
                               key="practice.set_kinds")
        systems = st.multiselect("Systems", pc.list_systems(), default=["arc-eager"],
                                 key="practice.set_systems")
        level, count, seed = st.columns(3)
        lv = level.selectbox("Level", [1, 2, 3], key="practice.set_level",
                             help="1: short projective trees on the gold path; 2: up to 8 tokens after one "
                                  "mistake; 3: longer or non-projective, after 2–3 mistakes")
        n = count.number_input("Items", 1, 30, 5, key="practice.set_count")
        sd = seed.number_input("Seed", 0, 10**6, 1, key="practice.set_seed")
        made = st.form_submit_button("Make the link", type="primary")
    if made:
        make_set(store, title, kinds, systems, int(lv), int(n), int(sd))


def make_set(store: Store | None, title: str, kinds: list[str], systems: list[str], level: int, count: int,
             seed: int) -> None:
    if not kinds or not systems:
        st.error("Choose at least one kind and one system.")
        return
    try:
        limits.take("exercises", count)
        specs = [ex.ItemSpec.parse(t) for t in composed(tuple(kinds), tuple(systems), level, count, seed)]
    except LimitReached as refusal:
        st.error(f"The set was not made: {inert(str(refusal))}")
        return
    if not specs:
        st.error("No item of these kinds can be made in these systems at this level; try another choice.")
        return
    if len(specs) < count:
        st.info(f"Only {len(specs)} of {count} items could be made of these kinds, systems and level.")
    if store is None:
        st.warning("The database cannot be opened, so the set is carried whole in its link and its results "
                   "are not collected.")
        st.code(link({"items": ex.encode_set(specs)}), language=None, wrap_lines=True)
        return
    try:
        spec = set_spec(kinds, systems, level, count, seed, specs)
        made = store.create_set(title, spec, [s.id for s in specs])
    except ProgressError as error:
        st.error(inert(str(error)))
        return
    st.success(f"Set **{inert(made.title)}** ({len(specs)} items, id `{made.id}`): everyone who opens "
               "the link gets the same items in the same order.")
    st.markdown("Link for the learners:")
    st.code(link({"set": made.id}), language=None, wrap_lines=True)
    st.markdown("Its results:")
    st.code(link({"set": made.id, "view": "results"}), language=None, wrap_lines=True)


def results(store: Store | None, set_id: str | None) -> None:
    """The results of a stored set, one row per item."""
    if store is None:
        st.warning("The database cannot be opened, so no results can be shown.")
        return
    set_id = st.text_input("Set id", set_id or "", key="practice.results_id",
                           help="The eight characters after set= in the set's link")
    if not set_id:
        st.caption("Open a set's results link, or type its id.")
        return
    try:
        found, rows = store.practice_set(set_id), store.set_results(set_id)
    except ProgressError as error:
        st.error(inert(str(error)[:1].upper() + str(error)[1:]) + ".")
        return
    texts = dict(zip(found.items, found.spec.get("items", [])))
    items = {i: item_of(t) for i, t in texts.items() if stale(t, i) is None}
    st.markdown(f"**{inert(found.title)}** — {len(found.items)} items, made "
                f"{found.created:%Y-%m-%d %H:%M} UTC.")
    with st.container(key="practice-results"):
        st.table(results_frame(rows, items).set_index("#"), border="horizontal")
    st.caption("**solved**: learners who answered it right at least once; **hints before solving**: the "
               "hints each of them took before that (“show me” counts as one); **most common wrong answer**: "
               "over every wrong answer given; **its cost**: what that move cost where it was made (gold "
               "arcs the best reachable tree loses; for a derivation, the move it was stopped at).")
