"""Leagues: seasons of rounds of games, fair seating, standings and ratings (docs/leagues.md)."""
