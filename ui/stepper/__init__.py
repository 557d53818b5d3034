"""What only the Stepper page (pages/stepper.py) uses: its link (the board's state read from and
written to the URL), the downloads of the derivation and the drawing, and the trained-model
picker and scorer.  The board, pickers and cached views it shares with other pages are in
``ui/widgets``; pure pieces are in ``ui/views``."""
