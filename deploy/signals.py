"""How a long-running command of ``deploy`` stops: SIGTERM ends it as Ctrl-C does.

The launcher (:mod:`deploy.launch`) and the Ray head (:mod:`deploy.ray_head`) both clean up in a
``try``/``finally`` (replicas, nginx, the head); a SIGTERM from a service manager must take the
same way out, so it is turned into :class:`KeyboardInterrupt`.
"""

from __future__ import annotations

import signal
from types import FrameType


def stop_on_sigterm() -> None:
    """SIGTERM ends the command as Ctrl-C does, through its clean-up."""
    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)
