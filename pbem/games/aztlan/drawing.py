"""The Aztlán board as a standalone SVG drawing.

`board_svg(board, view)` draws a board's territories (filled and patterned by terrain,
numbered and named), its lakes, the pawns of a seat's view, conflict and highlight
outlines and a legend.  The output references nothing outside itself (patterns and
gradients are in-document `#id`s, fonts are generic families), so it can be inlined in a
web page or rendered to PDF by WeasyPrint without fetching anything.  Every piece of text
that comes from data (board, lake and territory names, titles, people names) is escaped.

Pure string building with the standard library; the same input gives the same string.
"""
from __future__ import annotations

import math
import re
from typing import Any, Sequence
from xml.sax.saxutils import escape

from engine.aztlan.board import Board

Point = tuple[float, float]

# --- palette --------------------------------------------------------------------------

TERRAINS = ("desert", "fields", "jungle", "mountains", "city")
TERRAIN_NAMES = {"desert": "Desert", "fields": "Terraced fields", "jungle": "Jungle",
                 "mountains": "Mountains", "city": "City"}
# Base colours, chosen to stay apart in greyscale too (light to dark: desert, fields,
# mountains, city, jungle); each type also has its own texture (see _PATTERNS).
TERRAIN_COLOURS = {"desert": "#f3e2b3", "fields": "#cfe39a", "jungle": "#7db86b",
                   "mountains": "#c9bdac", "city": "#e5a684"}
_OTHER_TERRAIN = "#dddddd"

TRIBE_ORDER = ("quetzal", "coyote", "serpent", "ocelot")
FACTION_ORDER = ("coyote-quetzal", "ocelot-serpent")
# Blue, green, red, yellow, at four distinct lightnesses so they stay apart in greyscale
# print (quetzal darkest, then serpent, coyote, ocelot); counts are white on the two dark
# ones and black on the two light ones, a second cue.
_TRIBE_COLOURS = {"quetzal": "#1b4aa6", "coyote": "#5cb84a", "serpent": "#d9402f",
                  "ocelot": "#f5cd1c"}
_TRIBE_TEXT = {"quetzal": "#ffffff", "coyote": "#10260c", "serpent": "#ffffff",
               "ocelot": "#2a2112"}
_OTHER_PEOPLE = "#8c8c8c"

INK = "#4a3a28"          # borders, legend text
HALO = "#fffaf0"         # behind labels
HIGHLIGHT = "#7b1fa2"    # bold outline of highlighted territories
CONFLICT = "#e65100"     # dashed outline of unresolved conflicts
WATER_INK = "#1d4f7d"
WATER = "#a9d6f2"        # the lakes' base colour (under the waves on screen)
PAPER = "#f7efdb"        # the paper behind the map in print (a gradient on screen)
# The parts of a seat's view the drawing reads: all public (the pawns on the board, the
# peoples in play, the conflicts), so every seat's view draws the same board.
VIEW_PARTS = ("pawns", "peoples", "conflicts")

SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
SANS = "'Helvetica Neue', Helvetica, Arial, 'DejaVu Sans', sans-serif"


def pawn_colours() -> dict[str, str]:
    """People -> CSS colour: the four tribes, and each 2-player faction as the colour of
    its first-named tribe (the board draws factions as two-colour pawns)."""
    colours = dict(_TRIBE_COLOURS)
    for faction in FACTION_ORDER:
        colours[faction] = _TRIBE_COLOURS[faction.split("-")[0]]
    return colours


def _people_colours(people: str) -> tuple[str, ...]:
    if people in _TRIBE_COLOURS:
        return (_TRIBE_COLOURS[people],)
    parts = people.split("-")
    if len(parts) > 1 and all(p in _TRIBE_COLOURS for p in parts):
        return tuple(_TRIBE_COLOURS[p] for p in parts)
    return (_OTHER_PEOPLE,)


def _people_key(people: str) -> tuple[int, str]:
    order = TRIBE_ORDER + FACTION_ORDER
    return (order.index(people) if people in order else len(order), people)


# --- text and number output -----------------------------------------------------------

# Besides the XML specials, ':' and '(' are written as character references, so no piece
# of data can spell out a URL scheme or a CSS url( in the raw markup.
_ENTITIES = {'"': "&quot;", "'": "&#39;", ":": "&#58;", "(": "&#40;", ")": "&#41;"}


def _esc(text: Any) -> str:
    return escape(str(text), _ENTITIES)


def _n(x: float) -> str:
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _attrs(**attrs: Any) -> str:
    """Attributes in the given order; None skipped; '_' in names becomes '-'."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = _n(value)
        out.append(f' {name}="{_esc(value)}"')
    return "".join(out)


def _exact(x: float, digits: int = 4) -> str:
    """A number with more precision than _n, for the viewBox and the outer scale."""
    text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


_PREFIX = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,30}")


# --- geometry -------------------------------------------------------------------------

def _path(points: Sequence[Point]) -> str:
    first, *rest = points
    return f"M{_n(first[0])},{_n(first[1])}L" + " ".join(f"{_n(x)},{_n(y)}" for x, y in rest) + "Z"


def _centroid(points: Sequence[Point]) -> Point:
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(points, (*points[1:], points[0])):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-9:
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
    return cx / (3 * area), cy / (3 * area)


def _inside(x: float, y: float, points: Sequence[Point]) -> bool:
    result = False
    for (x0, y0), (x1, y1) in zip(points, (*points[1:], points[0])):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            result = not result
    return result


def _chord(x: float, y: float, points: Sequence[Point]) -> float:
    """Width of the polygon along the horizontal line through (x, y), around x."""
    crossings = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                       for (x0, y0), (x1, y1) in zip(points, (*points[1:], points[0]))
                       if (y0 > y) != (y1 > y))
    for left, right in zip(crossings[::2], crossings[1::2]):
        if left <= x <= right:
            return right - left
    return 0.0


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A rough width estimate for placing text (no font metrics available)."""
    return len(text) * size * (0.58 if bold else 0.52)


# --- patterns -------------------------------------------------------------------------

def _pattern(pid: str, w: float, h: float, u: float, bg: str, body: str) -> str:
    return (f'<pattern id="{pid}" patternUnits="userSpaceOnUse" x="0" y="0" '
            f'width="{_n(w * u)}" height="{_n(h * u)}">'
            f'<rect width="{_n(w * u)}" height="{_n(h * u)}" fill="{bg}"/>'
            f'<g transform="scale({u:.4f})">{body}</g></pattern>')


def _patterns(p: str, u: float) -> str:
    c = TERRAIN_COLOURS
    desert = ('<g fill="#c9a560">'
              '<circle cx="4" cy="5" r="1.2"/><circle cx="18" cy="3" r="1"/>'
              '<circle cx="11" cy="14" r="1.2"/><circle cx="25" cy="15" r="1"/>'
              '<circle cx="6" cy="23" r="1"/><circle cx="20" cy="25" r="1.2"/></g>'
              '<path d="M1 10Q5 7 9 10M15 20Q19 17 23 20" fill="none" stroke="#cfae6c" '
              'stroke-width="1.1" stroke-linecap="round"/>')
    fields = ('<path d="M0 5H24M0 13H24" stroke="#86ad4f" stroke-width="1.5"/>'
              '<path d="M3 5V2M9 5V2M15 5V2M21 5V2M0 13V10M6 13V10M12 13V10M18 13V10" '
              'stroke="#9cc062" stroke-width="1"/>')
    jungle = ('<g fill="#4e9145"><circle cx="6" cy="8" r="3.4"/><circle cx="10" cy="6" r="3.6"/>'
              '<circle cx="9.5" cy="10" r="3.2"/>'
              '<circle cx="21" cy="21" r="3.4"/><circle cx="25" cy="19" r="3.6"/>'
              '<circle cx="24.5" cy="23" r="3.2"/></g>'
              '<g fill="#a5d48c"><circle cx="9" cy="5.5" r="1.1"/><circle cx="24" cy="18.5" r="1.1"/></g>'
              '<path d="M8 13V15.5M23 26V28.5" stroke="#4e7a35" stroke-width="1.2"/>')
    mountains = ('<path d="M3 31L10.5 18L18 31Z" fill="#ad9d86" stroke="#7c6c58" stroke-width="1" '
                 'stroke-linejoin="round"/>'
                 '<path d="M8.3 21.8L10.5 18L12.7 21.8L10.5 20.6Z" fill="#fbf8f2"/>'
                 '<path d="M21 16L27 4.5L31 4.5L37 16Z" fill="#ad9d86" stroke="#7c6c58" '
                 'stroke-width="1" stroke-linejoin="round"/>'
                 '<path d="M28 3Q29 0.5 31 1.5" fill="none" stroke="#8c8c8c" stroke-width=".9" '
                 'stroke-linecap="round"/>')
    city = ('<g fill="#b8694a"><rect x="3" y="16" width="12" height="4"/>'
            '<rect x="5" y="12" width="8" height="4"/><rect x="7" y="8.5" width="4" height="3.5"/></g>'
            '<g fill="#c98262"><rect x="16" y="2" width="5" height="5"/>'
            '<rect x="17" y="9" width="4" height="3"/><rect x="2" y="2" width="3" height="3"/></g>')
    water = ('<path d="M2 6Q6 3 10 6Q14 9 18 6M20 15Q24 12 28 15Q32 18 36 15" fill="none" '
             'stroke="#78b5df" stroke-width="1.2" stroke-linecap="round"/>')
    return "".join([
        _pattern(f"{p}-desert", 28, 28, u, c["desert"], desert),
        _pattern(f"{p}-fields", 24, 16, u, c["fields"], fields),
        _pattern(f"{p}-jungle", 30, 30, u, c["jungle"], jungle),
        _pattern(f"{p}-mountains", 40, 34, u, c["mountains"], mountains),
        _pattern(f"{p}-city", 24, 24, u, c["city"], city),
        _pattern(f"{p}-water", 38, 20, u, WATER, water),
    ])


def _fills(p: str, for_print: bool) -> dict[str, str]:
    """Fill of each terrain, the water and the paper: patterns and a gradient on screen,
    their base colours in print (WeasyPrint draws a pattern tile by tile; flat fills print as
    well and cost a fraction to draw)."""
    if for_print:
        return {**TERRAIN_COLOURS, "water": WATER, "paper": PAPER}
    return {**{kind: f"url(#{p}-{kind})" for kind in (*TERRAINS, "water")}, "paper": f"url(#{p}-paper)"}


# --- pawns ----------------------------------------------------------------------------

def _pawn(x: float, y: float, r: float, people: str, count: int, u: float, cls: str) -> str:
    colours = _people_colours(people)
    text = str(count)
    out = [f'<g{_attrs(class_=cls, data_people=people, data_count=text)}>'
           f'<title>{_esc(people)}: {text}</title>',
           f'<circle cx="{_n(x + 1.3 * u)}" cy="{_n(y + 2 * u)}" r="{_n(r)}" fill="#000" '
           f'fill-opacity=".3"/>']
    if len(colours) == 1:
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{colours[0]}" '
                   f'stroke="#1d1d1d" stroke-width="{_n(1.6 * u)}"/>'
                   f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r - 3 * u)}" fill="none" '
                   f'stroke="#ffffff" stroke-opacity=".45" stroke-width="{_n(1.2 * u)}"/>')
        ink = _TRIBE_TEXT.get(people, "#ffffff")
        size = (15 if len(text) == 1 else 13 if len(text) == 2 else 10) * u
    else:
        # One slice per tribe of the faction, then a white core holding the count.
        slices = len(colours)
        for i, colour in enumerate(colours):
            a0 = math.pi / 2 + 2 * math.pi * i / slices
            a1 = math.pi / 2 + 2 * math.pi * (i + 1) / slices
            x0, y0 = x + r * math.cos(a0), y + r * math.sin(a0)
            x1, y1 = x + r * math.cos(a1), y + r * math.sin(a1)
            large = 1 if a1 - a0 > math.pi else 0
            out.append(f'<path d="M{_n(x)},{_n(y)}L{_n(x0)},{_n(y0)}A{_n(r)},{_n(r)} 0 {large} 1 '
                       f'{_n(x1)},{_n(y1)}Z" fill="{colour}"/>')
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="none" stroke="#1d1d1d" '
                   f'stroke-width="{_n(1.6 * u)}"/>'
                   f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.66)}" fill="#ffffff" '
                   f'stroke="#1d1d1d" stroke-width="{_n(0.9 * u)}"/>')
        ink = "#1d1d1d"
        size = (13 if len(text) == 1 else 11 if len(text) == 2 else 8) * u
    out.append(f'<text x="{_n(x)}" y="{_n(y + size * 0.36)}" font-size="{_n(size)}" '
               f'font-weight="bold" fill="{ink}" text-anchor="middle">{text}</text></g>')
    return "".join(out)


def _pawn_slots(lx: float, ly: float, n: int, r: float, gap: float, above: float, below: float,
                polygon: Sequence[Point], avoid: Sequence[Sequence[Point]],
                boxes: Sequence[tuple[float, float, float, float]]) -> list[Point]:
    """Centres for n pawns side by side under the label (rows of four), or another
    arrangement (above it, two by two, shifted sideways) that keeps more of them inside
    the territory and off the lakes and other labels."""
    step = 2 * r + gap

    def layout(per_row: int, first_y: float, direction: int, shift: float = 0.0) -> list[Point]:
        counts = [min(per_row, n - i) for i in range(0, n, per_row)]
        centres = []
        for row, count in enumerate(counts):
            y = first_y + direction * row * step
            left = lx + shift - (count - 1) * step / 2
            centres.extend((left + i * step, y) for i in range(count))
        return centres

    ring = [(0.0, 0.0)] + [(r * 1.15 * math.cos(a), r * 1.15 * math.sin(a))
                           for a in (k * math.pi / 4 for k in range(8))]

    def free(x: float, y: float) -> bool:
        return (_inside(x, y, polygon) and not any(_inside(x, y, lake) for lake in avoid)
                and not any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes))

    def score(centres: list[Point]) -> int:
        return sum(free(x + dx, y + dy) for x, y in centres for dx, dy in ring)

    down, up = ly + below + r, ly - above - r
    candidates = [layout(4, down, 1), layout(4, up, -1)]
    if n >= 3:
        candidates += [layout(2, down, 1), layout(2, up, -1)]
    if n >= 2:
        for shift in (step / 2, -step / 2, step, -step):
            candidates += [layout(4, down, 1, shift), layout(4, up, -1, shift)]
    best = candidates[0]
    best_score = score(best)
    for candidate in candidates[1:]:
        value = score(candidate)
        if value > best_score:
            best, best_score = candidate, value
    return best


# --- labels ---------------------------------------------------------------------------

def _fit_lines(words: str, prefix: str, base: float, room: float, min_size: float
               ) -> tuple[list[str], float]:
    """The name (after the bold prefix) on one line or two, and a font size that fits."""
    one = f"{prefix} {words}".strip()
    if _text_width(one, base) <= room:
        return [words], base
    parts = words.split(" ")
    best = [words]
    if len(parts) > 1:
        splits = [(" ".join(parts[:i]), " ".join(parts[i:])) for i in range(1, len(parts))]
        a, b = min(splits, key=lambda s: max(len(f"{prefix} {s[0]}"), len(s[1])))
        best = [a, b]
    widest = max([_text_width(f"{prefix} {best[0]}".strip(), 1), *(_text_width(s, 1) for s in best[1:])])
    size = max(min_size, min(base, room / widest if widest else base))
    return best, size


def _label(x: float, y: float, lines: list[str], prefix: str, size: float, u: float,
           *, italic: bool = False, ink: str = "#2b2014", halo: str | None = HALO) -> tuple[str, float, float]:
    """Text centred on (x, y), drawn twice: a halo stroke (none if `halo` is None: on flat
    fills in print the text reads without one, at half the cost), then the fill.  Returns the
    markup and how far the block reaches above and below y.

    One <text> per line, positioned on the element itself, the bold prefix a <tspan>
    followed by plain text: the form browsers, librsvg and WeasyPrint all draw alike
    (WeasyPrint drops text after a tspan nested in a positioned tspan, librsvg drops the
    leading space of a sibling tspan).
    """
    leading = size * 1.12
    top = y - (len(lines) - 1) * leading / 2 + size * 0.35
    texts = []
    for i, line in enumerate(lines):
        body = _esc(line)
        if i == 0 and prefix:
            body = f'<tspan font-weight="bold">{_esc(prefix)}</tspan> {body}'
        texts.append(f'<text x="{_n(x)}" y="{_n(top + i * leading)}">{body}</text>')
    style = ' font-style="italic"' if italic else ""
    behind = "" if halo is None else (
        f'<g fill="none" stroke="{halo}" stroke-width="{_n(3.6 * u)}" stroke-linejoin="round" '
        f'stroke-opacity=".92" aria-hidden="true">{"".join(texts)}</g>')
    markup = f'<g font-size="{_n(size)}"{style}>{behind}<g fill="{ink}">{"".join(texts)}</g></g>'

    half = (len(lines) - 1) * leading / 2
    return markup, half + size * 0.7, half + size * 0.45


# --- the drawing ----------------------------------------------------------------------

def _count(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return 0


def _pawns_by_territory(board: Board, view: dict[str, Any] | None) -> dict[int, list[tuple[str, int]]]:
    raw = (view or {}).get("pawns") or {}
    out: dict[int, list[tuple[str, int]]] = {}
    if not isinstance(raw, dict):
        return out
    for t in board.territories:
        entry = raw.get(str(t.id), raw.get(t.id))
        if not isinstance(entry, dict):
            continue
        items = [(str(people), _count(n)) for people, n in entry.items()]
        items = sorted(((p, n) for p, n in items if n > 0), key=lambda item: _people_key(item[0]))
        if items:
            out[t.id] = items
    return out


def _open_conflicts(view: dict[str, Any] | None) -> set[int]:
    conflicts = (view or {}).get("conflicts") or []
    out = set()
    if isinstance(conflicts, list):
        for c in conflicts:
            if isinstance(c, dict) and not c.get("resolved") and _count(c.get("territory")):
                out.add(_count(c.get("territory")))
    return out


def _legend_peoples(view: dict[str, Any] | None, pawns: dict[int, list[tuple[str, int]]]) -> list[str]:
    if view is None:
        return []
    names: list[str] = []
    for entry in view.get("peoples") or []:
        if isinstance(entry, dict) and isinstance(entry.get("people"), str):
            names.append(entry["people"])
    for items in pawns.values():
        names.extend(p for p, _ in items)
    seen = set()
    unique = [n for n in names if not (n in seen or seen.add(n))]
    return sorted(unique, key=_people_key) or list(TRIBE_ORDER)


def board_svg(board: Board, view: dict[str, Any] | None = None, *, clickable: bool = False,
              highlight: Sequence[int] = (), title: str | None = None, width: int | None = None,
              id_prefix: str = "az", for_print: bool = False) -> str:
    """The board (and, given a view, its pawns and conflicts) as a standalone SVG string.

    view: a per-seat view from engine/aztlan/views.py (only "pawns", "peoples" and
    "conflicts" are read).  clickable: territories carry data-territory, class
    "territory", tabindex, role="button" and an aria-label for a page's script.
    highlight: territory ids to outline boldly.  title: a caption above the map.
    width: the SVG's width attribute (height follows the aspect ratio); without it the
    SVG has only a viewBox and takes its size from the page.  id_prefix: prefix of every
    id in the drawing, so several drawings can share a page.  for_print: the print version
    (a PDF's): flat fills instead of patterns and gradient, labels without halos.
    """
    if not _PREFIX.fullmatch(id_prefix):
        raise ValueError("id_prefix must be a letter followed by up to 30 letters, digits, '-' or '_'")
    drawn = [t for t in board.territories if t.polygon]
    if board.width is None or board.height is None or not drawn:
        raise ValueError("board has no geometry to draw")
    if len(drawn) != len(board.territories):
        missing = next(t for t in board.territories if not t.polygon)
        raise ValueError(f"board has no geometry to draw (territory {missing.id} has no polygon)")

    p = id_prefix
    fill = _fills(p, for_print)
    halo, lake_halo = (None, None) if for_print else (HALO, "#eef7fd")
    # The drawing is made at a scale where the board's area is that of a 1000 x 1000
    # square, so sizes (fonts, pawns, strokes) and one-decimal coordinates suit any board;
    # an outer transform maps it back onto the board's own width and height.
    board_w, board_h = float(board.width), float(board.height)
    k = 1000 / math.sqrt(board_w * board_h)
    W, H = board_w * k, board_h * k
    u = 1.0  # the unit every size below is a multiple of
    shape = {t.id: tuple((x * k, y * k) for x, y in t.polygon) for t in drawn}
    label_at = {t.id: (t.label[0] * k, t.label[1] * k) if t.label else _centroid(shape[t.id])
                for t in drawn}
    lake_shape = {lake.id: tuple((x * k, y * k) for x, y in lake.polygon)
                  for lake in board.lakes if lake.polygon}
    pawns = _pawns_by_territory(board, view)
    conflicts = _open_conflicts(view)
    wanted = {_count(int(h) if isinstance(h, str) and h.strip().isdecimal() else h) for h in highlight}
    lakes_of: dict[int, list[str]] = {}
    for lake in board.lakes:
        for shore in lake.shores:
            lakes_of.setdefault(shore, []).append(lake.name)

    top = 50 * u if title else 0.0
    legend, legend_h = _legend(p, W, top + H, u, _legend_peoples(view, pawns),
                               fill, shared=any(len(v) > 1 for v in pawns.values()),
                               conflict=bool(conflicts & {t.id for t in drawn}),
                               highlighted=bool(wanted & {t.id for t in drawn}))
    total_h = top + H + legend_h

    caption = title if title is not None else board.title
    size = "" if width is None else f' width="{int(width)}" height="{int(round(width * total_h / W))}"'
    view_box = f"0 0 {_exact(board_w)} {_exact(total_h / k)}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}"{size} '
           f'class="{p}-map" role="{"group" if clickable else "img"}" aria-labelledby="{p}-title" '
           f'font-family="{_esc(SERIF)}" text-rendering="geometricPrecision">'
           f'<title id="{p}-title">{_esc(caption)}</title>']
    if clickable:
        out.append(f'<style>.{p}-map .territory{{cursor:pointer}}'
                   f'.{p}-map .territory:hover{{stroke:#1d1d1d;stroke-width:{_n(3 * u)}}}'
                   f'.{p}-map .territory:focus{{outline:none;stroke:{HIGHLIGHT};'
                   f'stroke-width:{_n(5 * u)}}}</style>')
    if not for_print:
        out.append(f'<defs>{_patterns(p, u)}'
                   f'<radialGradient id="{p}-paper" cx="50%" cy="45%" r="75%">'
                   f'<stop offset="0" stop-color="#fbf5e6"/><stop offset="1" stop-color="#eadcb6"/>'
                   f'</radialGradient></defs>')

    out.append(f'<g transform="scale({_exact(1 / k, 8)})">' if k != 1 else "<g>")
    # Paper, map frame and caption.
    out.append(f'<rect width="{_n(W)}" height="{_n(total_h)}" fill="{fill["paper"]}"/>')
    out.append(f'<rect x="{_n(5 * u)}" y="{_n(top + 5 * u)}" width="{_n(W - 10 * u)}" '
               f'height="{_n(H - 10 * u)}" fill="none" stroke="#9c8458" stroke-width="{_n(2.2 * u)}"/>'
               f'<rect x="{_n(10 * u)}" y="{_n(top + 10 * u)}" width="{_n(W - 20 * u)}" '
               f'height="{_n(H - 20 * u)}" fill="none" stroke="#9c8458" stroke-width="{_n(0.8 * u)}"/>')
    if title:
        fs = min(26 * u, (W - 40 * u) / max(1, len(title)) / 0.62)
        out.append(f'<text x="{_n(W / 2)}" y="{_n(top * 0.5 + fs * 0.36)}" font-size="{_n(fs)}" '
                   f'font-weight="bold" fill="#3b2c1a" text-anchor="middle">{_esc(title)}</text>')

    out.append(f'<g transform="translate(0 {_n(top)})">' if top else "<g>")
    # A soft coast around the land.
    out.append(f'<g fill="#d9c79a" stroke="#b59f6e" stroke-opacity=".45" stroke-width="{_n(12 * u)}" '
               f'stroke-linejoin="round" aria-hidden="true">'
               + "".join(f'<path d="{_path(shape[t.id])}"/>' for t in drawn) + "</g>")

    # Territories.
    out.append(f'<g stroke="{INK}" stroke-width="{_n(1.6 * u)}" stroke-linejoin="round">')
    for t in drawn:
        kind = TERRAIN_NAMES.get(t.type, t.type)
        here = pawns.get(t.id, [])
        tip = f"{t.id} {t.name} \u2014 {kind.lower()}"
        if t.id in lakes_of:
            tip += "; shore of " + ", ".join(lakes_of[t.id])
        if here:
            tip += "; pawns: " + ", ".join(f"{people} {n}" for people, n in here)
            if len(here) > 1:
                tip += " (coexistence)"
        else:
            tip += "; no pawns"
        if t.id in conflicts:
            tip += "; conflict to resolve"
        attrs = _attrs(d=_path(shape[t.id]), fill=fill.get(t.type, _OTHER_TERRAIN))
        if clickable:
            spoken = f"Territory {t.id}, {t.name}, {kind.lower()}"
            if here:
                spoken += ", " + ", ".join(f"{people} {n}" for people, n in here)
            attrs += _attrs(class_="territory", data_territory=t.id, tabindex=0, role="button",
                            aria_label=spoken)
        out.append(f"<path{attrs}><title>{_esc(tip)}</title></path>")
    out.append("</g>")

    # Lakes.
    lake_labels: list[str] = []
    lake_boxes: list[tuple[float, float, float, float]] = []
    for lake in board.lakes:
        if lake.id not in lake_shape:
            continue
        polygon = lake_shape[lake.id]
        shores = ", ".join(str(s) for s in lake.shores)
        out.append(f'<path d="{_path(polygon)}" fill="{fill["water"]}" stroke="#3d7fb3" '
                   f'stroke-width="{_n(2.2 * u)}" stroke-linejoin="round">'
                   f'<title>{_esc(lake.name)} \u2014 shores {_esc(shores)}</title></path>')
        x, y = _centroid(polygon)
        room = _chord(x, y, polygon) * 0.85 or 150 * u
        lines, fs = _fit_lines(lake.name, "", 16 * u, room, 10 * u)
        markup, above, below = _label(x, y, lines, "", fs, u, italic=True, ink=WATER_INK, halo=lake_halo)
        lake_labels.append(markup)
        half = max(_text_width(line, fs) for line in lines) / 2
        lake_boxes.append((x - half, y - above, x + half, y + below))

    # Outlines: highlight (bold, solid) and open conflicts (dashed), above all fills.
    def highlight_pair(d: str, ident: str) -> str:  # a halo, then the outline itself
        return (f'<path d="{d}" stroke="#ffffff" stroke-width="{_n(11 * u)}" stroke-opacity=".85"/>'
                f'<path d="{d}" stroke="{HIGHLIGHT}" stroke-width="{_n(7 * u)}" class="{p}-highlight"{ident}/>')

    outline = []
    for t in drawn:
        d = _path(shape[t.id])
        if t.id in wanted:
            outline.append(highlight_pair(d, f' data-highlight="{t.id}"'))
        if t.id in conflicts:
            if t.id not in wanted:  # else the dashes run along the middle of the highlight
                outline.append(f'<path d="{d}" stroke="#ffffff" stroke-width="{_n(7 * u)}" '
                               f'stroke-opacity=".8"/>')
            outline.append(f'<path d="{d}" stroke="{CONFLICT}" '
                           f'stroke-width="{_n((4 if t.id in wanted else 4.5) * u)}" '
                           f'stroke-dasharray="{_n(14 * u)} {_n(7 * u)}" '
                           f'class="{p}-conflict" data-conflict="{t.id}"/>')
    if outline or clickable:  # a page's script outlines the choice being made in this group
        out.append(f'<g fill="none" stroke-linejoin="round" pointer-events="none" data-outlines="">'
                   f'{"".join(outline)}</g>')
    if clickable:  # ... drawing its outlines like this hidden pair
        out.append(f'<g display="none" data-outline-model="">{highlight_pair("M0 0", "")}</g>')

    rose = _compass([*shape.values(), *lake_shape.values()], W, H, u)
    if rose:
        out.append(rose)

    # Labels and pawns: they let clicks through to the territory underneath.
    placed_labels = []
    for t in drawn:
        lx, ly = label_at[t.id]
        room = _chord(lx, ly, shape[t.id]) * 0.9 or 120 * u
        lines, fs = _fit_lines(t.name, str(t.id), 15 * u, room, 9 * u)
        markup, above, below = _label(lx, ly, lines, str(t.id), fs, u, halo=halo)
        half = max([_text_width(f"{t.id} {lines[0]}", fs),
                    *(_text_width(line, fs) for line in lines[1:])]) / 2
        box = (lx - half, ly - above, lx + half, ly + below)
        placed_labels.append((t, lx, ly, markup, above, below, box))
    boxes = [box for *_, box in placed_labels] + lake_boxes
    labels, markers = [], []
    lake_shapes = list(lake_shape.values())
    r, gap = 15 * u, 5 * u
    for t, lx, ly, markup, above, below, own in placed_labels:
        labels.append(markup)
        here = pawns.get(t.id)
        if not here:
            continue
        markers.append(f'<g class="{p}-pawns" data-at="{t.id}">')
        pad = 5 * u if len(here) > 1 else 0.0
        slots = _pawn_slots(lx, ly, len(here), r, gap, above + 3 * u + pad, below + 4 * u + pad,
                            shape[t.id], lake_shapes, [b for b in boxes if b is not own])
        if len(here) > 1:  # coexistence: the pawns share a tray
            xs = [x for x, _ in slots]
            ys = [y for _, y in slots]
            markers.append(f'<rect x="{_n(min(xs) - r - pad)}" y="{_n(min(ys) - r - pad)}" '
                           f'width="{_n(max(xs) - min(xs) + 2 * (r + pad))}" '
                           f'height="{_n(max(ys) - min(ys) + 2 * (r + pad))}" rx="{_n(r + pad)}" '
                           f'fill="{HALO}" fill-opacity=".75" stroke="{INK}" stroke-width="{_n(1.2 * u)}" '
                           f'stroke-dasharray="{_n(4 * u)} {_n(3 * u)}" class="{p}-shared" '
                           f'data-shared="{t.id}"/>')
        for (x, y), (people, n) in zip(slots, here):
            markers.append(_pawn(x, y, r, people, n, u, f"{p}-pawn"))
        markers.append("</g>")
    out.append(f'<g pointer-events="none" text-anchor="middle">{"".join(lake_labels)}'
               f'{"".join(labels)}</g>')
    out.append(f'<g pointer-events="none" font-family="{_esc(SANS)}">{"".join(markers)}</g>')
    out.append("</g>")
    out.append(legend)
    out.append("</g></svg>")
    return "".join(out)


def _compass(shapes: list[Sequence[Point]], W: float, H: float, u: float) -> str:
    """A compass rose in the first corner of the map that no territory or lake reaches
    (bottom right, bottom left, top right, top left); nothing if none is free."""
    size = 84 * u
    inset = 24 * u
    corners = ((W - inset - size, H - inset - size), (inset, H - inset - size),
               (W - inset - size, inset), (inset, inset))
    for x0, y0 in corners:
        if x0 < 0 or y0 < 0:
            continue
        grid = [(x0 + size * i / 4, y0 + size * j / 4) for i in range(5) for j in range(5)]
        if any(x0 - 6 * u <= x <= x0 + size + 6 * u and y0 - 6 * u <= y <= y0 + size + 6 * u
               for shape in shapes for x, y in shape):
            continue
        if any(_inside(x, y, shape) for shape in shapes for x, y in grid):
            continue
        cx, cy, r = x0 + size / 2, y0 + size / 2 + 6 * u, size * 0.36
        k = r * 0.22
        dark, light = "#6b5535", "#f6eed8"
        points = []
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):  # each point: a dark and a light half
            tip = (cx + dx * r, cy + dy * r)
            left = (cx - dy * k, cy + dx * k)
            right = (cx + dy * k, cy - dx * k)
            points.append(f'<path d="M{_n(cx)},{_n(cy)}L{_n(tip[0])},{_n(tip[1])}'
                          f'L{_n(left[0])},{_n(left[1])}Z" fill="{dark}"/>'
                          f'<path d="M{_n(cx)},{_n(cy)}L{_n(tip[0])},{_n(tip[1])}'
                          f'L{_n(right[0])},{_n(right[1])}Z" fill="{light}" stroke="{dark}" '
                          f'stroke-width="{_n(0.8 * u)}" stroke-linejoin="round"/>')
        return (f'<g aria-hidden="true" pointer-events="none">'
                f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.72)}" fill="none" stroke="{dark}" '
                f'stroke-width="{_n(1 * u)}"/>'
                f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.62)}" fill="none" stroke="{dark}" '
                f'stroke-width="{_n(0.6 * u)}"/>' + "".join(points) +
                f'<text x="{_n(cx)}" y="{_n(cy - r - 5 * u)}" font-size="{_n(15 * u)}" font-weight="bold" '
                f'fill="{dark}" text-anchor="middle">N</text></g>')
    return ""


def _legend(p: str, W: float, y0: float, u: float, peoples: list[str], fill: dict[str, str], *, shared: bool,
            conflict: bool, highlighted: bool) -> tuple[str, float]:
    """The legend below the map: terrain swatches, then peoples and markers in use.
    Entries flow left to right and wrap.  Returns the markup and its height."""
    fs = 14 * u
    margin = 20 * u
    row_h = 30 * u
    entries: list[list[tuple[float, str]]] = [[], []]  # (width, markup at origin 0,0)
    for kind in TERRAINS:
        name = TERRAIN_NAMES[kind]
        sw = 34 * u
        entries[0].append((sw + 8 * u + _text_width(name, fs), (
            f'<rect x="0" y="{_n(-11 * u)}" width="{_n(sw)}" height="{_n(22 * u)}" rx="{_n(3 * u)}" '
            f'fill="{fill[kind]}" stroke="{INK}" stroke-width="{_n(1.2 * u)}"/>'
            f'<text x="{_n(sw + 8 * u)}" y="{_n(fs * 0.36)}">{_esc(name)}</text>')))
    for people in peoples:
        colours = _people_colours(people)
        rr = 10 * u
        if len(colours) == 1:
            disc = (f'<circle cx="{_n(rr)}" cy="0" r="{_n(rr)}" fill="{colours[0]}" stroke="#1d1d1d" '
                    f'stroke-width="{_n(1.3 * u)}"/>')
        else:
            disc = (f'<path d="M{_n(rr)},{_n(-rr)}A{_n(rr)},{_n(rr)} 0 0 0 {_n(rr)},{_n(rr)}Z" '
                    f'fill="{colours[0]}"/>'
                    f'<path d="M{_n(rr)},{_n(-rr)}A{_n(rr)},{_n(rr)} 0 0 1 {_n(rr)},{_n(rr)}Z" '
                    f'fill="{colours[1]}"/>'
                    f'<circle cx="{_n(rr)}" cy="0" r="{_n(rr)}" fill="none" stroke="#1d1d1d" '
                    f'stroke-width="{_n(1.3 * u)}"/>')
        label = (people.replace("-", " + ").title() if people in TRIBE_ORDER + FACTION_ORDER
                 else people)
        entries[1].append((2 * rr + 8 * u + _text_width(label, fs),
                           f'{disc}<text x="{_n(2 * rr + 8 * u)}" y="{_n(fs * 0.36)}">{_esc(label)}</text>'))
    if shared:
        entries[1].append((30 * u + 8 * u + _text_width("Coexistence", fs), (
            f'<rect x="0" y="{_n(-10 * u)}" width="{_n(30 * u)}" height="{_n(20 * u)}" rx="{_n(10 * u)}" '
            f'fill="{HALO}" stroke="{INK}" stroke-width="{_n(1.2 * u)}" '
            f'stroke-dasharray="{_n(4 * u)} {_n(3 * u)}"/>'
            f'<text x="{_n(38 * u)}" y="{_n(fs * 0.36)}">Coexistence</text>')))
    if conflict:
        entries[1].append((30 * u + 8 * u + _text_width("Conflict", fs), (
            f'<path d="M0 0H{_n(30 * u)}" stroke="{CONFLICT}" stroke-width="{_n(4.5 * u)}" '
            f'stroke-dasharray="{_n(9 * u)} {_n(5 * u)}"/>'
            f'<text x="{_n(38 * u)}" y="{_n(fs * 0.36)}">Conflict</text>')))
    if highlighted:
        entries[1].append((30 * u + 8 * u + _text_width("Highlighted", fs), (
            f'<path d="M0 0H{_n(30 * u)}" stroke="{HIGHLIGHT}" stroke-width="{_n(5 * u)}"/>'
            f'<text x="{_n(38 * u)}" y="{_n(fs * 0.36)}">Highlighted</text>')))

    placed: list[str] = []
    y = y0 + 8 * u + row_h / 2
    for group in entries:
        if not group:
            continue
        x = margin
        for w, markup in group:
            if x > margin and x + w > W - margin:
                x, y = margin, y + row_h
            placed.append(f'<g transform="translate({_n(x)} {_n(y)})">{markup}</g>')
            x += w + 26 * u
        y += row_h
    height = y - y0 - row_h / 2 + 8 * u
    return (f'<g class="{p}-legend" font-family="{_esc(SANS)}" font-size="{_n(fs)}" fill="#3b2c1a">'
            + "".join(placed) + "</g>"), height
