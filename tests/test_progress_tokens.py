"""Sign-in tokens: a reload or a link keeps the learner signed in; a forged, altered or stale token is
refused with a clear message, and a token shows nothing of the learner but a number and a day.
Each test runs on a SQLite file and on PostgreSQL (``database_url``)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from server.progress import BadToken, open_store
from server.progress.tokens import TOKEN_DAYS


def test_a_token_signs_its_learner_in_again_from_another_process(store, database_url, clock):
    ana = store.register("Ana", "LING101")
    token = store.sign_in_token(ana)
    elsewhere = open_store(database_url, clock=clock)  # another replica: the same key, from the database
    try:
        assert elsewhere.learner_of_token(token) == ana
    finally:
        elsewhere.close()
    assert store.sign_in_token(ana) == token  # the same day: the same token


def test_a_token_reveals_neither_the_nickname_nor_the_class_code(store):
    # Names long enough that 22 random signature characters cannot spell them by chance
    # (a three-letter "Ana" turned up in one signature in a few thousand).
    learner = store.register("Anastasia", "LINGUISTICS101")
    token = store.sign_in_token(learner)
    number, day, signature = token.split(".")
    assert number == str(learner.id) and len(day) == 8 and day.isdigit() and len(signature) == 22
    assert "anastasia" not in token.lower() and "linguistics" not in token.lower()


@pytest.mark.parametrize("change", [
    lambda t, other: f"{other.id}." + t.split(".", 1)[1],        # another learner's number
    lambda t, other: t[:-2] + ("AA" if t[-2:] != "AA" else "BB"),  # the signature altered
    lambda t, other: t.replace(t.split(".")[1], "20261126"),       # an earlier day
], ids=["learner", "signature", "day"])
def test_an_altered_token_is_refused(store, change):
    ana, bob = store.register("Ana", "C1"), store.register("Bob", "C1")
    with pytest.raises(BadToken, match="changed or made elsewhere: sign in again"):
        store.learner_of_token(change(store.sign_in_token(ana), bob))


def test_a_token_of_another_server_or_no_token_shape_is_refused(store, new_database, clock):
    ana = store.register("Ana")
    other = open_store(new_database(), clock=clock)
    try:
        twin = other.register("Ana")
        assert twin.id == ana.id
        with pytest.raises(BadToken, match="changed or made elsewhere"):
            store.learner_of_token(other.sign_in_token(twin))
    finally:
        other.close()
    for junk in ["", "ana", "1.2.3", "x" * 200, "1.2026112.abc", None]:
        with pytest.raises(BadToken, match="cut short or mistyped"):
            store.learner_of_token(junk)


def test_a_token_goes_stale_after_a_term_and_with_its_learner(store, clock, database_url):
    ana = store.register("Ana")
    token = store.sign_in_token(ana)
    clock.now += timedelta(days=TOKEN_DAYS)
    assert store.learner_of_token(token) == ana
    clock.now += timedelta(days=1)
    with pytest.raises(BadToken, match=f"older than {TOKEN_DAYS} days"):
        store.learner_of_token(token)
    fresh = store.sign_in_token(ana)
    with store.engine.begin() as connection:  # the progress was reset: the learner is gone
        connection.exec_driver_sql("DELETE FROM learners")
    with pytest.raises(BadToken, match="names no learner"):
        store.learner_of_token(fresh)
