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


# -- what a notebook gets wrong first ---------------------------------------------------------

SENTENCE = pc.default_sentence()
STANDARD = pc.get_system("arc-standard")


def finished() -> pc.Trace:
    return pc.run(STANDARD, SENTENCE, pc.get_oracle(STANDARD, "exact").chooser(SENTENCE))


def test_a_token_outside_1_to_n_is_refused_not_read_from_the_end() -> None:
    """``head(0)`` once read the last token's head (index -1)."""
    assert SENTENCE.word(0) == "ROOT" and SENTENCE.head(SENTENCE.n) == SENTENCE.gold_heads[-1]
    asked = [(0, SENTENCE.head), (0, SENTENCE.label), (-1, SENTENCE.word), (SENTENCE.n + 1, SENTENCE.head)]
    for token, ask in asked:
        with pytest.raises(pc.TreeError, match=rf"no token {token} here: the tokens are 1\.\.{SENTENCE.n}"):
            ask(token)


def test_the_parse_of_an_unlabelled_system_has_no_labels_not_the_word_none() -> None:
    trace = finished()
    predicted = SENTENCE.with_tree(trace.heads, trace.final.labels)
    assert predicted.labels is None and "None" not in pc.write_conllu(predicted)
    assert pc.Sentence.from_heads(["a", "b"], [0, 1], [None, "obj"]).labels == ("_", "obj")


def test_at_the_end_of_a_parse_every_oracle_has_no_costs_and_no_next_move() -> None:
    final = finished().final
    for name in pc.list_oracles(STANDARD):
        oracle = pc.get_oracle(STANDARD, name)
        assert oracle.costs(final, SENTENCE) == {}, name
        with pytest.raises(ParsingCoreError, match="no legal move"):
            oracle.next(final, SENTENCE)


def test_the_cost_of_an_impossible_move_says_why_it_is_impossible() -> None:
    start = STANDARD.initial(SENTENCE)
    with pytest.raises(pc.IllegalTransition, match="LA is not possible here: needs 2 tokens on the stack"):
        pc.get_oracle(STANDARD, "exact").cost(start, SENTENCE, pc.Transition("LA"))
    with pytest.raises(pc.IllegalTransition, match="needs 2 tokens on the stack"):
        STANDARD.arc_of(start, "LA")
    with pytest.raises(ParsingCoreError, match="'RE' is not a move of arc-standard; its moves are SH, LA"):
        STANDARD.move("RE")


def test_labelled_and_unlabelled_moves_sort_together() -> None:
    moves = ["RE:root", "SH", "RE", "LA:obj"]
    assert [str(t) for t in sorted(map(pc.Transition.parse, moves))] == ["LA:obj", "RE", "RE:root", "SH"]


def test_one_sentence_is_written_as_a_list_of_one_and_a_broken_id_is_refused() -> None:
    assert pc.write_conllu(SENTENCE) == pc.write_conllu([SENTENCE])
    broken = pc.Sentence.from_heads(["a"], [0], sent_id="x\ny")
    with pytest.raises(pc.ConlluError, match="sent_id 'x\\\\ny'"):
        pc.write_conllu(broken)


def test_a_system_name_where_a_system_is_needed_says_how_to_get_one() -> None:
    for ask in (lambda: pc.get_oracle("arc-eager", "static"), lambda: pc.list_oracles("arc-eager")):
        with pytest.raises(ParsingCoreError, match=r"get one with pc.get_system\('arc-eager'\)"):
            ask()


def test_a_chooser_s_move_by_name_is_kept_as_a_transition_and_nonsense_is_refused() -> None:
    trace = pc.run(STANDARD, SENTENCE, lambda c, legal: str(legal[0]))
    assert all(isinstance(t, pc.Transition) for t in trace.transitions)
    with pytest.raises(ParsingCoreError, match="a move is a Transition or its name"):
        pc.run(STANDARD, SENTENCE, lambda c, legal: None)


def test_an_oracle_of_another_variant_is_refused_by_reachable_gold_arcs() -> None:
    from parsing_core.oracles import reachable_gold_arcs

    gold = pc.Sentence.from_heads(["a", "b"], [0, 0])
    single = pc.get_system("arc-standard", single_root=True)
    assert sorted(reachable_gold_arcs(STANDARD, "exact", STANDARD.initial(gold), gold)) == [(0, 1), (0, 2)]
    with pytest.raises(ParsingCoreError, match="single_root=True"):
        reachable_gold_arcs(STANDARD, pc.get_oracle(single, "exact"), STANDARD.initial(gold), gold)
