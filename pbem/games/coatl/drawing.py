"""Cóatl's position as a standalone SVG drawing, from one reader's view.

The supply board (head, tail and body spaces with their pieces), the bags, the face-up
prophecies and temples, then each seat's player board and cóatls as the view shows them.
Colours are the Okabe-Ito palette, safe for colour-blind readers; every piece also carries
its colour letter (Y R K G B), and heads, bodies and tails have their own shapes (a head
points left, a tail right: a cóatl reads head to tail).  Nothing outside the document is
referenced and every text from data is escaped, so it may be inlined in pages and reports.

Clickable (the game page of a seat whose turn it is): each supply space the seat may take and
each piece on its own board carries `data-territory` ("body 3", "red body"), the value the
page's script puts in the decision form; a space that may be taken has a heavy frame (no
colour needed to see it), and a picked one a heavier still.

Pure string building with the standard library; the same input gives the same string.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence
from xml.sax.saxutils import escape

from pbem.games.coatl.cards import piece

# Okabe-Ito: yellow, vermillion, black, bluish green, blue; letters in the colour that reads on each.
FILLS = {"Y": "#f0e442", "R": "#d55e00", "K": "#1a1a1a", "G": "#009e73", "B": "#0072b2"}
LETTER_INK = {"Y": "#1a1a1a", "R": "#1a1a1a", "K": "#ffffff", "G": "#1a1a1a", "B": "#ffffff"}
INK = "#3b2f22"
PAPER = "#fbf6ea"
FAINT = "#b9ab94"
SANS = "'Helvetica Neue', Helvetica, Arial, 'DejaVu Sans', sans-serif"

WIDTH = 760
MARGIN = 16
SIZE = 24  # a piece
GAP = 4
LINE = 18


def _esc(text: Any) -> str:
    # ':' and '(' as references too, so no data can spell a URL scheme or a CSS url( in the markup.
    return escape(str(text), {'"': "&quot;", "'": "&#39;", ":": "&#58;", "(": "&#40;", ")": "&#41;"})


def _text(x: float, y: float, text: Any, *, size: int = 13, weight: str = "normal", anchor: str = "start",
          fill: str = INK) -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" text-anchor="{anchor}" '
            f'fill="{fill}">{_esc(text)}</text>')


def _piece(x: float, y: float, text: str, clickable: bool = False) -> str:
    """One piece: a head points left, a tail right, a body is a rounded square; its letter on it."""
    letter, kind = piece(text)
    s = SIZE
    if kind == "head":
        shape = (f'<polygon points="{x:g},{y + s / 2:g} {x + s * 0.4:g},{y:g} {x + s:g},{y:g} {x + s:g},{y + s:g} '
                 f'{x + s * 0.4:g},{y + s:g}"')
    elif kind == "tail":
        shape = (f'<polygon points="{x:g},{y:g} {x + s * 0.55:g},{y:g} {x + s:g},{y + s / 2:g} {x + s * 0.55:g},'
                 f'{y + s:g} {x:g},{y + s:g}"')
    else:
        shape = f'<rect x="{x:g}" y="{y:g}" width="{s}" height="{s}" rx="6"'
    centre = x + s * (0.6 if kind == "head" else 0.4 if kind == "tail" else 0.5)
    click = f' data-territory="{_esc(text)}"' if clickable else ""
    return (f'<g class="piece" data-piece="{_esc(letter)} {_esc(kind)}"{click}><title>{_esc(text)}</title>'
            f'{shape} fill="{FILLS.get(letter, "#cccccc")}" stroke="{INK}" stroke-width="1.2"/>'
            + _text(centre, y + s / 2 + 5, letter, size=13, weight="bold", anchor="middle",
                    fill=LETTER_INK.get(letter, INK)) + "</g>")


def _pieces(x: float, y: float, pieces: Sequence[str], clickable: bool = False) -> tuple[list[str], float]:
    """Pieces in a row from x; the parts and the x after them."""
    parts = []
    for text in pieces:
        parts.append(_piece(x, y, text, clickable))
        x += SIZE + GAP
    return parts, x


def _space(x: float, y: float, width: float, label: str, pieces: Sequence[str] | None,
           takeable: bool = False) -> list[str]:
    """A supply space: a frame (dashed when empty, heavy when the reader may take it), its
    label under it, its pieces in it."""
    dash = ' stroke-dasharray="4 3"' if not pieces else ""
    frame = f'stroke="{INK}" stroke-width="2.5"' if takeable else f'stroke="{FAINT}"{dash}'
    parts = [f'<rect class="frame" x="{x:g}" y="{y:g}" width="{width:g}" height="{SIZE + 8}" rx="4" '
             f'fill="{PAPER}" {frame}/>', _text(x + width / 2, y + SIZE + 22, label, size=10, anchor="middle")]
    parts += _pieces(x + 4, y + 4, pieces or ())[0]
    if takeable:
        return [f'<g class="space" data-territory="{_esc(label)}"><title>take {_esc(label)}</title>', *parts, "</g>"]
    return parts


def _supply(view: Mapping[str, Any], y: float, takeable: Mapping[str, Sequence[int]]) -> tuple[list[str], float]:
    parts = [_text(MARGIN, y + 14, "Supply board", size=15, weight="bold")]
    y += 24
    x = MARGIN
    supply = view.get("supply") or {}
    for kind in ("head", "tail", "body"):
        for number, pieces in enumerate(supply.get(kind) or [], start=1):
            width = 8 + (2 if kind == "body" else 1) * (SIZE + GAP) - GAP
            parts += _space(x, y, width, f"{kind} {number}", pieces, number in takeable.get(kind, ()))
            x += width + 8
        x += 10
    y += SIZE + 44
    bags = view.get("bags") or {}
    parts.append(_text(MARGIN, y, f"Bags: {bags.get('head', 0)} heads, {bags.get('tail', 0)} tails, "
                                  f"{bags.get('body', 0)} bodies · prophecy deck {view.get('deck', 0)}, "
                                  f"discard {view.get('discard', 0)}", size=12))
    y += LINE
    row = ", ".join(str(card) for card in view.get("row") or []) or "none"
    commons = ", ".join(str(card) for card in view.get("commons") or []) or "none"
    parts.append(_text(MARGIN, y, f"Face-up prophecies: {row} · common temples: {commons}", size=12))
    return parts, y + LINE


def _seat(seat: Mapping[str, Any], names: Mapping[str, str], turn: Any, y: float,
          clickable: bool = False) -> tuple[list[str], float]:
    name = str(seat.get("seat", ""))
    player = names.get(name) or seat.get("name") or name
    hand = seat.get("hand_size", 0)
    facts = [f"{seat.get('points', 0)} points", f"{hand} {'prophecy' if hand == 1 else 'prophecies'} in hand"]
    if seat.get("tokens"):
        facts.append("tokens " + ", ".join(map(str, seat["tokens"])))
    if seat.get("committed"):
        facts.append("committed temples " + ", ".join(map(str, seat["committed"])))
    marker = " ▶ to play" if turn == name else ""
    parts = [f'<line x1="{MARGIN}" y1="{y:g}" x2="{WIDTH - MARGIN}" y2="{y:g}" stroke="{FAINT}"/>',
             _text(MARGIN, y + 18, (player if player == name else f"{player} ({name})") + marker, size=14, weight="bold"),
             _text(MARGIN, y + 18 + LINE, " · ".join(facts), size=12)]
    y += 18 + LINE + 10
    parts.append(_text(MARGIN, y + SIZE / 2 + 5, "Board", size=12))
    drawn, _ = _pieces(MARGIN + 70, y, seat.get("board") or [], clickable)
    parts += drawn or [_text(MARGIN + 70, y + SIZE / 2 + 5, "empty", size=12, fill=FAINT)]
    y += SIZE + 8
    for number, coatl in enumerate(seat.get("coatls") or [], start=1):
        parts.append(_text(MARGIN, y + SIZE / 2 + 5, f"Cóatl {number}", size=12))
        drawn, x = _pieces(MARGIN + 70, y, coatl.get("pieces") or [])
        parts += drawn
        cards = [f"prophecies {', '.join(map(str, coatl['prophecies']))}" if coatl.get("prophecies") else "no prophecies"]
        if coatl.get("temple") is not None:
            cards.append(f"temple {coatl['temple']}")
        cards.append(f"complete, {coatl.get('points')} points" if coatl.get("complete") else "unfinished")
        parts.append(_text(x + 8, y + SIZE / 2 + 5, " · ".join(cards), size=11))
        y += SIZE + 8
    return parts, y + 6


def _turn_options(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The options of the reader's turn, when the reader owes one (None: not its turn)."""
    owed = (view.get("me") or {}).get("decisions") or []
    return owed[0].get("options") or {} if owed and owed[0].get("kind") == "turn" else None


def _style(svg_id: str) -> str:
    """What clicking shows: a pointer over what may be clicked, a heavy outline on a pick."""
    scope = f"#{svg_id}"
    # The page's own rule strokes a picked element in its accent colour; here the letters stay
    # clean and only the piece's or space's outline grows heavy.
    return (f"<style>{scope} [data-territory] {{ cursor: pointer; }} "
            f"{scope} g[class*=\"selected-\"] {{ stroke: none; }} "
            f"{scope} [class*=\"selected-\"] > .frame, {scope} g.piece[class*=\"selected-\"] > polygon, "
            f"{scope} g.piece[class*=\"selected-\"] > rect "
            f"{{ stroke: {INK}; stroke-width: 4; stroke-dasharray: none; }}</style>")


def board_svg(view: Mapping[str, Any], names: Mapping[str, str], *, id_prefix: str = "b",
              title: str | None = None, clickable: bool = False) -> str:
    """The drawing of `view`; `title` above it when given (a picture that stands alone);
    `clickable`: the reader's takeable spaces and own pieces carry `data-territory`."""
    y = float(MARGIN)
    svg_id = f"{_esc(id_prefix)}-coatl"
    turn = _turn_options(view) if clickable else None
    me = (view.get("me") or {}).get("seat")
    parts: list[str] = [_style(svg_id)] if turn is not None else []
    if title:
        parts.append(_text(WIDTH / 2, y + 16, title, size=18, weight="bold", anchor="middle"))
        y += 30
    drawn, y = _supply(view, y, (turn or {}).get("take") or {})
    parts += drawn
    for seat in view.get("seats") or []:
        drawn, y = _seat(seat, names, view.get("turn"), y + 6, turn is not None and seat.get("seat") == me)
        parts += drawn
    height = int(y + MARGIN)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" id="{svg_id}" viewBox="0 0 {WIDTH} {height}" '
            f'width="{WIDTH}" height="{height}" font-family="{_esc(SANS)}" role="img" '
            f'aria-label="The Cóatl supply board and every player\'s board and cóatls">'
            f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>' + "".join(parts) + "</svg>")
