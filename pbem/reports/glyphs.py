"""Characters no installed font can draw, shown as a readable stand-in instead of a box.

Report PDFs (WeasyPrint) and mail pictures (librsvg, through pyvips) find their glyphs through
fontconfig: a character the named font (DejaVu) lacks is drawn from any installed font that
has it (the Noto fonts bring CJK, Devanagari, emoji and most other scripts: docs/reports.md).
A character that no installed font has would be drawn as a box ("tofu"), which tells the
reader nothing; `drawable(text)` puts its code point in its place, "[U+F0000]" (a run of such
characters in one pair of brackets).  What the fonts cover is asked of fontconfig (`fc-list`)
once per process; without fontconfig nothing is replaced.
"""
from __future__ import annotations

import bisect
import re
import shutil
import subprocess
from functools import lru_cache

from pbem.text import FORMATTING

# Drawn as nothing whatever the fonts hold (controls, spaces, invisible formatting): never a box.
_NEVER_A_BOX = re.compile(f"[\\s\u0000-\u001f\u007f-\u009f{FORMATTING}]")
_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")
SHOWN_IN_A_RUN = 3  # code points named in one stand-in; the rest of the run is counted


@lru_cache(maxsize=1)
def covered() -> tuple[list[int], list[int]] | None:
    """The code points some installed font has, as sorted, merged ranges (starts, ends), or
    None when fontconfig cannot be asked."""
    if shutil.which("fc-list") is None:
        return None
    try:
        listed = subprocess.run(["fc-list", "--format", "%{charset}\n"], capture_output=True, text=True,
                                timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    ranges = sorted((int(a, 16), int(b or a, 16))
                    for a, b in re.findall(r"([0-9a-f]+)(?:-([0-9a-f]+))?", listed))
    starts: list[int] = []
    ends: list[int] = []
    for start, end in ranges:
        if ends and start <= ends[-1] + 1:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    return starts, ends


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether some installed font draws `char` (or it is drawn as nothing anyway)."""
    fonts = covered()
    if fonts is None or _NEVER_A_BOX.match(char):
        return True
    starts, ends = fonts
    at = bisect.bisect_right(starts, ord(char)) - 1
    return at >= 0 and ord(char) <= ends[at]


def stand_in(run: str) -> str:
    """"[U+F0000 U+F0001]" for characters no font has; a long run names its first few."""
    named = " ".join(f"U+{ord(c):04X}" for c in run[:SHOWN_IN_A_RUN])
    more = len(run) - SHOWN_IN_A_RUN
    return f"[{named}{f' and {more} more' if more > 0 else ''}]"


def drawable(text: str) -> str:
    """`text` with every run of characters that no installed font has replaced by a
    stand-in: safe in HTML and SVG text (the stand-in holds no markup character)."""
    return _NOT_ASCII.sub(lambda m: _replace_missing(m.group()), text)


def _replace_missing(chunk: str) -> str:
    if all(has_glyph(c) for c in chunk):
        return chunk
    out, missing = [], []
    for char in chunk:
        if has_glyph(char):
            if missing:
                out.append(stand_in("".join(missing)))
                missing = []
            out.append(char)
        else:
            missing.append(char)
    if missing:
        out.append(stand_in("".join(missing)))
    return "".join(out)
