"""What only the RL oracle page (pages/rl.py) uses: ``runs`` (start a DQN run on the jobs board,
watch it live, stop it, list the ended ones).  Its curves and summaries are pure builders in
``ui/views/rl_view``."""
