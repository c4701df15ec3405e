"""The game page (board, track, cards, history, decision forms), orders, record and replay."""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from engine.aztlan.board import TERRAIN_TYPES
from pbem.games.aztlan.sentences import card_title, describe_all
from pbem.extensions import db, limiter
from pbem.services import seat_address
from pbem.models import Game, now
from pbem.services import accounts, deadlines, lobby, play, reports, turn_queue
from pbem.services.errors import OrderRejected
from pbem.services.state import game_state
from pbem.web import back, current_user, login_required, signed_in
from pbem.web.board import board_svg, territory_rows
from pbem.web.orderforms import order_text

bp = Blueprint("game", __name__, url_prefix="/games")


def _board_context(game: Game, view: dict[str, Any], *, clickable: bool) -> dict[str, Any]:
    """What the board, status and history templates need: the view plus the game's public
    setup data (board and edition)."""
    setup = game_state(db.session(), game).setup
    board = setup.board
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    territory_names = {t.id: t.name for t in board.territories}
    return {"view": view, "board": board, "names": names, "territory_names": territory_names,
            "cards": {card.number: card for card in setup.edition.power_cards},
            "svg": board_svg(board, view, clickable=clickable),
            "territories": territory_rows(board, view),
            "events": describe_all(view["events"], names, territory_names)}


def _page(game: Game, status: int = 200, **extra: Any) -> Any:
    user = current_user()
    if game.status in (Game.OPEN, Game.ABORTED):
        seat = play.seat_of(game, user)
        return render_template("game/open.html", game=game, my_seat=seat,
                               policy=deadlines.policy_of(game), **extra), status
    seen = play.game_view(db.session(), game, user)
    decisions = seen.view.get("me", {}).get("decisions", [])
    context = _board_context(game, seen.view, clickable=bool(decisions))
    # Deadlines, the host's controls, queued turns and takeovers (pbem/web/turns.py).
    timing = deadlines.deadline_info(db.session(), game, user, now())
    queued = turn_queue.list_queue(db.session(), game.id, user) if seen.seat is not None else []
    report_ages = reports.scored_ages(db.session(), game) if seen.seat is not None else []
    # The reader's own paper size first.
    paper_sizes = sorted(accounts.PAPER_SIZES, key=lambda size: size != user.paper_size) if report_ages else []
    mine = seen.seat is not None and game.status == Game.ACTIVE
    address = seat_address.current_address(db.session(), game.id, user) if mine and user is not None else None
    return render_template("game/page.html", game=game, seen=seen, decisions=decisions,
                           my_seat=seen.seat, card_title=card_title, terrain_types=TERRAIN_TYPES,
                           timing=timing, queued=queued, report_ages=report_ages, paper_sizes=paper_sizes,
                           reply_address=address,
                           **context, **extra), status


@bp.get("/<int:game_id>")
def page(game_id: int) -> Any:
    return _page(lobby.get_game_row(db.session(), game_id))


@bp.post("/<int:game_id>/orders")
@login_required
@limiter.limit(lambda: current_app.config["PBEM_ORDER_LIMIT"], scope="orders")
def orders(game_id: int) -> Any:
    text = ""
    try:
        text = order_text(request.form)
        receipt = play.submit_for_user(db.session(), game_id, signed_in(), text, channel="web")
    except OrderRejected as error:
        game = lobby.get_game_row(db.session(), game_id)
        return _page(game, 422, order_error=error.message, order_text=text)
    return back(url_for("game.page", game_id=game_id), receipt.message, "success")


@bp.post("/<int:game_id>/withdraw")
@login_required
def withdraw(game_id: int) -> Any:
    game = lobby.get_game_row(db.session(), game_id)
    count = play.withdraw(db.session(), play.require_seat(game, signed_in()))
    return back(url_for("game.page", game_id=game_id), f"Withdrew {count} pending order(s).")


@bp.get("/<int:game_id>/reports/<int:age>.pdf")
@login_required
@limiter.limit("20 per minute", scope="reports")  # each render costs about a second of CPU
def report_pdf(game_id: int, age: int) -> Any:
    """The signed-in player's own report of an age, rendered again from the record."""
    game = lobby.get_game_row(db.session(), game_id)
    report = reports.seat_report(db.session(), game, signed_in(), age, request.args.get("size"))
    return Response(report.pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f"attachment; filename={report.filename}"})


@bp.get("/<int:game_id>/version")
def version(game_id: int) -> Any:
    """What the page's script polls to know when to reload (no secrets: a number)."""
    game = lobby.get_game_row(db.session(), game_id)
    return jsonify(version=game.version, status=game.status)


@bp.get("/<int:game_id>/record.json")
def record(game_id: int) -> Any:
    game = lobby.get_game_row(db.session(), game_id)
    body = json.dumps(play.finished_record(db.session(), game), indent=1, ensure_ascii=False)
    return Response(body + "\n", mimetype="application/json", headers={
        "Content-Disposition": f"attachment; filename=pbem-game-{game.id}.json"})


@bp.get("/<int:game_id>/replay")
def replay(game_id: int) -> Any:
    game = lobby.get_game_row(db.session(), game_id)
    raw = request.args.get("step", "0")
    step = int(raw) if raw.isdigit() and len(raw) < 7 else -1
    view, orders = play.replay_step(db.session(), game, step)
    context = _board_context(game, view, clickable=False)
    return render_template("game/replay.html", game=game, step=step, total=len(orders),
                           last_order=orders[step - 1] if step else None, **context)
