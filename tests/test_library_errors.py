"""The library's errors are ParsingCoreErrors whose messages name what went wrong and what would be right."""

from __future__ import annotations

import inspect

import pytest

import parsing_core as pc
from parsing_core.errors import ParsingCoreError

# -- get_oracle: unknown options -------------------------------------------------------------


def test_an_unknown_option_names_the_options_the_oracle_takes() -> None:
    system = pc.get_system("arc-eager")
    with pytest.raises(ParsingCoreError) as caught:
        pc.get_oracle(system, "search", policy="sbr")
    assert type(caught.value) is ParsingCoreError  # not a TypeError from the constructor
    message = str(caught.value)
    assert "policy" in message and "max_length" in message and "'search'" in message


def test_an_oracle_without_options_says_so() -> None:
    system = pc.get_system("arc-standard")
    with pytest.raises(ParsingCoreError, match=r"options policy, depth; it takes no options"):
        pc.get_oracle(system, "static", policy="sbr", depth=3)


@pytest.mark.parametrize("system_name", pc.list_systems())
def test_every_oracle_refuses_an_unknown_option_and_accepts_its_own(system_name: str) -> None:
    system = pc.get_system(system_name)
    for name in pc.list_oracles(system):
        with pytest.raises(ParsingCoreError, match="no_such_option"):
            pc.get_oracle(system, name, no_such_option=1)
        cls = type(pc.get_oracle(system, name))
        defaults = inspect.signature(cls.__init__).parameters
        for option in pc.oracles._options_of(cls) or []:  # each option it names is one it takes
            assert isinstance(pc.get_oracle(system, name, **{option: defaults[option].default}), cls)


# -- uas / las: sentences of different lengths -----------------------------------------------


def _pair(sent_id: str | None) -> tuple[list[pc.Sentence], list[pc.Sentence]]:
    first = pc.Sentence.from_heads(["Hi"], [0])
    gold = pc.Sentence.from_heads("He sent her a letter".split(), [2, 0, 2, 5, 2], sent_id=sent_id)
    pred = pc.Sentence.from_heads("He sent her".split(), [2, 0, 2])
    return [first, pred], [first, gold]


def test_a_length_mismatch_names_the_sentence_by_position_and_words() -> None:
    pred, gold = _pair(None)
    with pytest.raises(ParsingCoreError) as caught:
        pc.uas(pred, gold)
    assert str(caught.value) == 'sentence 2 ("He sent her …"): 3 predicted tokens for 5 gold ones'


def test_a_length_mismatch_names_the_sentence_by_its_id() -> None:
    pred, gold = _pair("en-7")
    with pytest.raises(ParsingCoreError) as caught:
        pc.las(pred, gold)
    assert str(caught.value) == "sentence en-7: 3 predicted tokens for 5 gold ones"


def test_a_short_sentence_is_quoted_whole() -> None:
    gold = pc.Sentence.from_heads(["Hi", "!"], [0, 1])
    with pytest.raises(ParsingCoreError) as caught:
        pc.uas(pc.Sentence.from_heads(["Hi"], [0]), gold)
    assert str(caught.value) == 'sentence 1 ("Hi !"): 1 predicted token for 2 gold ones'
