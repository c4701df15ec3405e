"""Replacement: a seat whose player keeps missing deadlines is offered for takeover (the tick
calls `offer_seat`), and a stand-in bot plays it until someone takes it over (`take_over`),
the host hands it to a bot for good (`hand_to_bot`), or its player acts again (`seat_acted`).
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import Game, PendingOrder, QueuedTurn, Seat, User
from pbem.services import kinds, links
from pbem.services.dispatch import advance_after_change
from pbem.services.errors import Conflict, NotFound
from pbem.services.events import event_key, log_event, seat_title
from pbem.services.host import host_game
from pbem.services.links import base_url
from pbem.services.locking import bump_version, lock_game, unit_of_work
from pbem.services.notify import mail_seat

def takeover_games(session: Session, limit: int = 100) -> list[Game]:
    """Running games with a seat offered to a replacement."""
    ids = select(Seat.game_id).where(Seat.replacement_offered_at.is_not(None))
    return list(session.scalars(select(Game).where(Game.status == Game.ACTIVE, Game.id.in_(ids))
                                .order_by(Game.updated_at.desc()).limit(limit)))


def _offered_seat(game: Game, seat_name: str) -> Seat:
    seat = next((s for s in game.seats if s.name == seat_name), None)
    if seat is None:
        raise NotFound(f"there is no seat {str(seat_name)[:16]!r} in this game")
    if seat.replacement_offered_at is None:
        raise Conflict("this seat is not offered to a replacement")
    return seat


def rename_seat(session: Session, game: Game, seat_name: str, player_name: str) -> None:
    """The record's player name for a seat that changed hands (bumps the version)."""
    players = [dict(p, name=player_name[:60]) if p["seat"] == seat_name else dict(p)
               for p in game.setup.get("players", [])]
    bump_version(session, game, setup={**game.setup, "players": players})


def clear_seat(session: Session, game: Game, seat: Seat) -> None:
    """Forget what the seat's previous player left: plans, misses, offers, its clock (it changes hands)."""
    seat.replacement_offered_at = seat.stand_in = seat.stand_in_reason = None
    seat.missed_in_row, seat.last_error, seat.queue_held_seq = 0, None, None
    # Under a clock the new player starts with the initial reserve, not what the last one left.
    seat.reserve_seconds = seat.clock_seq = seat.clock_acted_at = seat.deadline_at = seat.reminded = None
    for model in (PendingOrder, QueuedTurn):  # the previous player's plans are not the new one's
        for row in session.scalars(select(model).where(model.game_id == game.id, model.seat == seat.name)):
            session.delete(row)


@unit_of_work
def take_over(session: Session, game_id: int, user: User, seat_name: str, now: datetime) -> Seat:
    """A person takes over a seat offered to a replacement: from now on it is theirs, with
    its view, hand and score."""
    game = lock_game(session, game_id)
    if game.status != Game.ACTIVE:
        raise Conflict("the game is not running")
    seat = _offered_seat(game, seat_name)
    if any(s.user_id == user.id for s in game.seats):
        raise Conflict("you already have a seat in this game")
    before, previous = seat_title(seat), seat.user
    clear_seat(session, game, seat)
    seat.user_id, seat.joined_at = user.id, now
    rename_seat(session, game, seat_name, user.display_name)
    event = event_key(session, log_event(session, game, "takeover", f"{user.display_name} took over {before}", now,
                                         seat=seat_name, user_id=user.id))
    host = session.get(User, game.created_by) if game.created_by else None
    url = links.game(base_url(), game.id)
    for person in {host, previous} - {None}:
        mail_seat(session, game, person, event, f"{game.title}: {seat_name} has a new player",
                  f"{user.display_name} took over {before} in {game.title}.\n\n{url}\n", topic="replacement")
    session.commit()
    advance_after_change(session, game.id, at=now)  # the seat now waits for its new player (who is told)
    return seat


@unit_of_work
def hand_to_bot(session: Session, game_id: int, host: User, seat_name: str, bot: str, now: datetime) -> Seat:
    """The host gives a seat offered to a replacement to a bot for the rest of the game."""
    game = host_game(session, game_id, host, "hand a seat to a bot")
    kinds.check_bot(game.kind, bot)
    seat = _offered_seat(game, seat_name)
    before = seat_title(seat)
    clear_seat(session, game, seat)
    seat.user_id, seat.user, seat.bot = None, None, bot
    rename_seat(session, game, seat_name, seat.label)
    log_event(session, game, "bot", f"{host.display_name} (host) handed {before} to the {bot} bot", now,
              seat=seat_name, user_id=host.id)
    session.commit()
    advance_after_change(session, game.id, at=now)
    return seat


def offer_seat(session: Session, game: Game, seat: Seat, now: datetime, bot: str, url: str, passed: str) -> None:
    """Offer a seat to a replacement; a stand-in bot plays it until someone takes it over."""
    seat.replacement_offered_at = now
    seat.stand_in, seat.stand_in_reason = bot, "abandoned"
    log_event(session, game, "offered", f"{seat_title(seat)} missed {seat.missed_in_row} deadlines in a row: "
              f"the seat is open for takeover; the {bot} bot plays it until someone takes it over",
              now, seat=seat.name, user_id=seat.user_id)
    host = session.get(User, game.created_by) if game.created_by else None
    mail_seat(session, game, host, f"offer-{seat.name}-{passed}",
              f"{game.title}: {seat.name} is offered to a replacement",
              f"{seat_title(seat)} missed {seat.missed_in_row} deadlines in a row in {game.title}. The seat is "
              f"now listed for takeover in the lobby, and the {bot} bot plays it until someone takes it "
              f"over. As the host you may also hand it to a bot for good on the game's page.\n\n{url}\n",
              topic="replacement")
    mail_seat(session, game, seat.user, f"offered-{passed}",
              f"{game.title}: your seat is offered to a replacement",
              f"You missed {seat.missed_in_row} deadlines in a row in {game.title}, so your seat is offered "
              f"to a replacement player and the {bot} bot plays it meanwhile. Send an order to take it "
              f"back before someone takes it over.\n\n{url}\n", topic="replacement")


def seat_acted(seat: Seat) -> None:
    """The seat's person gave an order of their own: the run of missed deadlines ends, and a
    seat offered to a replacement is theirs again."""
    if seat.missed_in_row:  # assigned only if it changes: an untouched seat needs no flush
        seat.missed_in_row = 0
    if seat.stand_in_reason == "abandoned":
        seat.stand_in = seat.stand_in_reason = None
        seat.replacement_offered_at = None
