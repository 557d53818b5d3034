"""Where the learner stands: in the skill practised, the run toward mastery, the success and the
next skill once it is mastered; over every skill, the "My progress" view (the chart, the review
queue with its sentences, export and import)."""

from __future__ import annotations

import streamlit as st

import parsing_core.exercises as ex
from server.limits import LimitReached
from server.progress import MASTERY_RUN
from ui.practice import signin, source
from ui.practice.items_view import COMPOSABLE, skill_of, skill_title
from ui.practice.progress import Tracker, now
from ui.practice.progress_view import RULES, mastery_words, next_skill, progress_figure, review_frame


def mastery_line(tracker: Tracker, skill: str) -> None:
    """The run toward mastery; once mastered, a word of success and the next skill, one click away."""
    p = tracker.skill(skill)
    if not p.mastered:
        st.progress(p.streak / MASTERY_RUN, text=f"**{skill_title(skill)}**: {mastery_words(p)}")
        return
    mastered = {q.skill for q in tracker.progress([]) if q.mastered}
    following = next_skill(skill, mastered, COMPOSABLE) if source.get().mode == "skill" else None
    then = f"  Next: **{skill_title(following)}**." if following else ""
    st.success(f"**{skill_title(skill)}** {mastery_words(p)}.{then}", icon=":material/workspace_premium:")
    if following:
        st.button(f"Practise {skill_title(following)}", key="practice.next_skill",
                  icon=":material/arrow_forward:", on_click=practise, args=(following,))


def practise(skill: str) -> None:
    """Callback: choose this skill (kind/system) in the sidebar."""
    kind, _, system = skill.partition("/")
    st.session_state["practice.kind"], st.session_state["practice.system"] = kind, system
    st.session_state["practice.mode"] = "skill"


def queue_sentences(tracker: Tracker) -> dict[str, str]:
    """The sentence of each item answered, by item id (an item whose sentence is gone has none)."""
    found = {}
    for item_id, spec in tracker.specs().items():
        try:
            found[item_id] = " ".join(source.pool().find(spec.sentence).words)
        except ex.ExerciseError:
            continue
    return found


def my_progress(tracker: Tracker) -> None:
    """Every skill's run and review boxes, the review queue, export and import."""
    st.markdown(RULES)
    try:
        text = source.get().spec_text()
    except LimitReached:
        text = None
    skill = skill_of(ex.ItemSpec.parse(text or "next-move/x/arc-eager/-/0/1"))
    rows = tracker.progress([skill])
    st.plotly_chart(progress_figure(rows), key="practice.chart")
    st.caption(f"One row per skill: its run of right first answers without hints ({MASTERY_RUN} in a row "
               "master "
               "it, ★), and its items by review box — box 1 holds the missed ones, box 5 the well known.")
    st.subheader("Review queue")
    queue = tracker.queue()
    if not queue:
        st.caption("Nothing answered yet.")
    else:
        with st.container(key="practice-queue"):
            st.dataframe(review_frame(queue, now(), queue_sentences(tracker)), hide_index=True)
        st.caption("Most urgent first. Missed items (box 1) come back after 5 minutes; choose "
                   "**Review** in the sidebar to answer the ones due.")
    st.subheader("Export and import")
    signin.transfer(tracker)
