"""Streamlit pieces that more than one page uses: each draws its widgets and returns the user's
choice (or, for ``errors``, shows a library error as a message instead of a traceback).  A page's
own widgets live in its folder (``ui/<page>/``) until a second page needs them."""
