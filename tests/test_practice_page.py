"""The Practice page, driven headless with ``AppTest``: every kind answered right and wrong, a set
link, mastery and the review queue, progress that survives a restart, and the messages for bad input.

Each test points ``PARSING_DATABASE_URL`` at a SQLite file of its own.  The items come from a link
(``?items=`` one spec per kind), so each is known: the test answers with the item's key (right)
and with the kind's own wrong answer (``ExerciseKind.wrong``).
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
import torch
from streamlit.testing.v1 import AppTest

import parsing_core as pc
import parsing_core.exercises as ex
from parsing_core.checkpoint import load_checkpoint, save_checkpoint
from parsing_core.model import ModelConfig, Parser, Vocab
from server.jobs import TrainingJob
from server.progress import open_store
from ui.practice import progress
from ui.practice.progress_view import READY

PAGE = Path(__file__).resolve().parents[1] / "pages" / "practice.py"
TIMEOUT = 60
SYSTEM = "arc-standard"  # every offered kind has items in it (approx-vs-exact: only here and in
#                          arc-eager-corrected is there an approximate oracle to compare)
POOL = ex.SentencePool()  # the page's own sentences: the teaching set
OFFERED = [k for k in ex.list_kinds() if not ex.get_kind(k).needs_model]
RUN = "20260101-000000-arc-eager-static"  # a finished Train-page run, for predict-parser


@pytest.fixture(autouse=True)
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'progress.sqlite3'}"
    monkeypatch.setenv("PARSING_DATABASE_URL", url)
    return url


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A jobs folder holding one finished run: a small untrained parser's checkpoint (its choices
    are as good as any for predicting them)."""
    folder = tmp_path_factory.mktemp("jobs") / RUN
    folder.mkdir()
    (folder / "command.json").write_text(json.dumps(["python", "-m", "parsing_core.train"]))
    (folder / "log.jsonl").write_text(json.dumps({"event": "test", "test_uas": 0.1}) + "\n")
    torch.manual_seed(0)
    tiny = ModelConfig(word_dim=8, lstm_dim=8, lstm_layers=1, mlp_dim=8, min_count=1)
    save_checkpoint(folder / "model.pt", Parser("arc-eager", Vocab.build(POOL.sentences, min_count=1), tiny))
    assert TrainingJob(folder).status() == "finished"
    return folder.parent


def spec_of(kind: str, seed: int = 0) -> ex.ItemSpec:
    return ex.draw(kind, SYSTEM, 1, 1, seed, POOL)[0]


def item_of(spec: ex.ItemSpec) -> ex.Item[Any]:
    return ex.make_item(spec, POOL.find(spec.sentence))


def practice(**query: str) -> AppTest:
    at = AppTest.from_file(str(PAGE), default_timeout=TIMEOUT)
    at.query_params.update(query)
    return run(at)


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return run(at)


def current_id(at: AppTest) -> str:
    found = [m.group(1) for c in at.caption if (m := re.search(r"Item id `(\w+)`", c.value))]
    assert len(found) == 1, [c.value for c in at.caption]
    return found[0]


def plain(text: str) -> str:
    """Markdown shown as the reader sees it (user text is escaped by ``inert``)."""
    return re.sub(r"\\(.)", r"\1", text)


def said(at: AppTest) -> tuple[list[str], list[str]]:
    """The feedback shown, as read: (successes, errors)."""
    return [plain(s.value) for s in at.success], [plain(e.value) for e in at.error]


def table_with(at: AppTest, column: str) -> Any:
    [frame] = [d.value for d in [*at.dataframe, *at.table] if column in d.value.columns]
    return frame


def submit(at: AppTest, label: str = "Check") -> AppTest:
    [button] = [b for b in at.button if b.label == label]
    button.click()
    return run(at)


# -- answering each kind ----------------------------------------------------------------------------
def play(at: AppTest, moves: tuple[pc.Transition, ...]) -> AppTest:
    for t in moves:
        click(at, f"practice.move.{t.kind}")
    return at


def answer(at: AppTest, item: ex.Item[Any], given: Any) -> AppTest:
    """Give ``given`` to the item shown, through the page's own inputs."""
    kind, key = item.spec.kind, f"practice.answer.{item.id}"
    if kind == "next-move":
        return click(at, f"practice.move.{given.kind}")
    if kind == "whole-derivation":  # move by move, until the page stops a costly one
        for t in given:
            click(at, f"practice.move.{t.kind}")
            if at.error:
                break
        return at
    if kind == "approx-vs-exact":
        play(at, given.moves)
        at.selectbox(key=f"practice.disagree_move.{item.id}").set_value(given.move.kind)
        return submit(at, "Check this configuration")
    if kind == "trace-table":
        at.multiselect(key=f"{key}.stack").set_value(list(given.stack))
        at.multiselect(key=f"{key}.buffer").set_value(list(given.buffer))
        at.selectbox(key=f"{key}.head").set_value(None if given.arc is None else given.arc[0])
        at.selectbox(key=f"{key}.dep").set_value(None if given.arc is None else given.arc[1])
    elif kind == "cost-of-move":
        at.number_input(key=f"{key}.cost").set_value(int(given.cost))
        if item.key.lost is not None:
            at.multiselect(key=f"{key}.lost").set_value(sorted(given.lost or ()))
    elif kind == "all-optimal":
        for k in pc.get_system(SYSTEM).kinds:
            at.checkbox(key=f"{key}.tick.{k}").set_value(pc.Transition(k) in given)
    elif kind == "crossing-arcs":
        at.multiselect(key=f"{key}.pairs").set_value(list(given.pairs))
        at.radio(key=f"{key}.projective").set_value("yes" if given.projective else "no")
    elif kind == "which-systems":
        for v in ex.KINDS["which-systems"].reasons(item.sentence):  # type: ignore[attr-defined]
            at.checkbox(key=f"{key}.sys.{v}").set_value(v in given)
    elif kind == "static-fails":
        at.selectbox(key=f"{key}.step").set_value(given.step)
        at.selectbox(key=f"{key}.move").set_value(given.move.kind)
    elif kind == "predict-parser":
        at.selectbox(key=f"{key}.move").set_value(given.move.kind)
        at.radio(key=f"{key}.optimal").set_value("yes" if given.optimal else "no")
    elif kind == "count-steps":
        at.number_input(key=f"{key}.fewest").set_value(given.fewest)
        at.number_input(key=f"{key}.most").set_value(given.most)
    return submit(at)


@pytest.mark.parametrize("kind", OFFERED)
def test_every_kind_answered_right_then_wrong_shows_the_feedback(kind: str) -> None:
    spec = spec_of(kind)
    item = item_of(spec)
    at = practice(items=ex.encode_set([spec]))
    assert current_id(at) == item.id
    answer(at, item, item.key)
    right = ex.grade(item, item.key)
    assert right.correct
    assert said(at)[0][0].startswith(right.message)
    wrong = ex.get_kind(kind).wrong(item, random.Random(0))
    if kind in ("whole-derivation", "approx-vs-exact"):  # back to the first configuration
        click(at, "practice.reset")
    answer(at, item, wrong)
    graded = ex.grade(item, wrong)
    assert not graded.correct
    [error] = said(at)[1]
    assert error.startswith(graded.message) and all(d in error for d in graded.details)
    if kind in ("next-move", "whole-derivation"):  # the move given, marked beside the right ones
        stopped = re.match(r"Stopped at move (\d+)", error)
        given = wrong if kind == "next-move" else wrong[int(stopped.group(1)) - 1] if stopped else None
        assert given is not None, error
        assert any(f":red-badge[✗ {given.name} (your answer)]" in m.value for m in at.markdown)


def test_predicting_the_parser_uses_a_finished_run(jobs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(jobs))
    at = practice()
    at.selectbox(key="practice.kind").set_value("predict-parser")
    run(at)
    assert at.selectbox(key="practice.model").value == RUN
    shown = at.selectbox(key="practice.model").options[0]  # the run's title, not its folder's name
    assert shown != RUN and "finished" in shown, shown
    assert at.selectbox(key="practice.system").disabled  # the model's own system
    spec = ex.ItemSpec.parse(source_text(at))
    assert dict(spec.options)["model"] == RUN and spec.system == "arc-eager"
    parser = load_checkpoint(jobs / RUN / "model.pt").parser
    item = ex.make_item(spec, POOL.find(spec.sentence), lambda s: parser.scorer(s).choose)
    assert current_id(at) == item.id
    answer(at, item, item.key)
    assert said(at)[0][0].startswith(ex.grade(item, item.key).message)
    wrong = ex.get_kind("predict-parser").wrong(item, random.Random(0))
    answer(at, item, wrong)
    assert said(at)[1][0].startswith(ex.grade(item, wrong).message)


def source_text(at: AppTest) -> str:
    text = at.session_state["practice.source"].spec_text()
    assert text is not None
    return str(text)


def test_a_wrong_move_is_stopped_named_and_drawn() -> None:
    spec = spec_of("next-move")
    item = item_of(spec)
    at = practice(items=ex.encode_set([spec]))
    before = arc_kinds_drawn(at)
    wrong = ex.get_kind("next-move").wrong(item, random.Random(0))
    answer(at, item, wrong)
    badges = " ".join(m.value for m in at.markdown)
    assert f":green-badge[✓ {item.key.name}]" in badges and f":red-badge[✗ {wrong.name}" in badges
    lost = ex.grade(item, wrong).arcs
    assert lost, "this item's wrong move loses an arc"
    assert any("Drawn dashed (lost)" in c.value for c in at.caption)
    after = arc_kinds_drawn(at)
    assert all(after[a] == "lost" and before[a] == "reachable" for a in lost), (before, after)


def test_a_skill_without_items_says_where_they_are() -> None:
    at = practice()
    at.selectbox(key="practice.kind").set_value("approx-vs-exact")
    at.selectbox(key="practice.system").set_value("arc-eager")
    run(at)
    [warning] = [plain(w.value) for w in at.warning]
    assert warning.startswith("No item of this kind can be made in this system at this level")
    assert "only for arc-standard (thesis-approx) and arc-eager-corrected" in warning


@pytest.mark.parametrize("kind", ["crossing-arcs", "cost-of-move", "count-steps"])
def test_an_unanswered_part_is_asked_for_not_graded(kind: str) -> None:
    """Nothing is answered for the learner: a number starts empty (a 0 already in the box was
    graded as an answer, right whenever the move asked about was optimal)."""
    spec = spec_of(kind)
    at = practice(items=ex.encode_set([spec]))
    submit(at)
    assert not at.error and not at.success
    assert [w.value for w in at.warning] == ["Answer every part of the question first."]


def test_a_table_row_s_new_arc_is_not_drawn_as_lost() -> None:
    spec = ex.draw("trace-table", SYSTEM, 2, 1, 0, POOL)[0]
    item = item_of(spec)
    at = practice(items=ex.encode_set([spec]))
    answer(at, item, ex.get_kind("trace-table").wrong(item, random.Random(0)))
    assert at.error and not any("Drawn dashed (lost)" in c.value for c in at.caption)


def test_show_me_plays_the_oracle_s_move_and_counts_as_a_hint() -> None:
    spec = spec_of("next-move")
    item = item_of(spec)
    at = practice(items=ex.encode_set([spec]))
    click(at, "practice.show")
    assert not at.success and not at.error, "showing is not answering"
    assert any(plain(i.value).endswith(item.hints.answer) for i in at.info)
    played = at.session_state["practice.state"].taken()  # the board's state (ui.widgets.board.Board)
    assert played == (*map(str, item.moves), str(item.key))
    assert at.button(key="practice.hint").label.startswith("Hint (1 of 3")
    click(at, "practice.hint")
    assert at.button(key="practice.hint").label.startswith("Hint (2 of 3: the principle)")
    click(at, "practice.hint")
    [principle] = [plain(i.value) for i in at.info if i.value.startswith("**Hint 2")]
    assert "cost(t; c)" not in principle  # about this stack and buffer: what each move would do here
    assert all(t.name in principle for t in pc.get_system(SYSTEM).legal(item.configuration))


# -- sets and links -------------------------------------------------------------------------------
def walk(at: AppTest, count: int) -> list[str]:
    """The ids of a set's items in the order the page shows them."""
    ids = []
    for _ in range(count):
        ids.append(current_id(at))
        click(at, "practice.another")
    return ids


def test_a_set_link_gives_everyone_the_same_items_in_the_same_order(database: str) -> None:
    specs = ex.compose(["next-move", "trace-table", "count-steps"], [SYSTEM], 1, 3, seed=5, pool=POOL)
    store = open_store(database)
    made = store.create_set("Homework", {"items": [s.text for s in specs]}, [s.id for s in specs])
    store.close()
    first, second = practice(set=made.id), practice(set=made.id)
    assert walk(first, 3) == walk(second, 3) == [s.id for s in specs]
    assert any("finished" in s.value for s in first.success)


@pytest.mark.parametrize("title", list(READY))
def test_every_ready_made_set_opens_with_its_items_in_order(title: str) -> None:
    kinds, systems, level, count, seed = READY[title]
    specs = ex.compose(kinds, systems, level, count, seed, POOL)
    assert len(specs) == count
    at = sign_in(practice(), "Ida")
    at.radio(key="practice.mode").set_value("ready")
    run(at)
    click(at, f"practice.ready.{list(READY).index(title)}")  # in this tab: still signed in
    assert any("Practising as **Ida**" in plain(s.value) for s in at.sidebar.success)
    assert at.query_params["items"] == ex.encode_set(specs) and at.query_params["title"] == title
    assert at.query_params["learner"]  # the sign-in travels with the link in the address
    assert any(plain(c.value).startswith(f"{title}: item 1 of {count}") for c in at.caption)
    at = practice(items=ex.encode_set(specs), title=title)  # the link, opened elsewhere
    assert any(plain(c.value).startswith(f"{title}: item 1 of {count}") for c in at.caption)
    assert walk(at, count) == [s.id for s in specs]


def test_an_unknown_set_and_a_stale_item_are_said_clearly(database: str) -> None:
    at = practice(set="nosuchset")
    assert any("no exercise set has the id 'nosuchset'" in plain(w.value) for w in at.warning)
    assert current_id(at)  # the page still offers practice
    spec = spec_of("next-move")
    at = practice(items=ex.encode_set([spec]), item="deadbeef")
    assert any("this set has no item 'deadbeef'" in plain(w.value) for w in at.warning)
    assert current_id(at) == spec.id


def test_a_link_naming_no_kind_system_or_level_offered_says_so(database: str) -> None:
    at = practice(kind="nope", level="9", system="zz")
    [warning] = [plain(w.value) for w in at.warning]
    assert warning == ("The link could not be followed completely: there is no kind of exercise 'nope', no "
                       "transition system 'zz' and no level '9' (the levels are 1, 2 and 3): the page's own "
                       "choices are shown instead.")
    assert current_id(at)  # the page still offers practice, with its own choices
    at = practice(kind="next-move", level="2", system="arc-eager")  # a good link: nothing to say
    assert not at.warning and at.query_params["kind"] == "next-move"


def test_a_set_s_stale_items_are_named_and_left_out(database: str) -> None:
    good, renamed = spec_of("next-move"), spec_of("count-steps")
    gone = ex.ItemSpec("next-move", "a-sentence-since-removed", SYSTEM, seed=1)
    store = open_store(database)
    made = store.create_set("Old homework", {"items": [good.text, gone.text, renamed.text]},
                            [good.id, gone.id, "0ld1d000"])
    store.close()
    at = practice(set=made.id)
    warnings = [plain(w.value) for w in at.warning]
    assert any(f"the item '{gone.id}' cannot be made any more" in w for w in warnings), warnings
    assert any("the item '0ld1d000' is stale" in w for w in warnings), warnings
    assert walk(at, 1) == [good.id] and any("finished: 1 item." in plain(s.value) for s in at.success)


def test_the_teacher_composes_a_set_and_its_results_show_the_answers(database: str) -> None:
    at = practice()
    at.segmented_control(key="practice.view").set_value("compose")
    run(at)
    submit(at, "Make the link")
    link = next(c.value for c in at.code if "?set=" in c.value and "view" not in c.value)
    set_id = link.split("set=")[1]
    learner = sign_in(practice(set=set_id), "Cy", "ling101")
    item = item_of(ex.ItemSpec.parse(open_store(database).practice_set(set_id).spec["items"][0]))
    answer(learner, item, ex.get_kind(item.spec.kind).wrong(item, random.Random(0)))
    results = practice(set=set_id, view="results")
    first = table_with(results, "solved").iloc[0]
    assert first["item"] == item.id and first["answered"] == 1 and first["solved"] == 0
    assert first["its cost"] not in ("—", "")


# -- learners, mastery, review, restart -----------------------------------------------------------
def sign_in(at: AppTest, nickname: str, code: str = "", button: str = "practice.register") -> AppTest:
    at.text_input(key="practice.nickname").input(nickname)
    at.text_input(key="practice.class_code").input(code)
    return click(at, button)


def answer_shown(at: AppTest, right: bool = True) -> ex.Item[Any]:
    """Answer the item the page shows (a skill's item: found by its id among the seeds)."""
    spec = ex.ItemSpec.parse(source_text(at))
    assert current_id(at) == spec.id
    item = item_of(spec)
    answer(at, item, item.key if right else ex.get_kind("next-move").wrong(item, random.Random(0)))
    return item


def mastery(at: AppTest) -> str:
    return next(p.proto.text for p in at.get("progress"))


def practise_next_move(at: AppTest) -> AppTest:
    at.selectbox(key="practice.system").set_value(SYSTEM)
    return run(at)


def test_mastery_needs_three_in_a_row_without_hints_and_misses_come_back_first() -> None:
    at = practise_next_move(sign_in(practice(), "Ana", "ling101"))
    assert "new: 3 right in a row without hints master it" in mastery(at)
    answer_shown(at, right=False)
    click(at, "practice.another")
    assert "0 of 3 in a row" in mastery(at)
    click(at, "practice.hint")
    answer_shown(at)
    click(at, "practice.another")
    assert "0 of 3 in a row" in mastery(at), "a right answer after a hint does not count"
    for done in (1, 2):
        answer_shown(at)
        click(at, "practice.another")
        assert f"{done} of 3 in a row" in mastery(at)
    answer_shown(at)
    [done] = [plain(s.value).replace("**", "") for s in at.success if "mastered" in s.value]
    assert done.startswith(f"Next move · {SYSTEM} mastered") and f"Next: Whole derivation · {SYSTEM}" in done
    at.segmented_control(key="practice.view").set_value("progress")
    run(at)
    queue = table_with(at, "box")
    assert list(queue["box"])[0] == 1 and list(queue["due"])[0] in ("in 5 min", "in 4 min")
    assert sorted(queue["box"]) == [1, 1, 2, 2, 2]
    assert "item" not in queue.columns and all(" " in sentence for sentence in queue["sentence"])
    at.segmented_control(key="practice.view").set_value("practice")
    click(run(at), "practice.next_skill")  # the next skill, one click away
    assert at.selectbox(key="practice.kind").value == "whole-derivation"
    assert ex.ItemSpec.parse(source_text(at)).kind == "whole-derivation"


def test_a_missed_item_comes_back_for_review_after_five_minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    at = practise_next_move(sign_in(practice(), "Eve"))
    missed = answer_shown(at, right=False)
    at.radio(key="practice.mode").set_value("review")
    run(at)
    assert any("Nothing is due for review now; the next is due in 5 min" in plain(i.value) for i in at.info)
    later = progress.now() + timedelta(minutes=6)
    monkeypatch.setattr(progress, "now", lambda: later)
    run(at)
    assert at.radio(key="practice.mode").options[2] == "Review (1 due)"
    assert current_id(at) == missed.id
    answer(at, missed, missed.key)
    at.segmented_control(key="practice.view").set_value("progress")
    run(at)
    assert list(table_with(at, "box")["box"]) == [2]  # right without hints: up one box


def test_progress_survives_a_restart_and_a_class_keeps_its_nicknames() -> None:
    at = practise_next_move(sign_in(practice(), "Ben", "CL1"))
    answer_shown(at)
    st.cache_resource.clear()  # a new server process: the store is opened again from the file
    again = practice()
    sign_in(again, "Ben", "CL1")
    assert any("already used in class CL1" in plain(e.value) for e in again.error)
    sign_in(again, "Ben", "", button="practice.continue")
    assert any("give its class code" in plain(e.value) for e in again.error)
    sign_in(again, "ben", "cl1", button="practice.continue")
    assert any("Practising as **Ben (CL1)**" in plain(s.value) for s in again.success)
    practise_next_move(again)
    assert "1 of 3 in a row" in mastery(again)
    again.segmented_control(key="practice.view").set_value("progress")
    run(again)
    [export] = again.get("download_button")
    assert export.proto.label == "Export my progress (JSON)"


def test_without_a_database_the_page_works_and_says_progress_is_not_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PARSING_DATABASE_URL", f"sqlite:///{blocker}/progress.sqlite3")
    at = practise_next_move(practice())
    assert any("Progress is not being saved" in plain(w.value) for w in at.warning)
    answer_shown(at)
    assert at.success and "1 of 3 in a row" in mastery(at)


# -- honest counts, fresh items, staying signed in ------------------------------------------------
def test_a_right_answer_after_the_feedback_is_kept_as_a_retry_and_counts_for_nothing() -> None:
    at = practise_next_move(sign_in(practice(), "Rae"))
    missed = answer_shown(at, right=False)
    answer(at, missed, missed.key)  # the feedback named the right move: now clicked
    assert at.success and any("A retry" in c.value for c in at.caption)
    assert "0 of 3 in a row" in mastery(at)
    at.segmented_control(key="practice.view").set_value("progress")
    run(at)
    queue = table_with(at, "box")
    assert list(queue["box"]) == [1] and list(queue["due"])[0] in ("in 5 min", "in 4 min")
    assert list(queue["sentence"]) == [" ".join(missed.sentence.words)]  # the sentence, not a hex id


def sentences_served(at: AppTest, count: int) -> list[str]:
    served = []
    for _ in range(count):
        served.append(ex.ItemSpec.parse(source_text(at)).sentence)
        click(at, "practice.another")
    return served


def test_another_like_this_gives_a_different_tree_every_time() -> None:
    at = practice()
    at.selectbox(key="practice.kind").set_value("crossing-arcs")
    at.selectbox(key="practice.system").set_value("arc-hybrid")
    at.radio(key="practice.level").set_value(3)
    run(at)
    assert len(set(sentences_served(at, 8))) == 8


def test_each_session_draws_its_own_items() -> None:
    firsts = {current_id(practice()) for _ in range(3)}
    assert len(firsts) == 3


def test_a_reload_keeps_the_learner_and_the_chosen_skill() -> None:
    at = sign_in(practice(), "Lou", "cl2")
    at.selectbox(key="practice.kind").set_value("cost-of-move")
    at.selectbox(key="practice.system").set_value("arc-hybrid")
    at.radio(key="practice.level").set_value(2)
    run(at)
    address = {name: at.query_params[name] for name in ("learner", "kind", "system", "level")}
    assert "lou" not in address["learner"].lower() and "cl2" not in address["learner"].lower()
    again = practice(**address)  # a reload: a new session, the same address
    assert any("Practising as **Lou (CL2)**" in plain(s.value) for s in again.sidebar.success)
    assert (again.selectbox(key="practice.kind").value, again.selectbox(key="practice.system").value,
            again.radio(key="practice.level").value) == ("cost-of-move", "arc-hybrid", 2)
    assert ex.ItemSpec.parse(source_text(again)).kind == "cost-of-move"
    click(again, "practice.sign_out")
    assert "learner" not in again.query_params
    assert not any("Practising as" in plain(s.value) for s in again.sidebar.success)


def test_a_forged_or_altered_sign_in_token_is_refused_clearly() -> None:
    token = sign_in(practice(), "Mia").query_params["learner"]
    number, day, signature = token.split(".")
    for forged in (f"{int(number) + 1}.{day}.{signature}", f"{number}.{day}.{signature[::-1]}", "mia"):
        at = practice(learner=forged)
        errors = [plain(e.value) for e in at.sidebar.error]
        assert any(e.startswith("Not signed in: this sign-in link") for e in errors), errors
        assert not any("Practising as" in plain(s.value) for s in at.sidebar.success)
        assert "learner" not in at.query_params


def arc_kinds_drawn(at: AppTest) -> dict[tuple[int, int], str]:
    """The arcs of the arc diagram on the page: (head, dependent) → the kind it is drawn as."""
    [svg] = [m.value for m in at.markdown if "arc-diagram" in m.value]
    found = re.findall(r'class="arc" data-kind="(\w+)" data-head="(\d+)" data-dep="(\d+)"', svg)
    return {(int(h), int(d)): kind for kind, h, d in found}


@pytest.mark.parametrize("kind", ["crossing-arcs", "which-systems"])
def test_a_question_about_the_tree_draws_the_gold_tree_plainly_until_answered(kind: str) -> None:
    """A non-projective tree in arc-hybrid: nothing on the picture names the arc that crosses."""
    spec = ex.ItemSpec(kind, "found-best-example-ever", "arc-hybrid", level=3)
    item = item_of(spec)
    at = practice(items=ex.encode_set([spec]))
    drawn = arc_kinds_drawn(at)
    assert set(drawn) == set(item.sentence.gold_arcs) and len(set(drawn.values())) == 1
    svg = next(m.value for m in at.markdown if "arc-diagram" in m.value)
    assert "lost" not in svg and "reachable" not in svg and "✕" not in svg
    answer(at, item, item.key)
    assert "✕" in next(m.value for m in at.markdown if "arc-diagram" in m.value) or kind == "which-systems"


def test_the_lessons_page_signs_the_same_learner_in_from_the_address(database: str) -> None:
    store = open_store(database)
    ada = store.register("ada")
    token = store.sign_in_token(ada)
    store.close()
    at = AppTest.from_file(str(PAGE.parents[1] / "pages" / "lessons.py"), default_timeout=TIMEOUT)
    at.query_params["learner"] = token
    run(at)
    assert at.session_state["practice.learner"] == ada
