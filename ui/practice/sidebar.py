"""The Practice page's sidebar: what to practise (one skill, a ready-made set, or the items due
for review).  A choice changes the page's source of items (:mod:`ui.practice.source`)."""

from __future__ import annotations

import streamlit as st

import parsing_core as pc
import parsing_core.exercises as ex
from ui.practice import models, source
from ui.practice.items_view import OFFERED, kind_title
from ui.practice.progress import Tracker
from ui.practice.progress_view import READY
from ui.practice.sets import open_ready
from ui.views.safe_text import inert
from ui.widgets.held import hold


def choose_skill(now_source: source.Source) -> None:
    """Kind, system and level (and, to predict a parser, the finished run whose system it is)."""
    kind = st.selectbox("Kind", list(OFFERED), format_func=kind_title, key="practice.kind")
    hold("practice.system", now_source.system)
    model = (models.run_picker() or "") if ex.get_kind(kind).needs_model else ""
    trained_for = models.system_of(model) if model else None
    system = st.selectbox("System", pc.list_systems(), key="practice.system",
                          disabled=trained_for is not None)
    if trained_for is not None:
        st.caption(f"The model was trained for **{trained_for}**: its items are asked in that system.")
        system = trained_for
    level = st.radio("Level", [1, 2, 3], horizontal=True, key="practice.level")
    wanted = now_source.skill(kind, system, int(level), model)
    if wanted.same_skill != now_source.same_skill:
        source.put(wanted)


def choose_source(tracker: Tracker) -> None:
    """What to practise: a skill, a ready-made set, or the review queue."""
    now_source = source.get()
    due = tracker.due()
    st.header("Practise")
    modes = {"skill": "One skill", "ready": "A ready-made set", "review": f"Review ({len(due)} due)"}
    mode = st.radio("What", list(modes), format_func=modes.__getitem__, key="practice.mode",
                    index=None if now_source.mode == "set" else ["skill", "review"].index(now_source.mode)
                    if now_source.mode in ("skill", "review") else 0)
    if mode == "skill":
        choose_skill(now_source)
    elif mode == "ready":
        for number, title in enumerate(READY):
            st.button(title, key=f"practice.ready.{number}", on_click=open_ready, args=(title,),
                      width="stretch", type="tertiary", icon=":material/playlist_play:")
        st.caption("Each opens a set here: the same items for everyone who opens it.")
    elif mode == "review":
        specs = tracker.specs()
        texts = tuple(specs[r.item_id].text for r in due if r.item_id in specs)
        if now_source.mode != "review" or now_source.specs[:1] != texts[:1]:
            source.put(source.Source(mode="review", specs=texts, title="Review"))
    if now_source.mode == "set":
        st.info(f"Working through the set **{inert(now_source.title)}**.")
