"""Game rules for pbem: pure Python, no I/O beyond the engine's own data files.

Each game is a plug-in (a sibling package such as `engine.aztlan`) registered here.
"""
from __future__ import annotations

from engine.core import (Decision, GameRules, GameState, IllegalOrderError, NotYourDecisionError,
                         OrderError, ParseError, SetupError)


def games() -> dict[str, GameRules]:
    from engine.aztlan import GAME as aztlan  # imported lazily: a game loads only when asked for
    return {aztlan.name: aztlan}


def get_game(name: str) -> GameRules:
    try:
        return games()[name]
    except KeyError:
        raise SetupError(f"unknown game {name!r}; known: {', '.join(games())}") from None


__all__ = ["Decision", "GameRules", "GameState", "IllegalOrderError", "NotYourDecisionError",
           "OrderError", "ParseError", "SetupError", "games", "get_game"]
