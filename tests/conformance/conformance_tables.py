"""Games of any registered game played through the service for the conformance suite: people
signed in on the web (a browser each), with an API token and a seat's reply address, a
spectator, and a driver that plays each person's seat with the game's random bot through
the one order path (pbem.services.play), as a player would."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from engine.core import Bot, State
from pbem.mail import gateway, store
from pbem.mail.models import InboundMessage
from pbem.models import Game, OutboxMessage, PendingOrder, User
from pbem.outbox.marker import with_marker
from pbem.outbox.models import MailDelivery
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import load
from pbem.services import accounts, lobby, play
from pbem.services.state import game_state
from gateway_helpers import compose
from service_helpers import make_game, make_user, web_sign_in


@dataclass
class Person:
    user: User
    address: str
    client: FlaskClient  # signed in on the web
    token: dict[str, str]  # the API's Authorization header


@dataclass
class Table:
    """One game of the service: its people by seat (bot seats have none), a spectator's
    browser, and a random bot per seat that picks the person's orders."""

    app: Flask
    session: Session
    game_id: int
    people: dict[str, Person]
    reply_to: dict[str, str]  # seat -> its reply address
    spectator: FlaskClient
    bots: dict[str, Bot] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"/games/{self.game_id}"

    def game(self) -> Game:
        self.session.expire_all()
        game = self.session.get(Game, self.game_id)
        assert game is not None
        return game

    def state(self) -> State:
        """The service's state of the game (shared: never changed here)."""
        return game_state(self.session, self.game())

    def pending(self) -> set[str]:
        return set(self.session.scalars(select(PendingOrder.seat).where(PendingOrder.game_id == self.game_id)))

    def order_for(self, seat: str, bot: Bot | None = None) -> str:
        """The order text the seat's bot (or `bot`) gives now, reading a copy of the state."""
        state = self.state()
        order = (bot or self.bots[seat]).order(state.clone(), state.seats.index(seat))
        return state.order_text(order)

    def submit(self, seat: str, text: str) -> play.Receipt:
        return play.submit_for_user(self.session, self.game_id, self.people[seat].user, text, channel="web")

    def next_seat(self) -> str | None:
        """A person's seat that owes a decision and has no order in yet (None: none)."""
        state, pending = self.state(), self.pending()
        return next((state.seats[s] for s in state.waiting()
                     if state.seats[s] in self.people and state.seats[s] not in pending), None)

    def mails(self, seat: str, topic: str) -> list[str]:
        """The text of the mails about `topic` sent to the seat's person, oldest first."""
        return [body.removeprefix(with_marker("")) for body in self.session.scalars(
            select(OutboxMessage.body).where(OutboxMessage.to_address == self.people[seat].address,
                                             OutboxMessage.topic == topic).order_by(OutboxMessage.id))]

    def ask(self, seat: str, text: str) -> str:
        """Mail `text` to the seat's reply address as its player, through the gateway as any
        channel stores it; the gateway's answer."""
        settings = load(self.app.config)
        raw, _ = compose(self.people[seat].address, self.reply_to[seat], text)
        with self.app.app_context():
            inbound = store.receive(self.session, raw, channel="smtp", envelope_from=self.people[seat].address,
                                    envelope_to=[self.reply_to[seat]], settings=settings)
            status = gateway.process(self.session, inbound, settings)
        row = self.session.get(InboundMessage, inbound)
        assert (status, row.reason) == (InboundMessage.PROCESSED, "ok"), (status, row.reason)
        answer = self.session.scalar(select(OutboxMessage.body).join(MailDelivery)
                                     .where(MailDelivery.key == f"inbound:{inbound}"))
        assert answer is not None, "the gateway did not answer"
        return answer.removeprefix(with_marker(""))


# How each person in turn reads the opponents' moves (pbem/services/moves_mail.py).
MOVES = ("each", "digest", "off")


def make_people(app: Flask, session: Session, count: int) -> list[Person]:
    """`count` people, each signed in on the web in a browser of their own, reading the
    opponents' moves by mail after each advance, in their turn mails, or not at all in turn."""
    people = []
    for number in range(1, count + 1):
        address = f"player{number}@example.org"
        user = make_user(session, address, f"Player {number}")
        accounts.update_profile(session, user, display_name=f"Player {number}", time_zone="UTC", notify_turn=True,
                                notify_results=True, notify_invites=True, opponent_moves=MOVES[(number - 1) % 3])
        client = app.test_client()
        web_sign_in(client, app, address)
        token = accounts.create_api_token(session, user, "conformance")[1]
        people.append(Person(user, address, client, {"Authorization": f"Bearer {token}"}))
    return people


def seat_table(app: Flask, session: Session, people: list[Person], name: str, *, bots: tuple[str, ...] = (),
               seed: int = 7, title: str = "Conformance") -> Table:
    """A game of `name` for the people and the service's `bots`, started."""
    creator, *invited = people
    game = make_game(session, creator.user, game=name, players=len(people) + len(bots), bots=bots,
                     invites=[person.address for person in invited], seed=seed, title=title)
    for person in invited:
        lobby.join_game(session, game.id, person.user)
    session.expire_all()
    game = session.get(Game, game.id)
    assert game.status != Game.OPEN
    by_user = {person.user.id: person for person in people}
    seats = {seat.name: seat for seat in game.seats if seat.user_id is not None}
    settings = load(app.config)
    reply_to = {name_: seat_reply_address(session, seat, settings) for name_, seat in seats.items()}
    session.commit()
    rules = engine.get_game(name)
    return Table(app, session, game.id, {seat_name: by_user[seat.user_id] for seat_name, seat in seats.items()},
                 reply_to, app.test_client(),
                 {seat_name: rules.make_bot("random", f"{seed}:{seat_name}") for seat_name in seats})


def same_page(html: str, game_id: int) -> str:
    """A page without what differs between two games' pages anyway: ids, form tokens, reply
    addresses, the deadline's minute."""
    html = re.sub(r'name="csrf_token" value="[^"]*"', "", html)
    html = re.sub(rf"/games/{game_id}\b", "/games/N", html)
    html = re.sub(r"orders\+[\w-]+@", "orders+X@", html)
    return re.sub(r'<strong class="deadline-at"[^>]*>[^<]*</strong>', "", html)


def same_answer(text: str, game_id: int) -> str:
    """A mail answer without what differs between two games' answers anyway."""
    text = re.sub(rf"\(game {game_id}\)", "(game N)", text)
    text = re.sub(rf"/games/{game_id}\b", "/games/N", text)
    text = re.sub(r"orders\+[\w-]+@", "orders+X@", text)
    return re.sub(r"Deadline: [^\n]*", "Deadline:", text)
