"""What only the Welcome page (pages/welcome.py) uses: ``doors`` (the three cards to start and the
other pages, each one click away), ``derivation`` (the static oracle's derivation of the default
sentence in the system picked) and ``welcome_view`` (the doors, the lab's ideas in one paragraph,
where the treebanks come from: pure, no Streamlit)."""
