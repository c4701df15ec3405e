"""Azteca's board as a standalone SVG drawing, from one reader's view.

The Valley of Mexico of engine/azteca/data/map.json (territories by terrain, the four lake zones,
the dike junctions), then what the view shows on it: each territory's owner (a tint and a city
marker, "1" once assimilated), the population markers (face down: "?"), every people's generals
A, B and C, pochtecas, boats in the lake zones and harbours, lake control, boats lent (Pirogue
Express), the dikes built, the Flower War's natural catastrophes and Reinforcements that stayed,
and the gods' pyramid over Tula's corner (the valley of Tula "continues under the pyramid", 4.0):
Quetzalcoatl climbing five steps on the left stairway, Tezcatlipoca coming down four on the right.

Colours are Okabe-Ito, safe for colour-blind readers, and every people also has its own shape
(Aztecs a circle, Toltecs a square, Chichimecs a diamond, Tepanecs a triangle) on its cities,
generals, pochtecas and boats. Nothing outside the document is referenced and every text from
data is escaped, so it may be inlined in pages and reports.

Clickable: the regions a reader may pick carry `data-territory` (the region's key, which the
order grammar accepts), class "region", tabindex and an aria-label; `highlight` outlines regions
boldly. Pure string building with the standard library; the same input gives the same string.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence
from xml.sax.saxutils import escape

from engine.azteca.geography import Geography, Region, geography

PEOPLES = ("aztecs", "toltecs", "chichimecs", "tepanecs")
COLOURS = {"aztecs": "#0072b2", "toltecs": "#d55e00", "chichimecs": "#009e73", "tepanecs": "#e69f00"}
INK_ON = {"aztecs": "#ffffff", "toltecs": "#1a1a1a", "chichimecs": "#1a1a1a", "tepanecs": "#1a1a1a"}
SHAPES = {"aztecs": "circle", "toltecs": "square", "chichimecs": "diamond", "tepanecs": "triangle"}
OTHER = "#8c8c8c"
TERRAIN_FILL = {None: "#f1e6c4", "mountain": "#d9c9a9", "marsh": "#d3e3c1"}
OUTER_FILL = "#e4d3ab"
WATER, WATER_INK = "#a9d3ee", "#1d4f7d"
INK, HALO, FAINT = "#3b2f22", "#fffaf0", "#9c8a6c"
HIGHLIGHT = "#7b1fa2"
DIKE = "#7a5230"
GOLD, NIGHT = "#c9a227", "#1a1a1a"
CATASTROPHE = "#f0e442"  # Okabe-Ito yellow, a warning sign
SANS = "'Helvetica Neue', Helvetica, Arial, 'DejaVu Sans', sans-serif"

QUETZALCOATL_STEPS = 5  # 15.1: "Quetzalcoatl must climb 5 steps."
TEZCATLIPOCA_STEPS = 4  # 15.3: "When Tezcatlipoca has descended the 4 steps"
PIECE = 20  # a piece's size
LEGEND = 124  # height of the legend under the map
_PREFIX = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,30}")


def _esc(text: Any) -> str:
    # ':' and '(' as references too, so no data can spell a URL scheme or a CSS url( in the markup.
    return escape(str(text), {'"': "&quot;", "'": "&#39;", ":": "&#58;", "(": "&#40;", ")": "&#41;"})


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, text: Any, *, size: float = 12, weight: str = "normal", anchor: str = "middle",
          fill: str = INK, halo: bool = False, italic: bool = False) -> str:
    extra = f' stroke="{HALO}" stroke-width="3" paint-order="stroke"' if halo else ""
    style = ' font-style="italic"' if italic else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}"{style}{extra}>{_esc(text)}</text>')


def _path(points: Sequence[tuple[float, float]]) -> str:
    return "M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in points) + " Z"


def _people_of(seat: Any) -> str:
    return str(seat) if str(seat) in COLOURS else ""


def _mark(x: float, y: float, people: str, text: str = "", size: float = PIECE, tip: str = "",
          cls: str = "piece") -> str:
    """One piece in its people's colour and shape, a letter or number on it."""
    colour, half = COLOURS.get(people, OTHER), size / 2
    cx, cy = x + half, y + half
    shape = SHAPES.get(people, "circle")
    if shape == "square":
        body = f'<rect x="{_n(x + 1)}" y="{_n(y + 1)}" width="{_n(size - 2)}" height="{_n(size - 2)}" rx="2"'
    elif shape == "diamond":
        body = f'<polygon points="{_n(cx)},{_n(y)} {_n(x + size)},{_n(cy)} {_n(cx)},{_n(y + size)} {_n(x)},{_n(cy)}"'
    elif shape == "triangle":
        body = f'<polygon points="{_n(cx)},{_n(y)} {_n(x + size)},{_n(y + size)} {_n(x)},{_n(y + size)}"'
    else:
        body = f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(half - 0.5)}"'
    label = _text(cx, cy + (5.5 if shape == "triangle" else 4), text, size=size * 0.55, weight="bold",
                  fill=INK_ON.get(people, "#ffffff")) if text else ""
    title = f"<title>{_esc(tip)}</title>" if tip else ""
    return f'<g class="{cls}">{title}{body} fill="{colour}" stroke="{INK}" stroke-width="1"/>{label}</g>'


def _boat(x: float, y: float, people: str, count: int, tip: str, cls: str = "boat") -> str:
    """A canoe in its people's colour, its count beside it and its people's mark at the bow."""
    colour = COLOURS.get(people, OTHER)
    hull = (f'<path d="M{_n(x)} {_n(y + 6)} L{_n(x + 30)} {_n(y + 6)} L{_n(x + 25)} {_n(y + 13)} '
            f'L{_n(x + 5)} {_n(y + 13)} Z" fill="{colour}" stroke="{INK}" stroke-width="1"/>')
    return (f'<g class="{cls}"><title>{_esc(tip)}</title>{hull}'
            + _mark(x + 31, y + 1, people, size=12)
            + _text(x + 15, y + 4, f"{count}", size=11, weight="bold", halo=True) + "</g>")


def _catastrophe(tip: str = "natural catastrophe: no Reserve, cousin or retreat chain passes here this turn",
                 cls: str = "catastrophe") -> str:
    """A warning sign: the region a Natural Catastrophe struck (14.6)."""
    return (f'<g class="{cls}"><title>{_esc(tip)}</title>'
            f'<polygon points="10,1 19.5,18.5 0.5,18.5" fill="{CATASTROPHE}" stroke="{NIGHT}" stroke-width="1.2"/>'
            + _text(10, 16.5, "!", size=12, weight="bold", fill=NIGHT) + "</g>")


def _war_marks(view: Mapping[str, Any], geo: Geography) -> dict[str, list[tuple[str, float]]]:
    """region key -> the Flower War's public marks there (drawing at the origin, width): the
    natural catastrophe that struck it, the Reinforcements troops that stayed (card plays)."""
    war = view.get("war") if isinstance(view.get("war"), Mapping) else {}
    marks: dict[str, list[tuple[str, float]]] = {}
    for where in war.get("catastrophes") or ():
        if where in geo.regions:
            marks.setdefault(where, []).append((_catastrophe(), PIECE))
    staying = war.get("reinforcements")
    for where, by_seat in sorted(staying.items() if isinstance(staying, Mapping) else ()):
        if where not in geo.regions or not isinstance(by_seat, Mapping):
            continue
        for seat, troops in sorted(by_seat.items()):
            people = _people_of(seat)
            warriors, jaguars = (list(troops) + [0, 0])[:2] if isinstance(troops, (list, tuple)) else (0, 0)
            tip = f"Reinforcements of the {people.capitalize() or seat}: {warriors} warrior(s), {jaguars} jaguar(s)"
            marks.setdefault(where, []).append((_mark(0, 0, people, "+", tip=tip, cls="reinforcements"), PIECE))
    return marks


def _loans_by_zone(view: Mapping[str, Any], geo: Geography) -> dict[str, list[tuple[str, str]]]:
    """lake zone key -> (lender, borrower) peoples: leave to use boats there (Pirogue Express)."""
    zones: dict[str, list[tuple[str, str]]] = {}
    for loan in view.get("boat_loans") or ():
        if isinstance(loan, Mapping):
            zone = str(loan.get("zone"))
            key = zone if zone in geo.regions else f"lake-{zone}"
            if key in geo.regions and geo.regions[key].is_lake:
                zones.setdefault(key, []).append((_people_of(loan.get("lender")), _people_of(loan.get("borrower"))))
    return zones


def _patterns(p: str) -> str:
    return (f'<pattern id="{p}-mountain" width="22" height="18" patternUnits="userSpaceOnUse">'
            f'<path d="M2 15 L8 5 L14 15 M10 15 L15 8 L20 15" fill="none" stroke="#a08b66" stroke-width="1"/>'
            f'</pattern><pattern id="{p}-marsh" width="20" height="12" patternUnits="userSpaceOnUse">'
            f'<path d="M2 8 h7 M11 4 h7" stroke="#6f9a5c" stroke-width="1.2"/></pattern>'
            f'<pattern id="{p}-chinampas" width="16" height="16" patternUnits="userSpaceOnUse">'
            f'<rect x="2" y="2" width="12" height="5" fill="#b7d39b" stroke="#6f9a5c" stroke-width=".8"/>'
            f'<rect x="2" y="10" width="12" height="4" fill="#b7d39b" stroke="#6f9a5c" stroke-width=".8"/>'
            f'</pattern><pattern id="{p}-water" width="26" height="14" patternUnits="userSpaceOnUse">'
            f'<path d="M2 8 q4 -4 8 0 t8 0" fill="none" stroke="#6fa8cf" stroke-width="1"/></pattern>')


# --- what the view puts where -------------------------------------------------------------

def _seats(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [s for s in view.get("seats") or [] if isinstance(s, Mapping)]


def _pieces_by_region(view: Mapping[str, Any], geo: Geography) -> dict[str, list[tuple[str, str, str]]]:
    """region key -> pieces as (kind, people, text): generals, pochtecas, boats in harbour."""
    here: dict[str, list[tuple[str, str, str]]] = {}
    for seat in _seats(view):
        people = _people_of(seat.get("seat"))
        capital = str(seat.get("capital") or next((r.key for r in geo.capitals() if r.people == people), ""))
        for letter, where in sorted((seat.get("generals") or {}).items()):
            if where in geo.regions:
                here.setdefault(where, []).append(("general", people, str(letter)))
        pochtecas = seat.get("pochtecas")
        # letter -> territory (or "exp"): the engine's "envoys" on missions and "spies" until phase 7
        sent = {**(pochtecas if isinstance(pochtecas, Mapping) else {}),
                **(seat.get("envoys") or {}), **(seat.get("spies") or {})}
        for letter, where in sorted(sent.items()):
            if where in geo.regions:
                here.setdefault(where, []).append(("pochteca", people, str(letter)))
        if isinstance(pochtecas, int) and pochtecas > 0 and capital in geo.regions:
            here.setdefault(capital, []).append(("pochteca", people, f"{pochtecas}"))
        for where, count in sorted((seat.get("boats") or {}).items()):
            if where in geo.regions and not geo.regions[where].is_lake and isinstance(count, int) and count > 0:
                here.setdefault(where, []).append(("boat", people, f"{count}"))
    return here


def _boats_by_zone(view: Mapping[str, Any], geo: Geography) -> dict[str, list[tuple[str, int]]]:
    zones: dict[str, list[tuple[str, int]]] = {}
    for seat in _seats(view):
        for where, count in sorted((seat.get("boats") or {}).items()):
            if where in geo.regions and geo.regions[where].is_lake and isinstance(count, int) and count > 0:
                zones.setdefault(where, []).append((_people_of(seat.get("seat")), count))
    return zones


def _built_dikes(view: Mapping[str, Any], geo: Geography) -> set[tuple[str, str]]:
    built = set()
    for dike in view.get("dikes") or []:
        shore = dike if isinstance(dike, str) else (list(dike) or [""])[-1]
        built |= {link for link in geo.dike_links() if link[1] == shore}
    return built


def _names(view: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, str]:
    return {str(s.get("seat")): str(names.get(str(s.get("seat"))) or s.get("name") or s.get("seat"))
            for s in _seats(view)}


# --- the parts of the drawing ---------------------------------------------------------------

def _fill(p: str, region: Region) -> str:
    if region.chinampas:
        return f"url(#{p}-chinampas)"
    if region.terrain:
        return f"url(#{p}-{region.terrain})"
    return "none"


def _region(p: str, geo: Geography, region: Region, owner: str, pieces: Sequence[tuple[str, str, str]],
            clickable: bool) -> str:
    shape = geo.shape(region.key)
    d = _path(shape.points)
    if region.is_lake:
        base = f'<path d="{d}" fill="{WATER}" stroke="#3d7fb3" stroke-width="2"/><path d="{d}" fill="url(#{p}-water)"/>'
    else:
        base = (f'<path d="{d}" fill="{OUTER_FILL if region.kind == "outer" else TERRAIN_FILL[region.terrain]}"/>'
                f'<path d="{d}" fill="{_fill(p, region)}"/>')
        if owner:
            base += f'<path d="{d}" fill="{COLOURS.get(owner, OTHER)}" fill-opacity=".3"/>'
        base += f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="{3 if region.kind == "capital" else 1.4}"/>'
    kind = "lake zone" if region.is_lake else region.kind.replace("outer", "outer valley")
    relief = ("chinampas (a marsh)" if region.chinampas else region.terrain) or ""
    tip = f"{region.number} {region.name}, {kind}" + (f", {relief}" if relief else "")
    if region.people:
        tip += f", capital of the {region.people.capitalize()}"
    if owner and region.kind != "capital":
        tip += f", city of the {owner.capitalize()}"
    if pieces:
        tip += "; " + ", ".join(f"{people or 'unknown'} {what} {text}" for what, people, text in pieces)
    attrs = ""
    if clickable:
        attrs = (f' class="region" data-territory="{_esc(region.key)}" tabindex="0" role="button" '
                 f'aria-label="{_esc(tip)}"')
    return f'<g{attrs}><title>{_esc(tip)}</title>{base}</g>'


def _labels_and_pieces(geo: Geography, region: Region, view: Mapping[str, Any], owner: str,
                       pieces: Sequence[tuple[str, str, str]], marks: Sequence[tuple[str, float]] = ()) -> str:
    x, y = geo.shape(region.key).label
    out = [_text(x, y - 8, region.number, size=12, weight="bold", halo=True),
           _text(x, y + 5, region.name, size=11.5, halo=True)]
    row: list[tuple[str, float]] = []  # (drawing at the origin, its width)
    markers = view.get("markers") or {}
    if region.key in markers:
        value = markers[region.key]
        shown = "?" if value is None else value
        row.append((f'<g class="marker"><title>population marker {_esc(shown)}</title>'
                    f'<circle cx="10" cy="10" r="9" fill="{HALO}" stroke="{INK}" stroke-width="1.4"/>'
                    + _text(10, 14, shown, size=11, weight="bold") + "</g>", PIECE))
    if region.people:
        row.append((_pyramid(region.people), PIECE))
    elif owner:
        assimilated = region.key in set(view.get("assimilated") or ())
        row.append((_mark(0, 0, owner, "1" if assimilated else "", cls="city",
                          tip=f"{'assimilated ' if assimilated else ''}city of the {owner.capitalize()}"), PIECE))
    for kind, people, text in pieces:
        if kind == "general":
            row.append((_mark(0, 0, people, text, tip=f"{people.capitalize()} general {text}"), PIECE))
        elif kind == "pochteca":
            row.append((_mark(0, 3, people, "p" + ("" if text.isalpha() else text), size=15,
                              tip=f"{people.capitalize()} pochteca {text}"), 15))
        else:
            row.append((_boat(0, 2, people, int(text), f"{text} {people.capitalize()} boat(s) in harbour"), 44))
    return "".join(out) + _place_row([*row, *marks], x, y + 12)


def _place_row(items: Sequence[tuple[str, float]], x: float, y: float, room: float = 110) -> str:
    """Items drawn at the origin, set in rows no wider than `room`, each row centred under (x, y)."""
    rows: list[list[tuple[str, float]]] = [[]]
    for item in items:
        if rows[-1] and sum(w + 4 for _, w in rows[-1]) + item[1] > room:
            rows.append([])
        rows[-1].append(item)
    out = []
    for line, row in enumerate(rows):
        left = x - (sum(w + 4 for _, w in row) - 4) / 2
        for drawing, wide in row:
            out.append(f'<g transform="translate({_n(left)} {_n(y + line * (PIECE + 6))})">{drawing}</g>')
            left += wide + 4
    return "".join(out)


def _pyramid(people: str) -> str:
    colour = COLOURS.get(people, OTHER)
    steps = "".join(f'<rect x="{_n(2 + 3 * i)}" y="{_n(14 - 5 * i)}" width="{_n(16 - 6 * i)}" height="5"/>'
                    for i in range(3))
    return (f'<g class="capital" fill="{colour}" stroke="{INK}" stroke-width=".8">'
            f'<title>pyramid of the {_esc(people.capitalize())}</title>{steps}</g>')


def _lake_label(geo: Geography, zone: Region, boats: Sequence[tuple[str, int]], holder: str,
                loans: Sequence[tuple[str, str]] = (), marks: Sequence[tuple[str, float]] = ()) -> str:
    x, y = geo.shape(zone.key).label
    out = [_text(x, y - 6, f"Zone {zone.number}", size=13, weight="bold", fill=WATER_INK, halo=True),
           _text(x, y + 8, zone.name, size=10.5, fill=WATER_INK, halo=True, italic=True)]
    if holder:
        out.append(_text(x, y + 21, f"held by the {holder.capitalize()}", size=10, fill=WATER_INK, halo=True))
    for i, (people, count) in enumerate(boats):
        out.append(_boat(x - 44 + (i % 2) * 48, y + 27 + (i // 2) * 18, people, count,
                         f"{count} {people.capitalize()} boat(s) in zone {zone.number}"))
    below = y + 27 + (len(boats) + 1) // 2 * 18
    for i, (lender, borrower) in enumerate(loans):  # leave to cross with another's boats
        tip = f"{lender.capitalize()} boats lent to the {borrower.capitalize()} in zone {zone.number}"
        out.append(f'<g class="loan"><title>{_esc(tip)}</title>'
                   + _text(x, below + 10 + i * 13, f"{lender.capitalize()} boats → {borrower.capitalize()}",
                           size=10, fill=WATER_INK, halo=True) + "</g>")
    if marks:
        out.append(_place_row(marks, x, below + 4 + len(loans) * 13))
    return "".join(out)


def _dikes(geo: Geography, built: set[tuple[str, str]]) -> str:
    out = []
    for link in geo.dike_links():
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in geo.dike_path(link))
        shore = geo.region(link[1]).name
        if link in built:
            out.append(f'<g class="dike"><title>dike Tenochtitlan to {_esc(shore)}</title>'
                       f'<polyline points="{points}" fill="none" stroke="{DIKE}" stroke-width="9" '
                       f'stroke-linecap="round"/><polyline points="{points}" fill="none" stroke="#c8a77a" '
                       f'stroke-width="3" stroke-linecap="round"/></g>')
        else:
            out.append(f'<g class="junction"><title>dike junction Tenochtitlan to {_esc(shore)} (no dike)</title>'
                       f'<polyline points="{points}" fill="none" stroke="{DIKE}" stroke-width="2" '
                       f'stroke-dasharray="5 5" stroke-opacity=".7"/></g>')
    return "".join(out)


def _gods(gods: Mapping[str, Any]) -> str:
    """The pyramid: Quetzalcoatl climbs the left stairway (start, then 5 steps to the gold temple),
    Tezcatlipoca comes down the right one (the top, then 4 steps to the underworlds)."""
    def step(value: Any, top: int) -> int:
        return min(max(value, 0), top) if isinstance(value, int) and not isinstance(value, bool) else 0

    q, t = step(gods.get("quetzalcoatl"), QUETZALCOATL_STEPS), step(gods.get("tezcatlipoca"), TEZCATLIPOCA_STEPS)
    out = [f'<g class="gods"><title>Quetzalcoatl {q} of {QUETZALCOATL_STEPS} steps up, '
           f'Tezcatlipoca {t} of {TEZCATLIPOCA_STEPS} steps down</title>'
           f'<rect x="8" y="8" width="224" height="214" rx="6" fill="{HALO}" fill-opacity=".93" stroke="{FAINT}"/>']
    size, dx, dy, base = 26, 16, 28, 176
    for i in range(QUETZALCOATL_STEPS + 1):
        x, y = 18 + dx * i, base - dy * i
        fill = GOLD if i == QUETZALCOATL_STEPS else "#eadcb6"
        out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}" stroke="{INK}"/>'
                   + _text(x + size / 2, y + 17, i, size=11, fill=FAINT if i != q else INK))
    for j in range(1, TEZCATLIPOCA_STEPS + 1):
        x, y = 18 + dx * QUETZALCOATL_STEPS + size + dx * (j - 1), base - dy * QUETZALCOATL_STEPS + dy * j
        fill = "#5b4a66" if j == TEZCATLIPOCA_STEPS else "#eadcb6"
        out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}" stroke="{INK}"/>'
                   + _text(x + size / 2, y + 17, j, size=11, fill=HALO if j == TEZCATLIPOCA_STEPS else FAINT))
    qx, qy = 18 + dx * q + size / 2, base - dy * q + size / 2
    if t:
        tx, ty = 18 + dx * QUETZALCOATL_STEPS + size + dx * (t - 1) + size / 2, base - dy * (QUETZALCOATL_STEPS - t) + size / 2
    else:
        tx, ty = 18 + dx * QUETZALCOATL_STEPS + size / 2, base - dy * QUETZALCOATL_STEPS - 14
    out.append(f'<g class="god quetzalcoatl"><title>Quetzalcoatl, step {q} of {QUETZALCOATL_STEPS}</title>'
               f'<circle cx="{_n(qx)}" cy="{_n(qy)}" r="10" fill="{GOLD}" stroke="{INK}" stroke-width="1.5"/>'
               + _text(qx, qy + 4, "Q", size=12, weight="bold", fill=INK) + "</g>")
    out.append(f'<g class="god tezcatlipoca"><title>Tezcatlipoca, step {t} of {TEZCATLIPOCA_STEPS} down</title>'
               f'<circle cx="{_n(tx)}" cy="{_n(ty)}" r="10" fill="{NIGHT}" stroke="{HALO}" stroke-width="1.5"/>'
               + _text(tx, ty + 4, "T", size=12, weight="bold", fill=HALO) + "</g>")
    out.append(_text(14, 216, "▲ Quetzalcoatl", size=10.5, anchor="start"))
    out.append(_text(226, 216, "Tezcatlipoca ▼", size=10.5, anchor="end"))
    return "".join(out) + "</g>"


def _legend(p: str, view: Mapping[str, Any], names: Mapping[str, str], y: float, width: float,
            players: int) -> str:
    """Who plays which people (and holds the Tlatoani card), then what each mark means."""
    out = [f'<rect x="0" y="{_n(y)}" width="{_n(width)}" height="{LEGEND}" fill="{HALO}"/>']
    tlatoani = view.get("tlatoani")
    shown = _names(view, names)
    for i, people in enumerate(p for p in PEOPLES if p in shown):
        x = 14 + i * 245
        label = f"{people.capitalize()}: {shown[people]}" + (" · Tlatoani" if people == tlatoani else "")
        out.append(f'<g transform="translate({x} {_n(y + 8)})">{_mark(0, 0, people)}</g>'
                   + _text(x + 26, y + 23, label, size=12.5, anchor="start"))
    keys: list[tuple[str, str, float]] = [  # (drawing at the origin, its meaning, its width)
        (f'<circle cx="10" cy="10" r="8" fill="{HALO}" stroke="{INK}"/>' + _text(10, 14, "?", size=10, weight="bold"),
         "population marker", 20),
        (_mark(0, 0, "", "1", cls="key"), "city (1: assimilated)", 20),
        (_mark(0, 0, "", "A", cls="key"), "general A, B, C", 20),
        (_mark(2, 2, "", "p", size=15, cls="key"), "pochteca", 20),
        (_boat(0, 4, "", 2, "boats", cls="key"), "boats", 46),
        (f'<rect width="22" height="18" fill="{TERRAIN_FILL["mountain"]}" stroke="{INK}"/>'
         f'<rect width="22" height="18" fill="url(#{p}-mountain)"/>', "mountain", 22),
        (f'<rect width="22" height="18" fill="{TERRAIN_FILL["marsh"]}" stroke="{INK}"/>'
         f'<rect width="22" height="18" fill="url(#{p}-marsh)"/>', "marsh", 22),
        (f'<rect width="22" height="18" fill="{TERRAIN_FILL["marsh"]}" stroke="{INK}"/>'
         f'<rect width="22" height="18" fill="url(#{p}-chinampas)"/>', "chinampas (a marsh)", 22),
    ]
    war = view.get("war") if isinstance(view.get("war"), Mapping) else {}
    if war.get("catastrophes"):
        keys.append((_catastrophe(cls="key"), "natural catastrophe", 20))
    if war.get("reinforcements"):
        keys.append((_mark(0, 0, "", "+", cls="key"), "Reinforcements that stayed", 20))
    if players == 4:
        keys.insert(5, (f'<line x1="0" y1="10" x2="34" y2="10" stroke="{DIKE}" stroke-width="7"/>',
                        "dike (dashed: a free junction)", 34))
    else:
        keys.append(("", "3 players (16.0): no Aztecs, no dikes, outer valleys out of play", 0))
    x, row = 14.0, y + 40
    for drawing, meaning, wide in keys:
        room = wide + 6 + len(meaning) * 6.2 + 18
        if x + room > width:
            x, row = 14.0, row + 28
        out.append(f'<g transform="translate({_n(x)} {_n(row)})">{drawing}</g>'
                   + _text(x + wide + 6, row + 14, meaning, size=11, anchor="start"))
        x += room
    return "".join(out)


def _out_of_play() -> str:
    """16.0: with three players the outer valleys stay on the board but nobody may enter them."""
    full = geography(4)
    out = []
    for region in full.outer():
        shape = full.shape(region.key)
        x, y = shape.label
        out.append(f'<g class="out-of-play"><title>{_esc(region.name)}: out of play with 3 players</title>'
                   f'<path d="{_path(shape.points)}" fill="#d8d2c4" stroke="{FAINT}" stroke-width="1.4"/>'
                   + _text(x, y, region.name, size=11.5, fill=FAINT, halo=True)
                   + _text(x, y + 14, "out of play", size=10, fill=FAINT, halo=True, italic=True) + "</g>")
    return "".join(out)


def board_svg(view: Mapping[str, Any], names: Mapping[str, str] | None = None, *, players: int | None = None,
              clickable: bool | Iterable[str] = False, highlight: Iterable[str] = (), title: str | None = None,
              width: int | None = None, id_prefix: str = "az") -> str:
    """The drawing of `view` (engine/azteca/views.py: "players", "seats" with "seat", "capital",
    "generals", "boats", "pochtecas"; "cities", "assimilated", "markers", "dikes", "lake_control",
    "gods", "tlatoani"). `names`: seat -> player name for the legend. `players` (3 or 4) when the view
    does not say. `clickable`: True for every region, or the keys of the regions a reader may pick.
    `highlight`: keys to outline boldly. `title`: a caption above. `width`: the width attribute (the
    height follows). `id_prefix`: prefix of every id, so several drawings can share a page."""
    if not _PREFIX.fullmatch(id_prefix):
        raise ValueError("id_prefix must be a letter followed by up to 30 letters, digits, '-' or '_'")
    count = players or view.get("players") or len(_seats(view)) or 4
    geo = geography(4 if count not in (3, 4) else int(count))
    p = id_prefix
    x0, y0, map_w, map_h = geo.view_box
    top = 40.0 if title else 0.0
    total_h = top + map_h + LEGEND
    pick = set(geo.regions) if clickable is True else set(clickable or ())
    marked = set(highlight) & set(geo.regions)
    owners = {str(k): _people_of(v) for k, v in (view.get("cities") or {}).items()}
    for region in geo.capitals():
        owners.setdefault(region.key, region.people or "")
    pieces = _pieces_by_region(view, geo)
    control = {str(k): _people_of(v) for k, v in (view.get("lake_control") or {}).items() if v}
    boats = _boats_by_zone(view, geo)
    loans, marks = _loans_by_zone(view, geo), _war_marks(view, geo)
    size = "" if width is None else f' width="{int(width)}" height="{int(round(width * total_h / map_w))}"'
    caption = title or geo.title
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(x0)} {_n(y0 - top)} {_n(map_w)} {_n(total_h)}"'
           f'{size} class="{p}-map" role="{"group" if pick else "img"}" aria-labelledby="{p}-title" '
           f'font-family="{_esc(SANS)}"><title id="{p}-title">{_esc(caption)}</title>']
    if pick:
        out.append(f'<style>.{p}-map .region{{cursor:pointer}}.{p}-map .region:hover > path:last-child,'
                   f'.{p}-map .region:focus > path:last-child{{stroke:{HIGHLIGHT};stroke-width:5}}'
                   f'.{p}-map .region:focus{{outline:none}}</style>')
    out.append(f"<defs>{_patterns(p)}</defs>")
    out.append(f'<rect x="{_n(x0)}" y="{_n(y0 - top)}" width="{_n(map_w)}" height="{_n(total_h)}" fill="{HALO}"/>')
    if title:
        out.append(_text(x0 + map_w / 2, y0 - top + 27, title, size=20, weight="bold"))
    if geo.players == 3:
        out.append(_out_of_play())
    ordered = sorted(geo.regions.values(), key=lambda r: (not r.is_lake, r.kind == "capital", r.number))
    for region in ordered:
        out.append(_region(p, geo, region, owners.get(region.key, ""), pieces.get(region.key, ()),
                           region.key in pick))
    out.append(_dikes(geo, _built_dikes(view, geo)))
    def highlight(d: str, key: str | None) -> str:
        mark = "" if key is None else f' data-highlight="{_esc(key)}"'
        return f'<path d="{d}" fill="none" stroke="{HIGHLIGHT}" stroke-width="6"{mark}/>'

    outline = "".join(highlight(_path(geo.shape(k).points), k) for k in sorted(marked))
    if outline or pick:  # a page's script (pbem/static/choices.js) outlines the choice being made here
        out.append(f'<g pointer-events="none" data-outlines="">{outline}</g>')
    if pick:  # ... like this hidden model
        out.append(f'<g display="none" data-outline-model="">{highlight("M0 0", None)}</g>')
    out.append('<g pointer-events="none">')
    for region in ordered:
        if region.is_lake:
            out.append(_lake_label(geo, region, boats.get(region.key, ()), control.get(region.key, ""),
                                   loans.get(region.key, ()), marks.get(region.key, ())))
        else:
            out.append(_labels_and_pieces(geo, region, view, owners.get(region.key, ""), pieces.get(region.key, ()),
                                          marks.get(region.key, ())))
    out.append(_gods(view.get("gods") or {}))
    out.append("</g>")
    out.append(_legend(p, view, names or {}, y0 + map_h, map_w, geo.players))
    return "".join(out) + "</svg>"
