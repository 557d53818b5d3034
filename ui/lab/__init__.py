"""What only the Oracle lab page (pages/lab.py) uses, one module per view: ``agreement`` (the
form, the background job with its progress and Stop, the live results), ``speed`` (time per
configuration against length, Algorithm 1), ``sentence`` (one configuration, every oracle),
``systems`` (two systems' derivations of one gold tree) and ``downloads`` (CSV and figure files).
Each view's tables and figures are built beside it, in its pure twin (no Streamlit):
``agreement_view`` (with ``readout_view``, the finished run read aloud), ``speed_view``,
``sentence_view`` and ``systems_view``."""
