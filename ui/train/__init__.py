"""What only the Train page (pages/train.py) uses: the training-data chooser (synthetic data, a
data directory, or a UD treebank downloaded by name).  The page's pure parts (its spec, curves
and progress) are in ``ui.views.training``, shared with the stepper's model picker."""
