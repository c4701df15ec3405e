"""The board on the game page: the SVG drawing (pbem/drawing) when the board has geometry,
else a plain list of territories.  Either way every territory carries `data-territory`,
which the page's script uses to fill the order form on a click."""
from __future__ import annotations

import json
import logging
from functools import lru_cache
from typing import Any, Sequence

from markupsafe import Markup


def board_svg(board: Any, view: dict[str, Any], *, clickable: bool,
              highlight: Sequence[int] = ()) -> Markup | None:
    """The board as inline SVG, or None when it cannot be drawn (no renderer or no geometry)."""
    if board.width is None or any(t.polygon is None for t in board.territories):
        return None
    # The drawing depends only on the board and these parts of the view; a page viewed
    # again at the same position is served from the cache.
    drawn = json.dumps({key: view.get(key) for key in DRAWN_VIEW_KEYS}, sort_keys=True)
    svg = _draw(board, drawn, clickable, tuple(highlight))
    # The renderer builds its SVG from board data and escapes every name it writes.
    return Markup(svg) if svg is not None else None


DRAWN_VIEW_KEYS = ("pawns", "peoples", "conflicts")


@lru_cache(maxsize=256)
def _draw(board: Any, drawn: str, clickable: bool, highlight: tuple[int, ...]) -> str | None:
    try:
        from pbem.games.aztlan.drawing import board_svg as draw
    except ImportError:
        return None
    try:
        return draw(board, json.loads(drawn), clickable=clickable, highlight=highlight)
    except Exception:  # a drawing bug must not take the game page (and its forms) down
        logging.getLogger(__name__).exception("board drawing failed; showing the territory list")
        return None


def territory_rows(board: Any, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Per territory: id, name, type, lake shores and the pawns of each people."""
    lakes: dict[int, list[str]] = {}
    for lake in board.lakes:
        for shore in lake.shores:
            lakes.setdefault(shore, []).append(lake.name)
    rows = []
    for t in board.territories:
        pawns = view["pawns"].get(str(t.id), {})
        rows.append({"id": t.id, "name": t.name, "type": t.type, "neighbours": list(t.neighbours),
                     "lakes": lakes.get(t.id, []), "pawns": pawns, "shared": len(pawns) > 1})
    return rows
