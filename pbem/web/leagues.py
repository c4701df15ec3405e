"""League pages (docs/leagues.md, "Running a league"): the list, a league with its members,
rounds and pairings, the standings (sortable, printable, CSV), a member's rating history, and
the forms: creating a league, registering, withdrawing, and the organisers' tools (start a
round, preview and override its pairings, bot entrants, replacements, corrections)."""
from __future__ import annotations

import csv
import io
import re
from datetime import datetime, time, timezone
from typing import Any

from flask import Blueprint, Response, render_template, request, url_for

from engine import games, get_game
from pbem.extensions import db
from pbem.games import presentation
from pbem.leagues import members as league_members
from pbem.leagues import results, rounds, scoring
from pbem.leagues.league import (WITHDRAWAL, NewLeague, active_members, add_organiser, all_leagues, create_league,
                                 get_league, is_organiser, person)
from pbem.leagues.models import League
from pbem.models import now
from pbem.services import lobby
from pbem.services.errors import Invalid, NotFound, ServiceError
from pbem.services.policy import policy_from
from pbem.web import back, current_user, form_int, login_required, signed_in
from pbem.web.game_settings import settings_from_form, settings_offered

bp = Blueprint("leagues", __name__, url_prefix="/leagues")

SORTS = {"place": None, "player": "player", "points": "points", "games": "games", "wins": "wins",
         "rating": "ordinal"}


def _date(value: str | None) -> datetime | None:
    value = (value or "").strip()
    if not value:
        return None
    try:
        day = datetime.strptime(value, "%Y-%m-%d").date()
    except ValueError:
        raise Invalid("a date is written YYYY-MM-DD") from None
    if not 2000 <= day.year <= 2999:
        raise Invalid("that date is out of range")
    return datetime.combine(day, time(0), tzinfo=timezone.utc)


@bp.get("")
def index() -> Any:
    return render_template("leagues/index.html", leagues=all_leagues(db.session()))


OPTION_PREFIX = "option_"  # the game's options and setup choices on the form (a game may have "rounds" too)


def _new_form(rules: Any) -> dict[str, Any]:
    """The new-league form for `rules`' game: the league's own settings and the game's (setup
    choices, rule options, deadlines) as the new-game form offers them."""
    return {"rules": rules, "games": {name: game.title for name, game in games().items()},
            "table_sizes": list(range(rules.min_players, rules.max_players + 1)),
            "default_size": min(4, rules.max_players), "systems": scoring.SYSTEMS, "withdrawal": WITHDRAWAL,
            "option_prefix": OPTION_PREFIX, **settings_offered(rules)}


def _new_league(form: Any) -> NewLeague:
    rules = lobby.rules_for(form.get("game") or None)
    setup, options, deadlines = settings_from_form(form, rules, OPTION_PREFIX)
    return NewLeague(
        name=form.get("name", ""), game=rules.name, table_size=form_int(form.get("table_size"), "seats", 4),
        rounds=form_int(form.get("rounds"), "rounds", 3), round_days=form_int(form.get("round_days"), "days", 28),
        scoring=form.get("scoring", "rank"), rated=bool(form.get("rated")), cap=form_int(form.get("cap"), "the cap"),
        registration_closes_at=_date(form.get("closes")), withdrawal=form.get("withdrawal", "forfeit"),
        setup=setup, options=options, deadlines=deadlines)


@bp.route("/new", methods=["GET", "POST"])
@login_required
def new() -> Any:
    if request.method == "GET":  # ?game=NAME: the form for that game
        rules = lobby.rules_for(request.args.get("game") or None)
        return render_template("leagues/new.html", form={}, **_new_form(rules))
    form = request.form
    try:
        league = create_league(db.session(), signed_in(), _new_league(form))
    except Invalid as error:
        try:
            rules = lobby.rules_for(form.get("game") or None)
        except Invalid:  # an unknown game: the default one's form, with the reason
            rules = lobby.rules_for(None)
        return render_template("leagues/new.html", form=form, error=error.message, **_new_form(rules)), 422
    return back(url_for("leagues.page", league_id=league.id), "League created.")


def _league(league_id: int) -> League:
    return get_league(db.session(), league_id)


@bp.get("/<int:league_id>")
def page(league_id: int) -> Any:
    league = _league(league_id)
    me = current_user()
    organiser = is_organiser(league, me)
    preview = None
    if organiser and league.status != League.FINISHED:
        try:
            preview = rounds.next_tables(league)
        except ServiceError:  # a round runs, or the season is over: nothing to preview
            preview = None
    outcomes = {t.id: results.outcome(t, t.game) for r in league.round_rows for t in r.tables}
    names = {m.id: m.user.display_name for m in league.members}
    mine = next((m for m in league.members if me is not None and m.user_id == me.id), None)
    return render_template("leagues/page.html", league=league, organiser=organiser, preview=preview,
                           outcomes=outcomes, names=names, mine=mine, rules=get_game(league.kind),
                           active=active_members(league), setup_options=presentation(league.kind).setup_options(),
                           policy=policy_from(league.deadline_policy))


@bp.get("/<int:league_id>/standings")
def standings(league_id: int) -> Any:
    league = _league(league_id)
    upto = form_int(request.args.get("round"), "round")
    rows = results.rows_as_data(results.standings(db.session(), league, upto=upto),
                                results.member_ratings(db.session(), league))
    sort = request.args.get("sort", "place")
    key = SORTS.get(sort)
    if key is not None:
        rows.sort(key=lambda row: (row[key] is None, row[key] if key == "player" else -(row[key] or 0)))
    return render_template("leagues/standings.html", league=league, rows=rows, sort=sort if key else "place",
                           upto=upto, tiebreaks=results.tiebreak_names(league), sorts=SORTS)


@bp.get("/<int:league_id>/standings.csv")
def standings_csv(league_id: int) -> Any:
    league = _league(league_id)
    rows = results.rows_as_data(results.standings(db.session(), league),
                                results.member_ratings(db.session(), league))
    names = results.tiebreak_names(league)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "player", "status", "points", "games", "wins", *names, "mu", "sigma", "ordinal"])
    for row in rows:
        player = row["player"]
        if player[:1] in ("=", "+", "-", "@"):  # a spreadsheet must not read a name as a formula
            player = "'" + player
        writer.writerow([row["place"] or "", player, row["status"], row["points"], row["games"], row["wins"],
                         *(row["tiebreaks"] + [""] * (len(names) - len(row["tiebreaks"]))),
                         row["mu"] or "", row["sigma"] or "", row["ordinal"] or ""])
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="league-{league.id}-standings.csv"'})


def _chart(points: list[tuple[int, Any]]) -> dict[str, Any]:
    """An SVG polyline of the ordinal (and mu) after each game, scaled into 600 x 200."""
    width, height, pad = 600, 200, 20
    if not points:
        return {"width": width, "height": height, "ordinal": "", "mu": "", "low": 0, "high": 0}
    values = [r.ordinal for _, r in points] + [r.mu for _, r in points]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 2 * pad) / max(1, len(points) - 1)

    def line(attr: str) -> str:
        return " ".join(f"{pad + i * step:.1f},{pad + (high - getattr(r, attr)) / span * (height - 2 * pad):.1f}"
                        for i, (_, r) in enumerate(points))
    return {"width": width, "height": height, "ordinal": line("ordinal"), "mu": line("mu"),
            "low": low, "high": high}


@bp.get("/<int:league_id>/members/<int:member_id>/rating")
def rating(league_id: int, member_id: int) -> Any:
    league = _league(league_id)
    member = league_members.get_member(league, member_id)
    history = results.history_of(db.session(), league.kind, member.user_id)
    return render_template("leagues/rating.html", league=league, member=member, history=history,
                           chart=_chart(history), rules=get_game(league.kind))


@bp.get("/ratings/<kind>")
def leaderboard(kind: str) -> Any:
    """Everyone rated in a game, by ordinal: every rated game of it, league or not."""
    if kind not in games():
        raise NotFound("there is no such game")
    return render_template("leagues/leaderboard.html", rules=get_game(kind),
                           board=results.leaderboard(db.session(), kind))


# ---- forms --------------------------------------------------------------------------------

def _here(league_id: int) -> str:
    return url_for("leagues.page", league_id=league_id)


@bp.post("/<int:league_id>/register")
@login_required
def register(league_id: int) -> Any:
    league_members.register(db.session(), league_id, signed_in(), now())
    return back(_here(league_id), "You are registered.")


@bp.post("/<int:league_id>/withdraw")
@login_required
def withdraw(league_id: int) -> Any:
    league = _league(league_id)
    member_id = form_int(request.form.get("member"), "member")
    if member_id is None:
        mine = next((m for m in league.members if m.user_id == signed_in().id), None)
        if mine is None:
            raise NotFound("you are not in this league")
        member_id = mine.id
    league_members.withdraw(db.session(), league_id, member_id, signed_in(), now())
    return back(_here(league_id), "Withdrawn.")


@bp.post("/<int:league_id>/start")
@login_required
def start(league_id: int) -> Any:
    row = rounds.start_round(db.session(), league_id, signed_in(), now())
    return back(_here(league_id), f"Round {row.number} started.")


@bp.post("/<int:league_id>/season")
@login_required
def season(league_id: int) -> Any:
    league = rounds.new_season(db.session(), league_id, signed_in())
    return back(_here(league_id), f"Season {league.season} opened.")


def _tables(text: str) -> list[list[int | None]]:
    """One table per line: member numbers in seat order, "-" for a bot seat."""
    tables = []
    for line in text.splitlines()[:1000]:
        words = re.split(r"[\s,;]+", line.strip())
        if not words or words == [""]:
            continue
        table: list[int | None] = []
        for word in words[:10]:
            if word == "-":
                table.append(None)
            elif word.isdigit() and len(word) <= 9:
                table.append(int(word))
            else:
                raise Invalid(f"{word[:20]!r} is neither a member number nor '-'")
        tables.append(table)
    return tables


@bp.post("/<int:league_id>/pairings")
@login_required
def pairings(league_id: int) -> Any:
    if request.form.get("reset"):
        rounds.override(db.session(), league_id, signed_in(), None)
        return back(_here(league_id), "The seating's own pairings again.")
    rounds.override(db.session(), league_id, signed_in(), _tables(request.form.get("tables", "")))
    return back(_here(league_id), "Pairings set.")


@bp.post("/<int:league_id>/bots")
@login_required
def add_bot(league_id: int) -> Any:
    league_members.add_bot_entrant(db.session(), league_id, signed_in(), request.form.get("name", ""),
                                   request.form.get("bot", ""), now())
    return back(_here(league_id), "Bot entered.")


@bp.post("/<int:league_id>/organisers")
@login_required
def organisers(league_id: int) -> Any:
    add_organiser(db.session(), league_id, signed_in(), person(db.session(), request.form.get("email", "")))
    return back(_here(league_id), "Organiser added.")


@bp.post("/<int:league_id>/members/<int:member_id>/replace")
@login_required
def replace(league_id: int, member_id: int) -> Any:
    user = person(db.session(), request.form.get("email", ""))
    league_members.replace(db.session(), league_id, member_id, signed_in(), user, now())
    return back(_here(league_id), "Replaced.")


def _places(text: str) -> dict[str, int]:
    """"KEY=PLACE" pairs (a member number or a bot seat's key, and its place)."""
    out = {}
    for pair in re.split(r"[\s,;]+", text.strip())[:20]:
        key, _, place = pair.partition("=")
        if not pair:
            continue
        if not re.fullmatch(r"[a-z0-9.]{1,30}", key) or not place.isdigit() or len(place) > 3:
            raise Invalid("write each seat as KEY=PLACE, e.g. 12=1 7=2")
        out[key] = int(place)
    return out


@bp.post("/<int:league_id>/tables/<int:table_id>/correct")
@login_required
def correct(league_id: int, table_id: int) -> Any:
    action = request.form.get("action", "")
    places = _places(request.form.get("places", "")) if action == "correct" else None
    results.correct(db.session(), league_id, table_id, signed_in(), action, request.form.get("reason", ""),
                    now(), places=places)
    return back(_here(league_id), "Result changed; the reason is kept.")


