"""The stepper's state, declared in one place: only source data; everything else is recomputed.

The state is what a teacher puts in a link: which sentence, which system (and its options),
which oracles, and the moves taken.  ``cursor`` is how many of the moves are applied: undo
moves it back, redo forward, a jump anywhere, and a new move after an undo replaces the
undone ones.  The link's query parameters are ``s`` (the sentence key, see :mod:`ui.views.sources`),
``sys``, ``opt`` (system options switched on, comma-separated), ``lab`` (1 = labelled),
``oracle``, ``vs`` (a second oracle), ``moves`` (``SH.LA.RA.SH``), ``step`` (the cursor, when
it is not at the end), ``present`` (1 = presenter mode: larger type and drawing) and ``hide``
(1 = the oracle hidden until revealed, so a teacher can ask the room first).

>>> s = StepperState().play("SH").play("LA").play("RA").undo()
>>> s.taken(), s.to_query()["moves"], s.to_query()["step"]
(('SH', 'LA'), 'SH.LA.RA', '2')
>>> s.play_all(("SH", "RA")).to_query()["moves"]
'SH.LA.SH.RA'
>>> StepperState.from_query({"moves": "SH.LA.RA.SH", "sys": "arc-eager"})[0].taken()
('SH', 'LA', 'RA', 'SH')
>>> state, problems = StepperState.from_query({"sys": "arc-nonsense", "moves": "SH.RE"})
>>> state.system, state.moves, problems[0]
('arc-eager', ('SH',), "unknown system 'arc-nonsense'; choose one of arc-standard, ...")
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

import parsing_core as pc
from parsing_core.oracles import ranked
from parsing_core.systems import SYSTEMS
from ui.views.sources import DEFAULT_KEY, is_shareable, sentence_from_key

DEFAULT_SYSTEM = "arc-eager"
_MOVE_SPLIT = re.compile(r"\.(?=(?:SH|LA|RA|RE|SW)(?::|\.|$))")  # a label may contain dots


@dataclass(frozen=True)
class StepperState:
    sentence: str = DEFAULT_KEY
    system: str = DEFAULT_SYSTEM
    options: tuple[str, ...] = ()  # boolean system options switched on, e.g. ("root_last",)
    labelled: bool = False
    oracle: str = ""  # "" = the system's default oracle (see default_oracle)
    compare: str = ""  # a second oracle shown beside the first, or ""
    moves: tuple[str, ...] = ()
    cursor: int = 0
    presenter: bool = False  # larger type and drawing, for a projector
    hidden: bool = False  # costs, verdicts and the gold overlay hidden until revealed

    # -- derived values ------------------------------------------------------------------
    def make_system(self) -> pc.TransitionSystem:
        return make_system(self.system, self.options, self.labelled)

    def taken(self) -> tuple[str, ...]:
        """The moves applied to reach the current configuration."""
        return self.moves[: self.cursor]

    def undone(self) -> tuple[str, ...]:
        """The moves a redo would apply again."""
        return self.moves[self.cursor:]

    # -- changes ---------------------------------------------------------------------------
    def play(self, move: str) -> StepperState:
        return replace(self, moves=(*self.taken(), move), cursor=self.cursor + 1)

    def play_all(self, moves: tuple[str, ...]) -> StepperState:
        """Several moves at once (a model finishing the parse)."""
        return replace(self, moves=(*self.taken(), *moves), cursor=self.cursor + len(moves))

    def undo(self) -> StepperState:
        return self.jump(self.cursor - 1)

    def redo(self) -> StepperState:
        return self.jump(self.cursor + 1)

    def jump(self, step: int) -> StepperState:
        return replace(self, cursor=max(0, min(len(self.moves), step)))

    def reset(self) -> StepperState:
        return replace(self, moves=(), cursor=0)

    def toward(self, linked: StepperState) -> StepperState:
        """The state after the browser's Back or Forward brought the link of ``linked``: a jump
        along these moves when the link only took fewer or more of them (Back is Undo, Forward
        Redo, and the moves ahead are kept), else the link's state.

        >>> now = StepperState(moves=("SH", "LA", "RA"), cursor=3)
        >>> now.toward(StepperState(moves=("SH", "LA"), cursor=2)) == now.jump(2)
        True
        >>> now.toward(StepperState(system="arc-hybrid", moves=("SH",), cursor=1)).system
        'arc-hybrid'
        """
        taken = linked.taken()
        if replace(linked, moves=self.moves, cursor=self.cursor) == self and self.moves[:len(taken)] == taken:
            return self.jump(len(taken))
        return linked

    def toggle_hidden(self) -> StepperState:
        """Hide the oracle (costs, verdicts, gold arcs), or reveal it."""
        return replace(self, hidden=not self.hidden)

    def choose(self, sentence: str, system: str, options: tuple[str, ...], labelled: bool,
               oracle: str, compare: str, presenter: bool = False) -> StepperState:
        """The user's choices applied; a new sentence or system starts the moves again."""
        same_parse = (sentence, system, options, labelled) == (
            self.sentence, self.system, self.options, self.labelled)
        moves, cursor = (self.moves, self.cursor) if same_parse else ((), 0)
        return StepperState(sentence, system, options, labelled, oracle, compare, moves, cursor, presenter,
                            self.hidden)

    # -- the link --------------------------------------------------------------------------
    def to_query(self) -> dict[str, str]:
        query = {"s": self.sentence, "sys": self.system}
        if not is_shareable(self.sentence):
            query["s"] = DEFAULT_KEY  # too long for a link: a reader of it gets the default
            return query
        optional = {"opt": ",".join(self.options), "lab": "1" if self.labelled else "",
                    "oracle": self.oracle, "vs": self.compare, "moves": ".".join(self.moves),
                    "step": str(self.cursor) if self.cursor != len(self.moves) else "",
                    "present": "1" if self.presenter else "", "hide": "1" if self.hidden else ""}
        return query | {k: v for k, v in optional.items() if v}

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> tuple[StepperState, list[str]]:
        """Read a link, part by part; each part that does not fit falls back to its default.

        Returns the state and the problems found, as messages for the user.
        """
        problems: list[str] = []
        state = cls(presenter=query.get("present") == "1", hidden=query.get("hide") == "1")
        for part in (_read_setup, _read_sentence, _read_oracles, _read_moves, _check_moves):
            try:
                state = part(state, query)
            except pc.ParsingCoreError as err:
                problems.append(str(err))
        return state, problems


def make_system(name: str, options: tuple[str, ...] = (), labelled: bool = False) -> pc.TransitionSystem:
    return pc.get_system(name, labelled=labelled, **{o: True for o in options})


def system_options(name: str) -> tuple[str, ...]:
    """The boolean options a system accepts besides ``labelled`` (root_last, single_root, ...)."""
    cls = SYSTEMS.get(name)
    if cls is None:
        return ()
    params = inspect.signature(cls).parameters.values()
    return tuple(p.name for p in params if p.name != "labelled" and isinstance(p.default, bool))


def default_oracle(system: pc.TransitionSystem) -> str:
    """The oracle the page starts with: the library's first choice for the system, with no
    sentence in view (:func:`parsing_core.oracles.ranked`): exact for any tree, then exact for
    projective trees, then approximate, then the search oracle (short sentences only), then the
    static one (no costs), if nothing else.
    """
    return (ranked(system) or ranked(system, need_costs=False))[0]


# -- reading a link, one part at a time ----------------------------------------------------------
def _read_setup(state: StepperState, query: Mapping[str, str]) -> StepperState:
    name = query.get("sys", DEFAULT_SYSTEM)
    system = pc.get_system(name)  # raises for an unknown name
    options = tuple(o for o in query.get("opt", "").split(",") if o in system_options(system.name))
    return replace(state, system=name, options=options, labelled=query.get("lab") == "1")


def _read_sentence(state: StepperState, query: Mapping[str, str]) -> StepperState:
    key = query.get("s", DEFAULT_KEY)
    sentence_from_key(key)  # raises if it names no sentence
    return replace(state, sentence=key)


def _read_oracles(state: StepperState, query: Mapping[str, str]) -> StepperState:
    available = pc.list_oracles(state.make_system())
    chosen = {p: query.get(p, "") for p in ("oracle", "vs")}
    unknown = [name for name in chosen.values() if name and name not in available]
    if unknown:
        raise pc.ParsingCoreError(
            f"no oracle {unknown[0]!r} for {state.system}; available: {', '.join(available)}")
    return replace(state, oracle=chosen["oracle"], compare=chosen["vs"])


def _link_moves(query: Mapping[str, str]) -> tuple[str, ...]:
    return tuple(m for m in _MOVE_SPLIT.split(query.get("moves", "")) if m)


def _read_moves(state: StepperState, query: Mapping[str, str]) -> StepperState:
    """The link's moves, as far as they can be played; the cursor where ``step`` puts it."""
    legal = legal_prefix(state.make_system(), sentence_from_key(state.sentence), _link_moves(query))
    step = query.get("step", "")
    cursor = int(step) if step.isdigit() and int(step) <= len(legal) else len(legal)
    return replace(state, moves=legal, cursor=cursor)


def _check_moves(state: StepperState, query: Mapping[str, str]) -> StepperState:
    """Say so when some of the link's moves could not be played."""
    moves = _link_moves(query)
    if len(state.moves) < len(moves):
        raise pc.ParsingCoreError(
            f"the link's move {len(state.moves) + 1} ({moves[len(state.moves)][:20]}) is not possible "
            f"there; showing the {len(state.moves)} moves before it")
    return state


def legal_prefix(system: pc.TransitionSystem, sentence: pc.Sentence,
                 moves: tuple[str, ...]) -> tuple[str, ...]:
    """The longest prefix of ``moves`` that can be applied in turn from the initial configuration."""
    c = system.initial(sentence)
    for i, move in enumerate(moves):
        try:
            c = system.apply(c, pc.Transition.parse(move))
        except pc.ParsingCoreError:
            return moves[:i]
    return moves
