"""marshmallow schemas: what the JSON API accepts and answers (and what /api/openapi.json shows).

Game answers are built from the games table without its setup JSON, which holds the
secret seed: board, edition and options are copied out field by field.
"""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from engine import default_game, game_names, games, get_game
from pbem.leagues.league import MAX_CAP, MAX_ROUND_DAYS, MAX_ROUNDS, WITHDRAWAL
from pbem.leagues.models import REASON_MAX, LeagueCorrection
from pbem.leagues.scoring import SYSTEMS
from pbem.models import NAME_MAX, PRESS_MAX, PRESS_RULES, REPORT_REASON_MAX, TITLE_MAX, Game, Seat
from pbem.services.advance import MAX_SETTLE_SECONDS
from pbem.services.lobby import ON_MISSED
from pbem.services.policy import DEFAULT_BOTS, MAX_HOURS, REPLACE_AFTER_RANGE, VACATION_RULES

# Player counts some registered game allows; each game's own range is checked on loading.
PLAYERS = (min((game.min_players for game in games().values()), default=1),
           max((game.max_players for game in games().values()), default=1))
OPTION_TEXT_MAX = 100


class RegisteredGame(validate.Validator):
    """The name of a registered game (engine.game_names), looked up when a request is read."""

    def __call__(self, value: Any) -> Any:
        if value not in game_names():
            raise ValidationError(f"Must be one of: {', '.join(game_names())}.")
        return value


class OptionValue(fields.Field):
    """A rule option's value: a short text or a whole number (the game checks which)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and len(value) <= OPTION_TEXT_MAX:
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ValidationError(f"Not a text of at most {OPTION_TEXT_MAX} characters or a whole number.")


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
    press_rule = fields.Str(metadata={"description": "press allowed: all (public and private), public or none"})
    press_off = fields.Bool(metadata={"description": "the host switched press off"})
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


class ClockSchema(Schema):
    """Fischer time per seat (docs/deadlines.md, "Clocks"); the service checks how the figures go
    together (initial and increment at most the maximum)."""
    initial = fields.Int(required=True, validate=validate.Range(1, MAX_HOURS),
                         metadata={"description": "hours in each seat's reserve at its first decision"})
    increment = fields.Int(required=True, validate=validate.Range(1, MAX_HOURS),
                           metadata={"description": "hours added to the reserve after each decision"})
    maximum = fields.Int(required=True, validate=validate.Range(1, MAX_HOURS),
                         metadata={"description": "the most hours a reserve may hold"})
    per_turn = fields.Int(validate=validate.Range(0, MAX_HOURS),
                          metadata={"description": "hours of each decision not taken from the reserve (default 0)"})


class DeadlinesSchema(Schema):
    hours = fields.Dict(keys=fields.Str(validate=validate.Length(1, 40)),
                        values=fields.Int(allow_none=True, validate=validate.Range(1, MAX_HOURS)),
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
    clock = fields.Nested(ClockSchema, allow_none=True,
                          metadata={"description": "a clock per seat instead of the kinds' hours (a kind "
                                                   "without hours still has no deadline); left out: none"})


class GameSettingsSchema(Schema):
    """The game and its settings, as a new game and a new league (every table of it) choose them."""
    game = fields.Str(validate=RegisteredGame(),
                      metadata={"description": "the registered game to play (its name, as records write "
                                               "it); default: the service's default game"})
    board = fields.Str(validate=validate.Length(1, 40),
                       metadata={"description": "a packaged board, for a game that offers a choice of "
                                                "boards; default: the game's default"})
    edition = fields.Str(validate=validate.Length(1, 40),
                         metadata={"description": "a packaged edition, for a game that offers a choice of "
                                                  "editions; default: the game's default"})
    options = fields.Dict(keys=fields.Str(validate=validate.Length(1, 40)), values=OptionValue(),
                          load_default=dict,
                          metadata={"description": "the game's rule options by name (docs/engine.md); "
                                                   "left out: their defaults"})
    deadlines = fields.Nested(DeadlinesSchema, load_default=None)

    seats_field = "players"  # the field that says how many sit at the game's table

    def _more_errors(self, data: dict[str, Any], rules: Any) -> dict[str, Any]:
        return {}

    @validates_schema(skip_on_field_errors=True)
    def _of_the_game(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Player count and kinds of decision (and what a subclass adds) as the chosen game has them."""
        rules = get_game(data["game"]) if "game" in data else default_game()
        errors = self._more_errors(data, rules)
        kinds = [kind.name for kind in rules.decision_kinds]
        hours = (data.get("deadlines") or {}).get("hours") or {}
        if any(kind not in kinds for kind in hours):
            errors["deadlines"] = {"hours": [f"Each kind must be one of: {', '.join(kinds)}."]}
        if not rules.min_players <= data[self.seats_field] <= rules.max_players:
            errors[self.seats_field] = [f"{rules.title} is for {rules.min_players} to {rules.max_players} players."]
        if errors:
            raise ValidationError(errors)

    @post_load
    def _setup(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Board and edition are the game's setup choices (pbem.services.lobby.NewGame.setup)."""
        data["setup"] = {name: data.pop(name) for name in ("board", "edition") if name in data}
        return data


class GameCreateSchema(GameSettingsSchema):
    title = fields.Str(required=True, validate=validate.Length(1, TITLE_MAX))
    players = fields.Int(load_default=3, validate=validate.Range(*PLAYERS),
                         metadata={"description": "within the game's player counts"})
    bots = fields.List(fields.Str(validate=validate.Length(1, 40)), load_default=list,
                       metadata={"description": "one bot kind per bot seat, each one of the game's bots "
                                                "(docs/engine.md)"})
    invites = fields.List(fields.Email(), load_default=list)
    press = fields.Str(load_default="all", validate=validate.OneOf(PRESS_RULES),
                       metadata={"description": "messages between the players: all (public and private), "
                                                "public (to the whole table only) or none"})

    def _more_errors(self, data: dict[str, Any], rules: Any) -> dict[str, Any]:
        """The bots as the chosen game has them."""
        if any(bot not in rules.bots for bot in data["bots"]):
            return {"bots": [f"Must be one of: {', '.join(rules.bots)}."]}
        return {}


class OrdersSchema(Schema):
    orders = fields.Str(required=True, validate=validate.Length(1, 10_000),
                        metadata={"description": "one order per line, as in an email, in the game's grammar "
                                                 "(docs/orders.md; each game's kinds of decision are listed "
                                                 "with the operation that takes them)"})


class ReceiptSchema(Schema):
    game_id = fields.Int()
    seat = fields.Str()
    orders = fields.List(fields.Str(), metadata={"description": "canonical text of the accepted orders"})
    pending = fields.List(fields.Str(), metadata={"description": "accepted but not applied yet"})
    applied = fields.Bool(metadata={"description": "every order was applied in this request"})
    status = fields.Str(metadata={"description": "applied (in this request); queued (a worker applies it "
                                                 "in a moment unless the game waits for others too); "
                                                 "waiting (for other seats' decisions)",
                                  "enum": ["applied", "queued", "waiting"]})
    message = fields.Str()


class GameViewSchema(Schema):
    game = fields.Nested(GameSchema)
    seat = fields.Str(allow_none=True, metadata={"description": "your seat; null for spectators"})
    view = fields.Dict(metadata={"description": "the engine's view for your seat (public view for "
                                               "spectators); view.me holds your hand and decisions"})
    pending = fields.List(fields.Str(), metadata={"description": "your orders not applied yet"})
    submitted = fields.List(fields.Str(), metadata={"description": "waiting seats whose orders are in"})
    stamp = fields.Str(metadata={"description": "what changes when the game does (also the ETag): "
                                                "pass it back as `since` with `wait` to wait for the next change"})


class EventSchema(Schema):
    round = fields.Int(allow_none=True, metadata={"description": "the game's round it happened in"})
    # The field's name until the service named no game's words; one release more for old clients.
    age = fields.Int(attribute="round", allow_none=True, dump_only=True,
                     metadata={"description": "the same as `round`; deprecated, to be removed in the next "
                                              "release", "deprecated": True})
    type = fields.Str()
    text = fields.Str(metadata={"description": "the event as a sentence, in the game's words"})
    data = fields.Dict(metadata={"description": "the event as the game's view has it"})


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
    clocks = fields.Dict(metadata={"description": "under a clock: seat -> its reserve in hours and, while "
                                                  "it owes the decision, its own deadline"})
    policy = fields.Dict()
    log = fields.List(fields.Dict(), metadata={"description": "extensions, pauses, missed deadlines, "
                                                             "takeovers, outages; oldest first"})


class ExtendSchema(Schema):
    hours = fields.Int(required=True, validate=validate.Range(1, 72))


class QueueSchema(Schema):
    turns = fields.Str(required=True, validate=validate.Length(1, 10_000),
                       metadata={"description": "orders of the kind the game lets seats queue ahead, one per "
                                                "line; replaces the queue"})


class QueueListSchema(Schema):
    turns = fields.List(fields.Str(), metadata={"description": "queued orders, in the order they will be played"})


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


# ---- press (docs/service.md, "Press") -------------------------------------------------------

class PressSendSchema(Schema):
    text = fields.Str(required=True, validate=validate.Length(1, PRESS_MAX),
                      metadata={"description": "the message; several lines allowed; control and invisible "
                                               "formatting characters are removed"})
    to = fields.Str(load_default=None, allow_none=True, validate=validate.Length(1, 16),
                    metadata={"description": "a seat's name for a private message (games whose press rule is "
                                             "all); left out or null: the whole table"})


class PressMessageSchema(Schema):
    id = fields.Int()
    seat = fields.Str(metadata={"description": "the author's seat"})
    author = fields.Str(metadata={"description": "the author's display name, as the seat shows it"})
    to = fields.Str(allow_none=True,
                    metadata={"description": "the seat a private message is for; null: the whole table"})
    text = fields.Str()
    round = fields.Int(allow_none=True, metadata={"description": "the game's round when it was sent"})
    created_at = fields.DateTime()


class PressListSchema(Schema):
    rule = fields.Str(metadata={"description": "the game's press rule: all, public or none"})
    off = fields.Bool(metadata={"description": "the host switched press off"})
    can_send = fields.Bool(metadata={"description": "you may send press now"})
    why_not = fields.Str(metadata={"description": "why you may not, if you may not"})
    muted = fields.List(fields.Str(), metadata={"description": "the seats you muted"})
    messages = fields.List(fields.Nested(PressMessageSchema),
                           metadata={"description": "the messages you may read, oldest first: public ones, and "
                                                    "private ones to or from your seat"})


class PressMuteSchema(Schema):
    seat = fields.Str(required=True, validate=validate.Length(1, 16))
    mute = fields.Bool(load_default=True, metadata={"description": "false: unmute"})


class PressReportSchema(Schema):
    reason = fields.Str(required=True, validate=validate.Length(1, REPORT_REASON_MAX),
                        metadata={"description": "what is wrong with the message, for the site operators"})


class PressSwitchSchema(Schema):
    off = fields.Bool(required=True, metadata={"description": "true: switch press off; false: on again"})


# ---- leagues (docs/leagues.md): never the league's secret seed -----------------------------------

class LeagueMemberSchema(Schema):
    id = fields.Int()
    name = fields.Function(lambda member: member.user.display_name)
    status = fields.Str()
    bot = fields.Str(allow_none=True)


class LeagueRoundSummarySchema(Schema):
    season = fields.Int()
    number = fields.Int()
    state = fields.Str()
    started_at = fields.DateTime(allow_none=True)
    ends_by = fields.DateTime(allow_none=True)
    finished_at = fields.DateTime(allow_none=True)


class LeagueSchema(Schema):
    id = fields.Int()
    name = fields.Str()
    game = fields.Str(attribute="kind")
    setup = fields.Dict(metadata={"description": "the game's setup choices every table is created with "
                                                 "(a board, an edition)"})
    options = fields.Dict(metadata={"description": "the game's rule options every table is created with"})
    deadline_policy = fields.Dict(metadata={"description": "every table's deadline policy, as a game's"})
    organisers = fields.Function(lambda league: [held.user.display_name for held in league.organisers])
    status = fields.Str()
    scoring = fields.Str()
    table_size = fields.Int()
    rounds = fields.Int()
    round_days = fields.Int()
    season = fields.Int()
    rated = fields.Bool()
    cap = fields.Int(allow_none=True)
    registration_closes_at = fields.DateTime(allow_none=True)
    withdrawal = fields.Str()
    members = fields.List(fields.Nested(LeagueMemberSchema))
    round_list = fields.List(fields.Nested(LeagueRoundSummarySchema), attribute="round_rows", data_key="rounds_played")


class StandingRowSchema(Schema):
    place = fields.Int(allow_none=True)
    member = fields.Int()
    player = fields.Str()
    status = fields.Str()
    points = fields.Float()
    games = fields.Int()
    wins = fields.Float()
    tiebreaks = fields.List(fields.Float())
    mu = fields.Float(allow_none=True)
    sigma = fields.Float(allow_none=True)
    ordinal = fields.Float(allow_none=True)


class StandingsSchema(Schema):
    league = fields.Int()
    season = fields.Int()
    round = fields.Int(allow_none=True)
    scoring = fields.Str()
    tiebreaks = fields.List(fields.Str())
    standings = fields.List(fields.Nested(StandingRowSchema))


class PairingTableSchema(Schema):
    number = fields.Int()
    game = fields.Int()
    seats = fields.List(fields.Int(allow_none=True))  # member ids, first player first; null: a bot seat
    status = fields.Str()
    places = fields.Dict(keys=fields.Str(), values=fields.Int(), allow_none=True)
    void = fields.Bool()
    forced = fields.Bool()


class PairingRoundSchema(Schema):
    season = fields.Int()
    number = fields.Int()
    state = fields.Str()
    tables = fields.List(fields.Nested(PairingTableSchema))


class PairingsSchema(Schema):
    league = fields.Int()
    rounds = fields.List(fields.Nested(PairingRoundSchema))


# ---- what members and organisers send (docs/leagues.md, "Running a league") ----------------------

CORRECTION_ACTIONS = (LeagueCorrection.CORRECT, LeagueCorrection.ANNUL, LeagueCorrection.RESTORE)
ID = validate.Range(1, 2 ** 31 - 1)


class LeagueCreateSchema(GameSettingsSchema):
    name = fields.Str(required=True, validate=validate.Length(1, TITLE_MAX))
    table_size = fields.Int(load_default=4, validate=validate.Range(*PLAYERS),
                            metadata={"description": "seats per table, within the game's player counts"})
    rounds = fields.Int(load_default=3, validate=validate.Range(1, MAX_ROUNDS))
    round_days = fields.Int(load_default=28, validate=validate.Range(1, MAX_ROUND_DAYS),
                            metadata={"description": "days from a round's start to its hard end date"})
    scoring = fields.Str(load_default="rank", validate=validate.OneOf(SYSTEMS))
    rated = fields.Bool(load_default=True)
    cap = fields.Int(load_default=None, allow_none=True, validate=validate.Range(2, MAX_CAP),
                     metadata={"description": "the most members; null: no cap"})
    registration_closes_at = fields.AwareDateTime(
        load_default=None, allow_none=True, validate=lambda when: 2000 <= when.year <= 2999,
        metadata={"description": "with a time zone; the first round starts then (if the members are enough)"})
    withdrawal = fields.Str(load_default="forfeit", validate=validate.OneOf(WITHDRAWAL),
                            metadata={"description": "a withdrawn member's running games: forfeit (the stand-in "
                                                     "bot plays them, placed last) or replace"})
    seats_field = "table_size"


class WithdrawSchema(Schema):
    member = fields.Int(validate=ID, metadata={"description": "an organiser withdraws this member; "
                                                              "left out: you withdraw yourself"})


class PairingsSetSchema(Schema):
    tables = fields.List(fields.List(fields.Int(allow_none=True, validate=ID), validate=validate.Length(1, 10)),
                         required=True, validate=validate.Length(1, 1000),
                         metadata={"description": "the next round's tables: member ids in seat order, first "
                                                  "player first; null: a bot seat"})


class NextRoundSchema(Schema):
    round = fields.Int(metadata={"description": "the next round's number"})
    tables = fields.List(fields.List(fields.Int(allow_none=True)))
    overridden = fields.Bool(metadata={"description": "an organiser set these tables"})


class BotEntrantSchema(Schema):
    name = fields.Str(required=True, validate=validate.Length(1, NAME_MAX))
    bot = fields.Str(required=True, validate=validate.Length(1, 40),
                     metadata={"description": "one of the game's bots"})


class PersonSchema(Schema):
    email = fields.Str(required=True, validate=validate.Length(1, 254),
                       metadata={"description": "an address the person signed in with"})


class CorrectionCreateSchema(Schema):
    action = fields.Str(required=True, validate=validate.OneOf(CORRECTION_ACTIONS),
                        metadata={"description": "correct the places, annul the result, or restore the game's own"})
    reason = fields.Str(required=True, validate=validate.Length(1, REASON_MAX), metadata={"description": "kept"})
    places = fields.Dict(keys=fields.Str(validate=validate.Length(1, 30)),
                         values=fields.Int(validate=validate.Range(1, 10)),
                         load_default=None, allow_none=True,
                         metadata={"description": "for correct: every seat's place, by member id (as text) or "
                                                  "a bot seat's key (bot<table>.<seat>)"})


class CorrectionSchema(Schema):
    table = fields.Int(attribute="table_id")
    action = fields.Str()
    places = fields.Dict(allow_none=True)
    reason = fields.Str()
    at = fields.DateTime()
