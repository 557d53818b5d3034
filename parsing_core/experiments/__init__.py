"""Experiments: pure code that the app's pages and the benchmark scripts share.

Everything here runs without Streamlit (and without torch): it takes plain values, returns
plain values (frozen dataclasses), and prints nothing, so a page can show a result, a
benchmark can tabulate it and a test can assert on it.

* :mod:`.audit` — does every oracle's exactness claim hold?  Its costs against exhaustive search.
"""
