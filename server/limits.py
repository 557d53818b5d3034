"""Caps on how much work one learner, and a whole class together, may ask for in a minute.

A shared server answers many tabs at once.  One tab that clicks "Next item" as fast as it can, or
uploads the same large file again and again, must not slow everyone else down, and a class
that starts thirty experiments in the same minute must be told to wait rather than queue hours
of work.  A :class:`RateLimit` counts what was asked for in a sliding window (a minute by default)
per session and in all; a request that would pass either cap is refused with a
:class:`LimitReached` that says how long to wait.

>>> clock = iter([0.0, 1.0, 2.0, 61.5]).__next__
>>> exercises = RateLimit("exercises", per_session=2, in_all=10, clock=clock)
>>> exercises.take("tab-1"); exercises.take("tab-1")
>>> exercises.take("tab-1")
Traceback (most recent call last):
...
server.limits.LimitReached: 2 exercises a minute is the most one person may ask for: wait 58 s.
>>> exercises.take("tab-1")  # a minute after the first, it has left the window

Every cap can be changed for a deployment with an environment variable
``PARSING_LIMIT_<NAME>=<per session>/<in all>``, e.g. ``PARSING_LIMIT_EXERCISES=60/1000``
(read by :mod:`server.settings`, which holds the defaults).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from parsing_core.errors import ParsingCoreError


class LimitReached(ParsingCoreError):
    """More was asked for than a cap allows; the message says which cap and how long to wait."""


@dataclass(frozen=True)
class Caps:
    """How much one session and all sessions together may ask for per ``window_s`` seconds."""

    per_session: float
    in_all: float
    window_s: float = 60.0

    @classmethod
    def parse(cls, raw: str) -> Caps:
        """The caps ``per_session/in_all`` writes (a variable ``PARSING_LIMIT_<NAME>``, read by
        ``server.settings``): ``Caps.parse("60/1000")`` is ``Caps(60.0, 1000.0)``."""
        try:
            session, everyone = (float(part) for part in raw.split("/"))
        except ValueError:
            raise ValueError("write it as <per session>/<in all>, e.g. 60/1000") from None
        return cls(session, everyone)


class RateLimit:
    """A sliding-window count of ``what`` (exercises, jobs, bytes) per session and in all; thread-safe."""

    def __init__(self, what: str, per_session: float, in_all: float, window_s: float = 60.0,
                 unit: Callable[[float], str] = lambda n: f"{n:g}",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.unit, self.clock = what, unit, clock
        self.caps = Caps(per_session, in_all, window_s)
        self._taken: deque[tuple[float, str, float]] = deque()
        self._lock = threading.Lock()

    def take(self, session: str, amount: float = 1.0) -> None:
        """Count ``amount`` for ``session`` now, or raise :class:`LimitReached` and count nothing."""
        with self._lock:
            now = self.clock()
            self._forget_before(now - self.caps.window_s)
            mine = [(t, n) for t, s, n in self._taken if s == session]
            everyone = [(t, n) for t, _, n in self._taken]
            if _used(mine) + amount > self.caps.per_session:
                raise self._refusal(self.caps.per_session, "one person may ask for", mine, amount, now)
            if _used(everyone) + amount > self.caps.in_all:
                raise self._refusal(self.caps.in_all, "everyone together may ask for", everyone, amount, now)
            self._taken.append((now, session, amount))

    def used(self, session: str | None = None) -> float:
        """What ``session`` (or everyone, for None) asked for within the window."""
        with self._lock:
            self._forget_before(self.clock() - self.caps.window_s)
            return _used([(t, n) for t, s, n in self._taken if session is None or s == session])

    def _forget_before(self, start: float) -> None:
        while self._taken and self._taken[0][0] <= start:
            self._taken.popleft()

    def _refusal(self, cap: float, who: str, taken: list[tuple[float, float]], amount: float,
                 now: float) -> LimitReached:
        per = f"{self.unit(cap)} {self.what} a minute is the most {who}"
        if amount > cap:
            return LimitReached(f"{per}, and this alone is {self.unit(amount)}.")
        wait = _wait(taken, cap - amount, now + 0.0, self.caps.window_s)
        return LimitReached(f"{per}: wait {wait} s.")


def _used(taken: list[tuple[float, float]]) -> float:
    return sum(n for _, n in taken)


def _wait(taken: list[tuple[float, float]], room: float, now: float, window_s: float) -> int:
    """Seconds until enough of ``taken`` (oldest first) has left the window to leave ``room``."""
    total = _used(taken)
    for at, amount in taken:
        total -= amount
        if total <= room:
            return max(1, math.ceil(at + window_s - now))
    return math.ceil(window_s)


def megabytes(n: float) -> str:
    """A byte count as megabytes, for messages."""
    return f"{n / 1e6:g} MB"
