"""Azteca (Tilsit 1999): the rules engine (not yet registered as a game)."""
