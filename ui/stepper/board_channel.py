"""The board's quick clicks: a click answered over plain HTTP, with no run of the page.

A click on the Stepper's board comes back to Python as the component's trigger value, and
Streamlit reruns the board's fragment.  The server's part of that is small (a few ms), but the
browser takes the run through its whole machinery (the app's status, the page list, the element
tree) although only the board's data changed: most of a click's main-thread time on a laptop
(``benchmarks/click_floor.py``).

When the server runs ``serve.py`` (the app with one more route,
:func:`ui.stepper.board_route.route`), a click goes
instead as one ``fetch`` to ``/api/board``: the server applies it to the session's board state,
computes the next board (:func:`ui.stepper.board_drawing.drawing`, what the fragment would
draw) and answers its data; the browser draws it and writes the new link into the address bar
itself, so Back and Forward still walk the moves.  The state stays in the session, where the
page's next run finds it.

Only a click that changes nothing but the board goes this way.  Where anything else on the page
would change (the end of a parse and its panel, Nederhof's scores below the board, a model's
parse, the note's "Switch to"), the answer is "rerun" (409), and the browser sends the click
the usual way: the page then runs as it always did.  So does a click to a server without the
route (``streamlit run app.py``, a test), or one that fails.

A session's board is reached by a secret token that only its own drawing carries; the server
keeps the tokens of open sessions in a weak registry (a closed session's entry goes with it).
While the page draws the board (:func:`held`), or another quick click of the same tab is being
applied, a quick click is sent the usual way rather than wait: the two never change the state at
once, and a script firing clicks holds at most one of the server's threads.
"""

from __future__ import annotations

import logging
import secrets
import threading
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

import parsing_core as pc
from ui.stepper import board_address
from ui.stepper.board_data import apply_action, made_on_an_older_board
from ui.stepper.board_drawing import Drawing, drawing, parse_key
from ui.stepper.board_state import stamped
from ui.stepper.settings import Choices
from ui.widgets import compute
from ui.widgets.board import Board

ENTRY = "stepper.quick"  # the session's entry, in its own state


@dataclass(eq=False)
class Entry:
    """One session's board as it was last drawn, by the page or by a quick click: where its state
    is kept, the settings it is drawn under, and what was drawn (its "Oracle step" move, its
    "Switch to", whether panels show), with the token that reaches it from outside the page."""

    token: str
    board: Board
    choices: Choices
    drawn: Drawing
    lock: threading.RLock

    @property
    def quick(self) -> dict[str, str]:
        """What the board's data carries to click the quick way: the route and the token."""
        return {"url": board_address.PATH, "token": self.token}


OPEN: weakref.WeakValueDictionary[str, Entry] = weakref.WeakValueDictionary()


class OutsideARun(logging.Filter):
    """Streamlit warns ("missing ScriptRunContext") at every write to a session's state made
    outside a run of its page; a quick click makes two on purpose, and a class would fill the
    server's log with them.  Only the warnings of a thread applying a quick click are dropped."""

    applying = threading.local()

    def filter(self, record: logging.LogRecord) -> bool:
        return not (getattr(self.applying, "on", False) and "missing ScriptRunContext" in record.getMessage())


logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(OutsideARun())


@contextmanager
def applying() -> Iterator[None]:
    """While a quick click changes a session's state (this thread only)."""
    OutsideARun.applying.on = True
    try:
        yield
    finally:
        OutsideARun.applying.on = False


def entry_of(board: Board) -> Entry | None:
    entry = st.session_state.get(ENTRY)
    return entry if isinstance(entry, Entry) and entry.board.key == board.key else None


def held(board: Board) -> Any:
    """A context in which no quick click changes ``board``'s state (the page reads and draws it)."""
    entry = entry_of(board)
    return entry.lock if entry is not None else nullcontext()


def shown(board: Board) -> tuple[str | None, str | None]:
    """The "Oracle step" move and the "Switch to" system of the board the browser shows (the last
    drawn, by the page or a quick click); none where no drawing of the state the session holds
    was kept."""
    entry = entry_of(board)
    if entry is not None and entry.drawn.state == board.get():
        return entry.drawn.step.move, entry.drawn.switch_to
    return None, None


def keep(board: Board, choices: Choices, drawn: Drawing) -> dict[str, str] | None:
    """Keep what the page drew of ``board`` (:func:`shown` reads it, a quick click starts from
    it); what the board's data must carry to be clicked the quick way (the address and the
    session's token), or None when this server has no quick route."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    entry = entry_of(board)
    if entry is None:
        entry = Entry(secrets.token_urlsafe(18), board, choices, drawn, threading.RLock())
        st.session_state[ENTRY] = entry
    entry.board = board.on(ctx.session_state)  # the session's state, reachable from another thread
    entry.choices, entry.drawn = choices, drawn
    if not board_address.live():
        return None
    OPEN[entry.token] = entry
    return entry.quick


# -- a click ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Answer:
    """What a quick click gets back: the next board's data (JSON bytes, stamped) and the link of
    its state, or ``board`` None when the page must run; ``gone`` when this server holds no
    session of that token (it restarted, or the tab's replica died and another took the tab)."""

    board: bytes | None
    link: str = ""
    gone: bool = False


def act(token: str, action: object) -> Answer:
    """Apply a click (``action``, as the board sends it) to the board of the session ``token``
    names, and draw the next board; :class:`Answer` with no board when the page must run."""
    entry = OPEN.get(token)
    if entry is None:
        return Answer(None, gone=True)
    if not isinstance(action, Mapping) or action.get("do") == "switch":
        return Answer(None)
    if not entry.lock.acquire(blocking=False):  # the page draws this board, or another click is on it
        return Answer(None)
    try:
        return apply(entry, action)
    finally:
        entry.lock.release()


def apply(entry: Entry, action: Mapping[str, object]) -> Answer:
    """:func:`act` on a board whose lock this thread holds."""
    board, last = entry.board, entry.drawn
    state = board.get()
    if last.state != state or last.panels:  # the page drew something else since, or more than the board
        return Answer(None)
    if made_on_an_older_board(action, board.version()):
        return answer(entry)  # a click on a board the learner no longer sees: the board as it is
    after = apply_action(state, action, last.step.move)
    if after == state:
        return answer(entry)
    try:
        trace = compute.trace_of(parse_key(after), after.taken())
    except pc.ParsingCoreError:  # let the page say what is wrong
        return Answer(None)
    drawn = drawing(after, trace, entry.choices)
    if drawn.panels:
        return Answer(None)
    with applying():
        board.set(after)
    entry.drawn = drawn
    return answer(entry)


def answer(entry: Entry) -> Answer:
    """The board the entry holds, stamped with its version and the quick route, and its link."""
    return Answer(stamped(entry.drawn.payload, entry.board.version(), entry.quick),
                  urlencode(entry.drawn.state.to_query()))
