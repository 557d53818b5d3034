"""The Stepper's menus under the board: the derivation and the drawing to download, the link to share.

Each menu is filled only while it is open (its contents change at every click), so a click on the
board sends three closed buttons, not their files.
"""

from __future__ import annotations

import urllib.parse

import pandas as pd
import streamlit as st

from ui.stepper.downloads import drawing_downloads, history_downloads
from ui.views.mistakes import MoveReview, with_costs
from ui.views.sources import DEFAULT_KEY, is_shareable
from ui.views.state import StepperState
from ui.widgets import compute


def menus(parse: compute.Parse, state: StepperState, oracle: str, reviews: list[MoveReview]) -> None:
    """Download the drawing, download the derivation (up to the row shown), share this state."""
    taken = state.taken()
    with st.container(horizontal=True, key="stepper-menus"):
        drawing_downloads(lambda: compute.drawing_of(parse, taken, oracle, 1.0, state.hidden))
        history_downloads(lambda: history_with_costs(parse, state, reviews).iloc[: state.cursor + 1])
        share(state)


def history_with_costs(parse: compute.Parse, state: StepperState, reviews: list[MoveReview]) -> pd.DataFrame:
    """The derivation, each move with its cost unless the oracle is hidden (for the downloads)."""
    history = compute.history_of(parse, state.moves)
    return with_costs(history, reviews) if reviews and not state.hidden else history


def share(state: StepperState) -> None:
    """A menu with the link that reproduces this state (written only while the menu is open: the
    link changes at every click)."""
    menu = st.popover("Share this state", icon=":material/link:", key="stepper.share", on_change="rerun")
    if not menu.open:
        return
    with menu:
        share_link(state)


def share_link(state: StepperState) -> None:
    """The link that reproduces this state."""
    base = (st.context.url or "").split("?")[0]
    link = f"{base}?{urllib.parse.urlencode(state.to_query())}"
    st.code(link, language=None, wrap_lines=True)
    if not is_shareable(state.sentence):
        st.warning(f"This sentence is too long for a link; the link opens {DEFAULT_KEY} instead.")
