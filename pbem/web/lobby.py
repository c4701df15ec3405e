"""The lobby: game lists, creating a game, inviting, joining, leaving and cancelling."""
from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, url_for

from engine import games
from engine.core import Game as GameRules
from pbem import live
from pbem.extensions import db
from pbem.reports.safety import read_asset
from pbem.services import deadlines, lobby
from pbem.services.errors import Invalid
from pbem.services.press import RULE_TITLES as PRESS_RULE_TITLES
from pbem.services.policy import DEFAULT_BOTS
from pbem.web import back, current_user, form_int, login_required, signed_in
from pbem.web.game_settings import settings_from_form, settings_offered
from pbem.web.streams import event_stream

bp = Blueprint("lobby", __name__)


@bp.get("/favicon.ico")
def favicon() -> Any:
    """The reports' emblem, also the tab's icon (browsers ask this address unprompted)."""
    return Response(read_asset("emblem.svg"), mimetype="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


@bp.get("/")
def home() -> Any:
    user = current_user()
    lists: dict[str, list[Any]] = {}
    if user is not None:
        lists["Waiting for you"] = lobby.waiting_for(db.session(), user)
        lists["Your games"] = lobby.my_games(db.session(), user)
    lists["Open games"] = lobby.open_games(db.session(), user)
    lists["Seats to take over"] = deadlines.takeover_games(db.session())
    lists["Finished games"] = lobby.finished_games(db.session(), limit=20)
    shown = sorted({game.id for games in lists.values() for game in games})
    return render_template("lobby/home.html", lists=lists, shown=",".join(map(str, shown)),
                           stamp=live.lobby_stamp(db.session(), shown),
                           poll_seconds=current_app.config["PBEM_PAGE_POLL"])


MAX_SHOWN = 500  # games a list page may follow


@bp.get("/live/home")
def live_home() -> Any:
    """The lobby's event stream: a change when a game it shows changes or a game is created."""
    text = request.args.get("games", "")
    if len(text) > 8 * MAX_SHOWN or not re.fullmatch(r"(\d{1,9}(,\d{1,9})*)?", text):
        raise Invalid("games is a list of game numbers, separated by commas")
    shown = sorted({int(part) for part in text.split(",") if part})[:MAX_SHOWN]
    seen = request.headers.get("Last-Event-ID") or request.args.get("stamp") or None
    newest = int((seen or "0").split(".")[0]) if (seen or "0").split(".")[0].isdigit() else 0
    followed = set(shown)
    return event_stream(lambda session: live.lobby_stamp(session, shown), seen,
                        lambda game_id: game_id in followed or game_id > newest)


def _form_defaults(rules: GameRules) -> dict[str, Any]:
    """What the new-game form offers for the game it creates: its player counts, bots, setup
    choices, rule options and kinds of decision (with their default deadlines)."""
    return {"rules": rules, "games": {name: game.title for name, game in games().items()},
            "player_counts": list(range(rules.min_players, rules.max_players + 1)),
            "default_players": min(max(3, rules.min_players), rules.max_players),
            "bot_seats": list(range(rules.max_players)), "bots": list(rules.bots),
            "default_bot": DEFAULT_BOTS[0] if DEFAULT_BOTS[0] in rules.bots else rules.bots[0],
            "press_rules": PRESS_RULE_TITLES, **settings_offered(rules)}


def new_game_from_form(form: Any) -> lobby.NewGame:
    rules = lobby.rules_for(form.get("game") or None)
    defaults = _form_defaults(rules)
    players = form_int(form.get("players"), "players", defaults["default_players"])
    bot_count = form_int(form.get("bots"), "bots", 0) or 0
    if bot_count >= rules.max_players:
        raise Invalid(f"at most {rules.max_players - 1} bots")
    invites = [a for a in re.split(r"[\s,;]+", form.get("invites", "")) if a]
    setup, options, deadlines = settings_from_form(form, rules)
    return lobby.NewGame(title=form.get("title", ""), game=rules.name, players=players or defaults["default_players"],
                         bots=[form.get("bot_kind") or defaults["default_bot"]] * bot_count, invites=invites,
                         setup=setup, options=options, press=form.get("press") or "all", deadlines=deadlines)


@bp.route("/games/new", methods=["GET", "POST"])
@login_required
def new_game() -> Any:
    if request.method == "GET":  # ?game=NAME: the form for that game
        return render_template("lobby/new.html", form={},
                               **_form_defaults(lobby.rules_for(request.args.get("game") or None)))
    try:
        game = lobby.create_game(db.session(), signed_in(), new_game_from_form(request.form),
                                 base_url=current_app.config["PBEM_BASE_URL"])
    except Invalid as error:
        try:
            rules = lobby.rules_for(request.form.get("game") or None)
        except Invalid:  # an unknown game: the default one's form, with the reason
            rules = lobby.rules_for(None)
        return render_template("lobby/new.html", form=request.form, error=error.message,
                               **_form_defaults(rules)), 422
    return back(url_for("game.page", game_id=game.id), "Game created.")


@bp.post("/games/<int:game_id>/join")
@login_required
def join(game_id: int) -> Any:
    lobby.join_game(db.session(), game_id, signed_in())
    return back(url_for("game.page", game_id=game_id), "You joined the game.")


@bp.post("/games/<int:game_id>/invite")
@login_required
def invite(game_id: int) -> Any:
    lobby.invite(db.session(), game_id, signed_in(), request.form.get("email", ""),
                 base_url=current_app.config["PBEM_BASE_URL"])
    return back(url_for("game.page", game_id=game_id), "Invitation sent.")


@bp.post("/games/<int:game_id>/leave")
@login_required
def leave(game_id: int) -> Any:
    lobby.leave_game(db.session(), game_id, signed_in())
    return back(url_for("lobby.home"), "You left the game.")


@bp.post("/games/<int:game_id>/cancel")
@login_required
def cancel(game_id: int) -> Any:
    lobby.cancel_game(db.session(), game_id, signed_in())
    return back(url_for("lobby.home"), "Game cancelled.")
