"""The worked examples of the seeds (spec §5), move by move, as table-driven tests."""

from __future__ import annotations

import pytest
from derivations import check_table

import parsing_core as pc

HE_SENT = pc.Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
BOOK = pc.Sentence.from_heads("book the flight through houston".split(), [0, 3, 1, 5, 3])
DRIVE = pc.Sentence.from_heads("Drive your friend home".split(), [0, 3, 1, 1])
FOUND = pc.Sentence.from_heads("found best example ever".split(), [0, 3, 1, 2])
BOOK_ME = pc.Sentence.from_heads("book me the morning flight to Denver".split(), [0, 1, 5, 5, 1, 5, 6])


def moves(text: str) -> tuple[pc.Transition, ...]:
    return pc.parse_sequence(text)


# Seed 000, static oracle sequence (spec §5.1), rows 1-11.
HE_SENT_STATIC = """
   | ROOT                     | He sent her a letter . |
SH | ROOT He                  | sent her a letter .    |
LA | ROOT                     | sent her a letter .    | sent -> He
RA | ROOT sent                | her a letter .         | ROOT -> sent
RA | ROOT sent her            | a letter .             | sent -> her
SH | ROOT sent her a          | letter .               |
LA | ROOT sent her            | letter .               | letter -> a
RE | ROOT sent                | letter .               |
RA | ROOT sent letter         | .                      | sent -> letter
RE | ROOT sent                | .                      |
RA | ROOT sent .              |                        | sent -> .
"""

# Seed 000 Table 2: after the wrong SH of "her", the static oracle propagates the error.
HE_SENT_TABLE_2 = """
   | ROOT                     | He sent her a letter . |
SH | ROOT He                  | sent her a letter .    |
LA | ROOT                     | sent her a letter .    | sent -> He
RA | ROOT sent                | her a letter .         | ROOT -> sent
SH | ROOT sent her            | a letter .             |
SH | ROOT sent her a          | letter .               |
LA | ROOT sent her            | letter .               | letter -> a
SH | ROOT sent her letter     | .                      |
SH | ROOT sent her letter .   |                        |
"""

# Seed 003: arc-standard walkthrough (spec §5.2).
BOOK_ARC_STANDARD = """
   | ROOT                               | book the flight through houston |
SH | ROOT book                          | the flight through houston      |
SH | ROOT book the                      | flight through houston          |
SH | ROOT book the flight               | through houston                 |
LA | ROOT book flight                   | through houston                 | flight -> the
SH | ROOT book flight through           | houston                         |
SH | ROOT book flight through houston   |                                 |
LA | ROOT book flight houston           |                                 | houston -> through
RA | ROOT book flight                   |                                 | flight -> houston
RA | ROOT book                          |                                 | book -> flight
RA | ROOT                               |                                 | ROOT -> book
"""

# Seed 002: "Drive your friend home", arc-hybrid with ROOT last (spec §5.3).
DRIVE_HYBRID = """
   |                     | Drive your friend home ROOT |
SH | Drive               | your friend home ROOT       |
SH | Drive your          | friend home ROOT            |
LA | Drive               | friend home ROOT            | friend -> your
SH | Drive friend        | home ROOT                   |
RA | Drive               | home ROOT                   | Drive -> friend
SH | Drive home          | ROOT                        |
RA | Drive               | ROOT                        | Drive -> home
LA |                     | ROOT                        | ROOT -> Drive
"""

# Seed 002: "found best example ever" with SWAP, arc-hybrid, ROOT last (spec §5.5).
FOUND_SWAP = """
   |                          | found best example ever ROOT |
SH | found                    | best example ever ROOT       |
SH | found best               | example ever ROOT            |
SH | found best example       | ever ROOT                    |
SW | found best               | ever example ROOT            |
SH | found best ever          | example ROOT                 |
RA | found best               | example ROOT                 | best -> ever
LA | found                    | example ROOT                 | example -> best
SH | found example            | ROOT                         |
RA | found                    | ROOT                         | found -> example
LA |                          | ROOT                         | ROOT -> found
"""

# Thesis Table 2.1 (thesis digest §2): arc-standard on "book me the morning flight to Denver".
BOOK_ME_ARC_STANDARD = """
   | ROOT                               | book me the morning flight to Denver |
SH | ROOT book                          | me the morning flight to Denver      |
SH | ROOT book me                       | the morning flight to Denver         |
RA | ROOT book                          | the morning flight to Denver         | book -> me
SH | ROOT book the                      | morning flight to Denver             |
SH | ROOT book the morning              | flight to Denver                     |
SH | ROOT book the morning flight       | to Denver                            |
LA | ROOT book the flight               | to Denver                            | flight -> morning
LA | ROOT book flight                   | to Denver                            | flight -> the
SH | ROOT book flight to                | Denver                               |
SH | ROOT book flight to Denver         |                                      |
RA | ROOT book flight to                |                                      | to -> Denver
RA | ROOT book flight                   |                                      | flight -> to
RA | ROOT book                          |                                      | book -> flight
RA | ROOT                               |                                      | ROOT -> book
"""

TABLES = [
    ("arc-eager", {}, HE_SENT, HE_SENT_STATIC, True),
    ("arc-eager", {}, HE_SENT, HE_SENT_TABLE_2, False),
    ("arc-standard", {}, BOOK, BOOK_ARC_STANDARD, True),
    ("arc-hybrid", {"root_last": True}, DRIVE, DRIVE_HYBRID, True),
    ("arc-hybrid-swap", {"root_last": True}, FOUND, FOUND_SWAP, True),
    ("arc-standard", {}, BOOK_ME, BOOK_ME_ARC_STANDARD, True),
]


@pytest.mark.parametrize(("name", "options", "sentence", "table", "is_static"), TABLES)
def test_derivation_tables(name, options, sentence, table, is_static):
    system = pc.get_system(name, **options)
    trace = check_table(system, sentence, table)
    if is_static:
        assert trace.transitions == pc.gold_sequence(system, sentence)
        assert trace.heads == sentence.heads and trace.is_complete


def test_static_oracle_propagates_the_error_of_table_2():
    """After the wrong SH, the static oracle goes on with SH LA SH SH: only 3 of 6 arcs."""
    system = pc.get_system("arc-eager")
    trace = pc.replay(system, HE_SENT, moves("SH LA RA SH"))
    rest = pc.run_from(trace, pc.get_oracle(system, "static").chooser(HE_SENT))
    assert rest.transitions[4:] == moves("SH LA SH SH")
    assert sum(h == g for h, g in zip(rest.heads, HE_SENT.heads)) == 3


@pytest.mark.parametrize(
    ("sequence", "correct"),
    [
        ("SH LA RA RA RE SH LA RA RE RA", 6),  # the eager-reduce alternative: same tree
        ("SH LA RA SH LA SH LA RA RE RA", 5),  # Table 3: recovery after the error
        ("SH LA RA SH SH LA LA RA RE RA", 5),  # Table 4: the other recovery
    ],
)
def test_seed_000_alternative_sequences(sequence, correct):
    trace = pc.replay(pc.get_system("arc-eager"), HE_SENT, moves(sequence))
    assert trace.is_complete
    assert sum(h == g for h, g in zip(trace.heads, HE_SENT.heads)) == correct


@pytest.mark.parametrize(
    ("name", "options", "sentence", "expected"),
    [
        ("arc-eager", {}, HE_SENT, "SH LA RA RA SH LA RE RA RE RA"),
        ("arc-eager-corrected", {}, HE_SENT, "SH LA RA RA SH LA RE RA RE RA RE RE"),
        ("arc-eager", {}, BOOK, "RA SH LA RA SH LA RA"),
        ("arc-eager-corrected", {}, BOOK, "RA SH LA RA SH LA RA RE RE RE"),  # seed 003's reading
        ("arc-hybrid", {}, DRIVE, "SH SH LA SH RA SH RA RA"),
        ("arc-hybrid-swap", {}, FOUND, "SH SH SH SW SH RA LA SH RA RA"),
        ("arc-standard-swap", {}, FOUND, "SH SH SH SH SW RA SH LA RA RA"),
    ],
)
def test_static_sequences(name, options, sentence, expected):
    assert pc.gold_sequence(pc.get_system(name, **options), sentence) == moves(expected)


def test_nederhof_table_5_is_stuck_without_reduce_correct():
    """Plain arc-eager's final configuration leaves token 1 headless; the corrected system finishes."""
    chain = pc.Sentence.from_heads(["a", "b", "c"], [0, 1, 2])
    plain = pc.replay(pc.get_system("arc-eager"), chain, moves("SH RA RA"))
    assert plain.is_complete and plain.heads == (None, 1, 2)
    corrected = pc.replay(pc.get_system("arc-eager-corrected"), chain, moves("SH RA RA RE RE RE"))
    assert corrected.is_complete and corrected.heads == (0, 1, 2)
    assert corrected.steps()[-1].arc == (0, 1)  # reduce_correct attaches the headless token


def test_nederhof_table_7_two_ways_to_the_same_structure():
    sentence = pc.Sentence.from_heads(["a", "b", "c", "d"], [0, 1, 4, 1])
    system = pc.get_system("arc-eager-corrected")
    first = pc.replay(system, sentence, moves("RA RA SH LA RE"))
    second = pc.replay(system, sentence, moves("RA RA RE SH LA"))
    assert first.final == second.final
    assert first.final.stack == (0, 1) and first.final.buffer == (4,)


def test_single_root_arc_standard_delays_the_root_arc():
    system = pc.get_system("arc-standard", single_root=True)
    c = pc.replay(system, BOOK, moves("SH")).final
    assert system.why_illegal(c, pc.Transition("RA")) is not None
    assert pc.gold_sequence(system, BOOK)[-1] == pc.Transition("RA")
