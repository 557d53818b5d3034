"""What only the RL oracle page (pages/rl.py) uses: ``form`` (sentences, reward, updates, and the
Start button), ``runs`` (start a DQN run on the jobs board, watch it live, stop it, list the ended
ones) and ``runs_view`` (its curves, summary and verdict: pure builders, no Streamlit)."""
