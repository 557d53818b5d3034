"""Tagged records and spec files round-trip through JSON, one codec for all (parsing_core.records).

Every kind of line the three logs know (a training run's, a DQN run's, an oracle-lab run's) is
built with a value for each field, written as a JSON line and read back by its log's reader; the
result must equal the record.  The specs are saved and loaded the same way.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping

import pytest

from parsing_core.errors import ParsingCoreError
from parsing_core.experiments.lab import _KINDS as LAB_KINDS
from parsing_core.experiments.lab import Confusion, LabSpec, read_lab_record
from parsing_core.model import DataSpec, TrainConfig, TrainSpec
from parsing_core.model.config import ModelConfig
from parsing_core.model.events import EVENTS, read_event
from parsing_core.records import TaggedRecord, load_spec, read_tagged, save_spec, tags
from parsing_core.rl.config import RLConfig, RLSpec
from parsing_core.rl.events import RL_EVENTS, read_rl_event

SAMPLES: dict[object, object] = {
    int: 3, float: 0.25, str: "cpu", bool: True, float | None: 0.5, int | None: 4,
    TrainConfig: TrainConfig(epochs=2), ModelConfig: ModelConfig(), RLConfig: RLConfig(),
    Mapping[float, int]: {50.0: 2, 100.0: 1}, tuple[float, ...]: (1.0, 0.5),
}
LOGS = [(EVENTS, read_event), (RL_EVENTS, read_rl_event), (LAB_KINDS, read_lab_record)]
KINDS = [(kind, read) for table, read in LOGS for kind in table.values()]


def sample(kind: type[TaggedRecord]) -> TaggedRecord:
    """A record of ``kind`` with a value in every field (a lab walk with one confusion)."""
    hints = typing.get_type_hints(kind)
    values = {}
    for f in dataclasses.fields(kind):
        hint = hints[f.name]
        if hint == tuple[Confusion, ...]:
            values[f.name] = (Confusion(**{c.name: SAMPLES[typing.get_type_hints(Confusion)[c.name]]
                                           for c in dataclasses.fields(Confusion)}),)
        else:
            values[f.name] = SAMPLES[hint]
    return kind(**values)


@pytest.mark.parametrize("kind, read", KINDS, ids=lambda k: getattr(k, "event", ""))
def test_every_record_round_trips_through_a_json_line(kind, read):
    record = sample(kind)
    line = json.loads(json.dumps(record.to_json()))
    assert line["event"] == kind.event
    assert read(line) == record


def test_the_three_logs_share_the_codec():
    assert all(issubclass(kind, TaggedRecord) for kind, _ in KINDS)
    assert len({kind.event for kind, _ in KINDS}) == len(KINDS), "a tag names one kind of line in all logs"


@pytest.mark.parametrize("read", [read for _, read in LOGS])
def test_an_unknown_tag_is_refused(read):
    with pytest.raises(ParsingCoreError, match="unknown .*'lunch'"):
        read({"event": "lunch"})


def test_a_missing_field_without_default_is_an_error_and_unknown_keys_are_ignored():
    kinds = tags(*(kind for kind, _ in KINDS))
    line = sample(kinds["lab_end"]).to_json()
    assert read_tagged(kinds, line | {"later": 1}, "lab log") == sample(kinds["lab_end"])
    with pytest.raises(KeyError):
        read_tagged(kinds, {"event": "lab_end", "seconds": 1.0}, "lab log")


@pytest.mark.parametrize("spec", [TrainSpec(DataSpec(synthetic=10), "arc-eager", TrainConfig(epochs=2)),
                                  RLSpec(DataSpec(synthetic=20)), LabSpec("en_lines", sentences=5)],
                         ids=["train", "rl", "lab"])
def test_specs_are_saved_and_loaded_back(tmp_path, spec):
    path = save_spec(spec, tmp_path / "spec.json")
    assert load_spec(type(spec).from_json, path, "spec") == spec
    assert path.read_text(encoding="utf-8").startswith("{\n  ")  # indented, for a person to read


def test_an_unreadable_spec_names_what_it_should_be(tmp_path):
    (tmp_path / "spec.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ParsingCoreError, match="cannot read the training spec"):
        TrainSpec.load(tmp_path / "spec.json")
    with pytest.raises(ParsingCoreError, match="cannot read the RL spec"):
        RLSpec.load(tmp_path / "missing.json")
