"""The database goes away and comes back: answers given meanwhile wait, then are stored exactly once,
in the library and on the Practice page (driven headless with ``AppTest``, as in test_practice_page).

Two outages, each a real one: a SQLite file another connection keeps locked (``BEGIN EXCLUSIVE``;
the busy timeout is cut to a tenth of a second so a write gives up quickly), and a PostgreSQL
server stopped (``pg_ctl stop -m fast``: every connection is cut) and started again.  The store is
opened before the outage and used again after it, as a page's cached store is.
"""

from __future__ import annotations

import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import streamlit as st
from test_practice_page import answer_shown, click, mastery, plain, practice, practise_next_move, sign_in

from server.progress import PendingAnswer, StoreUnavailable, database, flush, open_store
from server.progress.pending import write

SKILL = "next-move/arc-eager"
START = datetime(2026, 3, 2, 9, 0)


@dataclass
class Outage:
    """A database (``url``) that :meth:`begin` makes unusable for writing and :meth:`end` brings back."""

    url: str
    begin: Callable[[], None]
    end: Callable[[], None]


def locked_sqlite(path: Path) -> Outage:
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    return Outage(f"sqlite:///{path}", lambda: holder.execute("BEGIN EXCLUSIVE"),
                  lambda: holder.execute("ROLLBACK"))


@pytest.fixture(params=["sqlite-locked", "postgresql-stopped"])
def outage(request: pytest.FixtureRequest, tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[Outage]:
    if request.param == "sqlite-locked":
        monkeypatch.setattr(database, "BUSY_TIMEOUT_S", 0.1)
        yield locked_sqlite(tmp_path / "progress.sqlite3")
        return
    server = request.getfixturevalue("postgres_server")
    stopped = []
    yield Outage(server.fresh_url(), lambda: (server.stop(), stopped.append(True)),
                 lambda: (server.start(), stopped.clear()))
    if stopped:  # a failed test must not leave the session's server down
        server.start()


def answered(learner, k: int, **changes) -> PendingAnswer:
    """The k-th answer of a learner, given k minutes after START."""
    return replace(PendingAnswer(learner, f"i{k}", SKILL, correct=k % 2 == 0, answer={"move": "SH", "k": k},
                                 at=START + timedelta(minutes=k)), **changes)


def test_answers_given_while_the_database_is_away_are_stored_once_it_is_back(outage):
    store = open_store(outage.url)
    ana = store.register("ana")
    write(store, answered(ana, 0))
    outage.begin()
    queue = [answered(ana, k, hints=k % 2) for k in range(1, 5)]
    with pytest.raises(StoreUnavailable, match="progress is not being saved"):
        write(store, queue[0])
    waiting = flush(store, queue)
    assert (waiting.written, waiting.waiting) == ((), tuple(queue))
    assert "progress is not being saved" in waiting.problem
    outage.end()
    back = flush(store, waiting.waiting)
    assert [a.uid for a in back.written] == [p.uid for p in queue] and back.waiting == back.refused == ()
    kept = store.answers(ana)
    assert [(a.item_id, a.at, a.hints, a.answer) for a in kept] == [
        (f"i{k}", START + timedelta(minutes=k), k % 2, {"move": "SH", "k": k}) for k in range(5)]
    assert flush(store, queue).written == back.written  # flushed again: found, not kept twice
    assert len(store.answers(ana)) == 5
    store.close()


def test_an_answer_whose_write_succeeded_unseen_is_kept_once(outage):
    """The write reached the database but the page saw an error (the reply was lost): it queues the
    answer anyway, and the retry finds it kept."""
    store = open_store(outage.url)
    ana = store.register("ana")
    reached = answered(ana, 1)
    write(store, reached)
    outage.begin()
    queue = [reached, answered(ana, 2)]
    assert flush(store, queue).waiting == tuple(queue)
    outage.end()
    assert len(flush(store, queue).written) == 2
    assert [a.uid for a in store.answers(ana)] == [reached.uid, queue[1].uid]
    store.close()


def test_two_tabs_retrying_the_same_queue_at_once_store_each_answer_once(database_url):
    stores = [open_store(database_url), open_store(database_url)]
    ana = stores[0].register("ana")
    queue = [answered(ana, k) for k in range(10)]
    start = threading.Barrier(2)
    threads = [threading.Thread(target=lambda s=store: (start.wait(), flush(s, queue))) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(a.uid for a in stores[0].answers(ana)) == sorted(p.uid for p in queue)
    for store in stores:
        store.close()


def test_a_late_answer_claims_the_hints_written_before_the_outage(outage):
    store = open_store(outage.url)
    ana = store.register("ana")
    store.record_hint(ana, "i1", SKILL, rung=1)  # written: the database was there
    outage.begin()
    late = answered(ana, 1, hints=2)  # the page counted the rung written and one taken meanwhile
    assert flush(store, [late]).waiting == (late,)
    outage.end()
    assert flush(store, [late]).written[0].hints == 2
    assert store.record_answer(ana, "i1", SKILL, correct=True).hints == 0  # that rung is used up
    store.close()


def test_an_answer_the_store_will_never_take_is_refused_with_its_reason_not_dropped(database_url):
    store = open_store(database_url)
    ana = store.register("ana")
    homework = store.create_set("homework", {"seed": 1}, ["i1"])
    stale = answered(ana, 2, set_id=homework.id)  # the set has no item i2
    done = flush(store, [answered(ana, 1), stale, answered(ana, 3)])
    assert [a.item_id for a in done.written] == ["i1", "i3"] and done.waiting == ()
    [(refused, reason)] = done.refused
    assert refused == stale and "has no item 'i2'" in reason
    store.close()


def test_a_uid_belongs_to_one_learner(database_url):
    store = open_store(database_url)
    ana, bob = store.register("ana"), store.register("bob")
    given = answered(ana, 1)
    write(store, given)
    [(_, reason)] = flush(store, [replace(given, learner=bob)]).refused
    assert "kept for another learner" in reason and store.answers(bob) == []
    store.close()


def test_a_write_to_a_file_locked_for_long_gives_up_after_the_busy_timeout(tmp_path, monkeypatch):
    """Not the busy timeout once per retry: a page waits about BUSY_TIMEOUT_S, then says so."""
    monkeypatch.setattr(database, "BUSY_TIMEOUT_S", 1.0)
    locked = locked_sqlite(tmp_path / "progress.sqlite3")
    store = open_store(locked.url)
    ana = store.register("ana")
    locked.begin()
    began = time.monotonic()
    with pytest.raises(StoreUnavailable, match="database is locked"):
        store.record_answer(ana, "i1", SKILL, correct=True)
    assert time.monotonic() - began < 3.5  # five waits of a second each, and the backoff, would be 5.75
    locked.end()
    store.close()


def notices(at) -> tuple[list[str], list[str]]:
    """What the page says about saving: (warnings, successes), as read."""
    return [plain(w.value) for w in at.warning], [plain(s.value) for s in at.success]


def test_the_practice_page_keeps_answers_through_an_outage_and_saves_them_after(outage, monkeypatch):
    monkeypatch.setenv("PARSING_DATABASE_URL", outage.url)
    at = practise_next_move(sign_in(practice(), "Ana"))
    outage.begin()
    click(at, "practice.hint")  # not written either: the page counts it in the answer
    for _ in range(2):
        answer_shown(at)
        click(at, "practice.another")
    warnings, _ = notices(at)
    waiting = "**2 answers not saved yet:** the progress database cannot be used now"
    assert any(w.startswith(waiting) for w in warnings)
    sidebar = [e.value for e in at.sidebar.warning] + [e.value for e in at.sidebar.success]
    assert any("2 answers not saved yet" in s for s in sidebar)  # the sign-in box does not say "saved"
    assert not any("your progress is saved" in s for s in sidebar)
    assert "1 of 3 in a row" in mastery(at)  # they count while they wait (the first had a hint)
    outage.end()
    click(at, "practice.retry_saving")
    warnings, successes = notices(at)
    assert "**Saved:** 2 answers that had to wait are saved now." in successes
    assert not any("not saved yet" in w for w in warnings)
    assert "practice.retry_saving" not in [button.key for button in at.button]
    outage.begin()
    answer_shown(at)
    click(at, "practice.another")
    click(at, "practice.hint")  # not written: it goes with the next answer, written at once
    outage.end()
    answer_shown(at)  # the next write takes the one waiting along
    assert "**Saved:** 1 answer that had to wait is saved now." in notices(at)[1]
    store = open_store(outage.url)
    kept = store.answers(store.continue_as("Ana"))
    assert len(kept) == len({a.uid for a in kept}) == 4 and all(a.correct for a in kept)
    assert [a.hints for a in kept] == [1, 0, 0, 1]
    assert [a.at for a in kept] == sorted(a.at for a in kept)
    store.close()
    st.cache_resource.clear()  # the page's store of this database goes with it


def test_a_postgresql_server_that_never_answers_is_unavailable_after_the_connect_timeout(monkeypatch):
    """A host that takes the connection and says nothing (a hung server, a half-open network) would
    hold each page run for the network's own timeout, minutes; the store gives up after seconds."""
    monkeypatch.setattr(database, "CONNECT_TIMEOUT_S", 2)  # libpq's shortest
    raised: list[Exception] = []

    def open_it(url: str) -> None:
        try:
            open_store(url)
        except StoreUnavailable as error:
            raised.append(error)

    with socket.create_server(("127.0.0.1", 0)) as silent:  # listens, never accepts, never answers
        url = f"postgresql+psycopg://postgres@127.0.0.1:{silent.getsockname()[1]}/progress"
        began = time.monotonic()
        opening = threading.Thread(target=open_it, args=(url,), daemon=True)
        opening.start()
        opening.join(timeout=10)
        assert not opening.is_alive(), "still waiting for the silent server after 10 s"
    assert 1.5 < time.monotonic() - began and "cannot be used" in str(raised[0])


@pytest.mark.parametrize("url", ["postgresql+psycopg://lab:s3cret-pw@127.0.0.1:1/progress",
                                 "nosuchdriver://lab:s3cret-pw@127.0.0.1/progress"])
def test_a_database_that_cannot_be_used_is_named_without_its_password(url, monkeypatch):
    """The store's message reaches the Practice page and the server's log: the URL's password never
    does (a refused port, and a URL no driver reads, whose parser quotes the whole URL)."""
    monkeypatch.setattr(database, "CONNECT_TIMEOUT_S", 2)
    with pytest.raises(StoreUnavailable) as raised:
        open_store(url)
    assert "s3cret-pw" not in str(raised.value)
