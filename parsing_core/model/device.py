"""Reproducibility and hardware: ``set_seed`` and the device a run uses.

On a CPU two runs with the same seed give the same losses, batch by batch: every random
choice (shuffling, word dropout, dropout masks, exploration) is drawn from a seeded
generator, and torch is asked for deterministic algorithms.  On a GPU some kernels are
not deterministic; results then agree only approximately.
"""

from __future__ import annotations

import random

import torch

from ..errors import ParsingCoreError


def set_seed(seed: int, threads: int = 0) -> None:
    """Seed Python's and torch's generators; deterministic algorithms; fixed CPU threads if given."""
    random.seed(seed)
    torch.manual_seed(seed)  # also seeds CUDA
    torch.use_deterministic_algorithms(True, warn_only=True)
    # Deterministic mode also fills every new tensor with NaN, a check for kernels that read
    # memory they never wrote; oneDNN's LSTM asks for a large workspace at every call, and
    # the filling was 8 % of torch's time in a training epoch.  The algorithms stay deterministic.
    torch.utils.deterministic.fill_uninitialized_memory = False  # type: ignore[attr-defined]
    if threads > 0:
        torch.set_num_threads(threads)


def pick_device(name: str = "auto") -> torch.device:
    """"auto": CUDA when available, else CPU; "cuda" fails clearly when there is none."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ParsingCoreError("device 'cuda' was asked for, but torch sees no CUDA GPU; use auto or cpu")
    return torch.device(name)


def finish(device: torch.device) -> None:
    """Wait until ``device`` has run everything queued on it (a GPU runs kernels after the host
    has queued them): a timer read after this counts the device's work too.  Nothing on a CPU."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def bfloat16_native(device: torch.device) -> bool:
    """Does ``device`` compute in bfloat16 natively (a CUDA GPU that supports it; a CPU with
    AVX-512 BF16 or AMX)?  Elsewhere bfloat16 is emulated, and slower than float32."""
    if device.type == "cuda":
        return bool(torch.cuda.is_bf16_supported())
    cpu = torch.cpu
    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    return any(bool(getattr(cpu, name, lambda: False)()) for name in checks)


def check_precision(precision: str, device: torch.device) -> str:
    """``precision`` if ``device`` can run it at speed; a clear error for bfloat16 where it is emulated."""
    if precision == "bfloat16" and not bfloat16_native(device):
        raise ParsingCoreError(f"precision bfloat16 needs a processor that computes in bfloat16 "
                               f"(AVX-512 BF16 or AMX, or a recent GPU); {describe(device)} does not. "
                               "Use float32.")
    return precision


def describe(device: torch.device) -> str:
    """A name for people: "cpu (2 threads)" or the GPU's name."""
    if device.type == "cuda":
        return f"cuda ({torch.cuda.get_device_name(device)})"
    threads = torch.get_num_threads()
    return f"cpu ({threads} thread{'s' * (threads != 1)})"
