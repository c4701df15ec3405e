"""Hostile input gets a clear answer and changes nothing, on SQLite and PostgreSQL alike.

Every route of the URL map gets hostile values in each of its path parameters; every field a
route reads gets each hostile value: for /api routes the properties of the request schemas in
the OpenAPI document, for web forms the fields the pages render plus those the views read
that no page shows at the moment (checked against the views' source).  As a player of a game
(who is also its host) and as a stranger.  Then: not one answer is a 500; a refused request
(4xx) leaves every table as it was; an accepted one stores no control character, no
invisible formatting character and not the 100,000-character string.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlencode

import pytest
from sqlalchemy import String, select, type_coerce
from werkzeug.routing import IntegerConverter

from pbem.extensions import db
from pbem.leagues import members, rounds
from pbem.leagues.league import NewLeague, create_league
from pbem.models import EmailAddress, OneLine, OutboxMessage, User, now
from pbem.services import accounts, lobby, play, press, vacations
from pbem.services.state import clear_cache
from service_helpers import decision_forms, forms, make_game, make_user, web_sign_in

ROOT = Path(__file__).resolve().parents[2]
LONG = "x" * 100_000
DEEP = "[" * 100_000 + "]" * 100_000

# Text in a form field or query (bytes: sent as they are, not UTF-8).
FORM_VALUES: dict[str, str | bytes] = {
    "nul": "a\x00b", "c0": "\x01\x08\x1b\x1f", "c1": "\x7f\x85\x9b", "bidi": "\u202eevil\u202c",
    "isolate": "\u2066x\u2069", "zero-width": "a\u200b\u200d\ufeffb",
    "fillers": "\U000e0041\U000e0042\u3164\u115f\u034f\ufe0f", "long": LONG, "non-utf8": b"\xff\xfe\xc3",
    "int31": str(2 ** 31), "int63": str(2 ** 63), "huge": "9" * 100, "negative": "-1",
    "far-date": "9999-12-31", "early-date": "0001-01-01", "bad-date": "2024-02-30", "lines": "a\r\nb\tc", "empty": "",
}
# Raw JSON for one value in a body.
JSON_VALUES: dict[str, str | bytes] = {
    **{name: json.dumps(value) for name, value in FORM_VALUES.items() if isinstance(value, str)},
    "non-utf8": b'"\xff\xfe"', "surrogate": '"\\ud800"', "deep": DEEP,
    "int31": str(2 ** 31), "int63": str(2 ** 63), "huge": "1" + "0" * 100, "negative": "-1",
    "min63": str(-2 ** 63), "float": "1.5", "nan": "NaN", "infinity": "1e400", "true": "true",
    "null": "null", "list": "[]", "object": "{}",
}
# Whole bodies for every JSON route.
JSON_BODIES: dict[str, str | bytes] = {"deep": DEEP, "non-utf8": b"\xff\xfe{", "list": "[]", "null": "null",
                                       "number": str(2 ** 63), "nul": json.dumps({"\x00": "\x00"}),
                                       "broken": '{"a": '}
INT_PATH = ["2147483648", "9223372036854775808", "-1", "0", "9" * 40, "%00", "1%00", "abc", "%E2%80%AE1", "%FF"]
TEXT_PATH = ["%00", "%E2%80%AE", "x" * 3000, "%FF", "%E2%80%8B", "a%0Ab"]
# Values per field, taken in turn from the whole list: the player, the stranger.  Besides, a
# date field gets every hostile date and a number field every hostile number.
PER_FIELD = {"ana": 4, "eve": 1}
TYPED = {"date": ["far-date", "early-date", "bad-date"], "integer": ["int31", "int63", "huge", "negative"]}
KINDS: dict[str, str] = {}  # field name -> "date" or "integer", from the forms and the OpenAPI document

STORED_FORBIDDEN = re.compile("[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f"
                              "\u202a-\u202e\u2060-\u206f\ufeff\ud800-\udfff\u3164\u115f\u034f\ufe0f"
                              "\U000e0000-\U000e0fff]")
VOLATILE = {("api_tokens", "last_used_at")}  # touched by every API call

# Fields the views read that no page shows right now (a decision of another kind, a seat
# offered to a replacement...); `next` is read by every form that comes back to its page.
ORDER_KINDS = {"power": ["card"], "turn": ["place", "eagle", "move_from", "move_to"],
               "conflict": ["settle-1"], "reaction": ["territory", "answer"],
               "scoring": ["wild", "blessing", "rafts"], "text": ["orders"]}
# Azteca's forms (posted to the world's Azteca game, whatever it asks now): the fields of every
# kind, as its page shows them for each decision; the deal part of 18.0's options (shown with
# any kind when the options are on) with the offer to Quetzalcoatl.
AZTECA_DEAL_FIELDS = ["deal-to", "give-tributes", "give-card", "give-boats", "take-tributes", "take-card", "take-boats",
                      "deal-answer", "lend-to", "lend-boats", "without_answer"]
AZTECA_KINDS = {"dike": ["shore"], "place": ["territory"], "cards": ["discard"], "look": ["lot"],
                "bid": ["lot", "tributes"], "purchase": ["A-w", "R-j", "general", "pochteca", "boat", "dike", "orders"],
                "send": ["pochteca-A", "boats-1", "orders"], "mission": ["mission-A"], "attack": ["target"],
                "join": ["side"], "fight": ["action"], "plan": ["intercept", "consent", "allow", "retreat", "reserve",
                                                               "losses", "cousin", "promote"],
                "march": ["army", "to", "raid", "reorganise", "action"], "reserve": ["answer"],
                "urn": ["points", "play", *AZTECA_DEAL_FIELDS]}
EXTRA_FIELDS = {"turns.takeover": ["seat"], "turns.hand_to_bot": ["seat", "bot"], "turns.extend": ["hours"],
                "turns.cancel_queued": ["which"], "turns.queue": ["turns"], "lobby.invite": ["email"],
                "profile.add_address": ["email"], "profile.create_token": ["name"], "auth.signin": ["email", "next"],
                "turns.declare_vacation": ["start", "end"], "press.switch": ["press"], "press.mute": ["seat", "mute"],
                "leagues.withdraw": ["member"], "leagues.pairings": ["reset", "tables"]}
QUERY_FIELDS = {"api.list_games": ["list"], "game.replay": ["step"], "game.report_pdf": ["size"],
                "game.live_stream": ["stamp"], "lobby.live_home": ["games", "stamp"],
                "auth.signin": ["next"], "lobby.new_game": ["game"], "leagues.standings": ["sort", "round"],
                "api.league_standings": ["round"]}
# Named submit buttons (the parsed forms list fields, not buttons): which action a form takes.
BUTTONS = ["action"]
# Lobby actions on the open game; everything else on the running one.
ON_OPEN_GAME = {"lobby.invite", "lobby.join", "lobby.leave", "lobby.cancel"}


# ---- the world -----------------------------------------------------------------------------------

@dataclass
class World:
    app: Any
    ids: dict[str, Any]
    clients: dict[str, Any]
    tokens: dict[str, dict[str, str]]
    csrf: dict[str, str] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    baseline: Any = None
    requests: int = 0


@pytest.fixture
def world(app, session, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_OPERATORS", "ana@example.com")  # the review queue too
    people = {name: make_user(session, f"{name}@example.com", name.title()) for name in ("ana", "bo", "eve")}
    running = make_game(session, people["ana"], bots=("heuristic",), invites=["bo@example.com"])
    lobby.join_game(session, running.id, people["bo"])
    message = press.post(session, running.id, people["bo"], "a message to report", channel="web")
    waiting = make_game(session, people["ana"], bots=(), title="Open game")
    # A game of another presentation, at Ana's turn: its own decision forms are swept too.
    other = make_game(session, people["ana"], game="coatl", players=2, bots=("heuristic",), seed=3,
                      title="Other game")
    play.submit_orders(session, next(s for s in other.seats if s.user_id == people["ana"].id), "keep none",
                       channel="web")
    azteca = make_game(session, people["ana"], game="azteca", players=3, bots=("random", "random"), seed=3,
                       title="Third game")
    tokens = {}
    for name in ("ana", "eve"):
        token, secret = accounts.create_api_token(session, people[name], "t")
        tokens[name] = {"Authorization": f"Bearer {secret}"}
    today = now().date()
    away = vacations.declare_vacation_dates(session, people["ana"], today + timedelta(days=60),
                                            today + timedelta(days=61), now())
    league = create_league(session, people["ana"], NewLeague(name="League", game="duel", table_size=2, rounds=2,
                                                             seed="hostile"))
    entrants = [members.add_bot_entrant(session, league.id, people["ana"], f"Bot {i}", "random", now())
                for i in range(4)]
    played = rounds.start_round(session, league.id, people["ana"], now())
    rounds.check_round(session, played.id, now())  # its bots played at once: round 2 is next
    ana_address = session.scalar(select(EmailAddress.id).where(EmailAddress.user_id == people["ana"].id))
    outbox_id = session.scalar(select(OutboxMessage.id).limit(1))
    ids = {"game_id": running.id, "open_game_id": waiting.id, "other_game_id": other.id, "azteca_game_id": azteca.id,
           "address_id": ana_address, "token_id": token.id,
           "vacation_id": away.id, "outbox_id": outbox_id, "part_id": 1, "inbound_id": 1, "number": 1,
           "token": "not-a-token", "filename": "style.css", "seat": running.seats[1].name, "game": running.kind,
           "name": "swagger-ui.css", "message_id": message.id, "report_id": 1,
           "league_id": league.id, "member_id": entrants[0].id, "table_id": played.tables[0].id, "kind": "duel",
           "users": {name: person.id for name, person in people.items()}}
    session.close()  # no open transaction: restoring the tables truncates them
    clients = {"ana": app.test_client(), "eve": app.test_client(), "anonymous": app.test_client()}
    for name in ("ana", "eve"):
        web_sign_in(clients[name], app, f"{name}@example.com")
    found = World(app, ids, clients, tokens)
    for name in ("ana", "eve"):
        refresh_csrf(found, name)
    found.baseline = snapshot(app)
    return found


def refresh_csrf(world: World, persona: str) -> None:
    page = world.clients[persona].get("/profile")
    assert page.status_code == 200
    world.csrf[persona] = forms(page.data)[0].data()["csrf_token"]


def signed_in_again(world: World, persona: str) -> None:
    """A request signed the persona out (it posted to /signout): sign in again without
    touching the database, so the tables stay as the snapshot has them."""
    client = world.clients[persona]
    with client.session_transaction() as cookie:
        if "uid" in cookie:
            return
    user_id = world.ids["users"][persona]
    with world.app.app_context():
        generation = db.session.get(User, user_id).session_generation
    with client.session_transaction() as cookie:
        cookie["uid"], cookie["gen"] = user_id, generation
    refresh_csrf(world, persona)


# ---- the database before and after ---------------------------------------------------------------

def _canonical(value: Any) -> Any:
    return json.dumps(value, sort_keys=True, default=str) if isinstance(value, (dict, list)) else value


def snapshot(app: Any) -> dict[str, dict[Any, tuple[dict[str, Any], tuple]]]:
    """Every row of every table by primary key: (the row, what is compared).  Names and
    titles as stored, not as shown."""
    tables = {}
    with app.app_context(), db.engine.connect() as connection:
        for table in db.metadata.sorted_tables:
            columns = [type_coerce(c, String).label(c.name) if isinstance(c.type, OneLine) else c for c in table.c]
            keys = [c.name for c in table.c if (table.name, c.name) not in VOLATILE]
            pk = [c.name for c in table.primary_key]
            rows = (dict(row._mapping) for row in connection.execute(select(*columns)))
            tables[table.name] = {tuple(row[k] for k in pk): (row, tuple(_canonical(row[k]) for k in keys))
                                  for row in rows}
    return tables


def changed_rows(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[tuple]]:
    """Table -> rows added, changed or removed (as compared)."""
    out = {}
    for name, rows in after.items():
        old = before[name]
        if rows.keys() != old.keys() or any(rows[key][1] != old[key][1] for key in rows):
            out[name] = ([rows[key][1] for key in rows if key not in old or rows[key][1] != old[key][1]]
                         + [old[key][1] for key in old if key not in rows])
    return out


def restore(app: Any, snap: dict[str, Any], now_: dict[str, Any]) -> None:
    """Put back the rows that changed: new rows go (children first), changed ones get their
    old values, removed ones come back (parents first)."""
    tables = db.metadata.sorted_tables
    with app.app_context(), db.engine.begin() as connection:
        for table in reversed(tables):
            old, new = snap[table.name], now_[table.name]
            pk = list(table.primary_key)
            for key in new.keys() - old.keys():
                connection.execute(table.delete().where(*(c == v for c, v in zip(pk, key))))
        for table in tables:
            old, new = snap[table.name], now_[table.name]
            pk = list(table.primary_key)
            for key in old.keys() & new.keys():
                if old[key][0] != new[key][0]:
                    connection.execute(table.update().where(*(c == v for c, v in zip(pk, key))).values(old[key][0]))
            missing = [old[key][0] for key in old.keys() - new.keys()]
            if missing:
                connection.execute(table.insert(), missing)
    clear_cache()


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if value.startswith(("{", "[")):
            try:
                value = json.loads(value)
            except ValueError:
                yield value
                return
            yield from strings(value)
        else:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


# ---- calling ------------------------------------------------------------------------------------

def fill(rule: str, values: dict[str, Any]) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: str(values[m.group(1)]), rule)


def form_body(pairs: list[tuple[str, Any]]) -> bytes:
    return urlencode([(k, v) for k, v in pairs if v is not None], doseq=True).encode("ascii")


def check(world: World, label: str, persona: str, method: str, url: str, *, body: bytes | None = None,
          content_type: str | None = None, api: bool = False, compare: bool = True) -> int | None:
    """Send one request; record a 500 (or an exception), a refusal that changed something, or
    hostile text that was stored; put the tables back if anything changed."""
    client = world.clients[persona]
    headers = dict(world.tokens.get(persona, {})) if api else {}
    world.requests += 1
    status = None
    try:
        response = client.open(url, method=method, data=body, content_type=content_type, headers=headers)
        status = response.status_code
        if status >= 500:
            world.failures.append(f"{status} {label} ({persona}): {method} {url[:120]}")
    except Exception as error:  # noqa: BLE001 - the test client re-raises what would be a 500
        world.failures.append(f"exception {label} ({persona}): {method} {url[:120]}: {type(error).__name__}: "
                              f"{str(error)[:200]}")
    if compare:
        after = snapshot(world.app)
        changes = changed_rows(world.baseline, after)
        if changes:
            if status is None or status >= 400:
                world.failures.append(f"refused ({status}) but changed {sorted(changes)}: {label} ({persona}) "
                                      f"{method} {url[:120]}")
            stored = [s for rows in changes.values() for s in strings(rows)
                      if STORED_FORBIDDEN.search(s) or LONG in s]
            if stored:
                world.failures.append(f"stored hostile text {[s[:40] for s in stored][:3]}: {label} ({persona}) "
                                      f"{method} {url[:120]}")
            restore(world.app, world.baseline, after)
    if persona != "anonymous":
        signed_in_again(world, persona)
    return status


# ---- what every route reads ------------------------------------------------------------------------

def rules(app: Any) -> list[Any]:
    return sorted(app.url_map.iter_rules(), key=lambda r: r.rule)


def methods(rule: Any) -> list[str]:
    return sorted(rule.methods - {"HEAD", "OPTIONS"})


def real_ids(world: World, endpoint: str) -> dict[str, Any]:
    ids = dict(world.ids)
    if endpoint in ON_OPEN_GAME:
        ids["game_id"] = ids["open_game_id"]
    return ids


def rendered_forms(world: World) -> dict[str, list[Any]]:
    """The forms the pages show the player, by the endpoint they post to."""
    client = world.clients["ana"]
    adapter = world.app.url_map.bind("pbem.test")
    found: dict[str, list[Any]] = {}
    pages = ["/", "/signin", "/profile", "/games/new", f"/games/{world.ids['game_id']}",
             f"/games/{world.ids['open_game_id']}", "/admin/mail/review", "/admin/press", "/leagues/new",
             f"/leagues/{world.ids['league_id']}"]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        for form in forms(response.data):
            if form.method == "post":
                endpoint, _ = adapter.match(form.action.split("?")[0], method="POST")
                found.setdefault(endpoint, []).append(form)
    return found


def other_forms(world: World) -> list[Any]:
    """The decision forms of the world's games of other presentations, as Ana sees them."""
    found = []
    for game in ("other_game_id", "azteca_game_id"):
        page = world.clients["ana"].get(f"/games/{world.ids[game]}")
        shown = decision_forms(page.data)
        assert shown, f"the {game} page shows Ana no decision form"
        found += shown
    return found


def fields_read_by_views() -> set[str]:
    """Every field name a web view reads by a literal name (form.get("x"), request.args.get("x")...),
    the games' presentations included (their decision forms become order text there)."""
    sources = [*(ROOT / "pbem" / "web").glob("*.py"), *(ROOT / "pbem" / "games").rglob("*.py")]
    source = "\n".join(p.read_text() for p in sources)
    return set(re.findall(r"""(?:form|args|values)(?:\.get(?:list)?\(|\[)\s*["']([^"']+)["']""", source))


def web_fields(world: World) -> dict[str, tuple[dict[str, Any], list[str]]]:
    """endpoint -> (what the page's form posts as it is, the fields to try)."""
    shown = rendered_forms(world)
    out: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for rule in rules(world.app):
        if rule.endpoint.startswith(("api.", "static")) or "POST" not in rule.methods:
            continue
        page_forms = shown.get(rule.endpoint, [])
        base = page_forms[0].data() if page_forms else {}
        base.pop("csrf_token", None)
        names = {name for form in page_forms for name in form.names() if name != "csrf_token"}
        for form in page_forms:
            for shown_field in form.fields:
                kind = {"date": "date", "number": "integer"}.get(shown_field.get("type", ""))
                if kind:
                    KINDS[shown_field["name"]] = kind
        names |= set(EXTRA_FIELDS.get(rule.endpoint, [])) | {"next"}
        out[rule.endpoint] = (base, sorted(names))
    return out


def openapi_fields(spec: dict[str, Any], schema: dict[str, Any], prefix: str = "") -> list[str]:
    """Dotted paths of every property of a request schema, nested schemas included."""
    if "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if "allOf" in schema:
        return openapi_fields(spec, schema["allOf"][0], prefix)
    out = []
    for name, sub in schema.get("properties", {}).items():
        out.append(prefix + name)
        kind = "date" if sub.get("format") == "date" else "integer" if sub.get("type") == "integer" else None
        if kind:
            KINDS[prefix + name] = kind
        out.extend(openapi_fields(spec, sub, prefix + name + "."))
    return out


def api_bases(world: World) -> dict[tuple[str, str], dict[str, Any]]:
    """A valid body for every operation of the OpenAPI document that takes one."""
    today = now().date()
    return {
        ("post", "/api/games"): {"title": "T", "players": 3, "bots": ["heuristic"], "invites": ["zed@example.com"],
                                 "board": "default", "edition": "default", "options": {},
                                 "deadlines": {"hours": {"power": 48}, "on_missed": "bot", "settle_seconds": 0,
                                               "default": "heuristic", "replace_after": 3,
                                               "abandoned": "heuristic", "vacation": "stretch"}},
        ("post", "/api/games/{game_id}/orders"): {"orders": "card 4"},
        ("post", "/api/games/{game_id}/deadline/extend"): {"hours": 1},
        ("post", "/api/games/{game_id}/takeover"): {"seat": world.ids["seat"]},
        ("put", "/api/games/{game_id}/queue"): {"turns": "place 12"},
        ("post", "/api/games/{game_id}/press"): {"text": "hello", "to": world.ids["seat"]},
        ("post", "/api/games/{game_id}/press/mute"): {"seat": world.ids["seat"], "mute": True},
        ("post", "/api/games/{game_id}/press/{message_id}/report"): {"reason": "rude"},
        ("post", "/api/games/{game_id}/press/switch"): {"off": True},
        ("post", "/api/vacations"): {"start": str(today + timedelta(days=100)),
                                     "end": str(today + timedelta(days=101))},
        ("post", "/api/leagues"): {"name": "L", "game": "duel", "table_size": 2, "rounds": 2, "round_days": 7,
                                   "scoring": "rank", "rated": True, "cap": 10, "withdrawal": "forfeit",
                                   "registration_closes_at": f"{today + timedelta(days=30)}T12:00:00+00:00",
                                   "options": {"tie_break": "none"},
                                   "deadlines": {"hours": {"bid": 24}, "on_missed": "bot"}},
        ("post", "/api/leagues/{league_id}/withdraw"): {"member": world.ids["member_id"]},
        ("put", "/api/leagues/{league_id}/next-round"): {"tables": [[world.ids["member_id"], None]]},
        ("post", "/api/leagues/{league_id}/bots"): {"name": "Bot", "bot": "random"},
        ("post", "/api/leagues/{league_id}/members/{member_id}/replace"): {"email": "bo@example.com"},
        ("post", "/api/leagues/{league_id}/tables/{table_id}/correct"): {
            "action": "annul", "reason": "a slip", "places": {str(world.ids["member_id"]): 1}},
        ("post", "/api/leagues/{league_id}/organisers"): {"email": "bo@example.com"},
    }


def with_hostile(base: dict[str, Any], dotted: str) -> str:
    """The base body as JSON text with a marker where the hostile raw value goes."""
    body = json.loads(json.dumps(base))
    *parents, last = dotted.split(".")
    target = body
    for name in parents:
        if not isinstance(target.get(name), dict):
            target[name] = {}
        target = target[name]
    target[last] = "@@HOSTILE@@"
    return json.dumps(body)


def raw_json(template: str, value: str | bytes) -> bytes:
    before, after = template.encode().split(b'"@@HOSTILE@@"')
    return before + (value if isinstance(value, bytes) else value.encode()) + after


_turn = [0]
USED: set[str] = set()


def plan(fields: list[str], values: dict[str, Any], persona: str) -> list[tuple[str, str, Any]]:
    """(field, label, value) to send: every field gets PER_FIELD[persona] different values,
    taken in turn from the whole list, so that every value goes to many routes."""
    items = list(values.items())
    start, _turn[0] = _turn[0], _turn[0] + len(fields) * PER_FIELD[persona]
    chosen = [(name, *items[(start + index * PER_FIELD[persona] + k) % len(items)])
              for index, name in enumerate(fields) for k in range(PER_FIELD[persona])]
    chosen += [(name, label, values[label]) for name in fields for label in TYPED.get(KINDS.get(name, ""), [])
               if (name, label) not in {(n, lab) for n, lab, _ in chosen}]
    USED.update(label for _, label, _ in chosen)
    return chosen


# ---- the sweeps ----------------------------------------------------------------------------------

def expect_unchanged(world: World, what: str) -> None:
    """After requests that should all have been refused (or only read): every table as before."""
    after = snapshot(world.app)
    changes = changed_rows(world.baseline, after)
    if changes:
        world.failures.append(f"{what} changed {sorted(changes)}")
        restore(world.app, world.baseline, after)


def sweep_paths(world: World) -> set[str]:
    """Hostile values in every path parameter of every route, every method, every persona."""
    covered = set()
    for persona in ("ana", "eve", "anonymous"):
        for rule in rules(world.app):
            params = list(rule.arguments)
            api = rule.rule.startswith("/api/")
            for method in methods(rule):
                for name in params:
                    converter = rule._converters[name]
                    hostile = INT_PATH if isinstance(converter, IntegerConverter) else TEXT_PATH
                    for value in hostile:
                        url = fill(rule.rule, {**real_ids(world, rule.endpoint), name: value})
                        body = None
                        if method != "GET" and not api and persona != "anonymous":
                            body = form_body([("csrf_token", world.csrf[persona])])
                        check(world, f"path {name}={value[:20]}", persona, method, url, body=body, api=api,
                              content_type="application/x-www-form-urlencoded" if body else None, compare=False)
                covered.add(rule.endpoint)
        expect_unchanged(world, f"hostile path values ({persona})")
    return covered


def sweep_queries(world: World) -> set[str]:
    """The query fields views read, and a hostile unknown one on every other page."""
    covered = set()
    by_endpoint = {rule.endpoint: rule for rule in rules(world.app)}
    for rule in rules(world.app):
        if "GET" in rule.methods and rule.endpoint not in QUERY_FIELDS:
            url = fill(rule.rule, real_ids(world, rule.endpoint))
            for label in ("nul", "bidi", "non-utf8", "long"):
                check(world, f"query x={label}", "ana", "GET", url + "?" + urlencode({"x": FORM_VALUES[label]}),
                      api=url.startswith("/api/"), compare=False)
            covered.add(rule.endpoint)
    for endpoint, names in QUERY_FIELDS.items():
        rule = by_endpoint[endpoint]
        url = fill(rule.rule, real_ids(world, endpoint))
        for persona in ("ana", "eve"):
            for name, label, value in plan(names, FORM_VALUES, persona):
                check(world, f"query {name}={label}", persona, "GET", url + "?" + urlencode({name: value}),
                      api=url.startswith("/api/"), compare=False)
        covered.add(endpoint)
    expect_unchanged(world, "hostile queries")
    return covered


def sweep_forms(world: World) -> set[str]:
    covered = set()
    by_endpoint = {rule.endpoint: rule for rule in rules(world.app)}
    for endpoint, (base, names) in web_fields(world).items():
        rule = by_endpoint[endpoint]
        url = fill(rule.rule, real_ids(world, endpoint))
        variants = [(base, names)]
        targets = [url] * len(variants)
        if endpoint == "game.orders":  # one form per kind of decision, each with its own fields
            variants = [({"kind": kind}, fields + ["kind", "next"]) for kind, fields in ORDER_KINDS.items()]
            other = other_forms(world)  # and the other game's forms as its page shows them
            targets = [url] * len(variants) + [form.action for form in other]
            variants += [(form.data(), [*form.names(), *BUTTONS, "next"]) for form in other]
            azteca = f"/games/{world.ids['azteca_game_id']}/orders"
            targets += [azteca] * len(AZTECA_KINDS)
            variants += [({"kind": kind}, [*fields, "kind"]) for kind, fields in AZTECA_KINDS.items()]
        for persona in ("ana", "eve"):
            for target, (form_base, fields) in zip(targets, variants):
                url = target
                for name, label, value in plan(fields, FORM_VALUES, persona):
                    pairs = [("csrf_token", world.csrf[persona]), *((k, v) for k, v in form_base.items()
                                                                    if k != name), (name, value)]
                    check(world, f"form {endpoint} {name}={label}", persona, "POST", url, body=form_body(pairs),
                          content_type="application/x-www-form-urlencoded")
                # A hostile field name.
                for label in ("nul", "bidi", "non-utf8"):
                    pairs = [("csrf_token", world.csrf[persona]), *form_base.items(), (FORM_VALUES[label], "1")]
                    check(world, f"form {endpoint} name={label}", persona, "POST", url, body=form_body(pairs),
                          content_type="application/x-www-form-urlencoded")
        covered.add(endpoint)
    return covered


def sweep_api(world: World) -> set[str]:
    spec = world.clients["ana"].get("/api/openapi.json").json
    bases = api_bases(world)
    adapter = world.app.url_map.bind("pbem.test")
    covered = set()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            assert (method, path) in bases, f"no valid body for {method} {path}: add one to api_bases"
            base = bases[(method, path)]
            url = re.sub(r"\{([^{}]+)\}", lambda m: str(world.ids[m.group(1)]), path)  # OpenAPI's {name}
            endpoint, _ = adapter.match(url, method=method.upper())
            for persona in ("ana", "eve"):
                for name, label, value in plan(openapi_fields(spec, schema), JSON_VALUES, persona):
                    check(world, f"api {method} {path} {name}={label}", persona, method.upper(), url,
                          body=raw_json(with_hostile(base, name), value), content_type="application/json", api=True)
                for label, body in JSON_BODIES.items():
                    check(world, f"api {method} {path} body={label}", persona, method.upper(), url,
                          body=body if isinstance(body, bytes) else body.encode(), content_type="application/json",
                          api=True)
            covered.add(endpoint)
    return covered


def test_hostile_input_gets_a_clear_answer_and_changes_nothing(world):
    USED.clear()
    covered = sweep_paths(world) & {r.endpoint for r in rules(world.app) if r.arguments}
    covered |= sweep_queries(world) | sweep_forms(world) | sweep_api(world)
    assert not world.failures, f"{len(world.failures)} of {world.requests} requests:\n" + "\n".join(world.failures)
    # Every route was called, and every field a view reads by name was tried.
    assert USED >= FORM_VALUES.keys() | JSON_VALUES.keys(), sorted(FORM_VALUES.keys() | JSON_VALUES.keys() - USED)
    every = {r.endpoint for r in rules(world.app)}
    assert every <= covered, sorted(every - covered)
    tried = {name for _, names in web_fields(world).values() for name in names}
    tried |= {name for names in [*ORDER_KINDS.values(), *AZTECA_KINDS.values()] for name in names} | {"kind"}
    tried |= {name for names in QUERY_FIELDS.values() for name in names}
    tried |= {name for form in other_forms(world) for name in form.names()} | set(BUTTONS)
    assert fields_read_by_views() - {"csrf_token"} <= tried, sorted(fields_read_by_views() - tried)


def test_every_presentation_with_forms_of_its_own_is_swept():
    """The world's games sweep every presentation whose decision forms read fields of their
    own: Aztlán's running game, Cóatl's other game and Azteca's third game."""
    with_forms = {path.parent.name for path in (ROOT / "pbem" / "games").glob("*/forms.py")}
    swept = {"aztlan", "coatl", "azteca"}
    assert with_forms <= swept, sorted(with_forms - swept)
