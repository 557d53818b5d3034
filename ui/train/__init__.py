"""What only the Train page (pages/train.py) uses: the form that describes a run, the runs on the
jobs board (started, watched, stopped), a finished run's curves and its model."""
