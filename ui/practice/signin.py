"""Sign in with a nickname and an optional class code: no password, no personal data.

A new nickname registers a learner; a nickname already used in the class is refused with the
store's message, and continuing as that learner needs the class code (learners without a class
share one namespace: anyone typing such a nickname continues as that learner, and the page says so).
Signed in, the learner stays signed in across reloads: the address carries a signed token
(:mod:`ui.widgets.progress_store`); a refused token is said here, and signing out removes it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import streamlit as st

from server.progress import Learner, ProgressError, Store
from ui.practice.progress import Tracker, pending
from ui.views.safe_text import inert
from ui.widgets import limits
from ui.widgets.progress_store import LEARNER, sign_out, signed_in_learner, token_problem

PROBLEM = "practice.signin_problem"
PRIVACY = ("No password and no personal data: a nickname is all the page keeps (use one that is not "
           "your name). A class code keeps a class's nicknames apart; without one, anyone who types "
           "your nickname continues as you. Signed in, this browser and this page's address keep you "
           "signed in until you sign out: do not share the address (share a set's own link).")


def sign_in(store: Store | None, problem: str) -> Learner | None:
    """The sidebar's learner box; returns the learner signed in, if any."""
    if store is None:
        st.warning(f"**Progress is not being saved:** the database cannot be opened ({inert(problem)}). "
                   "You can still practise; your answers count for this visit only.",
                   icon=":material/database_off:")
        return None
    who = signed_in_learner()
    if who is not None:
        waiting = len(pending())
        if waiting:
            st.warning(f"Practising as **{inert(str(who))}**; {waiting} answer{'s' * (waiting != 1)} "
                       "not saved yet (the database cannot be reached): keep this tab open.",
                       icon=":material/cloud_off:")
        else:
            st.success(f"Practising as **{inert(str(who))}**; your progress is saved.")
        st.button("Sign out", key="practice.sign_out", on_click=sign_out)
        return who
    refused = token_problem()
    if refused:
        st.error(f"Not signed in: {inert(refused)}.", icon=":material/key_off:")
    st.caption(PRIVACY)
    st.text_input("Nickname", key="practice.nickname", max_chars=40)
    st.text_input("Class code (optional)", key="practice.class_code", max_chars=40)
    new, back = st.columns(2)
    new.button("Start", key="practice.register", help="A new learner with this nickname", width="stretch",
               on_click=enter, args=(store.register,))
    back.button("Continue", key="practice.continue", help="Come back as this learner", width="stretch",
                on_click=enter, args=(store.continue_as,))
    problem = st.session_state.pop(PROBLEM, None)
    if problem:
        st.error(inert(problem[:1].upper() + problem[1:]) + ".", icon=":material/person_alert:")
    st.caption("Not signed in: your answers count for this visit only.")
    return None


def enter(how: Callable[[str, str], Learner]) -> None:
    """Callback: sign in by ``how`` (register or continue_as) with the nickname and class code typed,
    or keep why not (read from the session: a callback runs before the widgets are drawn again)."""
    try:
        st.session_state[LEARNER] = how(st.session_state.get("practice.nickname", ""),
                                        st.session_state.get("practice.class_code", ""))
    except ProgressError as error:
        st.session_state[PROBLEM] = str(error)


def transfer(tracker: Tracker) -> None:
    """Export the learner's progress as JSON, and import a file exported before."""
    if not tracker.saving:
        st.caption("Sign in to export or import progress.")
        return
    assert tracker.store is not None and tracker.learner is not None
    try:
        document = tracker.store.export_progress(tracker.learner)
    except ProgressError as error:
        st.error(f"Your progress cannot be exported now: {inert(str(error))}")
        return
    st.download_button("Export my progress (JSON)", json.dumps(document, indent=1), key="practice.export",
                       file_name=f"progress-{tracker.learner.nickname}.json", mime="application/json")
    upload = st.file_uploader("Import progress (a JSON file exported before)", type=["json"],
                              key="practice.import")
    if upload is not None and st.button("Import it", key="practice.import_go"):
        if refused := limits.upload_refused(upload):
            st.error(refused)
            return
        try:
            tracker.store.import_progress(tracker.learner, json.loads(upload.getvalue()))
            st.success("Imported: answers you already had were skipped.")
        except (ProgressError, ValueError) as error:
            st.error(f"That file could not be imported: {inert(str(error))}")
