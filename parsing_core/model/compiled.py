"""A tensor walk's step fused by ``torch.compile``: a few dozen kernels instead of a few hundred.

A step of the tensor walks (:mod:`.tensor_walks` for training, :mod:`.tensor_parse` for greedy
parsing) is some three hundred small tensor operations over all B rows: reading the stack and
the buffer, the legal moves, the oracle's costs, the network's scores, the choice, the move.
Walked eagerly, each is a Python call and, on a GPU, a kernel launch; replayed from a CUDA graph
(:mod:`.tensor_graphs`) the launches cost little, but the kernels still run one after another,
each for a microsecond or two.  :func:`torch.compile` (TorchInductor) fuses the step's
elementwise work, gathers and scatters into a few dozen kernels (C++ loops on a CPU, Triton on a
GPU): ``python -m benchmarks.train --sections kernels`` counts them.

A step is compiled once for all sentence lengths (``dynamic=True``), with the whole step in one
graph (``fullgraph=True``: anything that would leave the graph is an error, not a silent slow
path) and torch's own random numbers (``fallback_random``: a compiled exploring step draws the
numbers the eager one draws).  Compiling needs a C++ compiler on a CPU and Triton on a GPU; where
it fails, :class:`Compiled` says why once and steps eagerly from then on.  The first call of
each shape pays for the compiling (seconds; torch caches the result on disk).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

import torch

P = ParamSpec("P")
R = TypeVar("R")

#: the compiler behind :func:`torch.compile`: "inductor" fuses; the tests also use "eager" (the
#: graph dynamo captured, run by torch's own kernels: quick to make, nothing fused)
BACKEND = "inductor"


class Compiled(Generic[P, R]):
    """``step`` compiled by :func:`torch.compile` (see the module), or ``step`` itself after compiling
    failed once (a warning says why); ``what`` names it in that warning."""

    def __init__(self, step: Callable[P, R], what: str) -> None:
        self.step, self.what = step, what
        options: dict[str, str | int | bool | Callable[..., Any]] | None = (
            {"fallback_random": True} if BACKEND == "inductor" else None)
        self.fused = torch.compile(step, fullgraph=True, dynamic=True, backend=BACKEND, options=options)
        self.broken = False

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if not self.broken:
            try:
                return self.fused(*args, **kwargs)
            except Exception as err:  # noqa: BLE001  # compiling fails in many ways (no compiler,
                # a graph break, a shape guard); a fault of the step itself fails again just below
                first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                warnings.warn(f"{self.what} could not be compiled ({first}); stepping eagerly", stacklevel=2)
                self.broken = True
        return self.step(*args, **kwargs)
