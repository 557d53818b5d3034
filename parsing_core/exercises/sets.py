"""Sets of items: drawn from a pool of sentences by kind, system, level, count and seed.

A set is a list of :class:`~.items.ItemSpec`; the same arguments draw the same list, and
:func:`~.items.encode_set` turns it into a link.  A sentence joins a set only if its item can
be made (an exact oracle answers, the kind has something to ask), so every drawn spec rebuilds.

Practice one item at a time draws with :func:`fresh_spec`: an item unlike the ones already
served — on a sentence not seen yet while there is one, then a question not asked yet (another
configuration of a sentence seen) — so "another like this" is never the same question again.
Two items are the same *question* when they ask the same prompt about the same tree
(:func:`question_of`), whatever their ids: a crossing-arcs item asks the same whatever its seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from ..sentence import Sentence
from .items import ExerciseError, Item, ItemSpec, Options
from .kind import ExerciseKind, Model
from .setting import SentencePool, sentence_key, sentence_level

TRIES = 12  # sentences tried per item wanted, before the set is left shorter


def candidates(pool: SentencePool, level: int, rnd: random.Random,
               about_tree: bool = False) -> list[Sentence]:
    """The pool's sentences of this level first, then easier ones, each group in a seeded order
    (for a question about the tree itself, :func:`tree_candidates`)."""
    if about_tree:
        return tree_candidates(pool, level, rnd)
    groups = [[s for s in pool.sentences if sentence_level(s) == lv] for lv in range(level, 0, -1)]
    return [s for group in groups for s in rnd.sample(group, len(group))]


LONGEST = {1: 5, 2: 8, 3: 14}  # the longest tree of a question about the tree itself, by level


def tree_candidates(pool: SentencePool, level: int, rnd: random.Random) -> list[Sentence]:
    """For a question about the tree itself (do arcs cross?  which systems build it?): the trees of
    the level's lengths first, then those of the easier levels, each group crossing and not
    crossing in turn, so that no one verdict answers most of them.  By :func:`sentence_level`
    every tree of levels 1 and 2 was projective, and answering "no arcs cross" (or ticking every
    system) was always right there."""
    return [s for lv in range(level, 0, -1) for s in tree_band(pool, lv, rnd)]


def tree_band(pool: SentencePool, level: int, rnd: random.Random) -> list[Sentence]:
    """The pool's trees longer than the level before's and up to ``level``'s :data:`LONGEST`,
    crossing and not crossing in turn in a seeded order.  The teaching set has few crossing trees
    of some lengths: generated ones (words w1 … wn) make up the difference."""
    shortest = LONGEST.get(level - 1, 2) + 1
    fits = [s for s in pool.sentences if shortest <= s.n <= LONGEST[level]]
    plain = [s for s in fits if s.is_projective]
    crossing = [s for s in fits if not s.is_projective]
    crossing += [crossing_tree(rnd, rnd.randint(max(4, shortest), LONGEST[level]))
                 for _ in range(len(plain) - len(crossing))]
    plain, crossing = rnd.sample(plain, len(plain)), rnd.sample(crossing, len(crossing))
    pairs = itertools.zip_longest(*((crossing, plain) if rnd.random() < 0.5 else (plain, crossing)))
    return [s for pair in pairs for s in pair if s is not None]


def crossing_tree(rnd: random.Random, n: int) -> Sentence:
    """A random tree over ``n`` ≥ 4 words, one word on ROOT, with crossing arcs: each word in a
    random order attached to one attached before it."""
    while True:
        order = rnd.sample(range(1, n + 1), n)
        heads = [0] * (n + 1)
        for k, word in enumerate(order[1:], start=1):
            heads[word] = rnd.choice(order[:k])
        tree = Sentence.from_heads([f"w{i}" for i in range(1, n + 1)], heads[1:])
        if not tree.is_projective:
            return tree


def draw_specs(kind: ExerciseKind[Any], system: str, level: int, count: int, seed: int,
               pool: SentencePool, options: Options = (), model: Model | None = None) -> list[ItemSpec]:
    """Up to ``count`` specs of one kind and system whose items can be made, one per sentence."""
    rnd = random.Random(f"{kind.name}/{system}/{options}/{level}/{seed}")
    out: list[ItemSpec] = []
    for sentence in candidates(pool, level, rnd, kind.answer_input.about_tree)[:TRIES * count]:
        spec = ItemSpec(kind.name, sentence_key(sentence), system, options, rnd.randrange(10**6), level)
        if made(kind, spec, sentence, model) is not None:
            out.append(spec)
        if len(out) == count:
            break
    return out


def made(kind: ExerciseKind[Any], spec: ItemSpec, sentence: Sentence,
         model: Model | None) -> Item[Any] | None:
    try:
        return kind.make(spec, sentence, model)
    except ExerciseError:
        return None


def compose(kinds: Sequence[ExerciseKind[Any]], systems: Sequence[str], level: int, count: int, seed: int,
            pool: SentencePool, options: Options = (), model: Model | None = None) -> list[ItemSpec]:
    """A teacher's set: ``count`` items taking (kind, system) pairs in turn."""
    pairs = list(itertools.product(kinds, systems))
    per_pair = -(-count // max(1, len(pairs)))
    drawn = [iter(draw_specs(k, s, level, per_pair, seed, pool, options, model)) for k, s in pairs]
    out: list[ItemSpec] = []
    while len(out) < count and drawn:
        for it in list(drawn):
            spec = next(it, None)
            if spec is None:
                drawn.remove(it)
            elif len(out) < count:
                out.append(spec)
    return out


def item_seed(kind: ExerciseKind[Any], rnd: random.Random) -> int:
    """A fresh item's seed; 0 for a kind whose question ignores it, so that one tree's question
    always has one id (and a learner's answers to it are answers to one item)."""
    return rnd.randrange(10**6) if kind.seeded else 0


def question_of(item: Item[Any]) -> tuple[str, str]:
    """What an item asks, apart from its id: the sentence (its tree) and the prompt."""
    return item.spec.sentence, item.prompt


def fresh_spec(kind: ExerciseKind[Any], system: str, level: int, seed: int, pool: SentencePool,
               served: Sequence[ItemSpec] = (), options: Options = (),
               model: Model | None = None) -> ItemSpec | None:
    """One spec of the skill unlike every one ``served``: on an unseen sentence if one can be made,
    else a question not asked yet; None when every question the pool offers was served.

    The same arguments give the same spec; a different ``seed`` (a learner, a session) another order.
    """
    mine = [s for s in served if (s.kind, s.system, s.options) == (kind.name, system, options)]
    seen = {s.sentence for s in mine}
    rnd = random.Random(f"{kind.name}/{system}/{options}/{level}/{seed}")
    order = candidates(pool, level, rnd, kind.answer_input.about_tree)
    for sentence in (s for s in order if sentence_key(s) not in seen):
        spec = ItemSpec(kind.name, sentence_key(sentence), system, options, item_seed(kind, rnd), level)
        if made(kind, spec, sentence, model) is not None:
            return spec
    if not kind.seeded:  # one question per sentence, and every sentence was seen
        return None
    asked = {question_of(i) for s in mine if (i := made(kind, s, pool.find(s.sentence), model))}
    for sentence in order * TRIES:
        spec = ItemSpec(kind.name, sentence_key(sentence), system, options, rnd.randrange(10**6), level)
        found = made(kind, spec, sentence, model)
        if found is not None and question_of(found) not in asked:
            return spec
    return None


def rebuild(spec: ItemSpec, kind: ExerciseKind[Any], pool: SentencePool,
            model: Model | None = None) -> Item[Any]:
    """The item a spec names (raises :class:`ExerciseError` for an unknown sentence)."""
    return kind.make(spec, pool.find(spec.sentence), model)
