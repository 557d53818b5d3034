"""The move board: one button per move, history (undo, redo, reset, jump), the oracle's step, autoplay.

Any page can embed a board: it names a :class:`Board` (a key of its own in the session) and the
board's widgets change *that* state and no other, so a lesson, an exercise and the stepper each
keep their own moves.  The state is a :class:`~ui.views.state.StepperState` (sentence, system,
oracles, moves, cursor: what a stepper link holds).  Buttons change it in callbacks, which run
before the page script, so one click costs one rerun; a change is a function from state to
state (:meth:`Board.change`), never a method named by a string.

Every move button has a keyboard shortcut; Streamlit reserves R and C, so RIGHT-ARC is A.  Only
one board on a page should take the shortcuts (``shortcuts=False`` for the others).
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

import parsing_core as pc
from ui.views.labels import label_choices
from ui.views.names import named_reason
from ui.views.oracle_view import TIE_BREAKS, Verdict, move_cost, pick
from ui.views.state import StepperState
from ui.widgets.held import hold

SHORTCUTS = {"SH": "S", "LA": "L", "RA": "A", "RE": "E", "SW": "W"}
UNDO, REDO, ORACLE_STEP = "U", "Y", "O"
SPEEDS = (0.25, 0.5, 1.0, 2.0, 3.0)  # seconds per move

Change = Callable[[StepperState], StepperState]


class Store(Protocol):
    """What a board keeps its state in: ``st.session_state``, or a session's state reached from
    outside its page (Streamlit's ``SafeSessionState``), or a plain dictionary in a test."""

    def __getitem__(self, key: str) -> Any: ...
    def __setitem__(self, key: str, value: Any) -> None: ...
    def __contains__(self, key: str) -> bool: ...


# -- the board's state in the session ------------------------------------------------------------
@dataclass(frozen=True)
class Board:
    """Where one board keeps its state between reruns: ``st.session_state["<key>.state"]``.

    ``key`` also prefixes the board's widget keys (``<key>.move.SH``, ``<key>.undo``), so two
    boards on one page never share a widget.  ``store`` is the session's state when the board is
    changed from outside a run of the page (the Stepper's quick clicks,
    :mod:`ui.stepper.board_channel`): any object that reads and writes keys like
    ``st.session_state`` does; ``None`` (the default) is the running page's own.
    """

    key: str
    store: Store | None = field(default=None, compare=False, repr=False)

    @property
    def state_key(self) -> str:
        return f"{self.key}.state"

    def on(self, store: Store) -> Board:
        """The same board, kept in ``store`` (a session's state reached from outside its page)."""
        return replace(self, store=store)

    def _store(self) -> Store:
        return st.session_state if self.store is None else self.store

    def _read(self, name: str, default: Any = None) -> Any:
        store = self._store()
        return store[name] if name in store else default

    def started(self) -> bool:
        return self.state_key in self._store()

    def start(self, state: StepperState) -> StepperState:
        """The board's state, set to ``state`` if the board has none yet."""
        if not self.started():
            self.set(state)
        return self.get()

    def get(self) -> StepperState:
        return self._store()[self.state_key]

    def set(self, state: StepperState) -> None:
        store = self._store()
        if self._read(self.state_key) != state:
            session, count = self.version()
            store[f"{self.key}.version"] = (session or uuid.uuid4().hex[:12], count + 1)
        store[self.state_key] = state

    def version(self) -> tuple[str, int]:
        """Which state the board holds: the session's own id and a count of the changes in it.  A
        drawing of the board carries it, so a browser handed an older drawing of the same session
        after a newer one keeps the newer; a session rebuilt elsewhere (a class server's replica
        taking over a tab) has another id, and its first drawing is taken whatever its count."""
        return self._read(f"{self.key}.version", ("", 0))

    def change(self, how: Change) -> None:
        """Apply ``how`` to the board's state (what every button's callback does)."""
        self.set(how(self.get()))

    # autoplay: whether it is on, and when it last moved
    def playing(self) -> bool:
        return bool(st.session_state.get(f"{self.key}.playing"))

    def set_playing(self, on: bool) -> None:
        st.session_state[f"{self.key}.playing"] = on
        self.mark_tick()

    def last_tick(self) -> float:
        return float(st.session_state.get(f"{self.key}.last_tick", 0.0))

    def mark_tick(self) -> None:
        st.session_state[f"{self.key}.last_tick"] = time.monotonic()


def play(move: str) -> Change:
    return lambda state: state.play(move)


def play_all(moves: tuple[str, ...]) -> Change:
    return lambda state: state.play_all(moves)


def undo(state: StepperState) -> StepperState:
    return state.undo()


def redo(state: StepperState) -> StepperState:
    return state.redo()


def reset(state: StepperState) -> StepperState:
    return state.reset()


# -- moves ------------------------------------------------------------------------------------
def play_labelled(board: Board, kind: str, label_key: str | None) -> None:
    """Callback of a move button: the move, with the label picked beside it if there is one."""
    board.change(play(kind if label_key is None else f"{kind}:{st.session_state[label_key]}"))


def move_buttons(board: Board, trace: pc.Trace, verdict: Verdict | None = None,
                 shortcuts: bool = True) -> None:
    """One button per move of the system; an illegal one is disabled and says why (hover).

    In a labelled system an arc move gets a label picker (gold label first) and, when an
    oracle answered (``verdict``), the cost of the move with the label picked.
    """
    system, c = trace.system, trace.final
    reasons = system.reasons(c)
    st.html(phone_grid_css(board.key))
    moves = st.container(key=f"{board.key}-moves")
    for column, (t, reason) in zip(moves.columns(len(reasons)), reasons.items()):
        with column:
            arc = system.arc_of(c, t) if reason is None else None
            labelled = system.labelled and arc is not None
            label_key = f"{board.key}.label.{t.kind}.{len(trace.transitions)}" if labelled else None
            st.button(f"{t.kind} · {t.name}", key=f"{board.key}.move.{t.kind}", disabled=reason is not None,
                      help=f"Not possible: {named_reason(reason, trace.sentence)}" if reason else None,
                      shortcut=SHORTCUTS[t.kind] if shortcuts else None,
                      on_click=play_labelled, args=(board, t.kind, label_key), width="stretch")
            if label_key and arc:
                label_picker(trace, t, arc, verdict, label_key)


def phone_grid_css(key: str) -> str:
    """On a phone the board's buttons stand four to a row (not one per full-width row, which put
    eight buttons between a question and its board), and a touch screen shows no key hints."""
    moves, controls = f".st-key-{key}-moves", f".st-key-{key}-controls"
    return ("<style>"
            + phone_row_rules(f"{moves} [data-testid='stHorizontalBlock'], {controls}",
                              f"{moves} [data-testid='stColumn'], {controls} > div", 4)
            + f"@media (hover: none), (pointer: coarse) {{ {moves} kbd, {controls} kbd "
            + "{ display: none; } }</style>")


def phone_columns_css(key: str, per_row: int) -> str:
    """On a phone the ``st.columns`` inside the container ``key`` stay ``per_row`` to a row (Streamlit
    stacks them, one full-width row each), their buttons' names wrapping."""
    return ("<style>" + phone_row_rules(f".st-key-{key} [data-testid='stHorizontalBlock']",
                                        f".st-key-{key} [data-testid='stColumn']", per_row) + "</style>")


def phone_row_rules(rows: str, cells: str, per_row: int) -> str:
    """CSS for screens of a phone's width: the ``cells`` of each of the ``rows`` ``per_row`` to a
    row, each button's name on as many lines as it needs ("LA · LEFT-ARC", never "LA · LEF…")."""
    share = f"calc({100 / per_row:.4g}% - 0.5rem)"
    return ("@media (max-width: 640px) {"
            f"{rows} {{ flex-wrap: wrap !important; gap: 0.5rem !important; }}"
            f"{cells} {{ flex: 1 1 {share} !important; min-width: {share} !important; }}"
            f":is({cells}) button {{ padding: 0.25rem; min-height: 2.5rem; }}"
            f":is({cells}) button p "
            "{ white-space: normal !important; text-overflow: clip !important; line-height: 1.2; } }")


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
def history_buttons(board: Board, suggestion: str | None, seconds: float, shortcuts: bool = True,
                    player: str = "the oracle") -> DeltaGenerator:
    """Undo, redo, reset, one step of the oracle, autoplay (``suggestion`` is the move ``player``
    would make next; ``seconds`` per move while playing), in one row that wraps into a grid of
    four on a phone; returns the row, for a page to add a control of its own to it."""
    state = board.get()
    keys: Callable[[str], str | None] = (lambda k: k) if shortcuts else (lambda k: None)
    row = st.container(horizontal=True, gap="small", key=f"{board.key}-controls")
    with row:
        st.button("↶ Undo", key=f"{board.key}.undo", disabled=state.cursor == 0, shortcut=keys(UNDO),
                  on_click=board.change, args=(undo,), width="stretch")
        st.button("↷ Redo", key=f"{board.key}.redo", disabled=not state.undone(), shortcut=keys(REDO),
                  on_click=board.change, args=(redo,), width="stretch")
        reset_button(board)
        oracle_step(board, suggestion, seconds, shortcuts, player)
    return row


def reset_button(board: Board) -> None:
    """Back to the sentence's first configuration, every move forgotten."""
    st.button("⟲ Reset", key=f"{board.key}.reset", disabled=not board.get().moves,
              on_click=board.change, args=(reset,), width="stretch")


def oracle_step(board: Board, suggestion: str | None, seconds: float, shortcuts: bool = True,
                player: str = "the oracle") -> None:
    """One move of ``player`` (``suggestion``), and Play / Stop to let it make every move."""
    st.button("Oracle step", key=f"{board.key}.oracle_step", disabled=suggestion is None,
              shortcut=ORACLE_STEP if shortcuts else None, on_click=board.change,
              args=(play(suggestion or ""),), width="stretch",
              help=f"Play {player}'s move: {suggestion}" if suggestion else None)
    autoplay(board, suggestion, seconds, player)


# -- autoplay ---------------------------------------------------------------------------------
FOLLOW = ""  # the autoplay choice that follows the table's oracle


def autoplay_settings(key: str, oracles: list[str], follow: str) -> tuple[str, str, float]:
    """Which oracle Oracle step and Play use, how it breaks ties, how fast; returns (oracle,
    tie-break, seconds per move).

    The first choice *is* ``follow`` (the oracle whose costs the table shows), so the table and
    the moves played never drift apart; another oracle is picked only on purpose.
    """
    choice_key = f"{key}.autoplay.oracle"
    choices = [FOLLOW, *[o for o in oracles if o != follow]]
    hold(choice_key, FOLLOW, choices)
    choice = st.selectbox("Oracle step and Play use", choices, key=choice_key,
                          format_func=lambda o: f"same as the table: {follow}" if o == FOLLOW else o)
    rule = st.selectbox("Tie-break between optimal moves", list(TIE_BREAKS), key=f"{key}.autoplay.tie",
                        format_func=TIE_BREAKS.__getitem__)
    seconds = st.select_slider("Seconds per move", SPEEDS, value=1.0, key=f"{key}.autoplay.speed")
    return follow if choice == FOLLOW else choice, rule, float(seconds)


def suggested_move(verdict: Verdict, rule: str, step: int) -> str | None:
    """The move autoplay makes next (labelled as the gold tree says), or None if there is none."""
    t = pick(verdict.optimal, rule, step)
    return None if t is None else str(verdict.gold_moves.get(t, t))


def autoplay(board: Board, suggestion: str | None, seconds: float, player: str = "the oracle") -> None:
    """Play / Stop; while playing, a fragment makes one move every ``seconds`` until the parse ends.

    ``suggestion`` is the move to make next; the fragment reruns on its own timer, so it checks
    that the moves are still the ones ``suggestion`` was made for before it plays.
    """
    if suggestion is None:
        st.session_state[f"{board.key}.playing"] = False  # the parse is over (or no oracle can play)
    if board.playing():
        st.button("⏹ Stop", key=f"{board.key}.stop", on_click=board.set_playing, args=(False,),
                  type="primary", width="stretch")
        st.fragment(run_every=seconds)(tick)(board, suggestion, board.get().taken(), seconds)
    else:
        st.button("▶ Play", key=f"{board.key}.play", on_click=board.set_playing, args=(True,),
                  disabled=suggestion is None, width="stretch",
                  help=f"Let {player} make one move after another")


def tick(board: Board, move: str | None, after: tuple[str, ...], seconds: float) -> None:
    """Play ``move`` if the moves taken are still ``after`` and no move was made in the last
    ``seconds`` (in the full run that follows a move, the fragment runs too, and must wait)."""
    if move is None or board.get().taken() != after:
        return
    if time.monotonic() - board.last_tick() < 0.8 * seconds:
        return
    board.mark_tick()
    board.change(play(move))
    st.rerun()
