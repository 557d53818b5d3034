"""The Stepper's settings: the sentence, the parser and its oracles, a model, autoplay, presenter mode.

:func:`choices` draws them and returns what was chosen (:class:`Choices`), for the board to show;
:func:`page_style` is the page's own CSS (less air above the board; larger type for a room).

The settings sit in a "Settings" popover beside the title, presenter mode beside it: a closed
popover's widgets are not drawn by the browser at all, while the page's other elements are
redrawn at every click on the board (a sidebar of some twenty widgets cost each click more
than the board itself).  The widgets still run in Python at every run of the page, so their
values stay as chosen while the popover is closed.
"""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st

import parsing_core as pc
from ui.stepper import models
from ui.stepper.board_data import SWITCH_TO
from ui.stepper.model_view import MODEL
from ui.views.state import StepperState
from ui.widgets import compute
from ui.widgets.board import autoplay_settings
from ui.widgets.checkpoints import ModelRef
from ui.widgets.held import hold
from ui.widgets.pickers import oracle_picker, sentence_picker, system_picker, use_system

# Presenter mode: type a room can read from the back (Streamlit sets most sizes in px, so the
# main area's text, tables and buttons are enlarged one by one; the drawing has its own scale).
PRESENTER_CSS = ("<style>[data-testid='stMain'] :is(p, li, td, th, button p) { font-size: 20px; }"
                 "[data-testid='stMain'] [data-testid='stCaptionContainer'] p { font-size: 17px; }"
                 "[data-testid='stMain'] [data-testid='stMetricValue'] p { font-size: 2.4rem; }"
                 "[data-testid='stMain'] h1 { font-size: 2.2rem; padding-top: 0; }</style>")
# The board is the page: less air above the title leaves the picture, the moves and their costs
# on one laptop screen (1366×768) without scrolling.
# The board does not fade while a click reruns it (Streamlit dims a running element with an
# opacity transition: the whole board composited and repainted at every click, some 25 ms of
# the browser's CPU); its own busy cursor says a click is on its way (board.css).
PAGE_CSS = ("<style>[data-testid='stMainBlockContainer'] { padding-top: 3.75rem; }"  # just below the header
            "[data-testid='stMain'] h1 { padding-top: 0; }"
            ".st-key-stepper-board[data-stale='true'] { opacity: 1 !important; transition: none !important; }"
            "</style>")


SETTINGS_HELP = "The sentence, the transition system and its oracles, a trained model, autoplay"


class Choices(NamedTuple):
    """What the settings chose: the sentence, the parser and oracles, the model, autoplay, presenter."""

    sentence: str
    system: str
    options: tuple[str, ...]
    labelled: bool
    oracle: str
    compare: str
    presenter: bool
    model: ModelRef | None
    player: str  # who plays Oracle step and Play (an oracle, or the model)
    tie_break: str
    seconds: float
    input_problem: str | None  # what was wrong with a new sentence, shown on the board


def choices(state: StepperState) -> Choices:
    """The title row (the title, the Settings popover, presenter mode), opened on ``state`` (the
    link's, or the board's last); what was chosen."""
    if SWITCH_TO in st.session_state:  # the board asked for another system
        use_system("stepper", st.session_state.pop(SWITCH_TO))
    with st.container(horizontal=True, vertical_alignment="center", key="stepper-top"):
        st.title("Stepper", anchor=False)  # no anchor: a heading's link icon measures the page at each rerun
        menu = st.popover("Settings", icon=":material/tune:", key="stepper.settings", help=SETTINGS_HELP)
        hold("stepper.presenter", state.presenter)
        presenter = st.toggle("Presenter mode", key="stepper.presenter",
                              help="Larger type and drawing for a room; the app's pages closed")
    with menu:
        return settings(state, presenter)


def settings(state: StepperState, presenter: bool) -> Choices:
    """The popover's widgets in two columns, the sentence and the parser, the model and autoplay."""
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown("**Sentence**")
        sentence, input_problem = sentence_picker("stepper.pick", state.sentence)
        st.markdown("**Parser**")
        system_name, options, labelled = system_picker("stepper", state.system, state.options, state.labelled)
        system = compute.system_of(system_name, options, labelled)
        oracle, compare = oracle_picker(system, "stepper", state.oracle, state.compare)
    with right:
        st.markdown("**Model**")
        model = models.model_section(system_name, options)
        st.markdown("**Autoplay**")
        player, tie_break, seconds = autoplay(system, sentence, oracle, model)
    return Choices(sentence, system_name, options, labelled, oracle, compare, presenter, model, player,
                   tie_break, seconds, input_problem)


def autoplay(system: pc.TransitionSystem, sentence: str, oracle: str,
             model: ModelRef | None) -> tuple[str, str, float]:
    """Who plays Oracle step and Play (an oracle of the system, or the model), the tie-break, the pace."""
    has_gold = compute.sentence_of(sentence).has_gold
    players = (pc.list_oracles(system) if has_gold or model is None else []) + ([MODEL] if model else [])
    follow = oracle if has_gold else players[0]
    player, tie_break, seconds = autoplay_settings("stepper", players, follow)
    if player != follow:
        st.caption(f"Oracle step and Play follow **{player}**, not the table's {oracle}.")
    return player, tie_break, seconds


def page_style(presenter: bool) -> None:
    """The page's CSS; in presenter mode, larger type and the sidebar (the app's pages) closed:
    the board takes the whole projector."""
    st.html(PAGE_CSS + (PRESENTER_CSS if presenter else ""))
    if presenter:
        st.set_page_config(initial_sidebar_state="collapsed")
