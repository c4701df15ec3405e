"""Drawings of game boards as standalone SVG (standard library only, nothing fetched)."""
