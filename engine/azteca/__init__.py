"""Azteca (Tilsit 1999): components as data, the order grammar, the turn's phases, views and
bots (docs/rules-azteca.md), registered as the game "azteca" (pyproject.toml)."""
from engine.azteca.game import GAME, Azteca, setup_from_record
from engine.azteca.state import AztecaState

__all__ = ["GAME", "Azteca", "AztecaState", "setup_from_record"]
