"""``benchmarks.suite``: the CPU of the processes a command starts, by kind, read from ``/proc``."""

from __future__ import annotations

import sys

import pytest

from benchmarks.suite import by_kind, measure, summary

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

SPIN = "import time\nend = time.process_time() + 1.5\nwhile time.process_time() < end: pass"


def test_a_busy_child_is_seen_with_its_cpu_and_its_kind() -> None:
    """A command that starts a Python child spinning for 1.5 CPU-s: the child is found, under its
    kind, with about that CPU; the command's exit status and wall time are kept.  (The machine's
    other processes are measured too: in the full suite, other tests' Python runs beside it.)"""
    parent = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {SPIN!r}])"
    run = measure([sys.executable, "-c", parent], every=0.2)
    assert run.exit_code == 0 and run.wall_s >= 1.5
    [child] = [command for command in run.by_command if command.endswith(SPIN)]
    assert 1.2 <= run.by_command[child] <= 2.5, run.by_command[child]
    assert run.seconds.get("other Python", 0.0) >= 1.2, run.seconds
    assert run.counts["other Python"] >= 2  # the command and its child
    assert run.busy_s >= 1.2
    assert "| other Python |" in by_kind(run) and "exit status | 0" in summary(run)


def test_a_failing_command_keeps_its_exit_status() -> None:
    assert measure([sys.executable, "-c", "raise SystemExit(3)"], every=0.2).exit_code == 3
