"""The standings mailed to every member still in the league after each round (topic
"league", which the profile's results preference turns off), once per round and member."""
from __future__ import annotations

from sqlalchemy.orm import Session

from pbem.leagues.models import League, LeagueRound
from pbem.leagues.results import rows_as_data, standings
from pbem.services import links
from pbem.services.links import base_url
from pbem.services.notify import mail_user

TOPIC = "league"


def standings_text(rows: list[dict]) -> str:
    lines = [f"{'':>4} {'player':<30} {'points':>8} {'games':>5}"]
    for row in rows:
        place = f"{row['place']}." if row["place"] else "-"
        lines.append(f"{place:>4} {row['player'][:30]:<30} {row['points']:>8.2f} {row['games']:>5}")
    return "\n".join(lines)


def round_ended(session: Session, league: League, row: LeagueRound) -> None:
    """Queue the standings after round `row` to each member (called before the round's end commits)."""
    table = standings_text(rows_as_data(standings(session, league, row.season, upto=row.number)))
    url = links.league(base_url(), league.id)
    over = "The season is over: these are the final standings." if league.status == League.FINISHED \
        else "The next round's tables are on the league's page."
    for member in league.members:
        if not member.active:
            continue
        mail_user(session, member.user, f"{league.name}: standings after round {row.number}",
                  f"Round {row.number} of season {row.season} of {league.name} is over.\n\n{table}\n\n{over}\n{url}\n",
                  topic=TOPIC, key=f"{TOPIC}:{row.id}:{member.id}")
