"""The teaching set: well-formed CoNLL-U, honest notes, and the seeds' trees exactly."""

from __future__ import annotations

import conllu
import pytest

from parsing_core import Sentence
from parsing_core.teaching import TEACHING_PATH, default_sentence, teaching_notes, teaching_sentences
from parsing_core.trees import is_projective

# The worked examples of the seeds and the thesis, with the heads the spec gives (§5).
SEED_TREES = [
    ("He sent her a letter .", (2, 0, 2, 5, 2, 2)),                  # seed 000, spec §5.1
    ("book the flight through houston", (0, 3, 1, 5, 3)),             # seed 003, spec §5.2
    ("Drive your friend home", (0, 3, 1, 1)),                         # seed 002, spec §5.3
    ("Send him a flower", (0, 1, 4, 1)),                              # seed 002, spec §5.4; Nederhof V1/N1
    ("found best example ever", (0, 3, 1, 2)),                        # seed 002, spec §5.5; Nederhof V4/V5/N3
    ("book me the morning flight", (0, 1, 5, 5, 1)),                  # thesis Table 3.1
    ("book me the morning flight to Denver", (0, 1, 5, 5, 1, 5, 6)),  # thesis Table 2.1
    ("we wash cats and dogs", (2, 0, 2, 5, 3)),                       # seed 003, UD first-conjunct head
]

# The universal relations of UD v2; a label may add a subtype after a colon (nmod:poss).
UD_RELATIONS = set(
    "acl advcl advmod amod appos aux case cc ccomp clf compound conj cop csubj dep det discourse "
    "dislocated expl fixed flat goeswith iobj list mark nmod nsubj nummod obj obl orphan parataxis "
    "punct reparandum root vocative xcomp".split()
)


@pytest.fixture(scope="module")
def token_lists() -> list[conllu.TokenList]:
    return conllu.parse(TEACHING_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sentences() -> list[Sentence]:
    return teaching_sentences()


def test_the_conllu_library_parses_the_file(token_lists):
    text = TEACHING_PATH.read_text(encoding="utf-8")
    assert text.endswith("\n\n") and "\r" not in text  # a blank line closes every sentence, the last too
    assert len(token_lists) == len(teaching_sentences())
    for tokens in token_lists:
        assert all(len(token) == 10 for token in tokens)


@pytest.mark.parametrize("key", ["sent_id", "text", "source", "note"])
def test_every_sentence_has_the_comment(token_lists, key):
    missing = [tokens.metadata.get("sent_id") for tokens in token_lists if not tokens.metadata.get(key)]
    assert missing == []


def test_text_is_the_words_joined_by_single_spaces(token_lists):
    # Our rule: one space between tokens, punctuation included ("He sent her a letter ."),
    # which is exactly what CoNLL-U means when no token has SpaceAfter=No.
    for tokens in token_lists:
        assert tokens.metadata["text"] == " ".join(t["form"] for t in tokens)
        assert all(t["misc"] is None for t in tokens)


def test_sent_ids_and_trees_are_unique(sentences):
    assert len({s.sent_id for s in sentences}) == len(sentences)
    assert len({(s.words, s.heads) for s in sentences}) == len(sentences)


def test_the_default_sentence_comes_first(sentences):
    first = default_sentence()
    assert first == sentences[0]
    assert " ".join(first.words) == "He sent her a letter ."
    assert first.heads == (2, 0, 2, 5, 2, 2)


@pytest.mark.parametrize("text, heads", SEED_TREES, ids=[text for text, _ in SEED_TREES])
def test_seed_example_has_the_spec_heads(sentences, text, heads):
    found = [s.heads for s in sentences if " ".join(s.words) == text]
    assert found == [heads]


def test_nederhofs_table_5_chain_is_present(sentences):
    assert any(s.heads == (0, 1, 2) for s in sentences)


def test_size_and_sentence_lengths(sentences):
    assert len(sentences) >= 20
    assert all(3 <= s.n <= 14 for s in sentences)


def test_at_least_three_non_projective(sentences):
    assert sum(not is_projective(s.heads) for s in sentences) >= 3


def test_notes_say_non_projective_exactly_when_it_is(sentences):
    says = {sent_id: "non-projective" in note.lower() for sent_id, note in teaching_notes().items()}
    wrong = [s.sent_id for s in sentences if says[s.sent_id] == s.is_projective]
    assert wrong == []


def test_every_tree_has_one_root_labelled_root(sentences):
    for s in sentences:
        assert s.root_count == 1, s.sent_id
        assert [s.label(d) for d in range(1, s.n + 1) if s.head(d) == 0] == ["root"], s.sent_id


def test_labels_are_ud_relations(sentences):
    bad = {(s.sent_id, lab) for s in sentences for lab in s.labels if lab.split(":")[0] not in UD_RELATIONS}
    assert bad == set()


def test_notes_are_keyed_by_sent_id(sentences):
    assert list(teaching_notes()) == [s.sent_id for s in sentences]
