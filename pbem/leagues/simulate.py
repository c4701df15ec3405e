"""A whole league played by bots through the same services as a real one (`pbem league
simulate`, docs/leagues.md, "Simulating a league").

Every member is a bot entrant (pbem.leagues.members.add_bot_entrant: a person of the league
without an address whose seats a bot plays, rated like anybody), so the rounds are seated,
started, advanced by the workers, ended and scored exactly as a league of people is; only
nobody waits for a decision.  `set_up` makes the league and starts its first round; the
workers do the rest; `report` reads the final standings.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy.orm import Session

from engine import get_game
from pbem.leagues import rounds, seating
from pbem.leagues.league import NewLeague, create_league, get_league
from pbem.leagues.members import add_bot_entrant
from pbem.leagues.models import League
from pbem.leagues.results import member_ratings, rows_as_data, standings
from pbem.models import User

ORGANISER = "League organiser"


def bot_kind(game: str) -> str:
    """The game's stand-in bot (it plays sensibly), for every entrant."""
    return get_game(game).stand_in


def set_up(session: Session, game: str, players: int, rounds_count: int, seed: str, *,
           table_size: int | None = None, scoring: str = "rank", now: datetime | None = None) -> int:
    """The league, its bot entrants and its first round, started; the league's id."""
    now = now or datetime.now(timezone.utc)
    rules = get_game(game)
    size = table_size or min(4, rules.max_players)
    organiser = User(display_name=ORGANISER)
    session.add(organiser)
    session.commit()
    league = create_league(session, organiser, NewLeague(
        name=f"Simulated league (seed {seed})", game=game, table_size=size, rounds=rounds_count,
        scoring=scoring, seed=f"simulate:{seed}"))
    width = len(str(players))
    for number in range(1, players + 1):
        add_bot_entrant(session, league.id, organiser, f"Player {number:0{width}}", bot_kind(game), now)
    rounds.start_round(session, league.id, organiser, now)
    return league.id


def progress(session: Session, league_id: int) -> tuple[str, int]:
    """The league's status and how many of its rounds have finished."""
    session.expire_all()
    league = get_league(session, league_id)
    done = sum(r.state == "finished" for r in league.round_rows)
    status = league.status
    session.rollback()
    return status, done


def report(session: Session, league_id: int) -> dict[str, Any]:
    """The final standings (player, points, games, rating mu, sigma, ordinal) and the
    repeated opponent pairs of the season's seating."""
    league = get_league(session, league_id)
    rated = member_ratings(session, league)
    rows = rows_as_data(standings(session, league), rated)
    played = [[[None if held is None else str(held) for held in table.seats] for table in r.tables]
              for r in league.round_rows if r.season == league.season]
    return {"league": league.id, "game": league.kind, "players": len(league.members), "rounds": league.rounds,
            "finished": league.status == League.FINISHED, "repeated_pairs": seating.repeated_pairs(played),
            "standings": [{"place": row["place"], "player": row["player"], "points": row["points"],
                           "games": row["games"], "mu": row["mu"], "sigma": row["sigma"], "ordinal": row["ordinal"]}
                          for row in rows]}
