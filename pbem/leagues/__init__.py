"""Leagues: seasons of rounds of games, seated fairly, scored and rated (docs/leagues.md).

The pure parts (no database, no Flask, no Celery) are `seating` (each round's tables),
`scoring` (table points and standings) and `ratings` (OpenSkill, Plackett-Luce). The service
parts keep leagues in the database (`models`), run them (`league`, `members`, `rounds`,
`results`, `mails`) and build on pbem.services, never on the web, the API, the mail gateway
or the worker.  A league never names a game: it reads a finished game's scores and places
through the game's contract.
"""
