"""What an advance tells the players: mails queued in the outbox, in the advance's own
transaction, so a notification exists exactly when the change it announces was committed.

- "turn": a person who newly owes a decision (and wants turn mails) is told which one.  After
  a backlog only the newest turn mail of a game goes out (delivery withholds the older ones).
- "result": when the game ends, every person in it (who wants results) gets the result.

Mails are built from public facts (the kind of decision, the published result), never from
the full state.  Richer turn reports and age reports are rendered elsewhere (pbem/reports/);
the outbox is delivered by its own worker.
"""
from __future__ import annotations

import os
from typing import Any, Iterable

from flask import current_app, has_app_context
from sqlalchemy.orm import Session

from pbem.mail.outbox import send_mail
from pbem.models import Game, Seat
from pbem.services import links, moves_mail, report_mail

WHAT = {"power": "choose your power card", "turn": "play your development turn",
        "conflict": "settle the conflicts you won", "reaction": "answer a battle declared against you",
        "scoring": "carry out your scoring"}


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
    url = links.game(base_url(), game.id)
    moves_mail.after_advance(session, game, state)  # opponents' moves, for "each" readers
    newly_waiting = list(newly_waiting)
    # A report or notice of this moment tells these seats it is their turn: one mail, not two.
    told = (report_mail.record_jobs(session, game, state, milestones_before, newly_waiting)
            if milestones_before is not None else set())
    if state.is_over():
        _results(session, game, state, url)
        return
    kinds = {d.seat: d.kind for d in state.decisions(options=False)}
    for seat in newly_waiting:
        user = seat.user
        address = user.primary_address if user is not None else None
        if address is None or not user.notify_turn or seat.tribe in told:
            continue
        subject = turn_subject(game)
        what = WHAT.get(kinds.get(seat.tribe or "", ""), "decide")
        from pbem.mail.gateway import seat_reply_address  # the gateway imports the services
        # Replies go to the seat's own token address; one mail per seat and decision.
        send_mail(session, address, subject,
                  f"{game.title}: it is your turn to {what}.\n\nOpen the game:\n{url}\n\n"
                  f"Or reply to this mail with your orders, one per line (send HELP for help).\n"
                  + moves_mail.since_last_turn(session, game, state, seat),
                  kind="turn", reply_to=seat_reply_address(session, seat),
                  key=f"turn:{game.id}:{len(state.order_log())}:{seat.tribe}")


def _results(session: Session, game: Game, state: Any, url: str) -> None:
    result = state.result()
    names = {player["seat"]: player["name"] for player in game.setup.get("players", [])}
    lines = [f"{rank}. {names.get(seat, seat)}: {result['scores'][seat]}"
             for rank, seat in enumerate(result["ranking"], start=1)]
    body = (f"{game.title} is over. {names.get(result['winner'], result['winner'])} wins.\n\n"
            + "\n".join(lines) + f"\n\nThe whole game, its record and a replay:\n{url}\n")
    for seat in game.seats:
        user = seat.user
        address = user.primary_address if user is not None else None
        if address is not None and user.notify_results:
            send_mail(session, address, f"{game.title}: game over", body, kind="result")
