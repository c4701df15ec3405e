"""The OpenAPI 3 document served at /api/openapi.json, built from the marshmallow schemas;
what orders look like is said per registered game, from each game's kinds of decision."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from engine import default_game, games
from pbem.games import presentation

from pbem.schemas import (DeadlineSchema, ErrorSchema, ExtendSchema, GameCreateSchema, GameListSchema, GameSchema,
                          GameViewSchema, HistorySchema, MeSchema, OrdersSchema, PressListSchema, PressMessageSchema,
                          PressMuteSchema, PressReportSchema, PressSendSchema, PressSwitchSchema, QueueListSchema,
                          QueueSchema, ReceiptSchema, ReplyAddressSchema, TakeoverSchema, VacationCreateSchema,
                          VacationListSchema, VacationSchema)
from pbem.schemas import (BotEntrantSchema, CorrectionCreateSchema, CorrectionSchema, LeagueCreateSchema,
                          LeagueMemberSchema, LeagueSchema, NextRoundSchema, PairingRoundSchema, PairingsSchema,
                          PairingsSetSchema, PersonSchema, StandingsSchema, WithdrawSchema)

SCHEMAS = {"Error": ErrorSchema, "Game": GameSchema, "GameCreate": GameCreateSchema,
           "GameList": GameListSchema, "GameView": GameViewSchema, "History": HistorySchema,
           "Me": MeSchema, "Orders": OrdersSchema, "Receipt": ReceiptSchema,
           "Deadline": DeadlineSchema, "Extend": ExtendSchema, "Queue": QueueSchema, "QueueList": QueueListSchema,
           "Takeover": TakeoverSchema, "VacationCreate": VacationCreateSchema, "Vacation": VacationSchema,
           "VacationList": VacationListSchema, "ReplyAddress": ReplyAddressSchema,
           "PressSend": PressSendSchema, "PressMessage": PressMessageSchema, "PressList": PressListSchema,
           "PressMute": PressMuteSchema, "PressReport": PressReportSchema, "PressSwitch": PressSwitchSchema,
           # Nested ones first: apispec would name them itself from the schemas that hold them.
           "LeagueMember": LeagueMemberSchema, "PairingRound": PairingRoundSchema,
           "League": LeagueSchema, "Standings": StandingsSchema, "Pairings": PairingsSchema,
           "LeagueCreate": LeagueCreateSchema, "Withdraw": WithdrawSchema,
           "NextRound": NextRoundSchema, "PairingsSet": PairingsSetSchema,
           "BotEntrant": BotEntrantSchema, "Person": PersonSchema, "CorrectionCreate": CorrectionCreateSchema,
           "Correction": CorrectionSchema}

GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"},
          "description": "the queued turn's number, from 1"}
MESSAGE_ID = {"name": "message_id", "in": "path", "required": True, "schema": {"type": "integer"}}
LEAGUE_ID = {"name": "league_id", "in": "path", "required": True, "schema": {"type": "integer"}}
MEMBER_ID = {"name": "member_id", "in": "path", "required": True, "schema": {"type": "integer"},
             "description": "a member's id in the league (GET /api/leagues/{league_id})"}
TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "integer"}}
VACATION_ID = {"name": "vacation_id", "in": "path", "required": True, "schema": {"type": "integer"}}
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]


def _json(schema: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    meaning = {400: "bad request", 401: "no or bad token", 403: "not your seat", 404: "no such game",
               409: "not possible in the game's state", 422: "invalid input or order rejected",
               429: "rate limit reached"}
    return {str(code): _json("Error", meaning[code]) for code in codes}


PATHS: list[tuple[str, str, dict[str, Any]]] = [
    ("/api/me", "get", {"summary": "Who the token belongs to", "security": BEARER,
                        "responses": {"200": _json("Me", "the person"), **_errors(401)}}),
    ("/api/games", "get", {
        "summary": "List games",
        "parameters": [{"name": "list", "in": "query", "schema": {
            "type": "string", "enum": ["open", "finished", "mine", "waiting"], "default": "open"},
            "description": "mine and waiting (games waiting for a decision of yours) need a token"}],
        "responses": {"200": _json("GameList", "the games"), **_errors(401, 422)}}),
    ("/api/games", "post", {
        "summary": "Create a game; you take the first seat", "security": BEARER,
        "requestBody": {"required": True, "content": {"application/json": {"schema": "GameCreate"}}},
        "responses": {"201": _json("Game", "the new game"), **_errors(401, 422)}}),
    ("/api/games/{game_id}", "get", {
        "summary": "A game's public summary", "parameters": [GAME_ID],
        "responses": {"200": _json("Game", "the game"), **_errors(404)}}),
    ("/api/games/{game_id}/join", "post", {
        "summary": "Take an open seat (or the one you were invited to)", "security": BEARER,
        "parameters": [GAME_ID], "responses": {"200": _json("Game", "the game"), **_errors(401, 404, 409)}}),
    ("/api/games/{game_id}/view", "get", {
        "summary": "Your seat's view (the public view without a seat or token)",
        "description": "With `since` (a stamp from an earlier answer) and `wait` (seconds) the answer "
                       "comes as soon as the game's stamp differs from `since`, or after `wait` seconds: "
                       "wait for the next change without polling in a loop. The stamp is also the ETag.",
        "parameters": [GAME_ID,
                       {"name": "since", "in": "query", "schema": {"type": "string", "maxLength": 64},
                        "description": "the stamp you have"},
                       {"name": "wait", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 60},
                        "description": "seconds to wait for a change (with `since`)"}],
        "responses": {"200": _json("GameView", "what you may see"), **_errors(401, 404, 409, 422)}}),
    ("/api/games/{game_id}/orders", "post", {
        "summary": "Submit orders for your seat", "security": BEARER, "parameters": [GAME_ID],
        "description": "The text is in the same grammar as orders by mail (docs/orders.md). "
                       "It is checked and committed before the answer; a secret choice "
                       "stays pending until every seat has chosen, and a new submission replaces it.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "Orders"}}},
        "responses": {"201": _json("Receipt", "accepted and committed"),
                      **_errors(401, 403, 404, 409, 422, 429)}}),
    ("/api/games/{game_id}/history", "get", {
        "summary": "The events you may see, oldest first", "parameters": [GAME_ID],
        "responses": {"200": _json("History", "events"), **_errors(404, 409)}}),
    ("/api/games/{game_id}/record", "get", {
        "summary": "The game record (setup, seed and order log; docs/records.md), once finished",
        "parameters": [GAME_ID],
        "responses": {"200": {"description": "the record",
                              "content": {"application/json": {"schema": {"type": "object"}}}},
                      **_errors(404, 409)}}),
    # Deadlines, queued turns, takeovers and vacations (docs/deadlines.md).
    ("/api/games/{game_id}/deadline", "get", {
        "summary": "The current deadline (UTC and your time zone), who is late or away, the game's log",
        "parameters": [GAME_ID], "responses": {"200": _json("Deadline", "the deadline"), **_errors(404)}}),
    ("/api/games/{game_id}/deadline/extend", "post", {
        "summary": "Host: extend the current deadline (at most 2 times and 72 hours per decision, "
                   "168 hours per game)", "security": BEARER, "parameters": [GAME_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "Extend"}}},
        "responses": {"200": _json("Deadline", "the new deadline"), **_errors(401, 403, 404, 409, 422)}}),
    ("/api/games/{game_id}/pause", "post", {
        "summary": "Host: pause the game's deadlines (at most 14 days per game in all)", "security": BEARER,
        "parameters": [GAME_ID], "responses": {"200": _json("Deadline", "paused"), **_errors(401, 403, 404, 409)}}),
    ("/api/games/{game_id}/resume", "post", {
        "summary": "Host: resume a paused game", "security": BEARER, "parameters": [GAME_ID],
        "responses": {"200": _json("Deadline", "running"), **_errors(401, 403, 404, 409)}}),
    ("/api/games/{game_id}/takeover", "post", {
        "summary": "Take over a seat offered to a replacement", "security": BEARER, "parameters": [GAME_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "Takeover"}}},
        "responses": {"200": _json("Game", "the game, the seat yours"), **_errors(401, 404, 409, 422)}}),
    ("/api/games/{game_id}/queue", "get", {
        "summary": "Your orders queued ahead", "security": BEARER, "parameters": [GAME_ID],
        "responses": {"200": _json("QueueList", "in the order they will be played"), **_errors(401, 403, 404, 422)}}),
    ("/api/games/{game_id}/queue", "put", {
        "summary": "Queue orders ahead (replaces your queue)", "security": BEARER, "parameters": [GAME_ID],
        "description": "For games that let seats queue one kind of decision ahead (a game without one "
                       "answers 422). Accepted whether or not it is your turn; checked as the game checks "
                       "queued orders now and against the rules when each turn comes (an illegal one is "
                       "dropped and you are asked).",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "Queue"}}},
        "responses": {"200": _json("QueueList", "the queue as stored"), **_errors(401, 403, 404, 409, 422, 429)}}),
    ("/api/games/{game_id}/queue", "delete", {
        "summary": "Cancel all your queued orders", "security": BEARER, "parameters": [GAME_ID],
        "responses": {"200": _json("QueueList", "what is left"), **_errors(401, 403, 404, 422)}}),
    ("/api/games/{game_id}/queue/{number}", "delete", {
        "summary": "Cancel one queued order", "security": BEARER, "parameters": [GAME_ID, NUMBER],
        "responses": {"200": _json("QueueList", "what is left"), **_errors(401, 403, 404, 422)}}),
    ("/api/games/{game_id}/reply-address", "get", {
        "summary": "Your seat's reply address for orders by mail", "security": BEARER, "parameters": [GAME_ID],
        "responses": {"200": _json("ReplyAddress", "the address"), **_errors(401, 403, 404, 409)}}),
    ("/api/games/{game_id}/reply-address", "post", {
        "summary": "Replace your seat's reply address (it leaked)", "security": BEARER, "parameters": [GAME_ID],
        "description": "The old address stops working at once (mail to it is refused, with one short "
                       "answer a day); the new one is returned and mailed to you.",
        "responses": {"200": _json("ReplyAddress", "the new address"), **_errors(401, 403, 404, 409)}}),
    # Press (docs/service.md, "Press").
    ("/api/games/{game_id}/press", "get", {
        "summary": "The press you may read (public messages, and private ones to or from your seat), "
                   "the game's press rule and the seats you muted", "parameters": [GAME_ID],
        "responses": {"200": _json("PressList", "oldest first"), **_errors(404)}}),
    ("/api/games/{game_id}/press", "post", {
        "summary": "Send press to the whole table or privately to one seat", "security": BEARER,
        "parameters": [GAME_ID],
        "description": "Each recipient is mailed it by their profile's press setting. Refused (409) when "
                       "the game has no press, only public press and `to` is set, the host switched press "
                       "off, or the game is not running; 429 beyond the per-minute limit or the seat's "
                       "hourly limit.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "PressSend"}}},
        "responses": {"201": _json("PressMessage", "sent"), **_errors(401, 403, 404, 409, 422, 429)}}),
    ("/api/games/{game_id}/press/mute", "post", {
        "summary": "Mute (or unmute) a seat: you no longer read or get mailed its press", "security": BEARER,
        "parameters": [GAME_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "PressMute"}}},
        "responses": {"200": _json("PressList", "the press as you read it now"), **_errors(401, 404, 422)}}),
    ("/api/games/{game_id}/press/{message_id}/report", "post", {
        "summary": "Report a message you can read to the site operators", "security": BEARER,
        "parameters": [GAME_ID, MESSAGE_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "PressReport"}}},
        "responses": {"201": {"description": "reported", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"reported": {"type": "integer"}}}}}},
            **_errors(401, 404, 409, 422)}}),
    ("/api/games/{game_id}/press/switch", "post", {
        "summary": "Host: switch press off, or on again", "security": BEARER, "parameters": [GAME_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "PressSwitch"}}},
        "responses": {"200": _json("PressList", "the press now"), **_errors(401, 403, 404, 409, 422)}}),
    ("/api/vacations", "get", {
        "summary": "Your vacations that have not ended", "security": BEARER,
        "responses": {"200": _json("VacationList", "soonest first"), **_errors(401)}}),
    ("/api/vacations", "post", {
        "summary": "Declare a vacation (at most 14 days; at most 30 days in any 365; no overlaps)",
        "security": BEARER,
        "requestBody": {"required": True, "content": {"application/json": {"schema": "VacationCreate"}}},
        "responses": {"201": _json("Vacation", "noted"), **_errors(401, 409, 422)}}),
    ("/api/vacations/{vacation_id}", "delete", {
        "summary": "Cancel a vacation (one under way ends now)", "security": BEARER, "parameters": [VACATION_ID],
        "responses": {"200": _json("VacationList", "what is left"), **_errors(401, 404, 409)}}),
    # Leagues (docs/leagues.md): public to read; members and organisers act with a token.
    ("/api/leagues", "get", {
        "summary": "The newest leagues", "responses": {"200": {"description": "the leagues", "content": {
            "application/json": {"schema": {"type": "object", "properties": {"leagues": {
                "type": "array", "items": {"type": "object"}}}}}}}}}),
    ("/api/leagues", "post", {
        "summary": "Create a league of any registered game; you are its first organiser", "security": BEARER,
        "description": "Board, edition, options and deadlines are every table's, checked as a new game's "
                       "(a value the game refuses answers 422 with the game's reason).",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "LeagueCreate"}}},
        "responses": {"201": _json("League", "the new league"), **_errors(401, 422)}}),
    ("/api/leagues/{league_id}", "get", {
        "summary": "A league: its settings, members and rounds", "parameters": [LEAGUE_ID],
        "responses": {"200": _json("League", "the league"), **_errors(404)}}),
    ("/api/leagues/{league_id}/standings", "get", {
        "summary": "The current season's standings, best first, with ratings (mu, sigma, ordinal)",
        "parameters": [LEAGUE_ID, {"name": "round", "in": "query", "required": False, "schema": {"type": "integer"},
                                   "description": "standings after this round"}],
        "responses": {"200": _json("Standings", "the standings"), **_errors(404, 422)}}),
    ("/api/leagues/{league_id}/pairings", "get", {
        "summary": "Every round's tables: member ids in seat order (null: a bot seat), games and places",
        "parameters": [LEAGUE_ID], "responses": {"200": _json("Pairings", "the rounds"), **_errors(404)}}),
    ("/api/leagues/{league_id}/register", "post", {
        "summary": "Register in the league (seated from the next round that starts)", "security": BEARER,
        "parameters": [LEAGUE_ID], "responses": {"201": _json("LeagueMember", "you, a member"),
                                                 **_errors(401, 404, 409)}}),
    ("/api/leagues/{league_id}/withdraw", "post", {
        "summary": "Withdraw from the league (an organiser: withdraw a member); the league's withdrawal "
                   "rule says what becomes of the running games", "security": BEARER, "parameters": [LEAGUE_ID],
        "requestBody": {"required": False, "content": {"application/json": {"schema": "Withdraw"}}},
        "responses": {"200": _json("LeagueMember", "withdrawn"), **_errors(401, 403, 404, 409, 422)}}),
    ("/api/leagues/{league_id}/next-round", "get", {
        "summary": "Organiser: the next round's tables before it starts (the seating's, or an override)",
        "security": BEARER, "parameters": [LEAGUE_ID],
        "responses": {"200": _json("NextRound", "the tables"), **_errors(401, 403, 404, 409)}}),
    ("/api/leagues/{league_id}/next-round", "put", {
        "summary": "Organiser: override the next round's tables", "security": BEARER, "parameters": [LEAGUE_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "PairingsSet"}}},
        "responses": {"200": _json("NextRound", "the tables now"), **_errors(401, 403, 404, 409, 422)}}),
    ("/api/leagues/{league_id}/next-round", "delete", {
        "summary": "Organiser: back to the seating's own tables", "security": BEARER, "parameters": [LEAGUE_ID],
        "responses": {"200": _json("NextRound", "the tables now"), **_errors(401, 403, 404, 409)}}),
    ("/api/leagues/{league_id}/rounds", "post", {
        "summary": "Organiser: start the next round (its games are created and started)", "security": BEARER,
        "parameters": [LEAGUE_ID],
        "responses": {"201": _json("PairingRound", "the round"), **_errors(401, 403, 404, 409, 422)}}),
    ("/api/leagues/{league_id}/seasons", "post", {
        "summary": "Organiser: open the next season after the last round", "security": BEARER,
        "parameters": [LEAGUE_ID], "responses": {"201": _json("League", "the league"), **_errors(401, 403, 404, 409)}}),
    ("/api/leagues/{league_id}/bots", "post", {
        "summary": "Organiser: enter a bot as a member", "security": BEARER, "parameters": [LEAGUE_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "BotEntrant"}}},
        "responses": {"201": _json("LeagueMember", "the bot entrant"), **_errors(401, 403, 404, 409, 422)}}),
    ("/api/leagues/{league_id}/members/{member_id}/replace", "post", {
        "summary": "Organiser: a person replaces a member", "security": BEARER,
        "parameters": [LEAGUE_ID, MEMBER_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "Person"}}},
        "responses": {"201": _json("LeagueMember", "the replacement, a member"),
                      **_errors(401, 403, 404, 409, 422)}}),
    ("/api/leagues/{league_id}/tables/{table_id}/correct", "post", {
        "summary": "Organiser: correct, annul or restore a finished table's result; the reason is kept",
        "security": BEARER, "parameters": [LEAGUE_ID, TABLE_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "CorrectionCreate"}}},
        "responses": {"201": _json("Correction", "the change"), **_errors(401, 403, 404, 409, 422)}}),
    ("/api/leagues/{league_id}/organisers", "post", {
        "summary": "Organiser: add an organiser (a person who has signed in)", "security": BEARER,
        "parameters": [LEAGUE_ID],
        "requestBody": {"required": True, "content": {"application/json": {"schema": "Person"}}},
        "responses": {"200": _json("League", "the league"), **_errors(401, 403, 404, 422)}}),
]


def orders_by_game() -> str:
    """Each registered game's kinds of decision and the orders that answer them."""
    return " ".join(f"{game.title} (`{name}`): " + "; ".join(
        f"{kind.title}: `{kind.syntax}`" for kind in game.decision_kinds) + "." for name, game in games().items())


def queued_by_game() -> str:
    """The games whose seats may queue orders ahead, and of which kind."""
    queued = []
    for name, game in games().items():
        kind = {kind.name: kind for kind in game.decision_kinds}.get(presentation(name).queued_kind or "")
        if kind is not None:
            queued.append(f"{game.title} (`{name}`): {kind.title}s, `{kind.syntax}`")
    return "Games that take them: " + ("; ".join(queued) if queued else "none") + "."


def _described(operation: dict[str, Any], more: str) -> dict[str, Any]:
    return {**operation, "description": f"{operation.get('description', '')} {more}".strip()}


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    document = APISpec(title="pbem API", version="1", openapi_version="3.0.3",
                       info={"description": "Play board games by API (" + ", ".join(
                           game.title for game in games().values()) + "): the same service as the web and "
                           "mail. See docs/api.md."},
                       plugins=[MarshmallowPlugin()])
    document.components.security_scheme("bearer", {"type": "http", "scheme": "bearer",
                                                   "description": "a personal API token from your profile page"})
    for name, schema in SCHEMAS.items():
        document.components.schema(name, schema=schema)
    # The orders and queues each registered game takes, said where they are sent.
    by_game = {("/api/games/{game_id}/orders", "post"): "Orders by game: " + orders_by_game(),
               ("/api/games/{game_id}/queue", "put"): queued_by_game()}
    grouped: dict[str, dict[str, Any]] = {}
    for path, method, operation in PATHS:
        more = by_game.get((path, method))
        grouped.setdefault(path, {})[method] = _described(operation, more) if more else operation
    for path, operations in grouped.items():
        document.path(path=path, operations=operations)
    answer = document.to_dict()
    # The games one may create: the registry's, looked up when the document is first served.
    for creating in ("GameCreate", "LeagueCreate"):
        answer["components"]["schemas"][creating]["properties"]["game"].update(
            enum=list(games()), default=default_game().name)
    return answer
