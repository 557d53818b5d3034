r"""User text inside Markdown, made inert: shown as the characters it is, never as markup.

Streamlit's Markdown reads ``*emphasis*``, ``[links](…)``, ``$math$``, ``:red[colour]`` and
``:emoji:`` directives; raw HTML such as ``<script>`` it shows as text only by default.  A
token typed by a user may contain any of them, so before it goes into Markdown every ASCII
punctuation character is backslash-escaped (CommonMark turns ``\*`` back into ``*``), and
``<``/``>``/``&`` become entities.

>>> inert('<script>alert("x")</script> *a* :red[b]')
'&lt;script&gt;alert\\(\\"x\\"\\)&lt;\\/script&gt; \\*a\\* \\:red\\[b\\]'
"""

from __future__ import annotations

import string

_ESCAPES = {c: "\\" + c for c in string.punctuation} | {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
_TABLE = str.maketrans(_ESCAPES)


def inert(text: str) -> str:
    """``text`` escaped for Markdown: every punctuation mark literal, no HTML, no directives."""
    return text.translate(_TABLE)
