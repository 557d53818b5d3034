"""A synthetic treebank: a toy English grammar with as much non-projectivity as you ask for.

Training works on a fresh machine with no treebank and no internet, and the thesis's claim
that a dynamic oracle pays off only when about 60 % of the sentences are non-projective
becomes an experiment: generate treebanks at 0 %, 20 %, ... 80 %, train with the static
and the dynamic oracle, compare.

The grammar builds projective trees with Universal Dependencies labels::

    S   → NP VP .                        NP → Det Adj* N (PP) (RelCl) | Name | Pron
    VP  → V_intr (PP) (Adv)              PP → P NP
        | V_tr NP (PP) (Adv)             RelCl → who V_tr NP | that NP V_tr
        | V_ditr NP NP (Adv)
        | V_say that S

Non-projectivity comes from two movements seen in real languages, applied to exactly
``round(rate × n)`` sentences:

* **extraposition** (English, German): a relative clause or PP leaves its noun for the end
  of the sentence — "a man *who had a dog* arrived" → "a man arrived *who had a dog*";
* **hyperbaton** (Latin, Ancient Greek): an adjective leaves its noun for the front —
  "Anna saw the *old* house" → "*old* Anna saw the house".

A movement counts only if the tree it gives is non-projective (checked with
:attr:`Sentence.is_projective`).

>>> sents = synthetic_treebank(50, nonprojective_rate=0.4, seed=7)
>>> len(sents), sum(not s.is_projective for s in sents)
(50, 20)
>>> sents == synthetic_treebank(50, nonprojective_rate=0.4, seed=7)     # deterministic by seed
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .errors import ParsingCoreError
from .sentence import Sentence

LEXICON: dict[str, tuple[str, ...]] = {
    "DET": ("the", "a", "this", "every", "some", "my", "her", "their"),
    "ADJ": ("old", "young", "small", "big", "red", "quiet", "clever", "tired", "famous", "strange",
            "green", "happy", "dark", "long"),
    "NOUN": ("dog", "cat", "teacher", "student", "farmer", "book", "letter", "garden", "house", "river",
             "city", "child", "doctor", "car", "song", "window", "table", "friend", "king", "bird",
             "picture", "story", "road", "boat"),
    "PROPN": ("Anna", "John", "Maria", "Peter", "Oslo", "Paris", "Lena", "Tom"),
    "PRON": ("she", "he", "they", "we", "I", "you"),
    "V_intr": ("slept", "arrived", "laughed", "waited", "sang", "left", "smiled", "worked"),
    "V_tr": ("saw", "found", "wrote", "bought", "read", "liked", "painted", "visited", "helped",
             "followed", "sold", "loved"),
    "V_ditr": ("gave", "sent", "showed", "told", "offered"),
    "V_say": ("said", "thought", "knew", "hoped"),
    "ADP": ("in", "on", "near", "with", "from", "behind", "under", "about", "of"),
    "ADV": ("yesterday", "quickly", "slowly", "today", "often", "again", "there"),
}
ROOT = -1


@dataclass(frozen=True)
class Token:
    word: str
    upos: str
    label: str = "dep"
    head: int = ROOT  # index of the head token in the sentence, ROOT = -1


class ToyGrammar:
    """Builds one projective sentence at a time, left to right; ``depth`` limits recursion."""

    def __init__(self, rng: random.Random, modifiers: float = 0.3) -> None:
        self.rng, self.modifiers = rng, modifiers
        self.tokens: list[Token] = []

    def sentence(self) -> list[Token]:
        self.tokens = []
        verb = self.clause(depth=0)
        self.attach(verb, ROOT, "root")
        self.attach(self.add(".", "PUNCT"), verb, "punct")
        return self.tokens

    # -- building blocks ---------------------------------------------------------------------
    def add(self, word: str, upos: str) -> int:
        self.tokens.append(Token(word, upos))
        return len(self.tokens) - 1

    def attach(self, dep: int, head: int, label: str) -> None:
        self.tokens[dep] = replace(self.tokens[dep], head=head, label=label)

    def word(self, category: str) -> str:
        return self.rng.choice(LEXICON[category])

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # -- phrases: each returns the index of its head token --------------------------------------
    def clause(self, depth: int) -> int:
        subject = self.noun_phrase(depth, subject=True)
        kind = self.rng.choice(["V_intr", "V_tr", "V_tr", "V_ditr"] + ["V_say"] * (depth < 1))
        verb = self.add(self.word(kind), "VERB")
        self.attach(subject, verb, "nsubj")
        if kind == "V_say":
            mark = self.add("that", "SCONJ")
            inner = self.clause(depth + 1)
            self.attach(mark, inner, "mark")
            self.attach(inner, verb, "ccomp")
            return verb
        if kind == "V_ditr":
            self.attach(self.noun_phrase(depth, simple=True), verb, "iobj")
        if kind != "V_intr":
            self.attach(self.noun_phrase(depth), verb, "obj")
        if self.chance(self.modifiers):
            self.attach(self.prepositional(depth), verb, "obl")
        if self.chance(self.modifiers):
            self.attach(self.add(self.word("ADV"), "ADV"), verb, "advmod")
        return verb

    def noun_phrase(self, depth: int, simple: bool = False, subject: bool = False) -> int:
        if self.chance(0.25):
            upos = self.rng.choice(["PROPN", "PRON"]) if subject else "PROPN"  # no "saw they"
            return self.add(self.word(upos), upos)
        det = self.add(self.word("DET"), "DET")
        adjectives = [self.add(self.word("ADJ"), "ADJ") for _ in range(self.rng.choice([0, 0, 1, 1, 2]))]
        noun = self.add(self.word("NOUN"), "NOUN")
        self.attach(det, noun, "det")
        for adj in adjectives:
            self.attach(adj, noun, "amod")
        if not simple and depth < 2 and self.chance(self.modifiers):
            self.attach(self.prepositional(depth + 1), noun, "nmod")
        if not simple and depth < 2 and self.chance(self.modifiers):
            self.attach(self.relative_clause(depth + 1), noun, "acl:relcl")
        return noun

    def prepositional(self, depth: int) -> int:
        case = self.add(self.word("ADP"), "ADP")
        noun = self.noun_phrase(depth, simple=True)
        self.attach(case, noun, "case")
        return noun

    def relative_clause(self, depth: int) -> int:
        if self.chance(0.5):  # who saw the dog: the pronoun is the subject
            who = self.add("who", "PRON")
            verb = self.add(self.word("V_tr"), "VERB")
            self.attach(who, verb, "nsubj")
            self.attach(self.noun_phrase(depth, simple=True), verb, "obj")
        else:  # that the dog saw: the pronoun is the object
            that = self.add("that", "PRON")
            subject = self.noun_phrase(depth, simple=True, subject=True)
            verb = self.add(self.word("V_tr"), "VERB")
            self.attach(that, verb, "obj")
            self.attach(subject, verb, "nsubj")
        return verb


# -- movements -----------------------------------------------------------------------------------
def subtree(tokens: list[Token], top: int) -> list[int]:
    """``top`` and everything below it, in sentence order."""
    inside = {top}
    for _ in range(len(tokens)):
        inside |= {i for i, t in enumerate(tokens) if t.head in inside}
    return sorted(inside)


def move(tokens: list[Token], span: list[int], to_front: bool) -> list[Token]:
    """Move the tokens ``span`` to the front, or to the end before the final punctuation."""
    rest = [i for i in range(len(tokens)) if i not in span]
    order = span + rest if to_front else rest[:-1] + span + rest[-1:]
    new = {old: new for new, old in enumerate(order)}
    return [replace(tokens[old], head=new.get(tokens[old].head, ROOT)) for old in order]


def movements(tokens: list[Token]) -> list[list[Token]]:
    """Every extraposition and hyperbaton of this sentence."""
    out = []
    for i, t in enumerate(tokens):
        if t.label in ("acl:relcl", "nmod"):
            out.append(move(tokens, subtree(tokens, i), to_front=False))
        elif t.label == "amod":
            out.append(move(tokens, [i], to_front=True))
    return out


def to_sentence(tokens: list[Token], sent_id: str) -> Sentence:
    return Sentence.from_heads([t.word for t in tokens], [t.head + 1 for t in tokens],
                               [t.label for t in tokens], upos=tuple(t.upos for t in tokens), sent_id=sent_id)


# -- the treebank --------------------------------------------------------------------------------
def synthetic_treebank(n_sentences: int = 500, nonprojective_rate: float = 0.0, seed: int = 0,
                       min_len: int = 4, max_len: int = 30) -> list[Sentence]:
    """``n_sentences`` toy sentences, ``round(rate × n)`` of them non-projective, in random order."""
    if n_sentences < 0:
        raise ParsingCoreError(f"a synthetic treebank has 0 sentences or more, not {n_sentences}")
    if not 0 <= nonprojective_rate <= 1:
        raise ParsingCoreError(f"the non-projectivity rate must be in [0, 1], not {nonprojective_rate}")
    if not 4 <= min_len <= max_len:
        raise ParsingCoreError(f"need 4 ≤ min_len ≤ max_len (got {min_len}, {max_len})")
    rng = random.Random(seed)
    crossing = set(rng.sample(range(n_sentences), round(nonprojective_rate * n_sentences)))
    grammar = ToyGrammar(rng)
    return [to_sentence(one_sentence(grammar, i in crossing, min_len, max_len), f"synthetic-{seed}-{i + 1}")
            for i in range(n_sentences)]


def one_sentence(grammar: ToyGrammar, crossing: bool, min_len: int, max_len: int) -> list[Token]:
    """A sentence of the right length, made non-projective by a movement if ``crossing``."""
    grammar.modifiers = 0.6 if crossing else 0.3
    for _ in range(10_000):
        tokens = grammar.sentence()
        if not min_len <= len(tokens) <= max_len:
            continue
        if not crossing:
            return tokens
        moved = [m for m in movements(tokens) if not to_sentence(m, "").is_projective]
        if moved:
            return grammar.rng.choice(moved)
    raise ParsingCoreError(f"the toy grammar found no sentence of {min_len} to {max_len} tokens")
