"""The board's quick clicks (:mod:`ui.stepper.board_channel`): a click answered without a run of
the page must leave the session exactly where the page's own click would, and draw exactly what
the page would draw; a click that changes more than the board must be sent back to the page.

The session's state is a plain dictionary here (a board reached from outside its page reads and
writes keys, as Streamlit's session state does); the browser's side is in
``tests/browser/test_stepper_browser.py``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qsl

import pytest

from ui.stepper import board_channel as bc
from ui.stepper.board_data import apply_action
from ui.stepper.board_drawing import drawing, parse_key
from ui.stepper.board_state import stamped
from ui.stepper.settings import Choices
from ui.views.state import StepperState
from ui.widgets import compute
from ui.widgets.board import Board
from ui.widgets.checkpoints import ModelRef

CHOICES = Choices("he-sent-her-a-letter", "arc-eager", (), False, "goldberg-nivre", "", False, None,
                  "goldberg-nivre", "first", 1.0, None)
START = StepperState(*CHOICES[:6])


def opened(state: StepperState = START, choices: Choices = CHOICES) -> bc.Entry:
    """A session whose page has just drawn ``state`` and offered quick clicks (what
    :func:`~ui.stepper.board_channel.keep` keeps), its state in a dictionary."""
    board = Board("stepper").on({})
    board.set(state)
    entry = bc.Entry(f"token-{id(board)}", board, choices, page_drawing(state, choices), threading.RLock())
    bc.OPEN[entry.token] = entry
    return entry


def page_drawing(state: StepperState, choices: Choices = CHOICES) -> bc.Drawing:
    """What the page's board fragment draws for ``state``."""
    return drawing(state, compute.trace_of(parse_key(state), state.taken()), choices)


def click(entry: bc.Entry, **action: object) -> bc.Answer:
    """A click made on the board the browser shows (it names that drawing's version)."""
    session, version = entry.board.version()
    return bc.act(entry.token, {**action, "session": session, "on": version})


def test_quick_clicks_change_the_session_as_the_page_s_clicks_and_draw_what_the_page_draws() -> None:
    entry = opened()
    page_state = START  # the same clicks, applied as the page applies them
    actions = [{"do": "move", "move": "SH"}, {"do": "oracle"}, {"do": "oracle"}, {"do": "move", "move": "SH"},
               {"do": "undo"}, {"do": "redo"}, {"do": "jump", "step": 1}, {"do": "hide"}, {"do": "oracle"},
               {"do": "hide"}, {"do": "reset"}]
    for count, action in enumerate(actions, start=2):
        page_oracle = page_drawing(page_state).step.move  # what Oracle step plays on the board drawn
        page_state = apply_action(page_state, action, page_oracle)
        answer = click(entry, **action)
        assert entry.board.get() == page_state, action
        assert entry.board.version()[1] == count  # one new version per click that changed the state
        quick = {"url": "/api/board", "token": entry.token}
        assert answer.board == stamped(page_drawing(page_state).payload, entry.board.version(), quick)
        assert dict(parse_qsl(answer.link)) == page_state.to_query()
    assert page_state == START.choose(*CHOICES[:6])  # reset: back to the start


def test_a_click_that_ends_the_parse_or_changes_more_than_the_board_goes_to_the_page() -> None:
    moves: list[str] = []
    state = START
    while not compute.trace_of(parse_key(state), state.taken()).is_complete:
        state = state.play(page_drawing(state).step.move)
        moves.append(state.taken()[-1])

    before_end = START.play_all(tuple(moves[:-1]))
    entry = opened(before_end)
    assert click(entry, do="oracle").board is None  # the end of a parse shows its panel below the board
    assert entry.board.get() == before_end  # nothing applied: the page applies it
    assert click(entry, do="move", move=moves[-1]).board is None

    at_end = opened(START.play_all(tuple(moves)))
    assert at_end.drawn.panels
    assert click(at_end, do="undo").board is None  # the end's panel must go

    assert click(opened(), do="switch").board is None  # the settings' system picker changes
    with_a_model = CHOICES._replace(model=ModelRef("a run", "/runs/a/model.pt", 0.0))
    entry = opened()
    entry.choices, entry.drawn = with_a_model, entry.drawn._replace(panels=True)  # a model's parse below
    assert click(entry, do="oracle").board is None


def test_a_click_goes_to_the_page_when_the_page_drew_another_state_or_the_session_is_gone() -> None:
    entry = opened()
    entry.board.set(START.play("SH"))  # the page's own click changed the state since its drawing
    assert click(entry, do="oracle").board is None
    assert bc.act("no-such-session", {"do": "oracle"}) == bc.Answer(None, gone=True)
    assert bc.act(opened().token, ["not", "an", "action"]).board is None  # type: ignore[arg-type]

    token = opened().token  # nothing keeps that session: it goes with its state
    gc.collect()
    assert token not in bc.OPEN


def test_a_click_on_an_older_board_changes_nothing_and_gets_the_board_as_it_is() -> None:
    entry = opened()
    first = click(entry, do="move", move="SH")
    late = bc.act(entry.token, {"do": "move", "move": "SH", "session": entry.board.version()[0], "on": 1})
    assert entry.board.get().taken() == ("SH",) and late == first


def test_clicks_on_the_same_board_at_once_make_one_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine clicks on one drawing at once, on three different moves (a script firing clicks, a key
    press and a click): one moves; the others, finding the board taken or newer than their drawing,
    go the usual way or get the new board.  They start together, threads switch every 10 µs and
    drawing a board takes a few ms more here, so without the entry's lock several clicks would
    read the same state, and each set its own move."""
    interval = sys.getswitchinterval()
    monkeypatch.setattr(bc, "drawing", lambda *args: (time.sleep(0.003), drawing(*args))[1])
    entry = opened(START.play("SH"))
    session, version = entry.board.version()
    answers: list[bc.Answer] = []
    together = threading.Barrier(9)

    def click_with_the_others(move: str) -> None:
        together.wait()
        answers.append(bc.act(entry.token, {"do": "move", "move": move, "session": session, "on": version}))

    moves = ["SH", "LA", "RA"] * 3
    threads = [threading.Thread(target=click_with_the_others, args=(move,)) for move in moves]
    sys.setswitchinterval(1e-5)
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    taken = entry.board.get().taken()
    assert len(taken) == 2 and entry.board.version() == (session, version + 1)
    assert {a.board for a in answers} <= {bc.answer(entry).board, None}  # the new board, or the usual way
    assert bc.answer(entry) in answers


def test_a_click_while_the_page_draws_the_board_goes_the_usual_way() -> None:
    entry = opened()
    answers: list[bc.Answer] = []
    with entry.lock:  # the page's run of the board holds it (board_panel.board, board_component.take)
        clicker = threading.Thread(target=lambda: answers.append(click(entry, do="oracle")))
        clicker.start()
        clicker.join()
    assert answers == [bc.Answer(None)] and entry.board.get() == START
    assert click(entry, do="oracle").board is not None  # once it is free


NOT_CLICKS = [b"", b"{", b"[]", b'{"token": "t"}', b'{"token": 1, "action": {}}',
              b'{"token": "t", "action": "undo"}', b'{"token": "t", "action": {}}' + b" " * 5000]  # too long


@pytest.mark.parametrize("body", NOT_CLICKS)
def test_anything_but_a_click_is_refused_before_it_reaches_a_session(body: bytes) -> None:
    from ui.stepper.board_route import parse

    assert parse(body) is None


def post(body: bytes) -> tuple[int, dict[str, str], bytes]:
    """``POST /api/board`` with ``body`` through the route ``serve.py`` adds (called as ASGI)."""
    from starlette.routing import Router

    from ui.stepper import board_address, board_route

    router = Router(routes=[board_route.route()])
    incoming = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    path = board_address.PATH
    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
             "headers": [(b"content-type", b"application/json")], "query_string": b"",
             "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80),
             "client": ("127.0.0.1", 5000), "root_path": ""}
    with ThreadPoolExecutor(1) as thread:  # a loop of its own (a browser test's may run in this one)
        thread.submit(asyncio.run, router(scope, receive, send)).result()
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], headers, body


def test_the_route_answers_the_next_board_or_sends_the_click_to_the_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.stepper import board_address

    monkeypatch.setattr(board_address, "_live", False)  # route() turns it on for the whole process
    entry = opened()
    session, version = entry.board.version()
    click = {"token": entry.token, "action": {"do": "move", "move": "SH", "session": session, "on": version}}
    status, headers, body = post(json.dumps(click).encode())
    assert status == 200 and headers["content-type"] == "application/json"
    assert json.loads(body)["version"] == version + 1 and entry.board.get().taken() == ("SH",)
    assert dict(parse_qsl(headers["x-board-link"])) == entry.board.get().to_query()
    assert headers["cache-control"] == "no-store"
    assert post(json.dumps({**click, "token": "gone"}).encode())[:1] == (410,)
    assert post(json.dumps({**click, "action": {"do": "switch"}}).encode())[:1] == (409,)
    assert post(b"not json")[0] == 400
    assert board_address.live()


def test_past_the_cap_a_quick_click_is_refused_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from server.limits import RateLimit
    from ui.stepper import board_address, board_route

    monkeypatch.setattr(board_address, "_live", False)
    monkeypatch.setattr(board_route, "clicks", lambda: cap)
    cap = RateLimit("board clicks", 2, 100)
    entry = opened()
    for expected in (200, 200, 429):
        session, version = entry.board.version()
        click = {"token": entry.token, "action": {"do": "oracle", "session": session, "on": version}}
        status, _, body = post(json.dumps(click).encode())
        assert status == expected
    assert "2 board clicks a minute is the most one person may ask for" in json.loads(body)["error"]
    assert len(entry.board.get().taken()) == 2


def test_made_up_tokens_and_long_bodies_use_up_no_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A script posting clicks with made-up tokens, or huge bodies, is answered before any count:
    the caps in all stay for the class's own clicks."""
    from server.limits import RateLimit
    from ui.stepper import board_address, board_route

    monkeypatch.setattr(board_address, "_live", False)
    cap = RateLimit("board clicks", 5, 2)
    monkeypatch.setattr(board_route, "clicks", lambda: cap)
    for i in range(5):
        assert post(json.dumps({"token": f"made-up-{i}", "action": {"do": "oracle"}}).encode())[0] == 410
    assert post(b'{"token": "t", "action": {}}' + b" " * 100_000)[0] == 400
    entry = opened()
    session, version = entry.board.version()
    click = {"token": entry.token, "action": {"do": "oracle", "session": session, "on": version}}
    assert post(json.dumps(click).encode())[0] == 200 and cap.used() == 1
