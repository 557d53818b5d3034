"""Streamlit pieces any page uses: each draws its widgets under a ``key`` of its own and returns
the user's choice, or changes the state it is given (the move board changes a
:class:`~ui.widgets.board.Board`'s state).  A page's own widgets live in its folder
(``ui/<page>/``) until a second page needs them."""
