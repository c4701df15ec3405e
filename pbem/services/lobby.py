"""The lobby: create games, invite, join, leave, start when full, and the game lists."""
from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Sequence

from sqlalchemy import Select, and_, exists, or_, select
from sqlalchemy.orm import Session, selectinload

from engine import default_game, get_game
from engine.core import Game as GameRules, SetupError
from pbem.games import presentation
from pbem.outbox.messages import send_mail
from pbem.live import changed
from pbem.models import PRESS_RULES, TITLE_MAX, EmailAddress, Game, Seat, User, now
from pbem.services import links
from pbem.services.kinds import check_bot, decision_kinds, default_hours
from pbem.services.accounts import normalize_address, owner_of
from pbem.services.advance import MAX_SETTLE_SECONDS
from pbem.services.dispatch import advance_after_change
from pbem.services.errors import Conflict, Forbidden, Invalid, NotFound
from pbem.services.locking import bump_version, lock_game, unit_of_work
from pbem.services.policy import MAX_HOURS, check_policy_extras
from pbem.text import one_line

ON_MISSED = ("bot", "wait")
SEED_LIMIT = 2 ** 53  # stays exact in JavaScript clients once the record is published


@dataclass
class NewGame:
    """What a creator asks for.  `game` names a registered game (None: the default game);
    `bots` lists one of its bot kinds per bot seat; `options` its rule options by name;
    `setup` its setup choices besides them (pbem.games Presentation.setup_options, such as a
    board), by name.  Options and choices left out take their defaults."""

    title: str
    game: str | None = None
    players: int = 3
    bots: Sequence[str] = ()
    invites: Sequence[str] = ()
    setup: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    deadlines: dict[str, Any] | None = None
    press: str = "all"  # the press rule (pbem/services/press.py RULES)
    seed: int | str | None = None  # None: a random secret seed (tests fix one)
    rated: bool = False  # counts for ratings (docs/leagues.md); ordinary games are casual


def setup_choices(rules: GameRules, given: dict[str, Any]) -> dict[str, Any]:
    """The game's setup choices (a board...) as `given`, each checked against what the game
    offers, with the defaults of those left out."""
    offered = {option.name: option for option in presentation(rules.name).setup_options()}
    for name in given:
        if name not in offered:
            known = ", ".join(offered) or "none"
            raise Invalid(f"{rules.title} has no setup choice {str(name)[:20]!r}; its choices: {known}")
    chosen = {}
    for name, option in offered.items():
        value = given.get(name, option.default)
        if value not in option.choices:
            raise Invalid(f"no {name} named {str(value)[:40]!r}; "
                          f"available: {', '.join(map(str, option.choices)) or 'none'}")
        chosen[name] = value
    return chosen


def rules_for(name: str | None) -> GameRules:
    """The registered game called `name`, or the default game for None."""
    try:
        return default_game() if name is None else get_game(name)
    except SetupError as error:
        raise Invalid(str(error)) from None


def deadline_policy(data: dict[str, Any] | None, game_name: str | None = None) -> dict[str, Any]:
    """Hours allowed per kind of decision of the game (None: the default game's; an hour
    value None: no deadline) and what a missed one gets; the deadline tick enforces it
    (docs/deadlines.md).  Settings left out keep their defaults (the game's hours,
    pbem.services.schedule.POLICY_DEFAULTS) and are not stored."""
    game_name = rules_for(game_name).name
    data = dict(data or {})
    known = decision_kinds(game_name)
    hours: dict[str, int | None] = dict(default_hours(game_name))
    given = data.pop("hours", {}) or {}
    if not isinstance(given, dict):
        raise Invalid("deadline hours must be given per kind of decision")
    for kind, value in given.items():
        if kind not in known:
            raise Invalid(f"unknown kind of decision {str(kind)[:20]!r}; known: {', '.join(known)}")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= MAX_HOURS):
            raise Invalid(f"the deadline for {kind} must be 1 to {MAX_HOURS} hours, or none")
        hours[kind] = value
    on_missed = data.pop("on_missed", "bot")
    if on_missed not in ON_MISSED:
        raise Invalid(f"on_missed must be one of {', '.join(ON_MISSED)}")
    # Seconds to wait after the last secret choice before applying them (docs/workers.md).
    settle = data.pop("settle_seconds", 0) or 0
    if isinstance(settle, bool) or not isinstance(settle, int) or not 0 <= settle <= MAX_SETTLE_SECONDS:
        raise Invalid(f"settle_seconds must be 0 to {MAX_SETTLE_SECONDS}")
    extras = check_policy_extras(data)  # missed turns, replacement, vacations, clock (docs/deadlines.md)
    if data:
        raise Invalid(f"unknown deadline setting {sorted(data)[0][:20]!r}")
    policy: dict[str, Any] = {"hours": hours, "on_missed": on_missed, **extras}
    if settle:
        policy["settle_seconds"] = settle
    return policy


def _title(text: str) -> str:
    title = one_line(text)
    if not 1 <= len(title) <= TITLE_MAX:
        raise Invalid(f"a title has 1 to {TITLE_MAX} characters")
    return title


def _check_players(rules: GameRules, players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:  # type: ignore[attr-defined]
        raise Invalid(f"{rules.title} is for {rules.min_players} to {rules.max_players} players")  # type: ignore[attr-defined]


def _validate(new: NewGame, rules: GameRules) -> tuple[str, list[str]]:
    title = _title(new.title)
    _check_players(rules, new.players)
    for kind in new.bots:
        check_bot(rules.name, kind)
    invites = [normalize_address(address) for address in new.invites]
    if len(set(invites)) != len(invites):
        raise Invalid("an address is invited twice")
    if 1 + len(new.bots) + len(invites) > new.players:
        raise Invalid(f"you, {len(new.bots)} bot(s) and {len(invites)} invitation(s) do not fit "
                      f"in {new.players} seats")
    return title, invites


def _check_setup(rules: GameRules, setup: dict[str, Any], players: int) -> None:
    """Build the engine's setup once with stand-in players, so a bad option fails now."""
    trial = {"game": rules.name, **setup, "players": rules.seating(setup["seed"], players)}  # type: ignore[attr-defined]
    try:
        rules.new_game(trial)
    except SetupError as error:
        raise Invalid(str(error)) from None


def _new_row(new: NewGame, rules: GameRules, title: str, creator: User | None) -> Game:
    """The open game `new` asks for, its setup checked, without seats yet."""
    seed = new.seed if new.seed is not None else secrets.randbelow(SEED_LIMIT)
    setup = {**setup_choices(rules, dict(new.setup or {})), "options": dict(new.options or {}), "seed": seed}
    _check_setup(rules, setup, new.players)
    return Game(kind=rules.name, title=title, status=Game.OPEN, setup=setup, rated=bool(new.rated),
                deadline_policy=deadline_policy(new.deadlines, rules.name),
                created_by=creator.id if creator is not None else None, press_rule=check_press_rule(new.press))


def checked_settings(new: NewGame) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The setup choices, rule options and deadline policy `new` asks for, checked as creating
    its game would check them (a league keeps them for the games of its rounds)."""
    rules = rules_for(new.game)
    _check_players(rules, new.players)
    row = _new_row(new, rules, "settings", None)
    choices = {name: value for name, value in row.setup.items() if name not in ("options", "seed")}
    return choices, dict(row.setup["options"]), row.deadline_policy


@unit_of_work
def check_press_rule(rule: str) -> str:
    """The press rule a game is created with (the service's option, not the game's)."""
    if rule not in PRESS_RULES:
        raise Invalid(f"press: choose one of {', '.join(PRESS_RULES)}")
    return rule


def create_game(session: Session, creator: User, new: NewGame, *, base_url: str) -> Game:
    """A new game with the creator in the first seat, then the bots, then the invited."""
    rules = rules_for(new.game)
    title, invites = _validate(new, rules)
    game = _new_row(new, rules, title, creator)
    occupants: list[dict[str, Any]] = [{"user_id": creator.id, "joined_at": now()}]
    occupants += [{"bot": kind} for kind in new.bots]
    occupants += [{"invited_email": address} for address in invites]
    occupants += [{} for _ in range(new.players - len(occupants))]
    game.seats = [Seat(position=i, **occupant) for i, occupant in enumerate(occupants)]
    session.add(game)
    session.flush()
    changed(session, game.id)  # the lobby's lists show it once this commits
    for address in invites:
        _mail_invitation(session, game, creator, address, base_url)
    session.commit()
    return _start_if_full(session, game)


def seated_game(session: Session, host: User, new: NewGame, occupants: Sequence[dict[str, Any]]) -> Game:
    """A game whose seats are all filled, each occupant in its place (first player first),
    added to the session but neither committed nor started: a league's table
    (pbem/leagues/rounds.py), which the caller records and then starts with
    `start_game(..., in_order=True)` in one commit.  An occupant is a person
    ({"user_id": ...}, optionally with a bot that plays for them: "stand_in",
    "stand_in_reason") or a bot ({"bot": kind}).  The host (who created it) need not play."""
    rules = rules_for(new.game)
    if len(occupants) != new.players:
        raise Invalid(f"{len(occupants)} occupants for {new.players} seats")
    title = _title(new.title)
    _check_players(rules, new.players)
    for occupant in occupants:
        for bot in (occupant.get("bot"), occupant.get("stand_in")):
            if bot:
                check_bot(rules.name, bot)
    game = _new_row(new, rules, title, host)
    game.seats = [Seat(position=i, joined_at=now() if occupant.get("user_id") else None, **occupant)
                  for i, occupant in enumerate(occupants)]
    session.add(game)
    session.flush()
    return game


def _mail_invitation(session: Session, game: Game, inviter: User, address: str, base_url: str) -> None:
    invitee = owner_of(session, address)
    if invitee is not None and not invitee.notify_invites:
        return  # they asked for no invitation mails; the game still lists the seat for them
    # One invitation per game and invitee, however often it is retried (the address goes into
    # the key as a digest: keys are short).
    invitee_key = hashlib.sha256(address.lower().encode()).hexdigest()[:32]
    send_mail(session, address, f"{inviter.display_name} invites you to play {game.title}",
              f"{inviter.display_name} invites you to a game of {get_game(game.kind).title} on pbem: "
              f"{game.title}.\n\n"
              f"Sign in with this address and join it here:\n{links.game(base_url, game.id)}\n",
              topic="invitation", key=f"invitation:{game.id}:{invitee_key}")


def get_game_row(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game


def _my_addresses(session: Session, user: User) -> list[str]:
    return list(session.scalars(select(EmailAddress.address).where(EmailAddress.user_id == user.id)))


@unit_of_work
def invite(session: Session, game_id: int, inviter: User, address: str, *, base_url: str) -> Seat:
    address = normalize_address(address)
    game = lock_game(session, game_id)
    if game.status != Game.OPEN:
        raise Conflict("invitations are for games that have not started")
    if not any(seat.user_id == inviter.id for seat in game.seats):
        raise Forbidden("only players of this game can invite")
    if any(seat.invited_email == address for seat in game.seats):
        raise Conflict("that address is invited already")
    seat = next((seat for seat in game.seats if seat.is_open and seat.invited_email is None), None)
    if seat is None:
        raise Conflict("there is no open seat left to invite to")
    seat.invited_email = address
    _mail_invitation(session, game, inviter, address, base_url)
    session.commit()
    return seat


@unit_of_work
def join_game(session: Session, game_id: int, user: User) -> Seat:
    """Take the seat reserved for one of your addresses, else an open one; the game starts
    when the last seat is taken."""
    game = lock_game(session, game_id)
    if game.status != Game.OPEN:
        raise Conflict("this game is not open for joining")
    if any(seat.user_id == user.id for seat in game.seats):
        raise Conflict("you already have a seat in this game")
    mine = set(_my_addresses(session, user))
    free = [seat for seat in game.seats if seat.is_open]
    seat = next((s for s in free if s.invited_email in mine), None) or \
        next((s for s in free if s.invited_email is None), None)
    if seat is None:
        raise Conflict("there is no open seat in this game")
    seat.user_id, seat.joined_at, seat.invited_email = user.id, now(), None
    changed(session, game.id)
    session.commit()
    _start_if_full(session, game)
    return seat


@unit_of_work
def leave_game(session: Session, game_id: int, user: User) -> None:
    game = lock_game(session, game_id)
    if game.status != Game.OPEN:
        raise Conflict("you can only leave a game before it starts")
    if game.created_by == user.id:
        raise Conflict("you created this game: cancel it instead")
    seat = next((seat for seat in game.seats if seat.user_id == user.id), None)
    if seat is None:
        raise Conflict("you have no seat in this game")
    seat.user_id = seat.joined_at = None
    changed(session, game.id)
    session.commit()


@unit_of_work
def cancel_game(session: Session, game_id: int, user: User) -> None:
    game = lock_game(session, game_id)
    if game.created_by != user.id:
        raise Forbidden("only the person who created a game can cancel it")
    if game.status != Game.OPEN:
        raise Conflict("only a game that has not started can be cancelled")
    bump_version(session, game, status=Game.ABORTED)
    session.commit()


def _start_if_full(session: Session, game: Game) -> Game:
    game = lock_game(session, game.id)
    if game.status != Game.OPEN or any(seat.is_open for seat in game.seats):
        session.rollback()
        return game
    start_game(session, game)
    advance_after_change(session, game.id)  # bots may owe the first decisions
    return game


def start_game(session: Session, game: Game, *, in_order: bool = False) -> None:
    """Draw the stack order and who sits where (from the seed), and write the players into
    the record.  Atomic: the game is either open with no players or active with all.
    `in_order`: the seats take the places in their order (a league's seating chose it)."""
    rules = get_game(game.kind)
    seed = game.setup["seed"]
    seat_names = rules.seating(seed, len(game.seats))  # type: ignore[attr-defined]
    occupants = sorted(game.seats, key=lambda seat: seat.position)
    if not in_order:
        random.Random(f"{seed}:places").shuffle(occupants)
    players = []
    for seat_name, seat in zip(seat_names, occupants, strict=True):
        seat.name = seat_name
        players.append({"seat": seat_name, "name": seat.label})
    bump_version(session, game, status=Game.ACTIVE, started_at=now(),
                 setup={**game.setup, "players": players})
    session.commit()


# ---- lists --------------------------------------------------------------------------------

LIST_LIMIT = 100


def _games(session: Session, query: Select[Any], limit: int) -> list[Game]:
    query = query.options(selectinload(Game.seats).selectinload(Seat.user)) \
        .order_by(Game.updated_at.desc(), Game.id.desc()).limit(limit)
    return list(session.scalars(query).unique())


def my_games(session: Session, user: User, limit: int = LIST_LIMIT) -> list[Game]:
    """Games you sit in that are open or running."""
    return _games(session, select(Game).join(Seat).where(
        Seat.user_id == user.id, Game.status.in_((Game.OPEN, Game.ACTIVE))), limit)


def waiting_for(session: Session, user: User, limit: int = LIST_LIMIT) -> list[Game]:
    """Running games that wait for a decision of yours."""
    return _games(session, select(Game).join(Seat).where(
        Seat.user_id == user.id, Seat.waiting.is_(True), Game.status == Game.ACTIVE), limit)


def open_games(session: Session, user: User | None = None, limit: int = LIST_LIMIT) -> list[Game]:
    """Games with a seat anyone (or you, by invitation) may take."""
    takeable = and_(Seat.user_id.is_(None), Seat.bot.is_(None))
    if user is not None:
        mine = _my_addresses(session, user)
        takeable = and_(takeable, or_(Seat.invited_email.is_(None), Seat.invited_email.in_(mine)))
        seated = exists().where(Seat.game_id == Game.id, Seat.user_id == user.id)
        condition = and_(Game.status == Game.OPEN, ~seated)
    else:
        takeable = and_(takeable, Seat.invited_email.is_(None))
        condition = Game.status == Game.OPEN
    has_seat = exists().where(Seat.game_id == Game.id, takeable)
    return _games(session, select(Game).where(condition, has_seat), limit)


def finished_games(session: Session, user: User | None = None, limit: int = LIST_LIMIT) -> list[Game]:
    """Finished games: yours if `user` is given, else everyone's."""
    query = select(Game).where(Game.status == Game.FINISHED)
    if user is not None:
        query = query.join(Seat).where(Seat.user_id == user.id)
    return _games(session, query, limit)
