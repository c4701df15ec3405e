"""What text pbem accepts from people, and how names and titles are shown.

- `forbidden_in_input`: control characters (C0 but tab, newline and carriage return; DEL;
  C1) and lone surrogates.  No field of any form, JSON body, query or path takes them
  (pbem/app.py refuses the request before anything reads it).
- `one_line`: names and titles (display names, game titles, token names) as one line of
  visible text: whitespace collapsed, controls, bidirectional overrides and isolates and
  zero-width characters removed, so a name cannot display as something else.  Letters of
  right-to-left scripts stay; only the invisible formatting goes.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

# Invisible formatting: the soft hyphen, the zero-width characters, the bidirectional marks,
# embeddings, overrides and isolates, word joiners and invisible operators, the byte order
# mark and the interlinear annotation characters (a character class's inside, for re).
FORMATTING = "\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
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
