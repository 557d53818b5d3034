"""The network: a BiLSTM reads the sentence once, a small MLP scores the moves at every step.

Kiperwasser & Goldberg (2016), "Simple and accurate dependency parsing using bidirectional
LSTM feature representations", with one change of bookkeeping that makes lockstep batches
cheap (Chen & Manning 2014 call it *pre-computation*):

1. **Embed** every token: a word vector, optionally a UPOS vector and a character-BiLSTM
   vector; token 0 is ROOT, with its own vectors.
2. **BiLSTM** over each sentence: one vector v_i per token, seeing the whole sentence.
3. **Score** a configuration from the vectors of its key positions (see :mod:`.features`)::

       h = tanh(W · [v_s0; v_s1; v_s2; v_b0; v_b1; v_b2] + b)      moves = U · h

   W · [v_1; …; v_F] = Σ_f W_f v_f, so every token's product W_f v_i is computed **once per
   batch** (the *table*); a step of the parser then only adds F rows of the table.  That is
   the same function as the MLP on the concatenation, at a fraction of the cost per step.

The move scorer gives one score per transition kind of the system (SH, LA, RA, RE, SW);
a second MLP of the same shape (the *label scorer*) gives, for each arc kind (LA, RA), one
score per dependency label.  A labelled move is thus scored in two factors, p(kind) and
p(label | kind), instead of one output per (kind, label) pair: the move scorer stays the
size of the unlabelled system, and the label scorer learns from every gold arc it sees.

Shapes: B sentences, T = longest sentence + 1 (ROOT), D input size, H = lstm_dim,
F features, M = mlp_dim, K kinds, L labels, N configurations scored at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .batch import Encoded
from .bilstm import bilstm, dropout, last_states
from .config import ModelConfig
from .features import ARC_KINDS
from .vocab import PAD, Vocab


class CharEncoder(nn.Module):
    """A word's spelling as one vector: the last states of a BiLSTM over its characters."""

    def __init__(self, n_chars: int, char_dim: int, hidden: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(n_chars, char_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(char_dim, hidden, batch_first=True, bidirectional=True)

    def forward(self, chars: Tensor, lengths: Tensor, packed: bool = False,
                groups: Sequence[tuple[int, int, int]] = ()) -> Tensor:
        """(U, 2Hc) for U spellings (U, Lc) of ``lengths``.  ``groups`` (start, end, width): read
        spellings start…end − 1 together, padded to ``width`` only (:func:`.batch.spelling_groups`);
        none: all of them in one call."""
        if not packed:
            runs = groups or [(0, len(chars), chars.shape[1])]
            return torch.cat([last_states(self.lstm, self.embed(chars[a:b, :w]), lengths[a:b])
                              for a, b, w in runs])  # (U, 2Hc), see .bilstm
        x = self.embed(chars)  # (U, Lc, Dc): U distinct words, Lc longest word
        words = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(words)  # h: (2, U, Hc), last state of each direction
        return torch.cat([h[0], h[1]], dim=-1)  # (U, 2Hc)


class ParserNetwork(nn.Module):
    """BiLSTM encoder + move scorer + label scorer (see the module docstring)."""

    def __init__(self, config: ModelConfig, vocab: Vocab, n_kinds: int, n_features: int) -> None:
        super().__init__()
        self.config, self.n_kinds, self.n_features = config, n_kinds, n_features
        self.n_labels = len(vocab.labels)
        c = config
        self.words = nn.Embedding(len(vocab.words), c.word_dim, padding_idx=PAD)
        self.upos = nn.Embedding(len(vocab.upos), c.upos_dim, padding_idx=PAD) if c.upos_dim else None
        self.chars = CharEncoder(len(vocab.chars), c.char_dim, c.char_lstm_dim) if c.char_dim else None
        in_dim = c.word_dim + c.upos_dim + (2 * c.char_lstm_dim if c.char_dim else 0)
        self.lstm = nn.LSTM(in_dim, c.lstm_dim, num_layers=c.lstm_layers, batch_first=True,
                            bidirectional=True, dropout=c.dropout if c.lstm_layers > 1 else 0.0)
        self.empty = nn.Parameter(0.1 * torch.randn(2 * c.lstm_dim))  # the vector of a missing position
        self.packed = False  # see encode()
        self.packed_on_cuda = True  # see encode()
        self.precision = "float32"  # or "bfloat16": encode() under autocast (TrainConfig.precision)
        self.heads = 2 if self.n_labels else 1  # hidden layers: moves (and labels)
        # W_f of both MLPs for every feature slot f, applied to every token at once; bias added once.
        self.project = nn.Linear(2 * c.lstm_dim, n_features * self.heads * c.mlp_dim, bias=False)
        bound = (n_features * 2 * c.lstm_dim) ** -0.5  # initialised like one Linear over [v_1; …; v_F]
        nn.init.uniform_(self.project.weight, -bound, bound)
        self.hidden_bias = nn.Parameter(torch.zeros(self.heads * c.mlp_dim))
        self.moves = nn.Linear(c.mlp_dim, n_kinds)
        self.labels = nn.Linear(c.mlp_dim, len(ARC_KINDS) * self.n_labels) if self.n_labels else None

    @property
    def device(self) -> torch.device:
        return self.empty.device

    # -- once per batch ----------------------------------------------------------------------
    def embed(self, batch: Encoded, packed: bool = False) -> Tensor:
        parts = [self.words(batch.words)]  # (B, T, Dw)
        if self.upos is not None:
            assert batch.upos is not None
            parts.append(self.upos(batch.upos))  # (B, T, Du)
        if self.chars is not None:
            assert batch.chars is not None and batch.char_lengths is not None and batch.types is not None
            spelled = self.chars(batch.chars, batch.char_lengths, packed, batch.char_groups)  # (U, 2Hc)
            parts.append(spelled[batch.types])  # (B, T, 2Hc)
        x: Tensor = dropout(torch.cat(parts, dim=-1), self.config.dropout, self.training)  # (B, T, D)
        return x

    def encode(self, batch: Encoded, packed: bool | None = None) -> Tensor:
        """The table: every token's contribution to every feature slot of the hidden layers.

        Returns (B·T + 1, F, heads·M); row B·T is the empty vector's contribution.  Row
        ``b·T + i`` is token i of sentence b, as :func:`.features.feature_rows` numbers them.
        With ``precision`` "bfloat16" the embeddings, the BiLSTMs and the table are computed
        under autocast in bfloat16 and the table is handed back in float32 (mixed precision:
        the weights and their gradients stay float32).
        The BiLSTMs read padded sentences (:func:`.bilstm.bilstm`), or, with ``packed`` (by
        default the network's ``packed``), packed sequences: on a CPU the slower way, kept to
        compare, and taken anyway when most of the padded batch would be padding (sentences of
        very different lengths in one batch: the padded way computes over every position).  On
        a GPU (``packed_on_cuda``) packed sequences are cuDNN's own layout: both directions of a
        layer in one call, with no reversal, where the padded way makes four calls a layer.
        """
        if packed is None:
            packed = (self.packed or (self.packed_on_cuda and self.device.type == "cuda")
                      or 2 * int(batch.lengths.sum()) < batch.lengths.numel() * batch.width)
        with torch.autocast(self.device.type, torch.bfloat16, enabled=self.precision == "bfloat16"):
            x = self.embed(batch, packed)  # (B, T, D)
            v = self.read(x, batch) if packed else bilstm(self.lstm, x, batch.lengths)  # (B, T, 2H)
            v = dropout(v, self.config.dropout, self.training).reshape(-1, v.shape[-1])  # (B·T, 2H)
            v = torch.cat([v, self.empty.unsqueeze(0).to(v.dtype)], dim=0)  # (B·T + 1, 2H)
            table: Tensor = self.project(v).view(v.shape[0], self.n_features, -1)  # (B·T + 1, F, heads·M)
        return table.float()  # the steps read it in float32 (a no-op in float32)

    def read(self, x: Tensor, batch: Encoded) -> Tensor:
        """The BiLSTM over packed sentences: (B, T, 2H), zeros beyond each sentence."""
        packed = pack_padded_sequence(x, batch.lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        v, _ = pad_packed_sequence(out, batch_first=True, total_length=batch.width)
        return v

    # -- once per step -----------------------------------------------------------------------
    def score(self, table: Tensor, rows: Tensor) -> tuple[Tensor, Tensor | None]:
        """Move scores (N, K) and label scores (N, 2, L) (None if unlabelled) of N configurations.

        ``rows`` (N, F) holds, for each configuration and feature slot, a row of the table.
        """
        hidden = self.hidden(table, rows)  # (N, heads·M)
        m = self.config.mlp_dim
        moves = self.moves(hidden[:, :m])  # (N, K)
        if self.labels is None:
            return moves, None
        labels = self.labels(hidden[:, m:]).view(len(rows), len(ARC_KINDS), self.n_labels)  # (N, 2, L)
        return moves, labels

    def score_moves(self, table: Tensor, rows: Tensor) -> Tensor:
        """The move scores (N, K) alone: a training walk chooses its moves without the labels."""
        scores: Tensor = self.moves(self.hidden(table, rows, self.config.mlp_dim))
        return scores

    def hidden(self, table: Tensor, rows: Tensor, width: int | None = None) -> Tensor:
        """The hidden layers (N, heads·M) of N configurations, or their first ``width`` units."""
        n, f = rows.shape
        flat = rows * f + torch.arange(f, device=rows.device)  # (N, F): row r, slot j → r·F + j
        cells = table.reshape(-1, table.shape[-1])
        bias: Tensor = self.hidden_bias
        if width is not None:
            cells, bias = cells[:, :width], bias[:width]
        picked = cells.index_select(0, flat.reshape(-1))  # (N·F, width)
        hidden: Tensor = torch.tanh(picked.view(n, f, -1).sum(dim=1) + bias)
        return hidden
