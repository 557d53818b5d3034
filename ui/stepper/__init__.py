"""What only the Stepper page (pages/stepper.py) uses.

The page reads top to bottom: ``settings`` (the title row: sentence, parser, oracles, model and
autoplay in a popover, presenter mode; returns the learner's
:class:`~ui.stepper.settings.Choices`), ``board_panel`` (the fragment a click on the board
reruns), then the menus.  The board itself is one component
(``board_component`` with ``board.js`` and ``board.css``), drawn from plain data built in Python
(``board_data``: what the board shows and what a click changes; ``board_state``: computed once per
state and shared; ``board_drawing``: all a run of the board computes, without Streamlit).  A click
mid-parse needs no run at all where the app is served by ``serve.py``: ``board_channel`` applies
it and answers the next board over the route of ``board_route`` (its address: ``board_address``).
Below it: ``panels`` (the end of a parse, Nederhof's scores) and ``menus``
(downloads, share).  Also its link (``link``: the board's state read from and written to the
URL), the downloads of the derivation and the drawing, and the trained-model picker and scorer.
Its pure twins (no Streamlit): ``exports_view`` (CSV, LaTeX and rendered pictures),
``worksheet_view`` (a derivation sheet with blanks for homework) and ``model_view`` (a trained
model's columns, its move, its parse).  The pickers and cached views it shares with other pages
are in ``ui/widgets``; shared pure pieces are in ``ui/views``."""
