"""The ways in, as the Welcome page shows them: three cards to start (learn, explore, practise), then
the other pages one line each, every one a single click to its page (:class:`~.welcome_view.Door`)."""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from ui.welcome.welcome_view import MORE, START, Door


def link(door: Door) -> None:
    """A one-click link to the door's page, in this tab.  Run alone, without ``app.py``'s
    navigation (a test, or the script on its own), the page is no registered page: a plain
    link to its address then."""
    try:
        st.page_link(door.page, label=door.label, icon=door.icon, query_params=door.query or None)
    except StreamlitPageNotFoundError:
        st.markdown(f"[{door.label}]({door.address})")


def card(door: Door) -> None:
    """One of the three ways in: a heading, why, and the one click that goes there."""
    with st.container(border=True, height="stretch"):
        st.markdown(f"### {door.heading}")
        st.markdown(door.why)
        link(door)


def start_here() -> None:
    st.header("Start here")
    for column, door in zip(st.columns(len(START)), START, strict=True):
        with column:
            card(door)


def for_teachers() -> None:
    """The other pages, one line each, after the three ways in."""
    st.subheader("For teachers and the curious")
    for door in MORE:
        place, why = st.columns([1, 4], vertical_alignment="center")
        with place:
            link(door)
        why.markdown(door.why)
