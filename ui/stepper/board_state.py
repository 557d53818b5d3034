"""The stepper's board for one state, from source data: computed once and shared by every session.

:func:`board_bytes` is what a click costs the server: the verdicts, the best completion, the
picture and the history come from :mod:`ui.widgets.compute`'s caches, and the board's data
(:func:`ui.stepper.board_data.board_data`, a few pandas tables turned into lists of strings) is
cached here by the same source data, so a class clicking through the same sentence, or a learner
stepping back to a configuration seen before, costs only the lookup.  The data is shared, not
copied: nobody changes it (the component only serializes it).  A board with a model's scores
beside the costs depends on the model too, and is computed afresh (:func:`inputs_of`).

The component is sent the data as JSON text (UTF-8 bytes, :func:`encoded`), encoded once per
board and shared like the data: handed a dictionary, Streamlit would look through it for data
frames and write it out twice (once to send, once, sorted, to name the element) at every click.
"""

from __future__ import annotations

import json
from functools import lru_cache

from parsing_core.model import MoveScore
from ui.stepper.board_data import Data, Inputs, OracleStep, Rules, board_data
from ui.views.mistakes import with_costs
from ui.widgets import compute
from ui.widgets.picture import PRESENTER_SCALE


def inputs_of(parse: compute.Parse, moves: compute.Moves, cursor: int, oracles: tuple[str, str],
              hidden: bool, presenter: bool, scores: list[MoveScore] | None = None) -> Inputs:
    """What the board shows after ``moves[:cursor]`` (``oracles``: the table's and a second one, or "")."""
    taken, oracle, scale = moves[:cursor], oracles[0], PRESENTER_SCALE if presenter else 1.0
    gold = compute.sentence_of(parse.sentence).has_gold
    reviews = compute.reviews_of(parse, moves, oracle) if gold else []
    history = compute.history_of(parse, moves)
    if reviews and not hidden:
        history = with_costs(history, reviews)
    return Inputs(trace=compute.trace_of(parse, taken),
                  verdicts=[compute.verdict_of(parse, taken, name) for name in oracles if name],
                  reviews=reviews, done=None if hidden else compute.completion_of(parse, taken, oracle),
                  scores=scores,
                  picture=compute.arc_svg_of(parse, taken, oracle, scale, hidden),
                  arcs=set(compute.drawn(parse, taken, oracle, hidden).kinds.values()),
                  history=history, cursor=cursor, hidden=hidden, presenter=presenter,
                  unbuildable=compute.unbuildable_of(parse), rules=rules_of(parse, oracle), oracle=oracle)


@lru_cache(maxsize=64)
def rules_of(parse: compute.Parse, oracle: str) -> Rules:
    """The system's rules as plain text, read once per system and oracle."""
    return Rules.of(compute.rules_of(parse, oracle))


@lru_cache(maxsize=512)
def board_of(parse: compute.Parse, moves: compute.Moves, cursor: int, oracles: tuple[str, str],
             hidden: bool, presenter: bool) -> Data:
    """The board's data (no model loaded), cached by its source data."""
    return board_data(inputs_of(parse, moves, cursor, oracles, hidden, presenter))


def encoded(data: Data, step: OracleStep) -> bytes:
    """The board's data with the oracle's step, as the component receives it (JSON, UTF-8)."""
    return json.dumps({**data, "oracle": step.data()}, ensure_ascii=False, separators=(",", ":")).encode()


def stamped(data: bytes, version: tuple[str, int], quick: dict[str, str] | None = None) -> bytes:
    """The board's JSON ``data`` with the version of the state it draws (:meth:`Board.version
    <ui.widgets.board.Board.version>`: ``"session"`` and ``"version"``, first) and, where the
    server answers clicks the quick way (:mod:`ui.stepper.board_channel`), where to send them.

    Streamlit hands the component its data asynchronously, and a hand-over may arrive after a
    later one (the board would draw a move, then the board before it again, with the move still
    taken on the server); the browser keeps the newest version of a session it has drawn.  The
    cached bytes are not decoded: the keys go in after the opening brace.

    >>> stamped(b'{"moves":[]}', ("5f0c", 7))
    b'{"session":"5f0c","version":7,"moves":[]}'
    >>> stamped(b'{"moves":[]}', ("5f0c", 7), {"url": "/api/board", "token": "k"})
    b'{"session":"5f0c","version":7,"quick":{"url":"/api/board","token":"k"},"moves":[]}'

    A state put in the session without :meth:`Board.set <ui.widgets.board.Board.set>` (as a test
    may) has no id and count 0: ``stamped(data, ("", 0))``.
    """
    session, count = version
    head = b'{"session":%s,"version":%d,' % (json.dumps(session).encode(), count)
    if quick:
        head += b'"quick":%s,' % json.dumps(quick, separators=(",", ":")).encode()
    return head + data[1:]


@lru_cache(maxsize=512)
def board_bytes(parse: compute.Parse, moves: compute.Moves, cursor: int, oracles: tuple[str, str],
                hidden: bool, presenter: bool, step: OracleStep) -> bytes:
    """What the component is sent (no model loaded), cached by its source data and the oracle's step."""
    return encoded(board_of(parse, moves, cursor, oracles, hidden, presenter), step)
