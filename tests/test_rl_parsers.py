"""benchmarks.rl_parsers: Table 8.1's protocol, run in miniature on a synthetic treebank.

Every regime must train (configurations taught, a DQN saved and judged for imitation) and
land in the table with scores that are percentages; a treebank without a dev split must hold
dev out of train without overlap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.rl_parsers import REGIMES, Corpus, Outcome, Protocol, load_corpus, results_table, run_protocol
from parsing_core.conllu_io import write_conllu
from parsing_core.model import ModelConfig
from parsing_core.rl import RLConfig
from parsing_core.synthetic import synthetic_treebank

UPDATES = 20
#: Table 8.1's four ways to teach the parser: (regime, oracle), in the table's order.
EXPECTED = [("imitation", "dqn"), ("dynamic", "exact"), ("dynamic", "thesis-approx"), ("static", "static")]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    train = synthetic_treebank(24, 0.3, seed=1, max_len=8)
    held = synthetic_treebank(12, 0.3, seed=2, max_len=8)
    corpora = {"toy": Corpus("toy", train, held[:6], held[6:])}
    rl = RLConfig(updates=UPDATES, slots=4, batch_size=16, learn_start=16, report_every=10, eval_every=0,
                  track_agreement=False)
    models = tmp_path_factory.mktemp("dqn")
    protocol = Protocol(epochs=1, model=ModelConfig.preset("tiny"), rl=rl, models=str(models))
    return run_protocol(corpora, protocol, seeds=[1], workers=1)


def test_every_regime_trains_once_and_scores_a_fraction(outcomes: list[Outcome]) -> None:
    assert sorted((o.task.regime.regime, o.task.regime.oracle) for o in outcomes) == sorted(EXPECTED)
    for o in outcomes:
        assert o.steps > 0, o.task  # configurations were taught
        assert 0 <= o.las <= o.uas <= 1
        assert o.best_epoch == 1


def test_imitation_trains_and_judges_its_dqn(outcomes: list[Outcome]) -> None:
    (imitation,) = [o for o in outcomes if o.task.regime.regime == "imitation"]
    assert imitation.dqn is not None and imitation.dqn.update == UPDATES
    assert imitation.dqn.configurations > 0 and 0 <= imitation.dqn.agreement <= 1
    assert all(o.dqn is None for o in outcomes if o is not imitation)


def test_the_table_has_a_row_per_regime_with_percentages(outcomes: list[Outcome]) -> None:
    lines = results_table(outcomes, ["toy"]).splitlines()
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
    assert [(r[0], r[2]) for r in rows] == [("toy", oracle) for _, oracle in EXPECTED]
    assert [r[1] for r in rows] == [r.name for r in REGIMES]
    for row in rows:
        uas, las = float(row[3]), float(row[4])  # one seed: no ± sd
        assert 0 <= las <= uas <= 100


def test_a_treebank_without_dev_holds_dev_out_of_train(tmp_path: Path) -> None:
    sentences = synthetic_treebank(40, seed=5, max_len=6)
    write_conllu(sentences, tmp_path / "xx_toy-ud-train.conllu")
    write_conllu(sentences[:5], tmp_path / "xx_toy-ud-test.conllu")
    corpus = load_corpus("xx_toy", folder=str(tmp_path))
    assert len(corpus.dev) == 4 and len(corpus.train) == 36 and "held out" in corpus.dev_note
    assert not {s.sent_id for s in corpus.dev} & {s.sent_id for s in corpus.train}
