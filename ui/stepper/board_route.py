"""The route of the board's quick clicks (``POST /api/board``), which ``serve.py`` adds to the app.

This module is light on purpose: ``serve.py`` imports it before Streamlit's runtime starts, and
the Stepper's code (:mod:`ui.stepper.board_channel`, which applies the click) is imported at the
first click, inside the runtime, like the pages' own code.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ui.stepper import board_address

RERUN = b'{"rerun":true}'
GONE = b'{"gone":true}'
MAX_BODY = 4096  # bytes: a click is a token and a few fields


def route() -> Any:
    """The Starlette route: ``POST /api/board`` with ``{"token": ..., "action": {...}}``; it
    answers the next board (200, JSON, the link in the header ``X-Board-Link``),
    ``{"rerun": true}`` (409: send the click the usual way), ``{"gone": true}`` (410: no
    session of that token here; reload the page from its address) or, past the caps on quick
    clicks a minute (``PARSING_LIMIT_BOARD``, per token and in all), 429 and why."""
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from server.limits import LimitReached

    board_address.set_live(True)

    async def click(request: Request) -> Response:
        asked = parse(await body_of(request))
        if asked is None:
            return Response(b'{"error":"not a click of the board"}', 400, media_type="application/json")
        from ui.stepper.board_channel import OPEN, act

        if asked[0] not in OPEN:  # counted by no cap: made-up tokens cannot use up everyone's
            return Response(GONE, 410, media_type="application/json")
        try:
            clicks().take(asked[0])
        except LimitReached as refusal:
            return Response(json.dumps({"error": str(refusal)}).encode(), 429, media_type="application/json")
        done = await run_in_threadpool(act, *asked)
        if done.gone:
            return Response(GONE, 410, media_type="application/json")
        if done.board is None:
            return Response(RERUN, 409, media_type="application/json")
        return Response(done.board, 200, media_type="application/json",
                        headers={"X-Board-Link": done.link, "Cache-Control": "no-store"})

    return Route(board_address.PATH, click, methods=["POST"])


async def body_of(request: Any) -> bytes:
    """The request's body, read no further than :data:`MAX_BODY` and a chunk (a longer one is
    refused by :func:`parse` without being read whole)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            break
    return body


@cache
def clicks() -> Any:
    """The one count of this server's quick clicks, per session's token and in all
    (:class:`server.limits.RateLimit`; the caps: ``server.settings``, ``PARSING_LIMIT_BOARD``)."""
    from server.limits import RateLimit
    from server.settings import settings

    caps = settings().caps("board")
    return RateLimit("board clicks", caps.per_session, caps.in_all, caps.window_s)


def parse(body: bytes) -> tuple[str, dict[str, Any]] | None:
    """The token and the action of a click's body; None for anything else.

    >>> parse(b'{"token": "abc", "action": {"do": "undo"}}')
    ('abc', {'do': 'undo'})
    >>> parse(b'{"token": 3}') is None, parse(b"x" * 5000) is None, parse(b"[") is None
    (True, True, True)
    """
    if len(body) > MAX_BODY:
        return None
    try:
        asked = json.loads(body)
    except ValueError:
        return None
    if not isinstance(asked, dict) or not isinstance(asked.get("token"), str) \
            or not isinstance(asked.get("action"), dict):
        return None
    return asked["token"], asked["action"]
