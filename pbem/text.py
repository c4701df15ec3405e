"""What text pbem accepts from people, and how names and titles are shown.

- `forbidden_in_input`: control characters (C0 but tab, newline and carriage return; DEL;
  C1) and lone surrogates.  No field of any form, JSON body, query or path takes them
  (pbem/app.py refuses the request before anything reads it).
- `one_line`: names and titles (display names, game titles, token names) as one line of
  visible text: whitespace collapsed, controls, bidirectional overrides and isolates and
  zero-width characters removed, so a name cannot display as something else.  Letters of
  right-to-left scripts stay; only the invisible formatting goes.
- `option_value`: a game's rule option as a form field or the command line writes it.
- `clean_text`, `clean_link`: player text cut to a length, links that are plain http(s).
- `clean_message`: a message of several lines (press), each line as `one_line` makes it.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from engine.core import Option

# Invisible formatting: Unicode's default-ignorable code points (the soft hyphen, the
# zero-width characters, bidirectional marks, embeddings, overrides and isolates, Hangul and
# Mongolian fillers, variation selectors, word joiners and invisible operators, the byte
# order mark, tag characters) and the interlinear annotation characters; as the inside of
# a character class, for re.
FORMATTING = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
              "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U0001bca0-\U0001bca3"
              "\U0001d173-\U0001d17a\U000e0000-\U000e0fff")
# In a name or title also the C0/C1 controls (tabs and newlines become spaces first).
INVISIBLE = re.compile(f"[\u0000-\u001f\u007f-\u009f{FORMATTING}]")
_FORBIDDEN = re.compile("[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff]")


def forbidden_in_input(value: str) -> bool:
    """Whether `value` holds a character no input field takes (see the module's docstring)."""
    return _FORBIDDEN.search(value) is not None


def one_line(value: Any) -> str:
    """A name or title as one line of visible text (NFC), without invisible formatting."""
    text = unicodedata.normalize("NFC", str(value if value is not None else ""))
    text = re.sub(r"\s+", " ", text)
    return " ".join(INVISIBLE.sub("", text).split())


def option_value(option: Option, text: str) -> Any:
    """A rule option's value from text: the choice it names, a whole number where the option
    takes numbers, else the text as it is (the game's own check says what it allows)."""
    matching = [choice for choice in option.choices if str(choice) == text]
    if matching:
        return matching[0]
    number = text.strip()
    if not option.choices and number.lstrip("-").isdigit() and len(number) <= 12:
        return int(number)
    return text


MAX_TITLE = 120  # a game title as reports show it
MAX_NAME = 60  # a player name as reports show it
MAX_LINK = 2000


def clean_text(value: Any, limit: int) -> str:
    """Player-chosen text as one line (pbem.text.one_line: controls and bidi overrides
    removed, whitespace collapsed, normalised), cut to `limit` characters with an ellipsis."""
    text = one_line(value)
    if len(text) > limit:
        text = text[:limit - 1].rstrip() + "…"
    return text


def clean_message(value: Any) -> str:
    """Player prose of several lines: each line as `one_line` makes a name (no controls, no
    bidirectional overrides or invisible formatting, spaces collapsed), no more than one
    blank line in a row, none at either end.  The caller checks the length."""
    lines = [one_line(line) for line in re.split(r"\r\n|\r|\n", str(value if value is not None else ""))]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip("\n")


def clean_link(value: Any) -> str | None:
    """An http(s) link of reasonable length, or None (javascript:, data:, file: dropped)."""
    if not isinstance(value, str):
        return None
    link = value.strip()
    if len(link) > MAX_LINK or not re.match(r"https?://[^\s<>\"'`]+$", link, re.IGNORECASE):
        return None
    return link
