"""Staying signed in without a password: a sign-in token the server signs, carried in the link.

A token names a learner by number and the day it was issued — ``12.20261127.Xq3…`` — and ends in
an HMAC-SHA256 of those, the nickname and the class code, made with a key that only the server
holds (a random secret kept in the database, :class:`~.schema.SecretRow`, made at first use and
shared by every process that opens the database).  So a token

* reveals no more than a number and a day: not the nickname, not the class code it still binds;
* cannot be forged or altered: another number, day or learner needs the key (:func:`check`);
* goes stale: after :data:`TOKEN_DAYS`, or when the store no longer has its learner.

It is no password: whoever holds the link is the learner, as whoever types a nickname without a
class code is; the page says so, and signing out takes the token off the address.

>>> from datetime import date
>>> from .learners import Learner
>>> ana, key = Learner(7, "Ana", "LING101"), "a-key-only-the-server-knows"
>>> token = sign(key, ana, date(2026, 11, 27))
>>> token.startswith("7.20261127."), check(key, token, ana, date(2026, 12, 1))
(True, None)
>>> check(key, token.replace("7.", "8.", 1), Learner(8, "Bob"), date(2026, 12, 1))
'this sign-in link was changed or made elsewhere: sign in again'
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import date, datetime

from sqlalchemy.orm import Session

from .errors import BadToken
from .learners import Learner
from .schema import SecretRow

TOKEN_DAYS = 120  # a term: a token older than this asks the learner to sign in again
KEY_NAME = "sign-in"
LONGEST_TOKEN = 80
FORGED = "this sign-in link was changed or made elsewhere: sign in again"


def mac(key: str, learner: Learner, day: str) -> str:
    """The signature: 22 URL-safe characters (128 bits of HMAC-SHA256)."""
    message = f"{learner.id}\n{learner.nickname}\n{learner.class_code}\n{day}".encode()
    digest = hmac.new(key.encode(), message, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def sign(key: str, learner: Learner, today: date) -> str:
    """The learner's token, issued ``today``."""
    day = today.strftime("%Y%m%d")
    return f"{learner.id}.{day}.{mac(key, learner, day)}"


def learner_number(token: object) -> int:
    """The learner's number a token names; :class:`BadToken` when it is not a token's shape."""
    parts = token.split(".") if isinstance(token, str) and len(token) <= LONGEST_TOKEN else []
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or len(parts[1]) != 8:
        raise BadToken("this sign-in link is cut short or mistyped: sign in again")
    return int(parts[0])


def check(key: str, token: str, learner: Learner, today: date) -> str | None:
    """Why ``token`` does not sign ``learner`` in today (None when it does)."""
    _, day, signature = token.split(".")
    if not hmac.compare_digest(signature, mac(key, learner, day)):
        return FORGED
    try:
        age = (today - datetime.strptime(day, "%Y%m%d").date()).days
    except ValueError:
        return FORGED
    if not 0 <= age <= TOKEN_DAYS:
        return f"this sign-in link is older than {TOKEN_DAYS} days: sign in again"
    return None


def signing_key(session: Session, now: datetime, make: bool) -> str | None:
    """The server's signing key; made now when there is none and ``make`` (else None)."""
    row = session.get(SecretRow, KEY_NAME)
    if row is None and make:
        row = SecretRow(name=KEY_NAME, value=secrets.token_urlsafe(48), created_at=now)
        session.add(row)
        session.flush()  # another process making it at once: the store's retry reads theirs
    return None if row is None else row.value
