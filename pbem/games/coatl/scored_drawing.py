"""Completed cóatls as one picture, for Cóatl's reports: a heading per seat, then each of its
cóatls head to tail with a line of its cards' points under it.  The pieces are drawn as the
board picture draws them (pbem/games/coatl/drawing.py: colour-blind safe colours, each piece
with its colour letter and a shape per kind), and every text is escaped there, so the
picture may be inlined in a report like the board.

Pure string building; the same input gives the same string.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.games.coatl import drawing

LABEL = 70  # room for "Cóatl 2" left of the pieces


def coatls_svg(groups: Sequence[Mapping[str, Any]], *, label: str, id_prefix: str = "rc") -> str:
    """`groups`: [{"who": "Ana (Macaw)", "coatls": [{"number": 2, "pieces": ["yellow head", ...],
    "line": "prophecy 17: 1 · temple 3: 3 · 4 points"}]}]; `label` says what the picture shows
    (its accessible name)."""
    margin, size, gap, line = drawing.MARGIN, drawing.SIZE, drawing.GAP, drawing.LINE
    longest = max((len(c.get("pieces") or ()) for g in groups for c in g.get("coatls") or ()), default=0)
    width = max(drawing.WIDTH, margin + LABEL + longest * (size + gap) + margin)
    parts: list[str] = []
    y = float(margin)
    for group in groups:
        if parts:
            parts.append(f'<line x1="{margin}" y1="{y:g}" x2="{width - margin}" y2="{y:g}" stroke="{drawing.FAINT}"/>')
            y += 6
        parts.append(drawing._text(margin, y + 16, group.get("who", ""), size=14, weight="bold"))
        y += 26
        for coatl in group.get("coatls") or ():
            parts.append(drawing._text(margin, y + size / 2 + 5, f"Cóatl {coatl.get('number')}", size=12))
            parts += drawing._pieces(margin + LABEL, y, coatl.get("pieces") or ())[0]
            parts.append(drawing._text(margin + LABEL, y + size + line - 2, coatl.get("line", ""), size=11))
            y += size + line + 8
    height = int(y + margin)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" id="{drawing._esc(id_prefix)}-coatls" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'font-family="{drawing._esc(drawing.SANS)}" role="img" aria-label="{drawing._esc(label)}">'
            f'<rect width="{width}" height="{height}" fill="{drawing.PAPER}"/>' + "".join(parts) + "</svg>")
