"""Two app replicas, one PostgreSQL: a class answering a set through both at once loses nothing.

Each replica is a process of its own with its own store (its own pool of connections), serving a
session per learner in threads; every learner has a tab on both replicas, so the same learner's
answers to the same items arrive from two processes at the same time.  Afterwards every answer is
there once, and the teacher's results count exactly what was answered.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

from server.progress import open_store

ROOT = Path(__file__).resolve().parent.parent
SKILL = "next-move/arc-standard"
ITEMS = [f"i{k}" for k in range(5)]
LEARNERS = [f"learner{k}" for k in range(6)]
REPLICAS = ["replica-a", "replica-b"]

REPLICA = textwrap.dedent("""
    import sys, threading, time
    from pathlib import Path
    from server.progress import open_store

    url, name, set_id, go = sys.argv[1], sys.argv[2], sys.argv[3], Path(sys.argv[4])
    store = open_store(url)
    learners = [store.continue_as(nickname, "C1") for nickname in sys.argv[5:]]
    items = store.practice_set(set_id).items
    go.with_name(name).touch()                   # open: ready
    while not go.exists():
        time.sleep(0.005)

    def session(learner):                        # one learner's tab on this replica
        for item in items:
            store.record_answer(learner, item, "{skill}", correct=False, answer="SH", set_id=set_id)
            store.record_answer(learner, item, "{skill}", correct=True, answer=[name, item], set_id=set_id)

    threads = [threading.Thread(target=session, args=(learner,)) for learner in learners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.close()
""").format(skill=SKILL)


def run_replicas(url: str, set_id: str, folder: Path) -> None:
    """Start both replicas, let them write at the same moment, and wait for them to finish."""
    go = folder / "go"
    replicas = [subprocess.Popen([sys.executable, "-c", REPLICA, url, name, set_id, str(go), *LEARNERS],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for name in REPLICAS]
    deadline = time.monotonic() + 60
    while not all((folder / name).exists() for name in REPLICAS) and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()
    for replica in replicas:
        _, err = replica.communicate(timeout=120)
        assert replica.returncode == 0, err


def test_two_replicas_writing_a_class_s_answers_at_once_lose_nothing(postgres_server, tmp_path):
    url = postgres_server.fresh_url()
    store = open_store(url)
    homework = store.create_set("homework", {"seed": 3}, ITEMS)
    class_ = [store.register(nickname, "C1") for nickname in LEARNERS]
    run_replicas(url, homework.id, tmp_path)
    for learner in class_:
        answers = store.answers(learner)
        assert len({a.uid for a in answers}) == len(answers) == len(REPLICAS) * len(ITEMS) * 2
        right = Counter((a.answer[0], a.answer[1]) for a in answers if a.correct)
        assert right == {(replica, item): 1 for replica in REPLICAS for item in ITEMS}
        assert Counter(a.item_id for a in answers if not a.correct) == {item: len(REPLICAS) for item in ITEMS}
    for result in store.set_results(homework.id):
        assert (result.learners, result.solved) == (len(LEARNERS), len(LEARNERS))
        assert (result.wrong_answers, result.common_wrong) == (len(LEARNERS) * len(REPLICAS), "SH")
        assert result.common_wrong_count == len(LEARNERS) * len(REPLICAS)
    store.close()
