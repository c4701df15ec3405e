"""The rules pages for players: /rules lists the games, /rules/<game> shows one game's rules,
the game's own summary (its presentation's `rules_template`) followed by every kind of
decision and every rule option with what each value does.  A game the registry does not know
is a 404."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template

from engine import game_names, games, get_game
from pbem.games import presentation

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def index() -> Any:
    return render_template("rules/index.html", games=games())


@bp.get("/rules/<game>")
def page(game: str) -> Any:
    if game not in game_names():
        abort(404)
    shown = presentation(game)
    return render_template(shown.rules_template, rules=get_game(game), shown=shown,
                           setup_options=shown.setup_options(), **shown.rules_context())
