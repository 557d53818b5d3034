"""The Lessons page's own widgets: loading the lessons (cached), the answer widgets of its questions,
and the learner's progress through the lessons.

* :mod:`.source` — the lessons and their problems, each step's question item, cached;
* :mod:`.step` — a step's text, its explanation (once answered), its footnote, the lesson's end;
* :mod:`.board` — the step's live board: the picture across the page, the table of moves beside
  the stack and buffer;
* :mod:`.answers` — one small answer widget per question kind, grading in place, "Show me";
* :mod:`.progress` — the store for the sign-in box (the Practice page's), where answers go, and
  what the learner answered right;
* :mod:`.lesson_view` — pure (no Streamlit): a step's board state, a claim in words, the place in
  the URL, the table of legal moves.
"""
