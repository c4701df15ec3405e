"""The lobby: game lists, creating a game, inviting, joining, leaving and cancelling."""
from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, current_app, render_template, request, url_for

from engine import default_game
from engine.aztlan.options import CHOICES, Options
from pbem.extensions import db
from pbem.services import deadlines, lobby
from pbem.services.errors import Invalid
from pbem.services.kinds import default_hours
from pbem.services.policy import DEFAULT_BOTS, POLICY_DEFAULTS, REPLACE_AFTER_RANGE, VACATION_RULES
from pbem.web import back, current_user, login_required, signed_in

bp = Blueprint("lobby", __name__)


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
    return render_template("lobby/home.html", lists=lists)


def _form_defaults() -> dict[str, Any]:
    game = default_game()  # the game the form creates
    return {"boards": lobby.available("boards"), "editions": lobby.available("editions"),
            "bots": list(game.bots), "choices": CHOICES, "defaults": Options().to_dict(),
            "hours": default_hours(game.name), "on_missed": lobby.ON_MISSED,
            "default_bots": DEFAULT_BOTS, "vacation_rules": VACATION_RULES, "replace_after": REPLACE_AFTER_RANGE,
            "policy_defaults": POLICY_DEFAULTS}


def _int(value: str | None, name: str, default: int | None = None) -> int | None:
    value = (value or "").strip()
    if not value:
        return default
    if not value.isdigit() or len(value) > 6:
        raise Invalid(f"{name} must be a whole number")
    return int(value)


def new_game_from_form(form: Any) -> lobby.NewGame:
    players = _int(form.get("players"), "players", 3)
    bot_count = _int(form.get("bots"), "bots", 0) or 0
    if bot_count > 3:
        raise Invalid("at most 3 bots")
    invites = [a for a in re.split(r"[\s,;]+", form.get("invites", "")) if a]
    options = {name: form[name] for name in CHOICES if form.get(name)}
    hours = {kind: _int(form.get(f"hours_{kind}"), f"hours for {kind}") for kind in default_hours(default_game().name)}
    return lobby.NewGame(title=form.get("title", ""), players=players or 3,
                         bots=[form.get("bot_kind", "heuristic")] * bot_count, invites=invites,
                         board=form.get("board", "default"), edition=form.get("edition", "default"),
                         options=options,
                         deadlines={"hours": hours, "on_missed": form.get("on_missed", "bot"),
                                    **_policy_from_form(form)})


def _policy_from_form(form: Any) -> dict[str, Any]:
    """Missed turns, replacement and vacations (docs/deadlines.md); left out: the defaults."""
    policy: dict[str, Any] = {key: form[key] for key in ("default", "abandoned", "vacation") if form.get(key)}
    replace_after = _int(form.get("replace_after"), "missed deadlines before replacement")
    if replace_after is not None:
        policy["replace_after"] = replace_after
    return policy


@bp.route("/games/new", methods=["GET", "POST"])
@login_required
def new_game() -> Any:
    if request.method == "GET":
        return render_template("lobby/new.html", form={}, **_form_defaults())
    try:
        game = lobby.create_game(db.session(), signed_in(), new_game_from_form(request.form),
                                 base_url=current_app.config["PBEM_BASE_URL"])
    except Invalid as error:
        return render_template("lobby/new.html", form=request.form, error=error.message,
                               **_form_defaults()), 422
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
