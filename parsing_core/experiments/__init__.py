"""Experiments: pure code that the app's pages and the benchmark scripts share.

Everything here runs without Streamlit (and without torch): it takes plain values, returns
plain values (dataclasses, numbers), and prints nothing, so a page can show a result, a
benchmark can tabulate it and a test can assert on it.  Randomness comes in as a
``random.Random``: the same seed gives the same walks, samples and tables.

The map, from the ground up:

* :mod:`.walks` — the configurations one parse passes through, driven by a ``choose``
  function: random walks, *observed* walks that follow an oracle's min-cost moves with some
  probability (the thesis's 10 %, Nederhof's 90 %), and configuration sampling for timing.
* :mod:`.agreement` — how well an approximate oracle agrees with an exact one: the thesis's
  §6.2 protocol (inclusion buckets of optimal sets, Spearman's ρ of cost vectors, projective
  and non-projective trees apart) and Nederhof's Table 11 (differing canonical sets and the
  confusions, as a :class:`~.agreement.SetComparison`).
* :mod:`.timing` — how long oracles take, in milliseconds: cold (one configuration, fresh
  oracle) and along a whole sentence (caches reused).
* :mod:`.audit` — does every oracle's exactness claim hold?  Its costs against exhaustive search.
* :mod:`.baseline` — the thesis's Algorithm 1 as printed, timed against the exact oracle.
* :mod:`.lab`, :mod:`.lab_runs`, :mod:`.job` — the Oracle lab's job (kind ``lab`` of the jobs
  board): its spec and JSON-lines records, the experiments above as generators of records, and
  its command line (``python -m parsing_core.experiments.job --spec ... --log ... --out ...``).

The benchmark scripts (``python -m benchmarks.oracles`` and others) only format these results
as markdown tables; the Oracle lab page draws them.
"""
