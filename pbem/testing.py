"""Helpers for tests and benchmarks that play a seat from its view, as a client would."""
from __future__ import annotations

from typing import Any

from engine import default_game
from pbem.games import presentation


def first_legal_order(decision: dict[str, Any], game: str | None = None) -> str:
    """A legal order for one decision of a view's `me.decisions` (built from its options), in
    `game` (by default the default game's), as its presentation gives it."""
    name = game or default_game().name
    order = presentation(name).first_order(decision)
    if order is None:
        raise ValueError(f"{name} gives no first order for a {decision.get('kind')!r} decision")
    return order
