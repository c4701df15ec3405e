"""What Aztlán's templates on the game page need (templates/games/aztlan/game/): the board as
a list of territories (beside the drawing, or instead of it on a board without geometry),
names of territories and power cards, and the drawing itself, cached per position."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping, Sequence

from engine.aztlan.board import Board
from engine.core import State
from pbem.games.aztlan import drawing
from pbem.games.aztlan.rules import card_meaning, power_meaning
from pbem.games.aztlan.sentences import card_title

# The parts of a view the drawing reads (drawing.board_svg); the cache key holds only them.
DRAWN_VIEW_KEYS = ("pawns", "peoples", "conflicts")


def territory_names(board: Board) -> dict[int, str]:
    return {t.id: t.name for t in board.territories}


def territory_rows(board: Board, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per territory: id, name, type, lake shores and the pawns of each people."""
    lakes: dict[int, list[str]] = {}
    for lake in board.lakes:
        for shore in lake.shores:
            lakes.setdefault(shore, []).append(lake.name)
    rows = []
    for t in board.territories:
        pawns = view.get("pawns", {}).get(str(t.id), {})
        rows.append({"id": t.id, "name": t.name, "type": t.type, "neighbours": list(t.neighbours),
                     "lakes": lakes.get(t.id, []), "pawns": pawns, "shared": len(pawns) > 1})
    return rows


def page_context(state: State, view: Mapping[str, Any]) -> dict[str, Any]:
    board = state.board  # type: ignore[attr-defined]
    edition = state.setup.edition  # type: ignore[attr-defined]
    return {"board": board, "territory_names": territory_names(board),
            "territories": territory_rows(board, view),
            "cards": {card.number: card for card in edition.power_cards},
            "card_title": card_title, "card_meaning": card_meaning, "power_meaning": power_meaning}


def board_svg(board: Board, view: Mapping[str, Any], *, clickable: bool, highlight: Sequence[Any],
              id_prefix: str, title: str | None) -> str | None:
    """The drawing, or None for a board without geometry.  A page viewed again at the same
    position is served from the cache."""
    if board.width is None or any(t.polygon is None for t in board.territories):
        return None
    drawn = json.dumps({key: view.get(key) for key in DRAWN_VIEW_KEYS}, sort_keys=True)
    return _draw(board, drawn, clickable, tuple(highlight), id_prefix, title)


@lru_cache(maxsize=256)
def _draw(board: Board, drawn: str, clickable: bool, highlight: tuple[Any, ...], id_prefix: str,
          title: str | None) -> str:
    return drawing.board_svg(board, json.loads(drawn), clickable=clickable, highlight=highlight,
                             id_prefix=id_prefix, title=title)
