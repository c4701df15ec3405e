"""Game rules for pbem: pure Python, no I/O beyond the games' own data files.

Each game is a plug-in that offers the contract in `engine.core` and registers itself in the
`pbem.games` entry-point group of its distribution (pyproject.toml):

    [project.entry-points."pbem.games"]
    aztlan = "engine.aztlan:GAME"

The registry reads that group from the installed packages' metadata, so a game is found the
same way whether it ships with pbem or in a distribution of its own (docs/engine.md).
"""
from __future__ import annotations

import os
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from engine.core import (OVER, Bot, Decision, DecisionKind, Game, GameRules, GameState,
                         IllegalOrderError, Milestone, NotYourDecisionError, Option, OrderError,
                         ParseError, Result, SetupError, State)

GROUP = "pbem.games"
DEFAULT_GAME_VARIABLE = "PBEM_DEFAULT_GAME"
PREFERRED_DEFAULT = "aztlan"  # the first game pbem had: the default unless configured


@cache
def _entry_points() -> dict[str, EntryPoint]:
    found = {point.name: point for point in entry_points(group=GROUP)}
    return dict(sorted(found.items()))


@cache
def _load(name: str) -> Game:
    game = _entry_points()[name].load()
    if game.name != name:
        raise SetupError(f"the game registered as {name!r} calls itself {game.name!r}")
    return game


def game_names() -> list[str]:
    """The registered games' names, sorted (no game module is imported)."""
    return list(_entry_points())


def games() -> dict[str, Game]:
    """Every registered game by name, sorted by name."""
    return {name: _load(name) for name in _entry_points()}


def get_game(name: str) -> Game:
    """The registered game called `name` (only its own module is imported)."""
    if not isinstance(name, str) or name not in _entry_points():
        known = ", ".join(_entry_points()) or "none (is pbem installed? see docs/engine.md)"
        raise SetupError(f"unknown game {name!r}; known: {known}")
    return _load(name)


def default_game() -> Game:
    """The game a new game or `pbem play` gets when none is named: the one configured in
    PBEM_DEFAULT_GAME, else aztlan if registered, else the first registered by name."""
    configured = os.environ.get(DEFAULT_GAME_VARIABLE, "").strip()
    if configured:
        return get_game(configured)
    names = game_names()
    if not names:
        raise SetupError("no game is registered (is pbem installed? see docs/engine.md)")
    return get_game(PREFERRED_DEFAULT if PREFERRED_DEFAULT in names else names[0])


__all__ = ["OVER", "Bot", "Decision", "DecisionKind", "Game", "GameRules", "GameState",
           "IllegalOrderError", "Milestone", "NotYourDecisionError", "Option", "OrderError",
           "ParseError", "Result", "SetupError", "State", "default_game", "game_names", "games",
           "get_game"]
