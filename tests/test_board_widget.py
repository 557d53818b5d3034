"""The move board is a widget any page can embed: two boards on one page keep their own moves.

A lesson or an exercise embeds the same buttons as the stepper with a state of its own
(:class:`ui.widgets.board.Board`); a click on one board changes that board's state and no other.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from ui.views.state import StepperState


def two_boards() -> None:
    import streamlit as st

    from ui.views.state import StepperState
    from ui.widgets import compute
    from ui.widgets.board import Board, history_buttons, move_buttons

    for key, system in (("lesson", "arc-standard"), ("exercise", "arc-eager")):
        board = Board(key)
        state = board.start(StepperState(system=system))
        parse = compute.Parse(state.sentence, state.system, state.options, state.labelled)
        trace = compute.trace_of(parse, state.taken())
        st.write(f"{key}: {' '.join(state.taken()) or '-'}")
        move_buttons(board, trace, shortcuts=key == "lesson")
        history_buttons(board, "SH" if trace.system.reasons(trace.final) else None, 1.0,
                        shortcuts=key == "lesson")


def run() -> AppTest:
    at = AppTest.from_function(two_boards, default_timeout=30)
    return at.run()


def state(at: AppTest, key: str) -> StepperState:
    return at.session_state[f"{key}.state"]


def test_a_click_changes_only_its_own_board() -> None:
    at = run()
    at.button(key="lesson.move.SH").click().run()
    at.button(key="lesson.move.SH").click().run()
    assert state(at, "lesson").taken() == ("SH", "SH")
    assert state(at, "exercise").taken() == ()
    at.button(key="exercise.move.SH").click().run()
    at.button(key="exercise.move.RA").click().run()
    assert state(at, "exercise").taken() == ("SH", "RA")
    assert state(at, "lesson").taken() == ("SH", "SH")
    assert not at.exception


def test_history_buttons_undo_redo_and_reset_their_own_board() -> None:
    at = run()
    for _ in range(2):
        at.button(key="exercise.move.SH").click().run()
    at.button(key="lesson.move.SH").click().run()
    at.button(key="exercise.undo").click().run()
    assert state(at, "exercise").taken() == ("SH",) and state(at, "exercise").moves == ("SH", "SH")
    at.button(key="exercise.redo").click().run()
    assert state(at, "exercise").taken() == ("SH", "SH")
    at.button(key="exercise.oracle_step").click().run()
    assert state(at, "exercise").taken() == ("SH", "SH", "SH")
    at.button(key="exercise.reset").click().run()
    assert state(at, "exercise").moves == ()
    assert state(at, "lesson").taken() == ("SH",)


def test_a_disabled_move_says_why() -> None:
    at = run()
    left_arc = at.button(key="lesson.move.LA")
    assert left_arc.disabled and left_arc.help and left_arc.help.startswith("Not possible:")


def test_on_a_phone_the_buttons_of_every_board_stand_four_to_a_row() -> None:
    """The move buttons and the controls of each board sit in containers of their own, styled to
    wrap four to a row below 640 px (the browser test looks at it on a phone)."""
    at = run()
    styles = " ".join(h.proto.body for h in at.get("html"))
    for key in ("lesson", "exercise"):
        assert f".st-key-{key}-moves [data-testid='stColumn']" in styles
        assert f".st-key-{key}-controls > div" in styles
    assert "@media (max-width: 640px)" in styles and "calc(25% - 0.5rem)" in styles
    assert "@media (hover: none), (pointer: coarse)" in styles  # no key hints on a touch screen
