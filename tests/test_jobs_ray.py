"""Jobs on a Ray cluster (``PARSING_JOBS_BACKEND=ray``), on a head of two CPUs started here on
loopback, one for the whole module: two runs take the CPUs and the next ones wait, queued, each
knowing how many are ahead of it; metrics come back live from the cluster; Stop works within
the local backend's 15 s; the queue moves on and a queued run finishes with its test score.

Without Ray the cluster's tests are skipped, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from ray_head import QUIET, ray_head
from streamlit.testing.v1 import AppTest

from parsing_core.model import DataSpec, EpochEvent, ModelConfig, TestEvent, TrainConfig, TrainSpec
from server.jobs import JobBoard, JobError, TrainingJob, backend_named
from tests.needs import unavailable

ROOT = Path(__file__).resolve().parents[1]
TINY = TrainSpec(DataSpec(synthetic=40), "arc-hybrid", TrainConfig(epochs=1, seed=1),
                 ModelConfig(word_dim=16, lstm_dim=16, lstm_layers=1, mlp_dim=16))
LONG = replace(TINY, train=replace(TINY.train, epochs=500))  # runs until stopped
CUDA = replace(TINY, train=replace(TINY.train, device="cuda"))


def wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.2)


def need_ray() -> None:
    try:
        import ray.job_submission  # noqa: F401
    except ImportError:
        unavailable("Ray is not installed (pip install -r requirements-ray.txt)")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a Ray head of two CPUs, up for the whole module."""
    need_ray()
    with pytest.MonkeyPatch.context() as env:
        for name, value in QUIET.items():
            env.setenv(name, value)
        with ray_head(cpus=2) as address:
            yield address


def seen_elsewhere(folder: Path) -> str:
    """The job's status and place in the queue, as another app process sees it from the folder."""
    code = ("import sys; from pathlib import Path; from server.jobs import TrainingJob; "
            "job = TrainingJob(Path(sys.argv[1])); print(job.status(), job.ahead())")
    return subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, cwd=ROOT,
                          check=True, timeout=60, env={**os.environ, **QUIET}).stdout.strip()


def test_runs_wait_for_the_cluster_report_live_stop_and_finish(cluster: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    ray = backend_named("ray", cluster)
    board = JobBoard(tmp_path / "train", limit=2, backend=ray)
    first, second = board.start("first", LONG), board.start("second", LONG)
    wait_for(lambda: [first.status(), second.status()] == ["running", "running"])
    third, fourth = board.start("third", TINY), board.start("fourth", TINY)
    assert [third.status(), fourth.status()] == ["queued", "queued"]  # both CPUs are taken
    assert (third.ahead(), fourth.ahead(), first.ahead()) == (0, 1, None)
    with pytest.raises(JobError, match="2 runs are already waiting for the cluster"):
        board.start("fifth", TINY)
    assert seen_elsewhere(fourth.folder) == "queued 1"  # another app process, holding only the folder
    page = train_page(board, cluster, monkeypatch)
    said = [p.text.rpartition(" · ")[2] for p in page.get("progress")]  # a bar per live run
    assert len(said) == 4 and {"queued, 0 ahead", "queued, 1 ahead"} <= set(said)
    assert page.button(key="train.start").disabled  # two runs wait already: the board's cap
    gpu = JobBoard(tmp_path / "gpu", backend=ray).start("gpu", CUDA)
    assert gpu.status() == "queued" and gpu.ahead() == 2

    wait_for(lambda: any(isinstance(e, EpochEvent) for e in first.events()))
    assert not first.log.exists()  # the epoch came from the cluster, not from a file
    began = time.monotonic()
    TrainingJob(first.folder).stop()
    assert first.status() == "stopped" and time.monotonic() - began < 15
    assert first.checkpoint.exists() and any(isinstance(e, EpochEvent) for e in first.events())
    second.stop()
    wait_for(lambda: ended(board, third, fourth), 90)

    assert [third.status(), fourth.status()] == ["finished", "finished"], third.failure() + fourth.failure()
    *_, epoch, test = third.events()
    assert isinstance(epoch, EpochEvent) and isinstance(test, TestEvent) and 0 <= test.test_uas <= 1
    assert third.checkpoint.exists() and "saved" in third.failure()  # what it printed is kept too
    assert "Running entrypoint" not in (third.folder / "stderr.txt").read_text()  # Ray's lines are not
    time.sleep(1)
    assert gpu.status() == "queued" and gpu.ahead() == 0  # the CPUs are free; no GPU is
    gpu.stop()
    assert gpu.status() == "stopped" and gpu.ahead() is None
    forget_the_cluster(third)
    assert TrainingJob(third.folder).status() == "finished" and third.events()[-1] == test


def train_page(board: JobBoard, cluster: str, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The Train page on the board's folder, with new runs going to the cluster."""
    monkeypatch.setenv("PARSING_JOBS_DIR", str(board.root))
    monkeypatch.setenv("PARSING_JOBS_BACKEND", "ray")
    monkeypatch.setenv("RAY_ADDRESS", cluster)
    page = AppTest.from_file("../pages/train.py", default_timeout=60).run()
    assert not page.exception
    return page


def ended(board: JobBoard, *jobs: TrainingJob) -> bool:
    """Have ``jobs`` ended?  (Asking, make sure that no more than two ever run at once.)"""
    assert len(board.running()) <= 2
    return all(job.status() not in ("queued", "running") for job in jobs)


def forget_the_cluster(job: TrainingJob) -> None:
    """Point the job's folder at an address where no cluster answers."""
    ray_json = job.folder / "ray.json"
    ray_json.write_text(json.dumps({**json.loads(ray_json.read_text()), "address": "http://127.0.0.1:9"}))


def test_choosing_ray_without_ray_says_how_to_install_it(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed: importing it fails
    monkeypatch.setitem(sys.modules, "ray.job_submission", None)
    monkeypatch.setenv("PARSING_JOBS_BACKEND", "ray")
    monkeypatch.setenv("RAY_ADDRESS", "http://127.0.0.1:8265")
    with pytest.raises(JobError, match=re.escape("pip install -r requirements-ray.txt")):
        JobBoard(tmp_path).start("x", TINY)
    assert JobBoard(tmp_path).jobs() == []
    code = "import sys, server.jobs; print('ray' in sys.modules)"
    imports = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                             check=True).stdout
    assert imports.strip() == "False"  # the library imports Ray only when it talks to a cluster
