"""Leagues (docs/leagues.md): seasons of many games with fair seating, standings and ratings.

The pure parts take plain data (seating, scoring, ratings); the service parts keep leagues
in the database (models), run them (leagues, rounds, results) and build on pbem.services,
never on the web, the API, the mail gateway or the worker.  Nothing here names a game.
"""
