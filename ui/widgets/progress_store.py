"""The progress store of this server process and the learner signed in, shared by the pages.

Practice signs a learner in; Lessons records its questions' answers for the same learner.  Both
read the store through :func:`opened`, so one server process holds one store (one connection
pool) per database URL, whichever page opened it first.

A learner stays signed in across reloads and links: while signed in, the address carries a
sign-in token the server signs (``?learner=``, :mod:`server.progress.tokens`), and so does
a cookie of this browser (a set link pasted into the address bar carries none), and a session's
first run signs the learner in again from either (:func:`signed_in_learner`).  A token that was
altered, made by another server or is too old is refused, taken off the address and out of the
cookie, and the reason kept for the sign-in box (:func:`token_problem`).  Signing out does both.
"""

from __future__ import annotations

import streamlit as st

from server.progress import Learner, ProgressError, Store, default_url, open_store
from server.progress.tokens import TOKEN_DAYS

#: where the signed-in learner is kept in the session (the Practice page signs in and out)
LEARNER = "practice.learner"
#: the query parameter that carries the sign-in token, and where the session keeps its own
TOKEN_PARAM, TOKEN, REFUSED = "learner", "progress.token", "progress.token_refused"
#: the cookie that carries it too; the session's notes: cookie written, signed out, cookie to clear
COOKIE, WRITTEN = "parsing_learner", "progress.cookie"
SIGNED_OUT, CLEAR = "progress.signed_out", "progress.clear"


@st.cache_resource(show_spinner=False)
def opened(url: str) -> Store:
    """The store at ``url``, opened once per process (a failure is not kept: the next run tries again)."""
    return open_store(url)


def signed_in_learner() -> Learner | None:
    """The learner signed in in this session, if any: restored from the address's token (else the
    browser's cookie) when the session has none; while signed in, the token is kept in both."""
    who = st.session_state.get(LEARNER)
    token = st.query_params.get(TOKEN_PARAM) or st.context.cookies.get(COOKIE)
    if who is None and token and not st.session_state.get(SIGNED_OUT):
        who = restored(token)
    if who is not None:
        carry_token(who)
    elif st.session_state.pop(CLEAR, False):
        write_cookie("", 0)
    return who


def restored(token: str) -> Learner | None:
    """The learner ``token`` signs in (kept in the session); None, and why, when it is refused."""
    try:
        who = opened(default_url()).learner_of_token(token)
    except ProgressError as error:
        if TOKEN_PARAM in st.query_params:
            del st.query_params[TOKEN_PARAM]
        st.session_state[REFUSED] = str(error)
        st.session_state[SIGNED_OUT] = st.session_state[CLEAR] = True
        return None
    st.session_state[LEARNER], st.session_state[TOKEN] = who, (who, token)
    return who


def carry_token(who: Learner) -> None:
    """Put the learner's token in the address (made once per session; nothing when the store is away)."""
    kept = st.session_state.get(TOKEN)
    if kept is None or kept[0] != who:
        try:
            kept = (who, opened(default_url()).sign_in_token(who))
        except ProgressError:
            return
        st.session_state[TOKEN] = kept
    st.session_state.pop(SIGNED_OUT, None)
    if st.query_params.get(TOKEN_PARAM) != kept[1]:
        st.query_params[TOKEN_PARAM] = kept[1]
    if st.context.cookies.get(COOKIE) != kept[1] and st.session_state.get(WRITTEN) != kept[1]:
        write_cookie(kept[1], TOKEN_DAYS * 86_400)
        st.session_state[WRITTEN] = kept[1]


def write_cookie(token: str, seconds: int) -> None:
    """Set (or, with no token and 0 seconds, clear) this browser's sign-in cookie: an invisible script.
    The token is the store's own text (digits, dots, URL-safe base64), checked again before use."""
    if token and not all(ch.isalnum() or ch in "._-" for ch in token):
        return
    cookie = f"{COOKIE}={token}; path=/; max-age={seconds}; samesite=lax"
    st.html(f"<script>document.cookie = '{cookie}';</script>", unsafe_allow_javascript=True)


def sign_in_query() -> dict[str, str]:
    """The query parameter that keeps the learner signed in, for a page that writes its own address."""
    kept = st.session_state.get(TOKEN)
    return {TOKEN_PARAM: kept[1]} if kept and st.session_state.get(LEARNER) == kept[0] else {}


def sign_out() -> None:
    """Callback: forget the learner in this session and take the token off the address."""
    for key in (LEARNER, TOKEN, WRITTEN):
        st.session_state.pop(key, None)
    st.session_state[SIGNED_OUT] = st.session_state[CLEAR] = True
    if TOKEN_PARAM in st.query_params:
        del st.query_params[TOKEN_PARAM]


def token_problem() -> str | None:
    """Why the address's sign-in token was refused (once), if it was."""
    return st.session_state.pop(REFUSED, None)
