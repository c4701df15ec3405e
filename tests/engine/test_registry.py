"""The game registry: games come from the `pbem.games` entry-point group (docs/engine.md)."""
from __future__ import annotations

from importlib.metadata import entry_points

import pytest

import engine
from engine.aztlan import GAME as AZTLAN
from engine.core import SetupError


def test_games_come_from_the_entry_point_group():
    declared = {point.name: point.value for point in entry_points(group="pbem.games")}
    assert declared["aztlan"] == "engine.aztlan:GAME"
    assert engine.game_names() == sorted(declared)
    assert engine.get_game("aztlan") is AZTLAN and engine.games()["aztlan"] is AZTLAN


def test_an_unknown_game_is_a_setup_error_naming_the_known_ones():
    with pytest.raises(SetupError, match="unknown game 'chess'; known: azteca, aztlan, coatl"):
        engine.get_game("chess")
    with pytest.raises(SetupError, match="unknown game"):
        engine.get_game(["not", "a", "name"])


def test_the_default_game_is_configured_else_aztlan(monkeypatch):
    monkeypatch.delenv("PBEM_DEFAULT_GAME", raising=False)
    assert engine.default_game() is AZTLAN
    monkeypatch.setenv("PBEM_DEFAULT_GAME", "duel")
    assert engine.default_game().name == "duel"
    monkeypatch.setenv("PBEM_DEFAULT_GAME", "chess")
    with pytest.raises(SetupError, match="unknown game 'chess'"):
        engine.default_game()
