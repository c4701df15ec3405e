"""Azteca's presentation: so far the board drawing (drawing.py), from a reader's view."""
