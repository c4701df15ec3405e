"""What an advance tells the players: mails queued in the outbox, in the advance's own
transaction, so a notification exists exactly when the change it announces was committed.

- "turn": a person who newly owes a decision (and wants turn mails) is told which one.  After
  a backlog only the newest turn mail of a game goes out (delivery withholds the older ones).
- "result": when the game ends, every person in it (who wants results) gets the result; with
  report mail on, the final report is that mail (this one is its fallback).
- `mail_seat`: every other notification about a game (reminders, missed deadlines, the host's
  controls, replacements, queued turns refused): keyed per game, event and recipient's seat,
  with the seat's reply address.

Mails are built from public facts (the kind of decision, the published result), never from
the full state.  Richer turn reports and age reports are rendered elsewhere (pbem/reports/);
the outbox is delivered by its own worker.
"""
from __future__ import annotations

import os
from typing import Any, Iterable

from flask import current_app, has_app_context
from sqlalchemy.orm import Session

from pbem.mail.outbox import queued, send_mail
from pbem.models import Game, Seat, User
from pbem.services import kinds, links, moves_mail, report_mail
from pbem.services.schedule import mail_user

def base_url() -> str:
    """The public address for links: the app's setting, else the environment's."""
    if has_app_context():
        return str(current_app.config["PBEM_BASE_URL"])
    return os.environ.get("PBEM_BASE_URL", "http://127.0.0.1:5000").rstrip("/")


def turn_subject(game: Game) -> str:
    return f"Your turn in {game.title} (game {game.id})"


def notify_advanced(session: Session, game: Game, state: Any, newly_waiting: Iterable[Seat],
                    milestones_before: int | None = None) -> None:
    """Queue the mails an advance owes its players (called before the advance commits).
    `milestones_before`: how many phases the game had completed before the advance; the
    phases completed since get their reports and notices (pbem/services/report_mail.py)."""
    moves_mail.after_advance(session, game, state)  # opponents' moves, for "each" readers
    newly_waiting = list(newly_waiting)
    # A report or notice of this moment tells these seats it is their turn: one mail, not two.
    told = (report_mail.record_jobs(session, game, state, milestones_before, newly_waiting)
            if milestones_before is not None else set())
    if state.is_over():
        _results(session, game, state)
        return
    for seat in newly_waiting:
        if seat.name not in told:
            queue_turn_mail(session, game, state, seat)


def queue_turn_mail(session: Session, game: Game, state: Any, seat: Seat, seq: int | None = None) -> None:
    """The plain "your turn" mail of a seat that owes a decision in `state` (nothing if it owes
    none or its person wants no turn mails); one per seat and moment `seq` (the order-log
    length, by default `state`'s).  Also the fallback of a report mail that failed to render."""
    user = seat.user
    address = user.primary_address if user is not None else None
    kind = next((d.kind for d in state.decisions(options=False) if d.seat == seat.name), None)
    if address is None or not user.notify_turn or kind is None:
        return
    key = f"turn:{game.id}:{len(state.order_log()) if seq is None else seq}:{seat.name}"
    if queued(session, key):  # asked before the news below is claimed for this mail
        return
    url = links.game(base_url(), game.id)
    from pbem.mail.gateway import seat_reply_address  # the gateway imports the services
    # Replies go to the seat's own token address; one mail per seat and decision.
    send_mail(session, address, turn_subject(game),
              f"{game.title}: it is your turn to {kinds.ask(game.kind, kind)}.\n\nOpen the game:\n{url}\n\n"
              f"Or reply to this mail with your orders, one per line (send HELP for help).\n"
              + moves_mail.since_last_turn(session, game, state, seat),
              kind="turn", reply_to=seat_reply_address(session, seat), key=key)


def mail_seat(session: Session, game: Game, user: User | None, event: str, subject: str, body: str, *,
              kind: str) -> bool:
    """A notification about `game` to a person (a seat's player, or the host): once per game,
    `event` and recipient, keyed "<kind>:<game>:<event>:<seat>", so a tick or advance run
    twice or retried queues it once; Reply-To is their seat's token address, so a reply acts
    for that seat.  A person without a seat here (a host who resigned, a replaced player) is
    named "user<id>" in the key and gets no Reply-To.  Whether a mail went out (or was queued
    already); False if they have no address or turned this kind of mail off."""
    if user is None:
        return False
    seat = next((s for s in game.seats if s.user_id == user.id and s.name), None)
    from pbem.mail.gateway import seat_reply_address  # the gateway imports the services
    return mail_user(session, user, subject, body, kind=kind,
                     key=f"{kind}:{game.id}:{event}:{seat.name if seat else f'user{user.id}'}",
                     reply_to=seat_reply_address(session, seat) if seat else None)


def _results(session: Session, game: Game, state: Any) -> None:
    # With report mail on, the final report is the game-over mail of those who want results
    # (its worker falls back to the plain one for a seat it cannot render).
    final = report_mail.final_report_owed(session, game.id, state)
    for seat in game.seats:
        if not (final and report_mail.wants_results(seat)):
            queue_result_mail(session, game, state, seat)


def queue_result_mail(session: Session, game: Game, state: Any, seat: Seat) -> None:
    """The plain "game over" mail, to a person who wants results; once per seat."""
    user = seat.user
    address = user.primary_address if user is not None else None
    if address is None or not user.notify_results:
        return
    result = state.result()
    names = {player["seat"]: player["name"] for player in game.setup.get("players", [])}
    lines = [f"{rank}. {names.get(seat, seat)}: {result['scores'][seat]}"
             for rank, seat in enumerate(result["ranking"], start=1)]
    url = links.game(base_url(), game.id)
    body = (f"{game.title} is over. {names.get(result['winner'], result['winner'])} wins.\n\n"
            + "\n".join(lines) + f"\n\nThe whole game, its record and a replay:\n{url}\n")
    from pbem.mail.gateway import seat_reply_address  # the gateway imports the services
    send_mail(session, address, f"{game.title}: game over", body, kind="result", key=f"result:{game.id}:{seat.name}",
              reply_to=seat_reply_address(session, seat))  # HISTORY, BOARD still answer after the end
