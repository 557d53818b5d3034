"""The Oracle lab's experiments: one implementation, two printers.  The lab job's records sum to
the very rows the benchmark prints (same seed, same walks); its confusions are real and open at
their configuration; its process writes records as it goes and stops on SIGTERM."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import parsing_core as pc
from benchmarks.oracles import agreement_table_rows
from parsing_core.experiments.agreement import AgreementRow, agreement_rows
from parsing_core.experiments.job import Stop, run
from parsing_core.experiments.lab import (
    BaselineRecord,
    LabEnd,
    LabSpec,
    LabStart,
    SentenceRecord,
    SpeedRecord,
    read_lab_record,
    summary_of,
)
from parsing_core.experiments.lab_runs import agreement_records, speed_records
from parsing_core.oracles import min_cost_moves
from parsing_core.synthetic import synthetic_treebank
from server.jobs import JobBoard, TrainingJob
from ui.lab.agreement_view import confusion_table
from ui.lab.sentence_view import compare_oracles, read_link
from ui.lab.speed_view import fitted_slope, speed_table
from ui.lab.systems_view import aligned, derivation, step_counts
from ui.views.sources import custom_key, sentence_from_key
from ui.views.state import StepperState

CORPUS = synthetic_treebank(40, nonprojective_rate=0.4, seed=7, max_len=12)
LIMIT = 12


def tiny_treebank(folder: Path, name: str = "xx_teach") -> Path:
    """The teaching sentences as a treebank of our own (train and dev)."""
    folder.mkdir(parents=True, exist_ok=True)
    for split in ("train", "dev"):
        pc.write_conllu(pc.teaching_sentences(), folder / f"{name}-ud-{split}.conllu")
    return folder


def job_records(rows: list[AgreementRow], seed: int) -> list[list[SentenceRecord]]:
    """The job's generator, walked over each benchmark row's sentences in the benchmark's order."""
    rnd = random.Random(seed)
    out = []
    for row in rows:
        chosen = [(i, s) for i, s in enumerate(CORPUS) if s.is_projective == row.projective][:LIMIT]
        out.append(list(agreement_records(row.system, row.approx, row.exact, chosen, 0.1, rnd)))
    return out


def test_the_jobs_records_sum_to_the_benchmarks_rows(capsys: pytest.CaptureFixture[str]) -> None:
    rows = list(agreement_rows({"toy": CORPUS}, LIMIT, random.Random(3)))
    assert {r.system for r in rows} == {"arc-standard", "arc-eager-corrected"}
    for row, records in zip(rows, job_records(rows, 3), strict=True):
        assert summary_of(records, row.projective) == row.summary  # to the last bit
        assert summary_of(records, not row.projective).configurations == 0
    printed = agreement_table_rows({"toy": CORPUS}, LIMIT, random.Random(3))  # the benchmark's printer
    for line, records in zip(printed, job_records(rows, 3), strict=True):
        summary = summary_of(records, line[3] == "projective")
        assert line[5] == summary.configurations
        assert line[6] == " / ".join(f"{x:.2f}" for x in summary.shares)
        assert line[7] == f"{summary.rho_mean:.3f} ± {summary.rho_sd:.3f}"


def test_every_confusion_is_a_configuration_where_the_optimal_sets_differ() -> None:
    sentences = [(i, s) for i, s in enumerate(pc.teaching_sentences())]
    records = list(agreement_records("arc-standard", "thesis-approx", "exact", sentences, 0.1,
                                     random.Random(0)))
    system = pc.get_system("arc-standard")
    approx, exact = pc.get_oracle(system, "thesis-approx"), pc.get_oracle(system, "exact")
    seen = [(r.index, c) for r in records for c in r.confusions]
    assert seen, "the teaching set has non-projective trees: some confusions are expected"
    for index, confusion in seen:
        s = sentences[index][1]
        c = pc.replay(system, s, confusion.moves.split(".") if confusion.moves else []).final
        a, e = approx.costs(c, s), exact.costs(c, s)
        assert set(min_cost_moves(a)) != set(min_cost_moves(e))
        assert confusion.exact == "{" + ", ".join(t.kind for t in sorted(min_cost_moves(e))) + "}"


def test_a_confusion_row_links_to_its_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tiny_treebank(tmp_path / "data")
    monkeypatch.setenv("PARSING_DATA_DIR", str(folder))  # a link may name only the server's folders
    spec = LabSpec("xx_teach", "train", None, sentences=29)
    records = list(agreement_records(spec.system, spec.approx, spec.exact,
                                     list(enumerate(pc.load_treebank("xx_teach", "train", folder))), 0.1,
                                     random.Random(0)))
    table = confusion_table(records, spec)
    assert table["configurations"].tolist() == sorted(table["configurations"], reverse=True)
    assert table["configurations"].sum() == sum(len(r.confusions) for r in records)  # fewer than 10 kinds
    first = table.iloc[0]
    state, problems = read_link(f"http://host/{first['example']}")
    assert problems == []
    assert (state.system, state.oracle, state.compare) == ("arc-standard", "thesis-approx", "exact")
    s = sentence_from_key(state.sentence)
    assert s == pc.load_treebank("xx_teach", "train", folder)[int(first["sentence"])]
    c = pc.replay(state.make_system(), s, state.taken()).final
    oracles = compare_oracles(state)
    assert oracles.configuration == c
    assert "≠ optimal" in oracles.frame["disagree"].tolist()


def test_the_search_oracle_judges_the_others() -> None:
    s = pc.Sentence.from_heads(list("abcd"), [3, 4, 0, 3])  # 3→1 crosses 4→2
    system = pc.get_system("arc-standard")
    approx, search = pc.get_oracle(system, "thesis-approx"), pc.get_oracle(system, "search")
    wrong = [moves for moves, c in every_configuration(system, s) if approx.costs(c, s) != search.costs(c, s)]
    assert wrong, "the approximation is wrong somewhere on this crossing tree"
    table = compare_oracles(StepperState(custom_key(s), "arc-standard", moves=wrong[0], cursor=len(wrong[0])))
    assert table.verdicts["exact"].startswith("right")
    assert table.verdicts["thesis-approx"].startswith("wrong cost")
    assert table.frame["disagree"].ne("").any()
    assert set(table.skipped) == {"static"}


def every_configuration(system: pc.TransitionSystem, s: pc.Sentence
                        ) -> list[tuple[tuple[str, ...], pc.Configuration]]:
    """Every non-final configuration reachable from the start, with moves that reach it."""
    seen: dict[pc.Configuration, tuple[str, ...]] = {}
    todo: list[tuple[tuple[str, ...], pc.Configuration]] = [((), system.initial(s))]
    while todo:
        moves, c = todo.pop()
        if c in seen or system.is_terminal(c):
            continue
        seen[c] = moves
        todo += [((*moves, str(t)), system.apply(c, t)) for t in system.legal(c)]
    return [(moves, c) for c, moves in seen.items()]


# -- the job's process ----------------------------------------------------------------------------


def test_a_lab_job_writes_its_records_and_ends(tmp_path: Path) -> None:
    folder = tiny_treebank(tmp_path / "data")
    spec = LabSpec("xx_teach", "dev", str(folder), sentences=10, speed=True, lengths=(5, 10, 20), samples=3,
                   baseline_lengths=(6, 8))
    job = JobBoard(tmp_path / "jobs").start("lab", spec)
    wait(lambda: job.status() != "running", 50)
    assert job.status() == "finished", job.failure()
    records = job.events()
    assert records[0] == LabStart(10, 0)
    assert [r.index for r in records if isinstance(r, SentenceRecord)] == list(range(10))
    speeds = [r for r in records if isinstance(r, SpeedRecord)]
    assert {(r.oracle, r.n) for r in speeds} == {(o, n) for o in ("search", "exact", "thesis-approx")
                                                  for n in (5, 10, 20)}
    notes = {r.oracle: r.note for r in speeds if r.n == 20}  # the teaching set has no 20-token sentence
    assert notes == {"search": "refused (> 14 tokens)", "exact": "no sentence of about this length",
                     "thesis-approx": "no sentence of about this length"}
    assert [r.tokens for r in records if isinstance(r, BaselineRecord)] == [6, 8]
    assert isinstance(records[-1], LabEnd) and not records[-1].stopped
    assert json.loads(job.checkpoint.read_text())["records"] == len(records) - 1
    table = speed_table(records, "arc-standard")
    assert table.columns.tolist() == ["oracle", "n=5", "n=10", "n=20", "fitted slope", "claimed growth"]
    assert table.set_index("oracle")["claimed growth"].to_dict() == {
        "search": "exponential", "exact": "cubic", "thesis-approx": "linear"}


def test_sigterm_stops_a_lab_job_after_the_record_in_progress(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    pc.write_conllu(synthetic_treebank(3000, nonprojective_rate=0.3, seed=1, max_len=30),
                    folder / "xx_long-ud-train.conllu")
    job = JobBoard(tmp_path / "jobs").start("lab", LabSpec("xx_long", folder=str(folder), sentences=3000))
    wait(lambda: sum(isinstance(r, SentenceRecord) for r in safe_events(job)) >= 3, 40)
    job.stop()
    assert job.status() == "stopped"
    records = job.events()
    walked = [r for r in records if isinstance(r, SentenceRecord)]
    assert 3 <= len(walked) < 3000
    assert records[-1] == LabEnd(records[-1].seconds, True)  # type: ignore[union-attr]


def safe_events(job: TrainingJob) -> list[object]:
    return job.events() if job.log.exists() else []


def wait(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.2)


def test_a_stop_asked_ends_the_job_at_the_next_record(tmp_path: Path) -> None:
    folder = tiny_treebank(tmp_path / "data")
    stop = Stop()
    stop.asked = True  # as if SIGTERM came while the treebank was loading
    log, out = tmp_path / "log.jsonl", tmp_path / "out.json"
    run(LabSpec("xx_teach", folder=str(folder), sentences=5), log, out, stop)
    records = [read_lab_record(json.loads(line)) for line in log.read_text().splitlines()]
    assert records[0] == LabStart(5, 0)
    assert records[1:] == [LabEnd(records[-1].seconds, True)]  # type: ignore[union-attr]
    assert json.loads(out.read_text()) == {"records": 1, "stopped": True}


# -- speed, Algorithm 1, two systems ----------------------------------------------------------------


def test_speed_records_say_where_the_search_oracle_refuses() -> None:
    records = list(speed_records("arc-eager", CORPUS, (4, 8, 11), 2, random.Random(0)))
    search = {r.n: r for r in records if r.oracle == "search"}
    assert search[11].ms is None and search[11].note.startswith("refused (> 10")
    assert search[4].ms is not None and search[4].ms > 0
    assert [r.oracle for r in records] == ["search"] * 3 + ["goldberg-nivre"] * 3


def test_fitted_slope_reads_the_power_off_a_log_log_line() -> None:
    assert fitted_slope([(n, 0.5 * n) for n in (5, 10, 40)]) == pytest.approx(1.0)
    assert fitted_slope([(n, 2e-3 * n ** 3) for n in (5, 10, 40)]) == pytest.approx(3.0)
    assert fitted_slope([(n, 0.02) for n in (5, 10, 40)]) == pytest.approx(0.0)


def test_two_systems_are_aligned_by_the_arc_each_step_builds() -> None:
    s = next(x for x in CORPUS if x.is_projective and x.n >= 6)
    a, b = derivation("arc-standard", s), derivation("arc-hybrid", s)
    table = aligned(a, b)
    assert len(table) == s.n  # every gold arc once: both static oracles build the gold tree
    assert set(table["gold"]) == {"yes"}
    assert sorted(table["arc-standard step"]) == sorted(table["arc-standard step"].unique())
    assert step_counts([a, b])["steps"].tolist() == [2 * s.n, 2 * s.n]
