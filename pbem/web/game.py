"""The game page (the position, the decision forms, history), orders, record and replay.

What is game-specific comes from the game's presentation (pbem.games): its templates for
the position and the decision forms, its board picture, event sentences and how a posted
form becomes order text; the page around them is the same for every game."""
from __future__ import annotations

import json
import logging
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from markupsafe import Markup

from engine import get_game
from engine.core import OrderError, State
from pbem import live
from pbem.extensions import db, limiter
from pbem.games import Presentation, plain_facts, presentation
from pbem.services import seat_address
from pbem.models import Game, now
from pbem.services import accounts, deadlines, lobby, play, press, reports, turn_queue
from pbem.services.errors import OrderRejected
from pbem.services.kinds import decision_kinds
from pbem.services.state import game_state, player_names
from pbem.web import back, current_user, login_required, signed_in
from pbem.web.streams import event_stream

bp = Blueprint("game", __name__, url_prefix="/games")
log = logging.getLogger(__name__)


def _svg(shown: Presentation, state: State, view: dict[str, Any], *, clickable: bool) -> Markup | None:
    """The game's board picture for the page, or None (then its templates show the text)."""
    try:
        svg = shown.board_svg(state, view, clickable=clickable, highlight=shown.choice_places(view))
    except Exception:  # a drawing bug must not take the game page (and its forms) down
        log.exception("drawing the board of a %s game failed; the page shows it without", state.game)
        return None
    # The presentation builds its SVG from game data and escapes every name it writes.
    return Markup(svg) if svg else None


def _position(game: Game, state: State, view: dict[str, Any], *, clickable: bool) -> dict[str, Any]:
    """What the position, history and result templates need: the reader's view, where the
    game stands (round, phase, the result once over) and the game's own parts."""
    shown = presentation(game.kind)
    names = player_names(game)
    return {"view": view, "names": names, "rules": get_game(game.kind), "shown": shown,
            "round": state.round, "rounds": shown.round_count(state), "phase": state.phase,
            "svg": _svg(shown, state, view, clickable=clickable),
            "events": shown.sentences(view.get("events", []), names, state),
            "result": state.result().to_json() if state.is_over() else None,
            **shown.page_context(state, view)}


def render_page(game: Game, status: int = 200, **extra: Any) -> Any:
    """The game page as `game`'s reader sees it (`extra`: an error to show, text to keep)."""
    user = current_user()
    if game.status in (Game.OPEN, Game.ABORTED):
        seat = play.seat_of(game, user)
        return render_template("game/open.html", game=game, my_seat=seat, rules=get_game(game.kind),
                               setup_options=presentation(game.kind).setup_options(),
                               policy=deadlines.policy_of(game), **extra), status
    stamp = live.stamp(db.session(), game.id)  # read first: a change after it reaches the page's stream
    seen = play.game_view(db.session(), game, user)
    decisions = seen.view.get("me", {}).get("decisions", [])
    context = _position(game, game_state(db.session(), game), seen.view, clickable=bool(decisions))
    kinds = decision_kinds(game.kind)
    queued_kind = context["shown"].queued_kind
    # Deadlines, the host's controls, queued turns and takeovers (pbem/web/turns.py).
    timing = deadlines.deadline_info(db.session(), game, user, now())
    queued = turn_queue.list_queue(db.session(), game.id, user) if seen.seat is not None and queued_kind else []
    report_rounds = reports.scored_rounds(db.session(), game) if seen.seat is not None else []
    # The reader's own paper size first.
    paper_sizes = sorted(accounts.PAPER_SIZES, key=lambda size: size != user.paper_size) if report_rounds else []
    mine = seen.seat is not None and game.status == Game.ACTIVE
    address = seat_address.current_address(db.session(), game.id, user) if mine and user is not None else None
    hint = next((kinds[d["kind"]].syntax for d in decisions if d["kind"] in kinds), "")
    # Each owed decision's choices as the plain forms list them, whatever the page context.
    choices = [plain_facts(d.get("options") or {}) for d in decisions]
    return render_template("game/page.html", game=game, seen=seen, decisions=decisions, kinds=kinds,
                           press=press_context(game, user),
                           my_seat=seen.seat, timing=timing, queued=queued,
                           queue_kind=kinds.get(queued_kind or ""), report_rounds=report_rounds,
                           paper_sizes=paper_sizes, reply_address=address, order_hint=hint, choices=choices,
                           stamp=stamp, poll_seconds=current_app.config["PBEM_PAGE_POLL"], **context, **extra), status


def press_context(game: Game, user: Any) -> dict[str, Any]:
    """The press part of the page (templates/game/_press.html): what the reader may read,
    whom they muted, and whether and to whom they may write."""
    mine = play.seat_of(game, user)
    return {"state": press.status_of(game, user), "messages": press.readable(db.session(), game, user),
            "muted": press.muted(db.session(), game.id, user) if user is not None else [],
            "mine": mine.name if mine is not None else None,
            "others": [s.name for s in game.seats if s.name and (mine is None or s.name != mine.name)],
            "is_host": user is not None and user.id == game.created_by, "titles": press.RULE_TITLES}


@bp.get("/<int:game_id>")
def page(game_id: int) -> Any:
    return render_page(lobby.get_game_row(db.session(), game_id))


@bp.post("/<int:game_id>/orders")
@login_required
@limiter.limit(lambda: current_app.config["PBEM_ORDER_LIMIT"], scope="orders")
def orders(game_id: int) -> Any:
    text = ""
    game = lobby.get_game_row(db.session(), game_id)
    try:
        try:
            text = presentation(game.kind).form_orders(request.form)
        except OrderError as error:
            raise OrderRejected(str(error)) from None
        receipt = play.submit_for_user(db.session(), game_id, signed_in(), text, channel="web")
    except OrderRejected as error:
        return render_page(game, 422, order_error=error.message, order_text=text)
    return back(url_for("game.page", game_id=game_id), receipt.message, "success")


@bp.post("/<int:game_id>/withdraw")
@login_required
def withdraw(game_id: int) -> Any:
    game = lobby.get_game_row(db.session(), game_id)
    count = play.withdraw(db.session(), play.require_seat(game, signed_in()))
    return back(url_for("game.page", game_id=game_id), f"Withdrew {count} pending order(s).")


@bp.get("/<int:game_id>/reports/<int:number>.pdf")
@login_required
@limiter.limit("20 per minute", scope="reports")  # each render costs about a second of CPU
def report_pdf(game_id: int, number: int) -> Any:
    """The signed-in player's own report of a round, rendered again from the record."""
    game = lobby.get_game_row(db.session(), game_id)
    report = reports.seat_report(db.session(), game, signed_in(), number, request.args.get("size"))
    return Response(report.pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f"attachment; filename={report.filename}"})


@bp.get("/<int:game_id>/version")
def version(game_id: int) -> Any:
    """What the page's script asks when its event stream is cut (no secrets: numbers)."""
    game = lobby.get_game_row(db.session(), game_id)
    return jsonify(version=game.version, status=game.status, stamp=live.stamp(db.session(), game_id))


@bp.get("/<int:game_id>/live")
def live_stream(game_id: int) -> Any:
    """The game page's event stream: a `change` whenever the game's stamp moves."""
    lobby.get_game_row(db.session(), game_id)  # 404 for no such game
    seen = request.headers.get("Last-Event-ID") or request.args.get("stamp") or None
    return event_stream(lambda session: live.stamp(session, game_id), seen, game_id)


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
    state, orders = play.replay_step(db.session(), game, step)
    context = _position(game, state, state.view(None), clickable=False)
    return render_template("game/replay.html", game=game, step=step, total=len(orders),
                           last_order=orders[step - 1] if step else None, **context)
