"""Concurrent writers lose nothing: tabs of one learner and learners at once, in threads and processes.

Threads share one store (as a page's cached store is shared by its sessions) or hold stores of
their own on the same database; processes open the same fresh database at once (so they also race
to migrate it, and to register the same nickname), then all write together.  Every answer and hint
written must be found afterwards, each once.  Each test runs on a SQLite file and on PostgreSQL.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from server.progress import database, open_store

ROOT = Path(__file__).resolve().parent.parent
SKILL = "next-move/arc-standard"
PER_WRITER = 25
# How long a SQLite writer here may wait for the write lock.  A page waits BUSY_TIMEOUT_S (5 s) and
# then says progress is not saved; here hundreds of writes start at the same instant, and on a
# machine busy with other work a writer can queue behind them for longer than that.  What these
# tests check is that no write is lost or counted twice, not how long the queue is.
PATIENT_S = 60.0


@pytest.fixture(autouse=True)
def patient_writers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(database, "BUSY_TIMEOUT_S", PATIENT_S)


def write_answers(store, learner, tag: str, start: threading.Barrier) -> None:
    start.wait()
    for k in range(PER_WRITER):
        store.record_hint(learner, f"{tag}-{k}", SKILL, rung=1)
        store.record_answer(learner, f"{tag}-{k}", SKILL, correct=k % 2 == 0, answer={"move": "SH", "k": k})


def test_threads_writing_at_once_lose_no_answer(database_url):
    shared, own = open_store(database_url), open_store(database_url)  # the second: an engine of its own
    ana = shared.register("ana", "C1")
    others = [shared.register(f"learner{k}", "C1") for k in range(4)]
    writers = [(shared if k % 2 else own, ana, f"tab{k}") for k in range(4)]  # four tabs of ana
    writers += [(shared, learner, learner.nickname) for learner in others]
    start = threading.Barrier(len(writers))
    threads = [threading.Thread(target=write_answers, args=(*w, start)) for w in writers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    answers = shared.answers(ana)
    assert len(answers) == 4 * PER_WRITER and len({a.uid for a in answers}) == len(answers)
    assert all(a.hints == 1 for a in answers)  # each answer claimed its own item's hint
    assert Counter(a.item_id.partition("-")[0] for a in answers) == {f"tab{k}": PER_WRITER for k in range(4)}
    for learner in others:
        assert len(shared.answers(learner)) == PER_WRITER
    assert shared.skill(ana, SKILL).answered == 4 * PER_WRITER
    shared.close()
    own.close()


WORKER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from server.progress import NicknameTaken, database, open_store

    database.BUSY_TIMEOUT_S = {patient_s}
    url, name, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    go.with_name(name).touch()                   # imported: ready
    while not go.exists():
        time.sleep(0.005)
    store = open_store(url)                      # all at once on a fresh database: one migrates
    try:
        ana = store.register("ana", "C1")        # all race for the same nickname: one wins
    except NicknameTaken:
        ana = store.continue_as("ana", "C1")
    me = store.register(name, "C1")
    for k in range({per_writer}):
        store.record_hint(ana, f"{{name}}-{{k}}", "s", rung=2)
        store.record_answer(ana, f"{{name}}-{{k}}", "s", correct=True, answer=k)
        store.record_answer(me, f"own-{{k}}", "s", correct=False, answer=[name, k])
    store.close()
""").format(per_writer=PER_WRITER, patient_s=PATIENT_S)


def test_processes_writing_at_once_to_a_fresh_database_lose_no_answer(database_url, tmp_path):
    url = database_url
    go = tmp_path / "go"
    names = [f"proc{k}" for k in range(4)]
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, url, name, str(go)], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name in names]
    deadline = time.monotonic() + 60
    while not all((tmp_path / name).exists() for name in names) and time.monotonic() < deadline:
        time.sleep(0.01)  # every worker has imported and waits at the line
    go.touch()
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
    store = open_store(url)
    ana = store.continue_as("ana", "C1")
    answers = store.answers(ana)
    assert len(answers) == len(names) * PER_WRITER and len({a.uid for a in answers}) == len(answers)
    assert all(a.hints == 1 for a in answers)
    for name in names:
        mine = store.answers(store.continue_as(name, "C1"))
        assert sorted(a.answer[1] for a in mine) == list(range(PER_WRITER))
    store.close()


def answer_at_once(stores, learner, item_id: str) -> None:
    """Each store answers the item at the same moment (as two tabs on two app replicas may)."""
    start = threading.Barrier(len(stores))

    def answer(store) -> None:
        start.wait()
        store.record_answer(learner, item_id, SKILL, correct=True)

    threads = [threading.Thread(target=answer, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)


def test_two_tabs_answering_the_same_item_at_once_count_its_hint_once(database_url):
    """The hint taken before is claimed by one of the two answers, never by both (PostgreSQL's READ
    COMMITTED alone would let both count it: each reads it unclaimed before the other commits)."""
    tabs = [open_store(database_url), open_store(database_url)]  # pools of their own
    ana = tabs[0].register("ana")
    rounds = 20
    for k in range(rounds):
        tabs[0].record_hint(ana, f"i{k}", SKILL, rung=1)
        answer_at_once(tabs, ana, f"i{k}")
    answers = tabs[0].answers(ana)
    assert len(answers) == 2 * rounds
    assert sorted(a.hints for a in answers) == [0] * rounds + [1] * rounds
    for store in tabs:
        store.close()
