"""Where the board's quick clicks go (``POST /api/board``), and whether this server answers there.

Apart from :mod:`ui.stepper.board_route` (which makes the route) and
:mod:`ui.stepper.board_channel` (which applies a click and offers the route to the browser), so
that neither imports the other's way: the route reaches the channel only at a click.
"""

from __future__ import annotations

PATH = "/api/board"
_live = False  # whether this server answers PATH


def live() -> bool:
    """Whether this server answers quick clicks (``serve.py`` made the route)."""
    return _live


def set_live(on: bool) -> None:
    global _live
    _live = on
