"""API endpoints.  Each one authenticates, validates with a schema, calls the application
layer and dumps the answer with a schema; the same service functions serve the web."""
from __future__ import annotations

from typing import Any

from flask import current_app, g, jsonify, request
from marshmallow import Schema, ValidationError
from sqlalchemy.orm import joinedload

from pbem import live
from pbem.api import api_bp
from pbem.api.errors import error_response
from pbem.extensions import db, limiter
from pbem.games import presentation
from pbem.services import seat_address
from pbem.models import Game, Seat, User, now
from pbem.schemas import (DeadlineSchema, ExtendSchema, GameCreateSchema, GameListSchema, GameSchema,
                          GameViewSchema, HistorySchema, MeSchema, OrdersSchema, PressListSchema,
                          PressMessageSchema, PressMuteSchema, PressReportSchema, PressSendSchema, PressSwitchSchema,
                          QueueListSchema, QueueSchema, ReceiptSchema, ReplyAddressSchema, TakeoverSchema,
                          VacationCreateSchema, VacationListSchema, VacationSchema)
from pbem.services import accounts, deadlines, lobby, play, press, turn_queue, vacations
from pbem.services.errors import Invalid, NotFound, OrderRejected, ServiceError, Unauthorized
from pbem.services.state import game_state, player_names

LISTS = ("open", "finished", "mine", "waiting")

# The schemas of the busiest routes (a client reads its view before each order), built once:
# building one costs more than using it, and none keeps anything between calls.
_ORDERS, _RECEIPT, _GAME_VIEW = OrdersSchema(), ReceiptSchema(), GameViewSchema()


@api_bp.before_request
def authenticate() -> Any:
    """Bearer tokens only: the API ignores the browser session, so CSRF cannot reach it."""
    g.user = None
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, secret = header.partition(" ")
    user = accounts.user_for_api_token(db.session(), secret.strip()) if scheme.lower() == "bearer" else None
    if user is None:
        return error_response(401, "unauthorized", "unknown or revoked token; send 'Authorization: Bearer <token>'")
    g.user = user
    return None


@api_bp.errorhandler(ServiceError)
def _service_error(error: ServiceError) -> Any:
    db.session.rollback()
    extra = {"expected": error.expected} if isinstance(error, OrderRejected) else {}
    return error_response(error.status, error.code, error.message, **extra)


@api_bp.errorhandler(ValidationError)
def _validation_error(error: ValidationError) -> Any:
    return error_response(422, "invalid", "the request body does not match the schema", fields=error.messages)


def _user() -> User:
    if g.user is None:
        raise Unauthorized("this needs a personal API token: 'Authorization: Bearer <token>'")
    return g.user


def _body(schema: Schema) -> dict[str, Any]:
    if not request.is_json:
        raise Invalid("send a JSON object (Content-Type: application/json)")
    data = request.get_json(silent=True)  # parsed once per request (the input check parsed it first)
    if data is None:  # only a refused body is parsed again, for the parser's own reason
        try:
            current_app.json.loads(request.get_data())
        except ValueError as error:  # too deep, NaN, not JSON at all
            raise Invalid(f"the body is not JSON pbem reads: {error}") from None
    if not isinstance(data, dict):
        raise Invalid("send a JSON object, not a JSON list or value")
    return schema.load(data)


@api_bp.get("/me")
def me() -> Any:
    return MeSchema().dump(_user())


@api_bp.get("/games")
def list_games() -> Any:
    which = request.args.get("list", "open")
    if which not in LISTS:
        raise Invalid(f"list must be one of {', '.join(LISTS)}")
    if which == "open":
        games = lobby.open_games(db.session(), g.user)
    elif which == "finished":
        games = lobby.finished_games(db.session())
    elif which == "mine":
        games = lobby.my_games(db.session(), _user())
    else:
        games = lobby.waiting_for(db.session(), _user())
    return GameListSchema().dump({"games": games})


@api_bp.post("/games")
def create_game() -> Any:
    data = _body(GameCreateSchema())
    game = lobby.create_game(db.session(), _user(), lobby.NewGame(**data),
                             base_url=current_app.config["PBEM_BASE_URL"])
    return GameSchema().dump(lobby.get_game_row(db.session(), game.id)), 201


@api_bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> Any:
    return GameSchema().dump(lobby.get_game_row(db.session(), game_id))


@api_bp.post("/games/<int:game_id>/join")
def join_game(game_id: int) -> Any:
    lobby.join_game(db.session(), game_id, _user())
    return GameSchema().dump(lobby.get_game_row(db.session(), game_id))


def _game_with_seats(game_id: int) -> Game:
    """The game, its seats and their people in one query (a view names every seat's
    player), or 404."""
    game = db.session.get(Game, game_id, options=[joinedload(Game.seats).joinedload(Seat.user)])
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game


@api_bp.get("/games/<int:game_id>/view")
def view(game_id: int) -> Any:
    """Your view; with `wait=N` (at most 60) and `since=STAMP` it answers when the game's
    stamp differs from STAMP, or after N seconds: a client waits for the next change
    without a loop of its own (pbem/live.py)."""
    game = _game_with_seats(game_id)  # 404 before any wait
    since, seconds = request.args.get("since"), _wait_seconds()
    if since is not None and seconds:
        db.session.remove()  # hold no connection while waiting

        def read() -> str | None:
            try:
                return live.stamp(db.session(), game_id)
            finally:
                db.session.remove()

        live.wait(read, since, seconds, game_id)
        game = _game_with_seats(game_id)
    seen = play.game_view(db.session(), game, g.user)  # with the stamp of the moment it is of
    answer = jsonify(_GAME_VIEW.dump({"game": game, "seat": seen.seat.name if seen.seat else None,
                                      "view": seen.view, "pending": seen.my_pending,
                                      "submitted": seen.submitted, "stamp": seen.stamp}))
    answer.headers["ETag"] = f'"{seen.stamp}"'
    answer.headers["Vary"] = "Authorization"
    return answer


def _wait_seconds() -> int:
    text = request.args.get("wait", "0")
    if not text.isascii() or not text.isdigit() or int(text) > live.MAX_WAIT:
        raise Invalid(f"wait is a whole number of seconds from 0 to {live.MAX_WAIT}")
    return int(text)


@api_bp.post("/games/<int:game_id>/orders")
@limiter.limit(lambda: current_app.config["PBEM_ORDER_LIMIT"], scope="orders")
def submit(game_id: int) -> Any:
    data = _body(_ORDERS)
    receipt = play.submit_for_user(db.session(), game_id, _user(), data["orders"], channel="api")
    return _RECEIPT.dump({**receipt.__dict__, "applied": receipt.applied, "status": receipt.status}), 201



@api_bp.get("/games/<int:game_id>/history")
def history(game_id: int) -> Any:
    game = lobby.get_game_row(db.session(), game_id)
    view = play.game_view(db.session(), game, g.user).view
    events = view.get("events", [])
    texts = presentation(game.kind).sentences(events, player_names(game), game_state(db.session(), game))
    described = [{**text, "data": event} for text, event in zip(texts, events, strict=True)]
    return HistorySchema().dump({"events": described})


@api_bp.get("/games/<int:game_id>/record")
def record(game_id: int) -> Any:
    return jsonify(play.finished_record(db.session(), lobby.get_game_row(db.session(), game_id)))


# ---- deadlines, queued turns, takeovers, vacations (docs/deadlines.md) ---------------------------

def _deadline(game_id: int) -> Any:
    game = lobby.get_game_row(db.session(), game_id)
    info = deadlines.deadline_info(db.session(), game, g.user, now())
    return DeadlineSchema().dump(deadlines.deadline_json(info, g.user))


@api_bp.get("/games/<int:game_id>/deadline")
def deadline(game_id: int) -> Any:
    return _deadline(game_id)


@api_bp.post("/games/<int:game_id>/deadline/extend")
def extend_deadline(game_id: int) -> Any:
    data = _body(ExtendSchema())
    deadlines.extend_deadline(db.session(), game_id, _user(), data["hours"], now())
    return _deadline(game_id)


@api_bp.post("/games/<int:game_id>/pause")
def pause(game_id: int) -> Any:
    deadlines.pause_game(db.session(), game_id, _user(), now())
    return _deadline(game_id)


@api_bp.post("/games/<int:game_id>/resume")
def resume(game_id: int) -> Any:
    deadlines.resume_game(db.session(), game_id, _user(), now())
    return _deadline(game_id)


@api_bp.post("/games/<int:game_id>/takeover")
def takeover(game_id: int) -> Any:
    data = _body(TakeoverSchema())
    deadlines.take_over(db.session(), game_id, _user(), data["seat"], now())
    return GameSchema().dump(lobby.get_game_row(db.session(), game_id))


@api_bp.get("/games/<int:game_id>/queue")
def queued_turns(game_id: int) -> Any:
    return QueueListSchema().dump({"turns": turn_queue.list_queue(db.session(), game_id, _user())})


@api_bp.put("/games/<int:game_id>/queue")
@limiter.limit(lambda: current_app.config["PBEM_ORDER_LIMIT"], scope="orders")
def queue_turns(game_id: int) -> Any:
    data = _body(QueueSchema())
    turns = turn_queue.queue_turns(db.session(), game_id, _user(), data["turns"], channel="api")
    return QueueListSchema().dump({"turns": turns})


@api_bp.delete("/games/<int:game_id>/queue")
def cancel_all_queued(game_id: int) -> Any:
    return QueueListSchema().dump({"turns": turn_queue.cancel_queued(db.session(), game_id, _user(), None)})


@api_bp.delete("/games/<int:game_id>/queue/<int:number>")
def cancel_queued(game_id: int, number: int) -> Any:
    return QueueListSchema().dump({"turns": turn_queue.cancel_queued(db.session(), game_id, _user(), number)})


# ---- the seat's reply address (docs/email.md) ---------------------------------------------------

@api_bp.get("/games/<int:game_id>/reply-address")
def reply_address(game_id: int) -> Any:
    return ReplyAddressSchema().dump({"address": seat_address.current_address(db.session(), game_id, _user())})


@api_bp.post("/games/<int:game_id>/reply-address")
def replace_reply_address(game_id: int) -> Any:
    return ReplyAddressSchema().dump({"address": seat_address.replace_address(db.session(), game_id, _user())})


# ---- press (docs/service.md, "Press") -----------------------------------------------------------

def _press(game_id: int) -> Any:
    game = lobby.get_game_row(db.session(), game_id)
    state = press.status_of(game, g.user)
    messages = press.readable(db.session(), game, g.user)
    muted = press.muted(db.session(), game.id, g.user) if g.user is not None else []
    names = player_names(game)
    return PressListSchema().dump({"rule": state.rule, "off": state.off, "can_send": state.can_send,
                                   "why_not": state.why_not, "muted": muted,
                                   "messages": [press.as_json(message, names) for message in messages]})


@api_bp.get("/games/<int:game_id>/press")
def press_list(game_id: int) -> Any:
    return _press(game_id)


@api_bp.post("/games/<int:game_id>/press")
@limiter.limit(lambda: current_app.config["PBEM_PRESS_LIMIT"], scope="press")
def press_send(game_id: int) -> Any:
    data = _body(PressSendSchema())
    message = press.post(db.session(), game_id, _user(), data["text"], to=data["to"], channel="api")
    game = lobby.get_game_row(db.session(), game_id)
    return PressMessageSchema().dump(press.as_json(message, player_names(game))), 201


@api_bp.post("/games/<int:game_id>/press/mute")
def press_mute(game_id: int) -> Any:
    data = _body(PressMuteSchema())
    press.set_muted(db.session(), game_id, _user(), data["seat"], data["mute"])
    return _press(game_id)


@api_bp.post("/games/<int:game_id>/press/<int:message_id>/report")
def press_report(game_id: int, message_id: int) -> Any:
    data = _body(PressReportSchema())
    press.report(db.session(), game_id, message_id, _user(), data["reason"])
    return jsonify(reported=message_id), 201


@api_bp.post("/games/<int:game_id>/press/switch")
def press_switch(game_id: int) -> Any:
    data = _body(PressSwitchSchema())
    press.switch(db.session(), game_id, _user(), data["off"])
    return _press(game_id)


@api_bp.get("/vacations")
def list_vacations() -> Any:
    return VacationListSchema().dump({"vacations": vacations.upcoming(db.session(), _user(), now())})


@api_bp.post("/vacations")
def declare_vacation() -> Any:
    data = _body(VacationCreateSchema())
    vacation = vacations.declare_vacation_dates(db.session(), _user(), data["start"], data["end"], now())
    return VacationSchema().dump(vacation), 201


@api_bp.delete("/vacations/<int:vacation_id>")
def cancel_vacation(vacation_id: int) -> Any:
    vacations.cancel_vacation(db.session(), _user(), vacation_id, now())
    return VacationListSchema().dump({"vacations": vacations.upcoming(db.session(), _user(), now())})


@api_bp.get("/openapi.json")
def openapi() -> Any:
    from pbem.api.openapi import spec
    return jsonify(spec())
