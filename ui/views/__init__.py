"""Pure builders: tables, DOT drawings, cost and model frames, curves, downloads, oracle answers,
sentence keys and the stepper's state, each a value in and a value out, with no Streamlit at
import time, so a page or a test can call them without a running app (tests/test_boundaries.py
imports every module here with Streamlit blocked)."""
