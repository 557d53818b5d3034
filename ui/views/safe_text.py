r"""User text inside Markdown, made inert: shown as the characters it is, never as markup.

Streamlit's Markdown reads ``*emphasis*``, ``[links](…)``, ``$math$``, ``:red[colour]`` and
``:emoji:`` directives; raw HTML such as ``<script>`` it shows as text only by default.  A
token typed by a user may contain any of them, so before it goes into Markdown every ASCII
punctuation character is backslash-escaped (CommonMark turns ``\*`` back into ``*``), and
``<``/``>``/``&`` become entities.

>>> inert('<script>alert("x")</script> *a* :red[b]')
'&lt;script&gt;alert\\(\\"x\\"\\)&lt;\\/script&gt; \\*a\\* \\:red\\[b\\]'

Control characters (NUL, escape, line breaks inside a token) would break a drawing's DOT text
or a table; :func:`visible` shows each as its Unicode control picture instead.

>>> visible("a\x00b\x1b[31m\x7f")
'a␀b␛[31m␡'
"""

from __future__ import annotations

import string

_ESCAPES = {c: "\\" + c for c in string.punctuation} | {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
_TABLE = str.maketrans(_ESCAPES)


_PICTURES = str.maketrans({chr(i): chr(0x2400 + i) for i in range(32)} | {"\x7f": "\u2421"})


def visible(text: str) -> str:
    """``text`` with every ASCII control character shown as its control picture (␀, ␛, ␊, ...)."""
    return text.translate(_PICTURES)


def inert(text: str) -> str:
    """``text`` escaped for Markdown: every punctuation mark literal, no HTML, no directives."""
    return text.translate(_TABLE)
