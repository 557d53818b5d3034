"""The Practice page's Streamlit code:

* ``progress`` — the progress store (opened once per process) and a :class:`Tracker` that keeps
  answers and hints there, or in the session when it cannot; ``signin`` — nickname and class
  code, export and import;
* ``source`` — where items come from (a skill, a set by its link, the review queue) and the
  item each is at; ``models`` — the Train page's finished runs, for predict-parser items;
* ``answering`` — the board's answers, grading, the feedback and the help (hints, show me,
  another); ``inputs`` — the answer inputs of the kinds not answered on the board; ``drawing`` —
  the item's configuration with the feedback drawn on it;
* ``sets`` — the teacher's composer and a set's results.
"""
