"""The Lessons page's own widgets: loading the lessons (cached), the answer widgets of its questions,
and the learner's progress through the lessons.

* :mod:`.source` — the lessons and their problems, each step's question item, cached;
* :mod:`.answers` — one small answer widget per question kind, and grading in place;
* :mod:`.progress` — the learner signed in on the Practice page, and what they answered right.
"""
