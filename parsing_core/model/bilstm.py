"""A bidirectional LSTM over padded sentences, one direction at a time: the fast CPU path.

``nn.LSTM`` reads sentences of different lengths from a *packed* sequence, so that the
backward direction starts at each sentence's own last token.  On a CPU the packed path runs
step by step through generic kernels; the padded path goes to oneDNN's fused LSTM, a third
faster forward and backward (``benchmarks/train.py`` measures it).  Padding after a sentence
does not disturb the forward direction (it comes after); for the backward direction each
sentence is reversed *within its length* (the padding stays behind), read forward, and
reversed back.  Same parameters (those of the ``nn.LSTM``, so checkpoints do not change),
same function: the outputs agree with the packed path to float rounding (1e-6), and
positions beyond a sentence's end hold values nobody reads.

>>> import torch
>>> lstm = torch.nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True)
>>> x, lengths = torch.randn(2, 5, 3), torch.tensor([5, 2])
>>> packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
>>> reference, _ = torch.nn.utils.rnn.pad_packed_sequence(lstm(packed)[0], batch_first=True)
>>> out = bilstm(lstm, x, lengths)                                    # (B, T, 2H)
>>> torch.allclose(out[1, :2], reference[1, :2], atol=1e-6), torch.allclose(out[0], reference[0], atol=1e-6)
(True, True)
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

WEIGHTS = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")


def reversal(lengths: Tensor, width: int, device: torch.device) -> Tensor:
    """(B·T,) rows of x (B, T, ·) flattened: position t of sentence b ↦ its length − 1 − t inside
    the sentence, t beyond it (an involution), as row b·T + t."""
    t = torch.arange(width, device=device)[None, :]
    n = lengths.to(device)[:, None]
    within = torch.where(t < n, n - 1 - t, t)
    return (within + width * torch.arange(len(lengths), device=device)[:, None]).reshape(-1)


def flip(x: Tensor, order: Tensor) -> Tensor:
    """Each sentence of x (B, T, D) reversed within its length (``order`` from :func:`reversal`).

    Whole rows are picked (``index_select``): a ``gather`` along T reads one index per cell, D
    times as many, and took 580 µs forward and backward on a training batch's layer input
    (32 × 30 × 250) against 420 µs."""
    return x.reshape(-1, x.shape[-1]).index_select(0, order).view(x.shape)


def dropout(x: Tensor, p: float, training: bool) -> Tensor:
    """Inverted dropout: each cell kept with probability 1 − p and scaled by 1 / (1 − p).

    The same function as ``F.dropout``, with the mask drawn as uniform numbers compared to p:
    on a CPU that is twice as fast, forward and backward, as ``F.dropout``'s Bernoulli draws
    (a few milliseconds a batch at these sizes, half a second an en_lines epoch).  The numbers
    are drawn in float32 whatever x's type, so a bfloat16 x keeps exactly 1 − p of its cells
    on average.
    """
    if not training or p == 0:
        return x
    keep = torch.rand(x.shape, device=x.device) >= p
    return x * keep.to(x.dtype) * (1 / (1 - p))


def direction(lstm: nn.LSTM, x: Tensor, layer: int, suffix: str) -> Tensor:
    """One layer, one direction, over padded x (B, T, D): the outputs (B, T, H)."""
    params = [getattr(lstm, f"{name}_l{layer}{suffix}") for name in WEIGHTS]
    h0 = x.new_zeros(1, x.shape[0], lstm.hidden_size)
    out: Tensor = torch.lstm(x, (h0, h0), params, True, 1, 0.0, lstm.training, False, True)[0]
    return out


def bilstm(lstm: nn.LSTM, x: Tensor, lengths: Tensor) -> Tensor:
    """The outputs (B, T, 2H) of a bidirectional, batch-first ``lstm`` over x (B, T, D) of ``lengths``."""
    order = reversal(lengths, x.shape[1], x.device)
    for layer in range(lstm.num_layers):
        if layer:  # nn.LSTM's dropout between layers
            x = dropout(x, lstm.dropout, lstm.training)
        forward = direction(lstm, x, layer, "")
        backward = flip(direction(lstm, flip(x, order), layer, "_reverse"), order)
        x = torch.cat([forward, backward], dim=-1)
    return x


def last_states(lstm: nn.LSTM, x: Tensor, lengths: Tensor) -> Tensor:
    """(B, 2H): a one-layer bidirectional ``lstm``'s last state in each direction (``h_n``)."""
    order = reversal(lengths, x.shape[1], x.device)
    last = (lengths.to(x.device) - 1)[:, None, None].expand(-1, 1, lstm.hidden_size)
    forward = direction(lstm, x, 0, "").gather(1, last)[:, 0]
    backward = direction(lstm, flip(x, order), 0, "_reverse").gather(1, last)[:, 0]
    return torch.cat([forward, backward], dim=-1)
