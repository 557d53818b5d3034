"""What only the Oracle lab page (pages/lab.py) uses, one module per view: ``agreement`` (the
form, the background job with its progress and Stop, the live results), ``speed`` (time per
configuration against length, Algorithm 1), ``sentence`` (one configuration, every oracle),
``systems`` (two systems' derivations of one gold tree) and ``downloads`` (CSV and figure files).
The tables and figures themselves are built in ``ui.views.lab*`` (pure)."""
