"""What only the Stepper page (pages/stepper.py) uses: the sentence, system and oracle pickers,
the move board and its controls, the pure views cached by source data (``compute``), and the
trained-model picker and scorer.  Everything here may use Streamlit; pure pieces go in
``ui/views``."""
