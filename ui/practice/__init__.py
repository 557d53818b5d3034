"""The Practice page's Streamlit code:

* ``sidebar`` — what to practise (a skill, a ready-made set, the review queue); ``signin`` —
  nickname and class code, export and import;
* ``item`` — the item the source is at, or why there is none; ``answering`` — the board's
  answers, grading, the feedback and the help (hints, show me, another); ``inputs`` — the answer
  inputs of the kinds not answered on the board, one per widget a kind names; ``drawing`` — the
  item's configuration with the feedback drawn on it;
* ``progress`` — the progress store (opened once per process) and a :class:`Tracker` that keeps
  answers and hints there, or in the session when it cannot; ``mastery`` — the run toward
  mastery and the "My progress" view;
* ``source`` — where items come from (a skill, a set by its link, the review queue) and the
  item each is at; ``models`` — the Train page's finished runs, for predict-parser items;
* ``sets`` — the teacher's composer and a set's results.

Its pure twins (no Streamlit): ``items_view`` (a skill, an answer kept as JSON, what a wrong
move costs, feedback drawn) and ``progress_view`` (mastery and review in words, the progress
figure, a set's results).
"""
