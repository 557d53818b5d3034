"""The Practice page's Streamlit code: the learner and where progress goes (``progress``), the
item being practised and where it comes from (``source``), the answer inputs of each kind
(``inputs``), and the sets a teacher composes and their results (``sets``)."""
