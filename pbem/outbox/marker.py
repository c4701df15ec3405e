"""The line that starts every mail a player can reply to: everything from it on is history.

Clients quote our mail in every way there is ('>' lines, an unquoted copy under a header we
may not know, HTML divs with a border, a paste after "On ... wrote:").  So our text says
where it begins: `with_marker` puts a short visible line at the top of the text and the HTML,
and `pbem.mail.extract.reply_text` ends the player's text at that line when it is not
'>'-quoted (a quoted one is dropped with its quote, so answers below a quote still count).
A visible line, not an invisible token: clients rewrite HTML and drop zero-width characters,
but keep text.
"""
from __future__ import annotations

import re
from html import escape

MARKER = "## pbem: reply above this line ##"
_MARKER = re.compile(r"^[#\s*]*pbem\W+reply above this line\W*$", re.IGNORECASE)
_BODY = re.compile(r"<body[^>]*>", re.IGNORECASE)


def is_marker(line: str) -> bool:
    """Our marker line, as any client may have kept it (not '>'-quoted)."""
    return bool(_MARKER.match(line.strip()))


def with_marker(text: str) -> str:
    return f"{MARKER}\n\n{text}"


def with_marker_html(html: str) -> str:
    line = f'<p style="color:#888888;font-size:12px;margin:0 0 12px">{escape(MARKER)}</p>'
    body = _BODY.search(html)
    return html[:body.end()] + line + html[body.end():] if body else line + html
