"""Reading and writing CoNLL-U: lossless round trips on real treebanks, real snippets, errors, fuzzing."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from conllu.exceptions import ParseException
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import trees

from parsing_core import conllu_io
from parsing_core.conllu_io import read_conllu, read_conllu_file, write_conllu
from parsing_core.errors import ConlluError, ParsingCoreError
from parsing_core.sentence import Sentence
from parsing_core.teaching import TEACHING_PATH

CHECKOUT_UD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ud"
UD_DIR = Path(os.environ.get("PARSING_DATA_DIR") or CHECKOUT_UD)
UD_FILES = sorted(UD_DIR.glob("*.conllu")) if UD_DIR.is_dir() else []


def doc(*sentences: str) -> str:
    """A CoNLL-U document from sentences written with spaces between columns (tabs are hard to read)."""
    blocks = []
    for sentence in sentences:
        lines = [line.strip() for line in sentence.strip().splitlines()]
        blocks.append("\n".join(line if line.startswith("#") else "\t".join(line.split()) for line in lines))
    return "\n\n".join(blocks) + "\n\n"


# -- real snippets ---------------------------------------------------------------------------

# de_gsd dev: "zum" is one written token, the two words "zu dem".
ZUM = doc("""
    # sent_id = dev-s180
    # text = Ein Hotel zum Wohlfühlen.
    1 Ein ein DET ART Case=Nom|Definite=Ind|Gender=Neut|Number=Sing|NumType=Card|PronType=Art 2 det _ _
    2 Hotel Hotel NOUN NN Case=Nom|Gender=Neut|Number=Sing 0 root _ _
    3-4 zum _ _ _ _ _ _ _ _
    3 zu zu ADP APPR _ 5 case _ _
    4 dem der DET ART Case=Dat|Definite=Def|Gender=Neut|Number=Sing|PronType=Art 5 det _ _
    5 Wohlfühlen Wohlfühlen NOUN NN Case=Dat|Gender=Neut|Number=Sing 2 nmod _ SpaceAfter=No
    6 . . PUNCT $. _ 2 punct _ _
""")

# en_ewt dev: "Won't" = "Wo n't".
WONT = doc("""
    # sent_id = reviews-372582-0003
    # text = Won't return.
    1-2 Won't _ _ _ _ _ _ _ _
    1 Wo will AUX MD VerbForm=Fin 3 aux 3:aux _
    2 n't not PART RB Polarity=Neg 3 advmod 3:advmod _
    3 return return VERB VB VerbForm=Inf 0 root 0:root SpaceAfter=No
    4 . . PUNCT . _ 3 punct 3:punct _
""")

# en_ewt dev (shortened): the empty node 4.1 restores the missing preposition "of".
EMPTY_NODE = doc("""
    # sent_id = answers-20101109081414AAZ3hSI_ans-0002
    # newpar id = answers-20101109081414AAZ3hSI_ans-p0002
    # text = what kind food people eat
    1 what what DET WDT PronType=Int 2 det 2:det _
    2 kind kind NOUN NN Number=Sing 5 obj 5:obj _
    2.1 _ of ADP IN Typo=Yes _ _ 3:case CorrectForm=of
    3 food food NOUN NN Number=Sing 2 nmod 2:nmod:of _
    4 people people NOUN NNS Number=Plur 5 nsubj 5:nsubj _
    5 eat eat VERB VBP Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 0 root 0:root _
""")

# la_perseus train, with the tree removed: a sentence to be parsed, not a gold one.
NO_TREE = doc("""
    # sent_id = phi0975.phi001.perseus-lat1.tb.xml@226
    # text = Cuius verbosa ne sit commendatio
    1 Cuius qui PRON p-s---fg- Case=Gen|Gender=Fem|Number=Sing|PronType=Rel _ _ _ LId=qui1
    2 verbosa verbosus ADJ a-s---fn- Case=Nom|Gender=Fem|Number=Sing _ _ _ _
    3 ne ne SCONJ c-------- _ _ _ _ LId=ne1
    4 sit sum AUX v3spsa--- Aspect=Imp|Mood=Sub|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin _ _ _ LId=sum1
    5 commendatio commendatio NOUN n-s---fn- Case=Nom|Gender=Fem|Number=Sing _ _ _ _
""")

# What conllu's own serializer would change: a free comment, a repeated key, "Key=" in MISC.
ODDITIES = doc("""
    # sent_id = odd-1
    # a comment without an equals sign
    # note = first
    # note = second
    1 Hi hi INTJ _ _ 0 root _ Empty=|Gloss=a=b
    2 ! ! PUNCT _ _ 1 punct _ _
""")


def test_multiword_token_is_skipped_for_parsing_and_kept_for_writing() -> None:
    [s] = read_conllu(ZUM)
    assert s.words == ("Ein", "Hotel", "zu", "dem", "Wohlfühlen", ".")
    assert s.heads == (2, 0, 5, 5, 2, 2)
    assert s.upos == ("DET", "NOUN", "ADP", "DET", "NOUN", "PUNCT")
    assert s.sent_id == "dev-s180"
    assert s.source[2]["id"] == (3, "-", 4)
    assert write_conllu([s]) == ZUM


def test_a_predicted_tree_is_written_into_the_original_token_list() -> None:
    [s] = read_conllu(WONT)
    predicted = s.with_tree([3, 1, 0, 3], ["aux", "dep", "root", "punct"])
    lines = write_conllu([predicted]).splitlines()
    assert lines[:3] == WONT.splitlines()[:3]  # comments and the "1-2 Won't" range untouched
    assert lines[4] == "2\tn't\tnot\tPART\tRB\tPolarity=Neg\t1\tdep\t3:advmod\t_"  # only HEAD, DEPREL
    assert [line.split("\t")[6] for line in lines[3:7]] == ["3", "1", "0", "3"]
    assert s.source[2]["head"] == 3, "the original token list is not mutated"
    assert read_conllu(write_conllu([predicted])) == [predicted]


def test_empty_nodes_are_skipped_for_parsing_and_kept_for_writing() -> None:
    [s] = read_conllu(EMPTY_NODE)
    assert s.words == ("what", "kind", "food", "people", "eat")
    assert s.heads == (2, 5, 2, 5, 0)
    assert write_conllu([s]) == EMPTY_NODE
    changed = write_conllu([s.with_tree([2, 5, 5, 5, 0], s.labels)])
    assert "2.1\t_\tof\tADP\tIN\tTypo=Yes\t_\t_\t3:case\tCorrectForm=of" in changed


def test_a_sentence_without_heads_has_no_gold_tree() -> None:
    [s] = read_conllu(NO_TREE)
    assert s.heads is None and s.labels is None and not s.has_gold
    assert s.words[:2] == ("Cuius", "verbosa")
    assert write_conllu([s]) == NO_TREE
    parsed = s.with_tree([2, 4, 2, 0, 4], ["nmod", "nsubj", "mark", "root", "nsubj"])
    assert read_conllu(write_conllu([parsed]))[0].heads == (2, 4, 2, 0, 4)


def test_what_the_conllu_serializer_would_normalise_survives_a_round_trip() -> None:
    [s] = read_conllu(ODDITIES)
    assert write_conllu([s]) == ODDITIES
    relabelled = write_conllu([s.with_tree([0, 1], ["root", "discourse"])])
    assert relabelled == ODDITIES.replace("1\tpunct", "1\tdiscourse")


def test_sentences_typed_by_a_learner_get_a_fresh_token_list() -> None:
    s = Sentence.from_heads("She reads books".split(), [2, 0, 2], ["nsubj", "root", "obj"], sent_id="mine-1")
    text = write_conllu([s, Sentence.from_heads(["Hi"], None)])
    assert text.startswith("# sent_id = mine-1\n# text = She reads books\n")
    assert "\n1\tShe\t_\t_\t_\t_\t2\tnsubj\t_\t_\n" in text
    assert "1\tHi\t_\t_\t_\t_\t_\t_\t_\t_\n" in text
    assert read_conllu(text) == [s, Sentence.from_heads(["Hi"], None)]


@pytest.mark.parametrize("words", [[], ["a\tb"], ["two  spaces"], [" "], ["line\nbreak"]])
def test_words_that_would_break_the_columns_are_refused(words: list[str]) -> None:
    with pytest.raises(ConlluError, match="cannot write"):
        write_conllu([Sentence.from_heads(words, None)])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_fresh_sentences_round_trip(data: st.DataObject) -> None:
    heads = data.draw(trees(max_n=8))
    word = st.text(st.characters(codec="utf-8", exclude_categories=("C", "Z")), min_size=1, max_size=4)
    words = data.draw(st.lists(word, min_size=len(heads), max_size=len(heads)))
    labels = data.draw(st.lists(st.sampled_from(["nsubj", "obj", "nmod:poss", "dep"]),
                                min_size=len(heads), max_size=len(heads)))
    s = Sentence.from_heads(words, heads, labels, sent_id=data.draw(st.sampled_from([None, "s-1"])))
    assert read_conllu(write_conllu([s])) == [s]


def test_paths_text_and_files(tmp_path: Path) -> None:
    path = tmp_path / "zum.conllu"
    assert write_conllu(read_conllu(ZUM) + read_conllu(WONT), path) == ZUM + WONT
    assert path.read_text(encoding="utf-8") == ZUM + WONT
    assert [p.name for p in tmp_path.iterdir()] == ["zum.conllu"], "no temporary file left behind"
    assert read_conllu_file(path) == read_conllu_file(str(path)) == read_conllu(ZUM + WONT)
    assert read_conllu("\ufeff" + ZUM.replace("\n", "\r\n")) == read_conllu(ZUM)
    with pytest.raises(ConlluError, match="^no such file: .*missing.conllu$"):
        read_conllu_file(tmp_path / "missing.conllu")


def test_a_text_naming_a_file_is_read_as_text_not_as_that_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(TEACHING_PATH.parents[1])
    assert read_conllu_file(TEACHING_PATH)  # the file exists and reads well
    as_text = "^sentence 1, line 1: expected 10 tab-separated columns, found 1$"  # one line, no tabs
    for name in [str(TEACHING_PATH), "assets/teaching.conllu"]:
        assert Path(name).is_file()
        with pytest.raises(ConlluError, match=as_text):
            read_conllu(name)


def test_a_path_given_to_read_conllu_is_refused_with_the_function_to_use() -> None:
    with pytest.raises(ParsingCoreError, match="read_conllu_file"):
        read_conllu(TEACHING_PATH)  # type: ignore[arg-type]
    with pytest.raises(ParsingCoreError, match="not bytes"):
        read_conllu(ZUM.encode())  # type: ignore[arg-type]


def test_text_given_to_read_conllu_file_is_refused_with_the_function_to_use() -> None:
    with pytest.raises(ParsingCoreError, match="has a newline: to read CoNLL-U text, use read_conllu$"):
        read_conllu_file(ZUM)


def test_errors_in_a_file_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text(ZUM.replace("\t5\tcase", "\t7\tcase"), encoding="utf-8")
    named = r"^bad.conllu: sentence 1 \(sent_id dev-s180\), line 6: token 3: head 7 is out of range"
    with pytest.raises(ConlluError, match=named):
        read_conllu_file(path)


# -- lossless on every treebank --------------------------------------------------------------


@pytest.mark.parametrize(
    "path", UD_FILES or [pytest.param(None, marks=pytest.mark.skip(reason=f"no UD treebanks in {UD_DIR}"))],
    ids=lambda p: p.stem if p else "none",
)
def test_round_trip_is_lossless(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    sentences = read_conllu_file(path)
    assert sentences and all(s.n for s in sentences)
    assert write_conllu(sentences).rstrip("\n") == text.rstrip("\n")


def test_writing_predicted_trees_changes_only_head_and_deprel() -> None:
    path = next((p for p in UD_FILES if p.name.startswith("en_ewt")), None)
    if path is None:
        pytest.skip(f"no en_ewt treebank in {UD_DIR}")
    gold = read_conllu_file(path)[:300]
    chains = [s.with_tree(range(s.n), ["dep"] * s.n) for s in gold]  # every word hangs on the previous one
    for before, after in zip(write_conllu(gold).splitlines(), write_conllu(chains).splitlines(), strict=True):
        old, new = before.split("\t"), after.split("\t")
        assert old[:6] + old[8:] == new[:6] + new[8:]
    assert read_conllu(write_conllu(chains)) == chains


# -- errors name the sentence and the line ---------------------------------------------------

GOOD = "# sent_id = s1\n1 A a X _ _ 0 root _ _\n"
THIRD = """
    # sent_id = s3
    # text = We saw it
    1 We we PRON _ _ 2 nsubj _ _
    2 saw see VERB _ _ 0 root _ _
    3 it it PRON _ _ 2 obj _ _
"""  # sentence 3 of the document below: comments on lines 7-8, tokens on lines 9-11


def third(old: str, new: str) -> str:
    """The document GOOD, GOOD, THIRD with one change in the third sentence."""
    assert old in THIRD
    return doc(GOOD, GOOD.replace("s1", "s2"), THIRD.replace(old, new))


ERRORS = [
    # what is wrong                 old text         new text         line  message
    ("a cycle", "0 root", "1 root", 9, "token 1: cycle 1 → 2 → 1: every token must reach ROOT"),
    ("an own head", "2 obj", "3 obj", 11, "token 3 is its own head"),
    ("a head out of range", "2 obj", "9 obj", 11, "token 3: head 9 is out of range 0..3"),
    ("a negative head", "2 obj", "-1 obj", 11, "token 3: head -1 is out of range 0..3"),
    ("a head that is no integer", "2 obj", "x obj", 11, "token 3: head 'x' is not an integer"),
    ("a head missing", "2 obj", "_ obj", 11, "token 3: head is _ but other words have heads"),
    ("a missing column", "VERB _ _ 0", "VERB _ 0", 10, "expected 10 tab-separated columns, found 9"),
    ("an extra column", "obj _ _", "obj _ _ _", 11, "expected 10 tab-separated columns, found 11"),
    ("a word id that is no number", "3 it", "a it", 11,
     "token id 'a' is not a number, a range like 1-2 or an empty node like 8.1"),
    ("a reversed range", "3 it", "3-2 it", 11,
     "token id '3-2' is not a number, a range like 1-2 or an empty node like 8.1"),
    ("a word id of _", "3 it", "_ it", 11, "token id '_' is not a number"),
    ("a duplicate id", "3 it", "2 it", 11, "token id 2 appears twice"),
    ("a gap in the ids", "3 it", "4 it", 11, "token id 4 where 3 was expected"),
    ("ids starting at 0", "1 We", "0 We", 9, "token id 0: words are numbered from 1 (0 is ROOT)"),
]


@pytest.mark.parametrize(("what", "old", "new", "line", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_name_sentence_and_line(what: str, old: str, new: str, line: int, message: str) -> None:
    with pytest.raises(ConlluError) as caught:
        read_conllu(third(old, new))
    assert str(caught.value) == f"sentence 3 (sent_id s3), line {line}: {message}"


def test_a_sentence_without_sent_id_is_named_by_its_number() -> None:
    with pytest.raises(ConlluError, match=r"^sentence 2, line 4: token 1: head 5 is out of range 0..1$"):
        read_conllu(doc(GOOD, "1 A a X _ _ 5 root _ _"))


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_an_empty_document_is_an_error(text: str) -> None:
    with pytest.raises(ConlluError, match="^line 1: the document contains no sentences$"):
        read_conllu(text)


def test_a_sentence_of_comments_only_is_an_error() -> None:
    with pytest.raises(ConlluError, match=r"^sentence 2 \(sent_id s2\), line 4: the sentence has no words"):
        read_conllu(doc(GOOD, "# sent_id = s2\n# text = nothing"))



@pytest.mark.parametrize("failure", [ParseException("?"), ValueError("?"), KeyError("?"), IndexError("?")])
def test_whatever_the_conllu_library_raises_becomes_a_conllu_error(
    monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    def parse(text: str) -> None:
        raise failure

    monkeypatch.setattr(conllu_io.conllu, "parse", parse)
    named = r"^sentence 1 \(sent_id reviews-372582-0003\), line 1: could not read the sentence"
    with pytest.raises(ConlluError, match=named):
        read_conllu(WONT)

# -- fuzzing: malformed documents raise ConlluError and nothing else ----------------------

JUNK = ["\t", "\n", " ", "  ", "#", "-", ".", "_", "0", "9", "=", "|", ":", "\r", "\x00", "\u2028", "\x85",
        "\ufeff", "é", "\x0c", "'", "1-1", "2.1", "-5"]
Lines = list[str]
Mutation = Callable[[Lines, random.Random], Lines]


def _delete_line(lines: Lines, rng: random.Random) -> Lines:
    del lines[rng.randrange(len(lines))]
    return lines


def _duplicate_line(lines: Lines, rng: random.Random) -> Lines:
    i = rng.randrange(len(lines))
    return lines[: i + 1] + lines[i:]


def _swap_lines(lines: Lines, rng: random.Random) -> Lines:
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return lines


def _edit_fields(edit: Callable[[list[str], random.Random], object]) -> Mutation:
    """A mutation that edits the tab-separated fields of one random line."""

    def mutate(lines: Lines, rng: random.Random) -> Lines:
        i = rng.randrange(len(lines))
        fields = lines[i].split("\t")
        edit(fields, rng)
        lines[i] = "\t".join(fields)
        return lines
    return mutate


def _set_field(fields: list[str], rng: random.Random) -> None:
    value = rng.choice([str(rng.randint(-3, 40)), "_", "", rng.choice(JUNK), "1-2", "3.1", "x"])
    fields[rng.randrange(len(fields))] = value


def _insert_junk(lines: Lines, rng: random.Random) -> Lines:
    text = "\n".join(lines)
    at = rng.randrange(len(text) + 1)
    return (text[:at] + rng.choice(JUNK) + text[at:]).split("\n")


def _truncate(lines: Lines, rng: random.Random) -> Lines:
    text = "\n".join(lines)
    return text[: rng.randrange(len(text) + 1)].split("\n")


MUTATIONS = [
    _delete_line, _duplicate_line, _swap_lines, _insert_junk, _truncate, _edit_fields(_set_field),
    _edit_fields(lambda f, rng: f.pop(rng.randrange(len(f)))),
    _edit_fields(lambda f, rng: f.insert(rng.randrange(len(f) + 1), rng.choice(f))),
    _edit_fields(lambda f, rng: f.insert(0, f.pop(rng.randrange(len(f))))),
    _edit_fields(lambda f, rng: f.__setitem__(6 % len(f), str(rng.randint(-2, 12)))),  # a random head
]


def test_fuzzed_documents_raise_conllu_error_or_read() -> None:
    rng = random.Random(20240607)
    snippets = [ZUM, WONT, EMPTY_NODE, NO_TREE, ODDITIES, ZUM + WONT + EMPTY_NODE]
    outcomes = {"read": 0, "error": 0}
    for _ in range(3000):
        lines = rng.choice(snippets).split("\n")
        for mutate in rng.choices(MUTATIONS, k=rng.randint(1, 3)):
            lines = mutate(lines, rng) if lines else lines
        text = "\n".join(lines)
        try:
            sentences = read_conllu(text)
        except ConlluError as err:
            assert str(err), text
            outcomes["error"] += 1
            continue
        outcomes["read"] += 1
        written = write_conllu(sentences)
        assert read_conllu(written) == sentences, text
        assert write_conllu(read_conllu(written)) == written, text
    assert min(outcomes.values()) > 400, outcomes  # the mutator makes both kinds of document


def test_a_cycle_is_reported_at_the_line_of_its_first_token() -> None:
    text = ("# sent_id = a\n1\tA\t_\t_\t_\t_\t0\tx\t_\t_\n\n# sent_id = b\n1\tA\t_\t_\t_\t_\t0\tx\t_\t_\n"
            "2\tB\t_\t_\t_\t_\t3\tx\t_\t_\n3\tC\t_\t_\t_\t_\t4\tx\t_\t_\n4\tD\t_\t_\t_\t_\t2\tx\t_\t_\n")
    with pytest.raises(ConlluError, match=r"sentence 2 \(sent_id b\), line 6: token 2: cycle 2 → 3 → 4 → 2"):
        read_conllu(text)
