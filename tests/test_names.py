"""The board names tokens by their words: heads in reasons, repeated words with their numbers.

The sentence is en_ewt's "Hop onto a Hop On / Hop Off bus ." (with a tree of our own): three
Hops, so an arc between two of them must say which.
"""

from __future__ import annotations

import parsing_core as pc
from ui.views import mistakes
from ui.views.cost_table import cost_frame
from ui.views.names import indexed, named_reason
from ui.views.oracle_view import ask
from ui.views.tables import derivation_table

HOPS = pc.Sentence.from_heads("Hop onto a Hop On / Hop Off bus .".split(), [0, 9, 9, 9, 4, 7, 4, 7, 1, 1])
EAGER = pc.get_system("arc-eager")


def table(moves: list[str]) -> dict[str, dict[str, str]]:
    """The cost table after ``moves``: move → {builds, verdict, loses}."""
    trace = pc.replay(EAGER, HOPS, moves)
    frame = cost_frame(trace, [ask(EAGER, "goldberg-nivre", trace.final, HOPS)])
    return {row["move"]: row for row in frame[["move", "builds", "verdict", "loses"]].to_dict("records")}


def test_a_head_in_a_reason_is_named_root_or_by_its_word_and_number() -> None:
    assert table(["RA"])["LA"]["verdict"] == "not possible: the top already has a head (ROOT)"
    assert table(["RA", "SH", "SH", "SH", "RA"])["LA"]["verdict"] == (
        "not possible: the top already has a head (Hop 4)")


def test_the_library_says_token_and_the_board_says_the_word() -> None:
    c = pc.replay(EAGER, HOPS, ["RA", "SH", "SH", "SH", "RA"]).final
    assert EAGER.why_illegal(c, "LA") == "the top already has a head (token 4)"
    swap = pc.get_system("arc-standard-swap")
    c = pc.replay(swap, HOPS, ["SH", "SH", "SH", "SW", "SH"]).final  # stack [ROOT Hop a onto]
    reason = swap.why_illegal(c, "SW")
    assert reason == "only two tokens in sentence order can be swapped (token 3 comes after token 2)"
    assert named_reason(reason, HOPS).endswith("(a 3 comes after onto 2)")


def test_repeated_words_carry_their_number_in_builds_and_loses() -> None:
    after = table(["RA", "SH", "SH", "SH"])
    assert after["RA"]["builds"] == "Hop₄ → On"
    assert after["LA"]["loses"] == "Hop₄ → On, Hop₄ → Hop₇, Hop₄ ← bus"
    assert table(["RA"])["RA"]["builds"] == "Hop₁ → onto"  # only the repeated word is numbered


def test_the_mistake_sentence_and_the_history_number_repeated_words() -> None:
    trace = pc.replay(EAGER, HOPS, ["RA", "SH", "SH", "SH", "LA"])
    verdicts = [ask(EAGER, "goldberg-nivre", step.configuration, HOPS) for step in trace.steps()[:-1]]
    assert mistakes.said(mistakes.review(trace, verdicts)[-1]) == (
        "LA (move 5) cost 3: it lost Hop₄ → On, Hop₄ → Hop₇, Hop₄ ← bus")
    assert derivation_table(trace)["ARCS"].tolist()[-1] == "+(Hop₄ ← On)"


def test_a_word_used_once_and_root_stay_plain() -> None:
    assert [indexed(HOPS, t) for t in (0, 1, 2, 7, 9)] == ["ROOT", "Hop₁", "onto", "Hop₇", "bus"]
    assert indexed(pc.Sentence.from_heads(["a", "b"], [0, 1]), 1) == "a"


def test_a_wrong_head_is_said_plainly_where_costs_are_read_off_best_parses() -> None:
    """The review's arc-standard case: not "for example, the best parse before it held the ← acts"
    but what the move did to the word."""
    standard, s = pc.get_system("arc-standard"), pc.default_sentence()
    trace = pc.replay(standard, s, ["SH", "SH", "LA", "SH", "SH", "SH", "RA"])
    verdicts = [ask(standard, "exact", step.configuration, s) for step in trace.steps()[:-1]]
    assert mistakes.said(mistakes.review(trace, verdicts)[-1]) == (
        "RA (move 7) cost 1: it gave letter the head a, so sent → letter can no longer be built; "
        "the best parse before it also held a ← letter, and no best parse after it can")
    trace = pc.replay(standard, HOPS, ["SH", "SH", "SH", "SH", "SH", "RA"])  # Hop₄ → On: On's head is Hop₄
    verdicts = [ask(standard, "exact", step.configuration, HOPS) for step in trace.steps()[:-1]]
    assert "cost" not in mistakes.said(mistakes.review(trace, verdicts)[-1])  # a right head: no mistake
