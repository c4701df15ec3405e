"""HTML mail to plain text, with the standard library's html.parser.

Why not html2text or inscriptis: html2text writes Markdown (it escapes '-', '*', '_' and
wraps lines, which would change order text), and neither marks <blockquote> the way
quote stripping needs.  Mail HTML needs little: block elements end lines, <br> breaks
them, <blockquote> becomes '> ' lines (so a quoted reply looks like a quoted plain-text
reply), and head/style/script, hidden elements and marked signature blocks are dropped.
"""
from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

_BLOCK = frozenset("""p div li ul ol dl dt dd tr table thead tbody tfoot h1 h2 h3 h4 h5 h6 hr pre
    section article header footer nav aside main figure figcaption caption address center
    form fieldset blockquote""".split())
_SKIP = frozenset(("head", "style", "script", "title", "template", "noscript", "xml"))
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all", re.I)
_SPACE = re.compile(r"\s+")
_STRAY_LT = re.compile(r"<(?![A-Za-z/!?])")
# html.parser costs a few microseconds per tag: 1 MB of tiny tags takes over a second.
# Replies put their text first; 256 kB leaves room for Outlook's styles and a quoted board.
MAX_HTML_CHARS = 256 * 1024


def _hidden_or_signature(attrs: list[tuple[str, str | None]]) -> bool:
    """Hidden text is not what the player saw; signature blocks are marked by most
    clients (Gmail gmail_signature, Thunderbird moz-signature, Outlook id=Signature)."""
    for name, value in attrs:
        value = (value or "").lower()
        if name == "hidden" or (name == "style" and _HIDDEN.search(value)):
            return True
        if (name == "class" and any("signature" in word for word in value.split())) or \
                (name == "id" and value == "signature"):
            return True
    return False


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.buffer: list[str] = []
        self.quote = 0  # <blockquote> depth
        self.pre = 0
        self.skip_tag: str | None = None  # the element being dropped, and how deep in it
        self.skip_depth = 0

    def flush(self, blank: bool = False) -> None:
        text = "".join(self.buffer).strip()
        self.buffer = []
        if text or blank:
            prefix = ">" * self.quote
            self.lines.append(f"{prefix} {text}" if prefix and text else prefix + text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip_tag is not None:
            self.skip_depth += tag == self.skip_tag
            return
        if (tag in _SKIP or _hidden_or_signature(attrs)) and tag not in _VOID:
            self.skip_tag, self.skip_depth = tag, 1
            return
        if tag == "br":
            self.flush(blank=True)
        elif tag in _BLOCK:
            self.flush()
            if tag == "blockquote":
                self.quote += 1
            elif tag == "pre":
                self.pre += 1
        elif tag in ("td", "th"):
            self.buffer.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:  # <br/> has no end; <div/> opens and closes at once
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.skip_tag is not None:
            if tag == self.skip_tag:
                self.skip_depth -= 1
                if self.skip_depth == 0:
                    self.skip_tag = None
            return
        if tag in _BLOCK:
            self.flush()
            if tag == "blockquote":
                self.quote = max(0, self.quote - 1)
            elif tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.skip_tag is not None:
            return
        if self.pre:
            first, *rest = data.split("\n")
            self.buffer.append(first)
            for line in rest:
                self.flush(blank=True)
                self.buffer.append(line)
        else:
            self.buffer.append(_SPACE.sub(" ", data))


def html_to_text(html: str, *, limit: int = MAX_HTML_CHARS) -> str:
    parser = _Text()
    # A stray '<' is text; escaped, it costs html.parser one call per run instead of per '<'.
    parser.feed(_STRAY_LT.sub("&lt;", html[:limit]))
    # No close(): on malformed input (thousands of unclosed "<!--") CPython 3.11's close()
    # rescans the rest for every one of them, minutes for a 1 MB mail; feed() is linear and
    # stops at the first construct that never ends, which then hides the rest, as a comment
    # does in a browser.  A tail of plain text (say, an unfinished "&amp") is still text.
    rest = getattr(parser, "rawdata", "")
    if rest and "<" not in rest:
        parser.handle_data(unescape(rest))
    parser.flush()
    return "\n".join(parser.lines)
