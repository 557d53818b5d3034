"""The Oracle lab page: a tiny agreement run started from the page goes to its end in its own
process, and the page shows its table (beside nothing from the thesis: the treebank is ours), its
plots, its confusions with stepper links, and its timings; the other two views answer."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import parsing_core as pc
from parsing_core.experiments.lab import LabSpec, SentenceRecord
from parsing_core.synthetic import synthetic_treebank
from server.jobs import JobBoard
from tests.conftest import Server
from tests.test_lab_experiments import tiny_treebank
from ui.views.safe_text import inert
from ui.views.training import jobs_root


@pytest.fixture
def lab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path / "jobs"))
    monkeypatch.setenv("PARSING_DATA_DIR", str(tiny_treebank(tmp_path / "data")))
    return AppTest.from_file("../pages/lab.py", default_timeout=60).run()


def open_view(at: AppTest, view: str) -> AppTest:
    """Choose a view of the page, as a click on its tab does (only the open view is drawn)."""
    at.session_state["lab.view"] = view
    at.run()
    assert not at.exception, at.exception
    return at


def plots(at: AppTest) -> list[str]:
    """The titles of the plotly figures on the page."""
    return [json.loads(p.proto.spec)["layout"]["title"]["text"] for p in at.get("plotly_chart")]


def test_a_tiny_agreement_run_goes_to_its_end_and_shows_its_results(lab: AppTest) -> None:
    at = lab
    assert not at.exception
    assert at.selectbox(key="lab.treebank").value == "xx_teach:train"
    assert (at.selectbox(key="lab.approx").value, at.selectbox(key="lab.exact").value) == ("thesis-approx",
                                                                                             "exact")
    at.number_input(key="lab.budget").set_value(29)
    at.checkbox(key="lab.speed").check()
    at.button(key="lab.start").click().run()
    (job,) = JobBoard(jobs_root() / "lab").jobs()
    deadline = time.time() + 45
    while job.status() == "running":
        assert time.time() < deadline, "the run did not end"
        time.sleep(0.3)
    at.run()
    assert not at.exception
    assert job.status() == "finished", job.failure()
    assert any("29 of 29 sentences walked" in c.value for c in at.caption)
    table = at.dataframe[0].value
    assert table["gold trees"].tolist() == ["projective (this run)", "non-projective (this run)"]  # no thesis
    assert table["sentences"].sum() == 29
    assert any("no xx_teach rows" in c.value for c in at.caption)
    titles = plots(at)
    assert "Inclusion of the first oracle's optimal set in the second's" in titles
    assert "Spearman's ρ between the two oracles' costs, per configuration" in titles
    assert "Time per configuration against sentence length (log–log)" not in titles  # another view's
    confusions = next(m.value for m in at.markdown if m.value.startswith("| exact | thesis-approx |"))
    assert "](stepper?s=treebank%3Axx_teach%3Atrain%3A" in confusions
    read_out_in_words(at, table)
    examples_in_words(confusions)
    open_view(at, "Speed and growth")  # the same run's timings, in the view only it draws
    assert "Time per configuration against sentence length (log–log)" in plots(at)
    assert "Algorithm 1" in " ".join(m.value for m in at.markdown)
    assert at.session_state["lab.run"] == job.folder.name


def read_out_in_words(at: AppTest, table: pd.DataFrame) -> None:
    """One sentence per kind of gold tree, with this run's numbers; the buckets defined; no README."""
    for _, row in table.iterrows():
        gold = row["gold trees"].removesuffix(" (this run)")
        said = next(m.value for m in at.markdown if m.value.startswith(f"On {gold} gold trees"))
        every = f"{float(row['100']):.1f} %"
        compared = f"{int(row['configs']):,} configurations compared"
        assert f"in **{every}** of the {compared} every move thesis-approx calls optimal really is optimal " \
               "for exact" in said
        assert "none" in said and "The two rank the moves" in said and f"mean ρ {row['ρ mean']}" in said
    assert any("**Buckets.**" in m.value and "**0**: none" in m.value for m in at.markdown)
    assert not any("README" in m.value for m in at.markdown)


def examples_in_words(confusions: str) -> None:
    """Each confusion names its sentence in words, not by its number in the treebank."""
    words = [" ".join(s.words) for s in pc.teaching_sentences()]  # the tiny treebank's sentences
    rows = confusions.splitlines()[2:]
    assert rows
    for row in rows:
        sentence = row.split(" | ")[4]
        assert sentence.startswith("“") and any(w.startswith(unescaped(sentence).strip("“”…")) for w in words)


def unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def test_a_run_started_elsewhere_is_listed_and_failed_runs_say_why(lab: AppTest, tmp_path: Path) -> None:
    job = JobBoard(jobs_root() / "lab").start("broken", LabSpec("xx_none", folder=str(tmp_path / "data")))
    deadline = time.time() + 30
    while job.status() == "running":
        assert time.time() < deadline
        time.sleep(0.2)
    at = lab.run()
    assert at.selectbox(key="lab.run").value == job.folder.name
    assert any("This run failed" in e.value and "xx_none" in e.value for e in at.error)


def test_one_sentence_every_oracle_from_a_stepper_link(lab: AppTest) -> None:
    at = open_view(lab, "One sentence, every oracle")
    link = "http://h/stepper?s=he-sent-her-a-letter&sys=arc-eager&moves=SH.LA"
    at.text_input(key="lab.one.link").input(link).run()
    assert not at.exception
    frame = next(d.value for d in at.dataframe if "goldberg-nivre" in d.value.columns)
    assert frame.columns.tolist() == ["move", "search", "goldberg-nivre", "disagree"]
    assert any(inert("goldberg-nivre") in m.value and "right" in m.value for m in at.markdown)


def test_one_sentence_picked_with_labelled_arcs_opens_a_labelled_stepper(lab: AppTest) -> None:
    """The "Labelled arcs" switch of the pickers reaches the configuration and its stepper link."""
    at = open_view(lab, "One sentence, every oracle")
    at.selectbox(key="lab.one.system").set_value("arc-eager").run()
    at.toggle(key="lab.one.labelled").set_value(True).run()
    at.text_input(key="lab.one.moves").input("SH.LA:nsubj").run()
    assert not at.exception
    (link,) = [b.proto.url for b in at.get("link_button") if "stepper" in b.proto.url]
    assert "sys=arc-eager" in link and "lab=1" in link and "moves=SH.LA%3Ansubj" in link


def test_two_systems_side_by_side(lab: AppTest) -> None:
    at = open_view(lab, "Two systems side by side")
    counts = next(d.value for d in at.dataframe if "steps" in d.value.columns)
    s = pc.teaching_sentences()[0]
    assert counts["system"].tolist() == ["arc-standard", "arc-eager"]
    assert counts["steps"].iloc[0] == 2 * s.n
    assert "When each arc is built" in plots(at)


def test_a_running_job_shows_its_progress_and_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run too long to end by itself: its progress and Stop show while it runs; Stop ends it,
    and the page then shows it stopped, with what it had measured."""
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path / "jobs"))
    data = tmp_path / "data"
    data.mkdir()
    pc.write_conllu(synthetic_treebank(3000, nonprojective_rate=0.3, seed=2, max_len=30),
                    data / "xx_long-ud-train.conllu")
    monkeypatch.setenv("PARSING_DATA_DIR", str(data))
    at = AppTest.from_file("../pages/lab.py", default_timeout=60).run()
    at.number_input(key="lab.budget").set_value(3000)
    at.button(key="lab.start").click().run()
    (job,) = JobBoard(jobs_root() / "lab").jobs()
    deadline = time.time() + 30
    while sum(1 for r in (job.events() if job.log.exists() else []) if isinstance(r, SentenceRecord)) < 2:
        assert time.time() < deadline, "no walk recorded"
        time.sleep(0.2)
    at.run()
    assert job.status() == "running"
    (bar,) = at.get("progress")
    assert "of 3000 sentences walked" in bar.proto.text
    at.button(key=f"lab.stop.{job.folder.name}").click().run()
    assert job.status() == "stopped"
    assert any("This run is stopped" in c.value for c in at.caption)
    assert at.dataframe[0].value["sentences"].sum() < 3000


def test_a_ud_treebank_downloaded_by_name_can_be_chosen(lab: AppTest, tmp_path: Path, server: Server,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSING_UD_URL", server.base_url)
    monkeypatch.setenv("PARSING_CACHE_DIR", str(tmp_path / "cache"))
    text = pc.write_conllu(pc.teaching_sentences())
    for split in ("train", "dev"):
        server.files[f"/UD_English-LinES/master/en_lines-ud-{split}.conllu"] = text.encode()
    lab.radio(key="lab.source").set_value("ud").run()
    lab.button(key="lab.download").click().run()
    assert not lab.exception
    assert lab.selectbox(key="lab.treebank").options == ["en_lines train", "en_lines dev"]
