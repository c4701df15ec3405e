"""marshmallow schemas: what the JSON API accepts and answers (and what /api/openapi.json shows).

Game answers are built from the games table without its setup JSON, which holds the
secret seed: board, edition and options are copied out field by field.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from marshmallow import Schema, ValidationError, fields, validate

from engine import default_game
from engine.core import Game as GameRules
from pbem.models import NAME_MAX, TITLE_MAX, Game, Seat
from pbem.services.advance import MAX_SETTLE_SECONDS
from pbem.services.lobby import ON_MISSED
from pbem.services.policy import DEFAULT_BOTS, REPLACE_AFTER_RANGE, VACATION_RULES


class OfTheGame(validate.Validator):
    """One of a fact of the game being created (its bots, its kinds of decision), looked up
    when a request is read: the schemas name no game's words.  The API creates the default
    game (engine.default_game), so that is the game asked."""

    def __init__(self, facts: Callable[[GameRules], Iterable[str]]):
        self.facts = facts

    def __call__(self, value: Any) -> Any:
        allowed = list(self.facts(default_game()))
        if value not in allowed:
            raise ValidationError(f"Must be one of: {', '.join(allowed)}.")
        return value


class ErrorSchema(Schema):
    error = fields.Str(required=True, metadata={"description": "a short code: invalid, order-rejected, "
                                                              "not-found, forbidden, conflict, unauthorized"})
    message = fields.Str(required=True, metadata={"description": "what went wrong, for a person"})
    expected = fields.Str(metadata={"description": "for an order that does not parse: what the grammar expected"})
    fields_ = fields.Dict(data_key="fields", metadata={"description": "per-field validation messages"})


class SeatSchema(Schema):
    position = fields.Int(required=True)
    name = fields.Str(allow_none=True, metadata={"description": "the seat's name in the game, drawn when "
                                                                "the game starts"})
    # The field's name until the service named no game's words; one release more for old clients.
    tribe = fields.Str(attribute="name", allow_none=True, dump_only=True,
                       metadata={"description": "the same as `name`; deprecated, to be removed in the next "
                                                "release", "deprecated": True})
    player = fields.Method("_player", metadata={"description": "display name, bot kind or 'open seat'"})
    bot = fields.Str(allow_none=True)
    waiting = fields.Bool(metadata={"description": "the game waits for a decision of this seat"})

    def _player(self, seat: Seat) -> str:
        return seat.label


class GameSchema(Schema):
    id = fields.Int(required=True)
    kind = fields.Str()
    title = fields.Str()
    status = fields.Str(metadata={"description": "open, active, finished or aborted"})
    version = fields.Int(metadata={"description": "changes whenever the game's state changes"})
    players = fields.Method("_players")
    board = fields.Method("_board")
    edition = fields.Method("_edition")
    options = fields.Method("_options")
    deadline_policy = fields.Dict()
    seats = fields.List(fields.Nested(SeatSchema))
    result = fields.Dict(allow_none=True)
    deadline_at = fields.DateTime(allow_none=True, metadata={"description": "the current decision's deadline "
                                                                          "(UTC); see /games/{id}/deadline"})
    paused_at = fields.DateTime(allow_none=True)
    created_at = fields.DateTime()
    started_at = fields.DateTime(allow_none=True)
    finished_at = fields.DateTime(allow_none=True)

    def _players(self, game: Game) -> int:
        return len(game.seats)

    def _board(self, game: Game) -> Any:
        return game.setup.get("board")

    def _edition(self, game: Game) -> Any:
        return game.setup.get("edition")

    def _options(self, game: Game) -> Any:
        return game.setup.get("options", {})


class DeadlinesSchema(Schema):
    hours = fields.Dict(keys=fields.Str(validate=OfTheGame(lambda game: (kind.name for kind in game.decision_kinds))),
                        values=fields.Int(allow_none=True, validate=validate.Range(1, 14 * 24)),
                        metadata={"description": "hours per kind of decision, each one of the game's "
                                                 "decision kinds (docs/engine.md); null: no deadline"})
    on_missed = fields.Str(validate=validate.OneOf(ON_MISSED), load_default="bot")
    settle_seconds = fields.Int(load_default=0, validate=validate.Range(0, MAX_SETTLE_SECONDS),
                                metadata={"description": "seconds to wait after the last secret choice "
                                          "before applying them; choices may still change meanwhile"})
    # Missed turns, replacement and vacations (docs/deadlines.md); left out: the defaults.
    default = fields.Str(validate=validate.OneOf(DEFAULT_BOTS),
                         metadata={"description": "the bot that plays a missed decision (default heuristic)"})
    replace_after = fields.Int(validate=validate.Range(*REPLACE_AFTER_RANGE),
                               metadata={"description": "missed deadlines in a row before the seat is offered "
                                                        "to a replacement (default 3)"})
    abandoned = fields.Str(validate=validate.OneOf(DEFAULT_BOTS),
                           metadata={"description": "the bot that plays a seat offered to a replacement "
                                                    "until someone takes it over (default heuristic)"})
    vacation = fields.Str(validate=validate.OneOf(VACATION_RULES),
                          metadata={"description": "stretch: deadlines wait for a player's return; "
                                                   "bot: the default bot plays while they are away"})


class GameCreateSchema(Schema):
    title = fields.Str(required=True, validate=validate.Length(1, TITLE_MAX))
    players = fields.Int(load_default=3, validate=validate.Range(2, 4))
    bots = fields.List(fields.Str(validate=OfTheGame(lambda game: game.bots)), load_default=list,
                       metadata={"description": "one bot kind per bot seat, each one of the game's bots "
                                                "(docs/engine.md)"})
    invites = fields.List(fields.Email(), load_default=list)
    board = fields.Str(load_default="default")
    edition = fields.Str(load_default="default")
    options = fields.Dict(keys=fields.Str(), values=fields.Str(), load_default=dict)
    deadlines = fields.Nested(DeadlinesSchema, load_default=None)


class OrdersSchema(Schema):
    orders = fields.Str(required=True, validate=validate.Length(1, 10_000),
                        metadata={"description": "one order per line, as in an email (docs/orders.md)",
                                  "example": "place 12 move 3 to 4"})


class ReceiptSchema(Schema):
    game_id = fields.Int()
    seat = fields.Str()
    orders = fields.List(fields.Str(), metadata={"description": "canonical text of the accepted orders"})
    pending = fields.List(fields.Str(), metadata={"description": "accepted but not applied yet"})
    applied = fields.Bool()
    message = fields.Str()


class GameViewSchema(Schema):
    game = fields.Nested(GameSchema)
    seat = fields.Str(allow_none=True, metadata={"description": "your seat; null for spectators"})
    view = fields.Dict(metadata={"description": "the engine's view for your seat (public view for "
                                               "spectators); view.me holds your hand and decisions"})
    pending = fields.List(fields.Str(), metadata={"description": "your orders not applied yet"})
    submitted = fields.List(fields.Str(), metadata={"description": "waiting seats whose orders are in"})


class EventSchema(Schema):
    age = fields.Int(allow_none=True)
    type = fields.Str()
    text = fields.Str()
    data = fields.Dict()


class HistorySchema(Schema):
    events = fields.List(fields.Nested(EventSchema))


class AddressSchema(Schema):
    address = fields.Str()
    is_primary = fields.Bool()


class MeSchema(Schema):
    id = fields.Int()
    display_name = fields.Str(validate=validate.Length(1, NAME_MAX))
    time_zone = fields.Str()
    addresses = fields.List(fields.Nested(AddressSchema))
    opponent_moves = fields.Str(metadata={"description": "mails about opponents' moves: digest, each or off"})
    digest_hour = fields.Int(metadata={"description": "the daily digest's hour (0-23) in time_zone"})
    paper_size = fields.Str(metadata={"description": "the paper size of report PDFs: A4 or Letter"})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSchema))


# ---- deadlines, queued turns, takeovers, vacations (docs/deadlines.md) ----------------------

class MomentSchema(Schema):
    utc = fields.Str(metadata={"description": "ISO 8601, UTC"})
    local = fields.Str(metadata={"description": "in the reader's time zone, for people"})


class DeadlineSchema(Schema):
    deadline = fields.Nested(MomentSchema, allow_none=True)
    kind = fields.Str(allow_none=True, metadata={"description": "the kind of decision it is for"})
    time_zone = fields.Str(metadata={"description": "the reader's time zone (UTC without a token)"})
    paused = fields.Nested(MomentSchema, allow_none=True, metadata={"description": "paused since"})
    pause_left_hours = fields.Float()
    owing = fields.List(fields.Str(), metadata={"description": "seats that have not acted"})
    away = fields.Dict(keys=fields.Str(), values=fields.Nested(MomentSchema),
                       metadata={"description": "seat -> end of its player's vacation"})
    extensions = fields.Dict()
    takeover = fields.List(fields.Str(), metadata={"description": "seats offered to a replacement"})
    missed = fields.Dict(metadata={"description": "seat -> missed deadlines in a row and in all"})
    policy = fields.Dict()
    log = fields.List(fields.Dict(), metadata={"description": "extensions, pauses, missed deadlines, "
                                                             "takeovers, outages; oldest first"})


class ExtendSchema(Schema):
    hours = fields.Int(required=True, validate=validate.Range(1, 72))


class QueueSchema(Schema):
    turns = fields.Str(required=True, validate=validate.Length(1, 10_000),
                       metadata={"description": "development turns, one per line; replaces the queue",
                                 "example": "place 12\nplace 3 move 3 to 4"})


class QueueListSchema(Schema):
    turns = fields.List(fields.Str(), metadata={"description": "queued turns, in the order they will be played"})


class TakeoverSchema(Schema):
    seat = fields.Str(required=True, metadata={"description": "the name of a seat offered to a replacement"})


class VacationCreateSchema(Schema):
    start = fields.Date(required=True, metadata={"description": "first day away, in your time zone"})
    end = fields.Date(required=True, metadata={"description": "last day away (included)"})


class VacationSchema(Schema):
    id = fields.Int()
    starts_at = fields.DateTime()
    ends_at = fields.DateTime()


class VacationListSchema(Schema):
    vacations = fields.List(fields.Nested(VacationSchema))


class ReplyAddressSchema(Schema):
    address = fields.Str(required=True, metadata={
        "description": "your seat's reply address for orders by mail (docs/email.md); keep it to yourself",
        "example": "orders+ti2uwkce53qv44r6zau2upfqwq@pbem.example"})
