"""The DQN oracle's parts (parsing_core.rl), each against what it must be.

* the dueling head: Q = V + A − mean A;
* prioritised replay: draws ∝ priority^α (a χ² test, fixed seed, with a negative control),
  importance weights (N · P(i))^−β / max, per sample;
* masking: an illegal move is never chosen (greedy or exploring) and never bootstrapped from,
  however large its Q; the target is detached from the online network;
* rewards are read before the move: the exact reward is −cost of the configuration stepped
  from, and the thesis's reward does not punish shifting the last word;
* checkpoints load with ``weights_only=True``; the learned oracle is reachable by name, listed
  only with a default model, and never ranked.
"""

from __future__ import annotations

import json
import math
import random
from statistics import NormalDist

import numpy as np
import pytest
import torch

import parsing_core as pc
from parsing_core.model.config import DataSpec
from parsing_core.oracles import ranked
from parsing_core.rl import RLConfig, RLEvalEvent, RLSpec, RLStartEvent, load_dqn, read_rl_event, save_dqn
from parsing_core.rl.agent import Learner
from parsing_core.rl.cli import main
from parsing_core.rl.env import Environment, cost_vector
from parsing_core.rl.features import FeatureSpec
from parsing_core.rl.network import DuelingQNetwork
from parsing_core.rl.replay import PrioritizedReplay, SumTree
from parsing_core.rl.rewards import Previous, thesis_reward
from parsing_core.synthetic import synthetic_treebank
from server.jobs import RL, JobBoard, kind_of_spec

SYSTEM = pc.get_system("arc-standard")
SHORT = synthetic_treebank(30, seed=3, max_len=8)


def chi2_critical(dof: int, p: float = 0.001) -> float:
    """The upper-p quantile of χ² with ``dof`` degrees of freedom (Wilson–Hilferty)."""
    z, k = NormalDist().inv_cdf(1 - p), dof
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def chi2(counts: np.ndarray, shares: np.ndarray) -> float:
    expected = shares / shares.sum() * counts.sum()
    return float(((counts - expected) ** 2 / expected).sum())


# -- the network ---------------------------------------------------------------------------------
def test_q_is_value_plus_advantage_minus_mean_advantage() -> None:
    torch.manual_seed(0)
    net = DuelingQNetwork(FeatureSpec().size, hidden=16)
    x = torch.randn(5, FeatureSpec().size)
    v, a = net.streams(x)
    assert torch.allclose(net(x), v + a - a.mean(dim=1, keepdim=True))
    assert torch.allclose((net(x) - v).mean(dim=1), torch.zeros(5), atol=1e-6)


def test_the_thesis_features_have_153_values() -> None:
    assert FeatureSpec(window=10, history=5).size == 153 and FeatureSpec().size == 143


# -- prioritised replay --------------------------------------------------------------------------
PRIORITIES = np.array([0.1, 0.5, 1.0, 2.0, 4.0, 0.3, 0.05, 3.0, 1.5, 0.7, 2.5, 0.2, 0.9, 1.2, 6.0, 0.4])


def test_the_sum_tree_draws_in_proportion_to_its_leaves() -> None:
    rng = np.random.default_rng(7)
    tree = SumTree(len(PRIORITIES))
    tree.update(np.arange(len(PRIORITIES)), PRIORITIES)
    leaves = tree.find(rng.random(40_000) * tree.total)
    counts = np.bincount(leaves, minlength=len(PRIORITIES))
    limit = chi2_critical(len(PRIORITIES) - 1)
    assert chi2(counts, PRIORITIES) < limit
    assert chi2(counts, np.ones_like(PRIORITIES)) > limit  # the test can tell: uniform is rejected


@pytest.mark.parametrize("alpha", [0.5, 0.9])
def test_replay_draws_in_proportion_to_priority_to_the_alpha(alpha: float) -> None:
    n = len(PRIORITIES)
    replay = PrioritizedReplay(n, 4, 3, alpha, np.random.default_rng(11))
    replay.add(np.zeros((n, 4)), np.zeros(n, dtype=int), np.zeros(n), np.zeros((n, 4)), np.ones((n, 3), bool),
               np.zeros(n, bool))
    replay.update(np.arange(n), PRIORITIES - replay.epsilon)  # priorities |δ| + ε = PRIORITIES
    counts = np.zeros(n)
    for _ in range(400):
        counts += np.bincount(replay.sample(64, beta=0.5).index, minlength=n)
    limit = chi2_critical(n - 1)
    assert chi2(counts, PRIORITIES ** alpha) < limit
    assert chi2(counts, PRIORITIES) > limit  # α is applied: raw priorities are rejected


def test_importance_weights_are_per_sample() -> None:
    n, beta = len(PRIORITIES), 0.6
    replay = PrioritizedReplay(n, 4, 3, 1.0, np.random.default_rng(0))
    replay.add(np.zeros((n, 4)), np.zeros(n, dtype=int), np.zeros(n), np.zeros((n, 4)), np.ones((n, 3), bool),
               np.zeros(n, bool))
    replay.update(np.arange(n), PRIORITIES - replay.epsilon)
    sample = replay.sample(32, beta)
    p = PRIORITIES[sample.index] / PRIORITIES.sum()
    w = (n * p) ** -beta
    assert np.allclose(sample.weights, w / w.max(), rtol=1e-5) and len(set(sample.weights.round(6))) > 1


# -- masking and targets -------------------------------------------------------------------------
def learner_preferring(action: int, value: float = 1000.0) -> Learner:
    """A learner whose every network puts ``value`` on ``action`` and about 0 elsewhere."""
    learner = Learner(RLConfig(gamma=0.9, average=2), FeatureSpec().size, torch.device("cpu"))
    for net in (learner.online, *learner.snapshots):
        with torch.no_grad():
            for p in net.parameters():
                p.zero_()
            net.advantage.bias[action] = value
    return learner


def test_masked_moves_are_never_chosen() -> None:
    learner = learner_preferring(2)  # RA
    rng = np.random.default_rng(0)
    legal = rng.random((500, 3)) < 0.5
    legal[:, 2] = False  # the favourite is never legal
    legal[~legal.any(1), 0] = True
    states = np.zeros((500, FeatureSpec().size), dtype=np.float32)
    for epsilon in (0.0, 0.5, 1.0):
        actions, best = learner.act(states, legal, epsilon, rng)
        assert legal[np.arange(500), actions].all() and legal[np.arange(500), best].all()


def test_masked_moves_are_never_bootstrapped_and_ends_are_not_bootstrapped_at_all() -> None:
    learner = learner_preferring(2)
    q = learner.online(torch.zeros(1, FeatureSpec().size))[0]
    x = torch.zeros(3, FeatureSpec().size)
    masks = torch.tensor([[True, True, False], [False, True, False], [False, False, False]])
    y = learner.targets(torch.tensor([-1.0, -2.0, -3.0]), x, masks, torch.tensor([False, False, True]))
    expected = torch.tensor([-1.0 + 0.9 * q[:2].max().item(), -2.0 + 0.9 * q[1].item(), -3.0])
    assert torch.allclose(y, expected) and not y.requires_grad


def test_an_update_moves_the_online_network_only_with_per_sample_weights() -> None:
    config = RLConfig(batch_size=8, target_every=1000)
    env = Environment(SYSTEM, SHORT, 8, config.features, "exact", random.Random(0))
    replay = PrioritizedReplay(64, config.features.size, 3, config.alpha, np.random.default_rng(0))
    learner = Learner(config, config.features.size, torch.device("cpu"))
    for _ in range(4):
        step = env.step(learner.act(env.states, env.masks, 1.0, np.random.default_rng(1))[0])
        replay.add(step.states, step.actions, step.rewards, step.next_states, step.next_masks, step.done)
    replay.update(np.arange(8), np.arange(8.0))  # unequal priorities: unequal weights
    sample = replay.sample(8, beta=1.0)
    i = sample.index
    y = learner.targets(*(torch.as_tensor(a) for a in (replay.rewards[i], replay.next_states[i],
                                                        replay.next_masks[i], replay.done[i])))
    taken = torch.as_tensor(replay.actions[i])[:, None]
    q = learner.online(torch.as_tensor(replay.states[i])).gather(1, taken)
    expected = (torch.as_tensor(sample.weights) * (y - q.squeeze(1)) ** 2).mean().item()
    target_before = [p.clone() for p in learner.snapshots[0].parameters()]
    online_before = [p.clone() for p in learner.online.parameters()]
    assert learner.learn(replay, sample) == pytest.approx(expected, rel=1e-5)
    assert all(torch.equal(a, b) for a, b in zip(target_before, learner.snapshots[0].parameters()))
    assert not all(torch.equal(a, b) for a, b in zip(online_before, learner.online.parameters()))


# -- rewards -------------------------------------------------------------------------------------
def test_the_exact_reward_is_minus_the_cost_before_the_move() -> None:
    env = Environment(SYSTEM, SHORT, 6, FeatureSpec(), "exact", random.Random(2))
    rng = np.random.default_rng(3)
    for _ in range(20):
        before = [(e.c, e.sentence) for e in env.episodes]
        actions = np.where(env.masks, rng.random(env.masks.shape), -1).argmax(1)
        step = env.step(actions)
        exact = pc.get_oracle(SYSTEM, "exact")
        for (c, s), a, r in zip(before, actions, step.rewards):
            assert r == -cost_vector(exact.costs(c, s))[a]


def test_an_episode_returns_minus_the_gold_arcs_it_lost() -> None:
    projective = [s for s in SHORT if s.is_projective]
    env = Environment(SYSTEM, projective[:1], 1, FeatureSpec(), "exact", random.Random(0))
    rng = np.random.default_rng(5)
    for _ in range(3):
        c, s, returns = env.episodes[0].c, env.episodes[0].sentence, []
        while not returns:
            a = int(np.where(env.masks[0], rng.random(3), -1).argmax())
            c = SYSTEM.apply(c, pc.Transition(("SH", "LA", "RA")[a]))
            returns = env.step(np.array([a])).returns
        assert returns[0] == len(c.unlabelled_arcs & s.gold_arcs) - s.n


def test_the_thesis_reward_does_not_punish_shifting_the_last_word() -> None:
    s = pc.Sentence.from_heads("a b".split(), [0, 1])  # ROOT → a → b
    c = pc.replay(SYSTEM, s, ["SH"]).final  # ROOT a | b
    assert thesis_reward(c, "SH", s.gold_heads, Previous("SH", 1.0)) == 1.0  # b is a's right dependent


# -- checkpoints, the oracle, the job ------------------------------------------------------------
def test_a_checkpoint_loads_with_weights_only_and_answers_as_an_oracle(tmp_path) -> None:
    config = RLConfig(hidden=8)
    net = DuelingQNetwork(config.features.size, config.hidden)
    path = save_dqn(tmp_path / "dqn.pt", net, config, {"note": "untrained"})
    payload = torch.load(path, weights_only=True)
    assert payload["format"] == "parsing_core.dqn"
    assert json.loads(payload["config"])["info"]["note"] == "untrained"
    loaded = load_dqn(path)
    x = torch.randn(4, config.features.size)
    assert torch.equal(loaded.network(x), net(x)) and loaded.config == config
    oracle = pc.get_oracle(SYSTEM, "dqn", model=path)
    s = SHORT[0]
    c = pc.replay(SYSTEM, s, ["SH", "SH"]).final
    costs = oracle.costs(c, s)
    assert list(costs) == list(SYSTEM.legal(c)) and min(costs.values()) == 0
    assert oracle.exact_for == "none" and not oracle.is_exact_for(s)


def test_a_file_that_is_not_this_dqn_checkpoint_says_what_it_is(tmp_path) -> None:
    config = RLConfig(hidden=8)
    good = torch.load(save_dqn(tmp_path / "dqn.pt", DuelingQNetwork(config.features.size, 8), config),
                      weights_only=True)
    torch.save({**good, "format": "parsing_core.parser"}, tmp_path / "parser.pt")
    torch.save({**good, "version": 2}, tmp_path / "v2.pt")
    expected = {"missing.pt": "no DQN checkpoint at", "parser.pt": r"a parser checkpoint\? those are loaded",
                "v2.pt": "a version 2 DQN checkpoint; this parsing_core reads version 1"}
    for name, message in expected.items():
        with pytest.raises(pc.ParsingCoreError, match=message):
            load_dqn(tmp_path / name)


def test_the_learned_oracle_is_listed_only_with_a_default_model(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("PARSING_DQN_MODEL", raising=False)
    assert "dqn" not in pc.list_oracles(SYSTEM)
    with pytest.raises(pc.ParsingCoreError, match="needs a trained model"):
        pc.get_oracle(SYSTEM, "dqn")
    config = RLConfig(hidden=8)
    path = save_dqn(tmp_path / "dqn.pt", DuelingQNetwork(config.features.size, 8), config)
    monkeypatch.setenv("PARSING_DQN_MODEL", str(path))
    assert "dqn" in pc.list_oracles(SYSTEM) and "dqn" not in ranked(SYSTEM, need_costs=False)
    assert pc.get_oracle(SYSTEM, "dqn").model.config == config
    assert "dqn" not in pc.list_oracles(pc.get_system("arc-eager"))
    assert "dqn" not in pc.list_oracles(pc.get_system("arc-standard", single_root=True))  # trained on plain


def test_a_saved_run_is_listed_only_for_the_variant_it_can_answer_for(tmp_path, monkeypatch) -> None:
    """A DQN run is listed for the arc-standard variant it was trained on; one reading the last
    moves, or whose settings cannot be read, for none: every name listed can be asked."""
    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    runs = {"20261129-100000-plain": RLConfig(hidden=8),
            "20261129-100001-single": RLConfig(hidden=8, single_root=True),
            "20261129-100002-history": RLConfig(hidden=8, history=3),
            "20261129-100003-unread": RLConfig(hidden=8)}
    for run, config in runs.items():
        folder = tmp_path / "rl" / run
        folder.mkdir(parents=True)
        save_dqn(folder / "model.pt", DuelingQNetwork(config.features.size, 8), config)
        RLSpec(config=config).save(folder / "spec.json")
    (tmp_path / "rl" / "20261129-100003-unread" / "spec.json").write_text("[1, 2]")
    plain, single = SYSTEM, pc.get_system("arc-standard", single_root=True)
    listed = {s: [n for n in pc.list_oracles(s) if n.startswith("dqn:")] for s in (plain, single)}
    assert listed == {plain: ["dqn:20261129-100000-plain"], single: ["dqn:20261129-100001-single"]}
    for system, names in listed.items():
        for name in names:
            assert pc.get_oracle(system, name).model.config == runs[name.removeprefix("dqn:")]
    with pytest.raises(pc.ParsingCoreError, match="trained on single-root arc-standard"):
        pc.get_oracle(plain, "dqn:20261129-100001-single")  # still reachable by name, with the reason


def test_the_welcome_pages_table_names_a_saved_run_without_loading_it(tmp_path, monkeypatch) -> None:
    """The table of every oracle reads titles from the classes: a DQN run saved on the server is
    named there without its model being loaded (which imported torch on the Welcome page)."""
    from parsing_core.rl import oracle as rl_oracle
    from ui.views.tables import oracles_table

    monkeypatch.setenv("PARSING_JOBS_DIR", str(tmp_path))
    folder = tmp_path / "rl" / "20261129-100000-plain"
    folder.mkdir(parents=True)
    config = RLConfig(hidden=8)
    save_dqn(folder / "model.pt", DuelingQNetwork(config.features.size, 8), config)
    RLSpec(config=config).save(folder / "spec.json")
    assert "dqn:20261129-100000-plain" in pc.list_oracles(SYSTEM)

    def refuse(*args: object) -> None:
        raise AssertionError("a model was loaded to be named")

    monkeypatch.setattr(rl_oracle, "_load", refuse)
    table = oracles_table()
    assert rl_oracle.DQNOracle.title in set(table["TITLE"])
    assert pc.oracle_class(SYSTEM, "dqn:20261129-100000-plain") is rl_oracle.DQNOracle
    with pytest.raises(pc.ParsingCoreError, match="unknown oracle 'nope'"):
        pc.oracle_class(SYSTEM, "nope")


def test_a_model_reading_the_last_moves_is_refused_as_an_oracle(tmp_path) -> None:
    config = RLConfig(hidden=8, history=5)
    path = save_dqn(tmp_path / "dqn.pt", DuelingQNetwork(config.features.size, 8), config)
    with pytest.raises(pc.ParsingCoreError, match="last 5 moves"):
        pc.get_oracle(SYSTEM, "dqn", model=path)


def test_the_rl_job_kind_takes_an_rl_spec() -> None:
    spec = RLSpec(config=RLConfig(reward="thesis", updates=7))
    assert kind_of_spec(spec) is RL and RLSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec


def test_the_command_line_trains_logs_and_saves(tmp_path) -> None:
    log, out = tmp_path / "log.jsonl", tmp_path / "dqn.pt"
    code = main(["--synthetic", "20", "--updates", "20", "--slots", "4", "--batch-size", "16",
                 "--learn-start", "16", "--report-every", "10", "--eval-sentences", "4", "--reward", "thesis",
                 "--no-track-agreement", "--log", str(log), "--out", str(out)])
    records = [read_rl_event(json.loads(line)) for line in log.read_text().splitlines()]
    assert code == 0 and [r.event for r in records] == ["rl_start", "rl_progress", "rl_progress", "rl_eval"]
    assert records[1].agreement is None and records[0].config.reward == "thesis"
    assert load_dqn(out).info["final"]["event"] == "rl_eval"


def test_an_rl_job_runs_in_its_own_process_and_reads_back_typed(tmp_path) -> None:
    tiny = RLConfig(updates=10, slots=4, batch_size=16, learn_start=16, report_every=10, eval_sentences=4)
    job = JobBoard(tmp_path).start("dqn", RLSpec(DataSpec(synthetic=20), tiny))
    assert job.process is not None and job.process.wait(120) == 0, job.failure()
    events = job.events()
    assert job.status() == "finished" and job.kind is RL and job.spec().config == tiny
    assert isinstance(events[0], RLStartEvent) and isinstance(events[-1], RLEvalEvent)
    assert load_dqn(job.checkpoint).config == tiny


@pytest.mark.parametrize(("setting", "said"), [
    ({"slots": 0}, "slots must be at least 1"), ({"batch_size": 0}, "batch_size must be at least 1"),
    ({"target_every": 0}, "target_every must be at least 1"), ({"average": 0}, "average must be at least 1"),
    ({"memory": 0}, "memory must be at least 1"), ({"window": 0}, "window must be at least 1"),
    ({"report_every": 0}, "report_every must be at least 1"), ({"gamma": 1.5}, "gamma out of range"),
    ({"device": "gpu"}, "unknown device 'gpu'"),
])
def test_a_setting_no_run_could_go_on_is_refused_by_name(setting: dict[str, object], said: str) -> None:
    """Each of these once ended a run in a traceback (a division by zero, an empty stack of tensors)."""
    with pytest.raises(pc.ParsingCoreError, match=said):
        RLConfig(**setting)  # type: ignore[arg-type]
    assert main(["--synthetic", "4", *[f"--{k.replace('_', '-')}={v}" for k, v in setting.items()]]) == 1
