"""The stepper's buttons: one per move, history (undo, redo, reset, jump), autoplay, downloads.

Buttons change the state through callbacks (:func:`ui.views.state.update_state`), which run before
the page script, so one click costs one rerun.  Every move button has a keyboard shortcut;
Streamlit reserves R and C, so RIGHT-ARC is A.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import pandas as pd
import streamlit as st

import parsing_core as pc
from ui.views import exports
from ui.views.labels import label_choices
from ui.views.oracle_view import TIE_BREAKS, Verdict, move_cost, pick
from ui.views.state import SESSION_KEY, StepperState, update_state

SHORTCUTS = {"SH": "S", "LA": "L", "RA": "A", "RE": "E", "SW": "W"}
UNDO, REDO, ORACLE_STEP = "U", "Y", "O"
SPEEDS = (0.25, 0.5, 1.0, 2.0, 3.0)  # seconds per move
PLAYING, LAST_TICK = "stepper.playing", "stepper.last_tick"


# -- moves ------------------------------------------------------------------------------------
def play(kind: str, label_key: str | None) -> None:
    """Callback of a move button: the move, with the label picked beside it if there is one."""
    update_state("play", kind if label_key is None else f"{kind}:{st.session_state[label_key]}")


def move_buttons(trace: pc.Trace, verdict: Verdict | None = None, prefix: str = "stepper") -> None:
    """One button per move of the system; an illegal one is disabled and says why (hover).

    In a labelled system an arc move gets a label picker (gold label first) and, when an
    oracle answered (``verdict``), the cost of the move with the label picked.
    """
    system, c = trace.system, trace.final
    reasons = system.reasons(c)
    for column, (t, reason) in zip(st.columns(len(reasons)), reasons.items()):
        with column:
            arc = system.arc_of(c, t) if reason is None else None
            labelled = system.labelled and arc is not None
            label_key = f"{prefix}.label.{t.kind}.{len(trace.transitions)}" if labelled else None
            st.button(f"{t.kind} · {t.name}", key=f"{prefix}.move.{t.kind}", disabled=reason is not None,
                      help=f"Not possible: {reason}" if reason else None, shortcut=SHORTCUTS[t.kind],
                      on_click=play, args=(t.kind, label_key), width="stretch")
            if label_key and arc:
                label_picker(trace, t, arc, verdict, label_key)


def label_picker(trace: pc.Trace, t: pc.Transition, arc: tuple[int, int], verdict: Verdict | None,
                 key: str) -> None:
    """A label for the arc ``t`` would build (the gold one preselected: ``key`` is new at every
    step), and the cost of ``t`` with that label."""
    choices = label_choices(trace.sentence)
    gold = trace.sentence.label(arc[1]) if trace.sentence.has_gold else None
    label = st.selectbox(f"label of {t.kind}", choices, index=choices.index(gold) if gold in choices else 0,
                         key=key)
    cost = None if verdict is None else move_cost(trace.system, verdict, trace.final, trace.sentence,
                                                  t.with_label(label))
    if cost is not None:
        st.caption(f"cost with this label: {'∞' if math.isinf(cost) else f'{cost:g}'}")


# -- history ----------------------------------------------------------------------------------
def history_buttons(state: StepperState, suggestion: str | None, seconds: float,
                    prefix: str = "stepper") -> None:
    """Undo, redo, reset, one step of the oracle, autoplay, and a slider to jump to any step."""
    undo, redo, reset, oracle, play_column = st.columns(5)
    undo.button("↶ Undo", key=f"{prefix}.undo", disabled=state.cursor == 0, shortcut=UNDO,
                on_click=update_state, args=("undo",), width="stretch")
    redo.button("↷ Redo", key=f"{prefix}.redo", disabled=not state.undone(), shortcut=REDO,
                on_click=update_state, args=("redo",), width="stretch")
    reset.button("⟲ Reset", key=f"{prefix}.reset", disabled=not state.moves,
                 on_click=update_state, args=("reset",), width="stretch")
    oracle.button("Oracle step", key=f"{prefix}.oracle_step", disabled=suggestion is None,
                  shortcut=ORACLE_STEP, on_click=update_state, args=("play", suggestion), width="stretch",
                  help=f"Play the autoplay oracle's move: {suggestion}" if suggestion else None)
    with play_column:
        autoplay(suggestion, state.taken(), seconds, prefix)


def history_table(history: pd.DataFrame, state: StepperState, prefix: str = "stepper") -> None:
    """The whole history, current row marked ▶ and undone rows ↷; click a row to jump to it.

    The table gets a new key whenever the state moves, so a selection is always a fresh click
    (a widget that mirrors the state could send back a stale value while a rerun is in flight).
    """
    marks = ["▶" if i == state.cursor else "↷" if i > state.cursor else "" for i in range(len(history))]
    key = f"{prefix}.history.{len(state.moves)}.{state.cursor}"
    st.dataframe(history.assign(NOW=marks)[["NOW", *history.columns]], hide_index=True, key=key,
                 on_select=lambda: jump_to_row(key), selection_mode="single-row",
                 column_config={"NOW": st.column_config.TextColumn("", width=36)})


def jump_to_row(key: str) -> None:
    """Callback of the history table: row i (from 0) is the configuration after i moves."""
    rows = st.session_state[key].selection.rows
    if rows:
        update_state("jump", rows[0])


# -- autoplay ---------------------------------------------------------------------------------
def autoplay_settings(oracles: list[str], default: str, prefix: str = "stepper") -> tuple[str, str, float]:
    """Which oracle plays, how it breaks ties, how fast; returns (oracle, tie-break, seconds per move)."""
    key = f"{prefix}.autoplay.oracle"
    if st.session_state.get(key) not in oracles:
        st.session_state[key] = default
    oracle = st.selectbox("Autoplay oracle", oracles, key=key)
    rule = st.selectbox("Tie-break between optimal moves", list(TIE_BREAKS), key=f"{prefix}.autoplay.tie",
                        format_func=TIE_BREAKS.__getitem__)
    seconds = st.select_slider("Seconds per move", SPEEDS, value=1.0, key=f"{prefix}.autoplay.speed")
    return oracle, rule, float(seconds)


def suggested_move(verdict: Verdict, rule: str, step: int) -> str | None:
    """The move autoplay makes next (labelled as the gold tree says), or None if there is none."""
    t = pick(verdict.optimal, rule, step)
    return None if t is None else str(verdict.gold_moves.get(t, t))


def set_playing(on: bool) -> None:
    st.session_state[PLAYING] = on
    st.session_state[LAST_TICK] = time.monotonic()


def autoplay(suggestion: str | None, taken: tuple[str, ...], seconds: float, prefix: str = "stepper") -> None:
    """Play / Stop; while playing, a fragment makes one move every ``seconds`` until the parse ends.

    ``suggestion`` is the move to make after ``taken``; the fragment reruns on its own timer, so
    it checks that the moves are still ``taken`` before it plays.
    """
    if suggestion is None:
        st.session_state[PLAYING] = False  # the parse is over (or no oracle can play): stop
    if st.session_state.get(PLAYING):
        st.button("⏹ Stop", key=f"{prefix}.stop", on_click=set_playing, args=(False,), type="primary",
                  width="stretch")
        st.fragment(run_every=seconds)(tick)(suggestion, taken, seconds)
    else:
        st.button("▶ Play", key=f"{prefix}.play", on_click=set_playing, args=(True,),
                  disabled=suggestion is None, width="stretch",
                  help="Let the autoplay oracle (sidebar) make one move after another")


def tick(move: str | None, after: tuple[str, ...], seconds: float) -> None:
    """Play ``move`` if the moves taken are still ``after`` and no move was made in the last
    ``seconds`` (in the full run that follows a move, the fragment runs too, and must wait)."""
    if move is None or st.session_state[SESSION_KEY].taken() != after:
        return
    if time.monotonic() - st.session_state.get(LAST_TICK, 0.0) < 0.8 * seconds:
        return
    st.session_state[LAST_TICK] = time.monotonic()
    update_state("play", move)
    st.rerun()


# -- downloads --------------------------------------------------------------------------------
def download(label: str, data: Callable[[], str | bytes], name: str, mime: str, key: str) -> None:
    st.download_button(label, data, file_name=name, mime=mime, key=key, on_click="ignore")


def history_downloads(history: pd.DataFrame, prefix: str = "stepper") -> None:
    csv, latex = st.columns(2)
    with csv:
        download("CSV", lambda: exports.csv_text(history), "derivation.csv", "text/csv", f"{prefix}.csv")
    with latex:
        download("LaTeX", lambda: exports.latex_text(history), "derivation.tex", "text/x-tex",
                 f"{prefix}.tex")


def drawing_downloads(dot: str, prefix: str = "stepper") -> None:
    """DOT always; SVG and PNG where Graphviz's ``dot`` program is installed."""
    columns = st.columns(3)
    with columns[0]:
        download("DOT", lambda: dot, "configuration.dot", "text/vnd.graphviz", f"{prefix}.dot")
    if not exports.can_render():
        columns[1].caption("SVG/PNG need Graphviz's `dot` program.")
        return
    with columns[1]:
        download("SVG", lambda: exports.render(dot, "svg"), "configuration.svg", "image/svg+xml",
                 f"{prefix}.svg")
    with columns[2]:
        download("PNG", lambda: exports.render(dot, "png"), "configuration.png", "image/png", f"{prefix}.png")
