"""One seat of a whole game of Cóatl played purely by mail, as production runs it: the web
starts the game, the SMTP gateway (`pbem smtpd`) stores each mail and hands it to a real
`celery worker` (PBEM_ADVANCE=queue, no eager mode), which carries it out, advances the game
(the bot's turns) and delivers every mail over SMTP to a real sink.

Ana plays from her mail client alone.  Each "your turn" mail she gets she answers with
STATUS, BOARD and HAND (a turn mail says whose turn it is, not the position); from those
answers' words (tests/worker/coatl_reader.py) she decides her action and replies with it.
Every reply is what a mail client writes: "Re:" subject, In-Reply-To and References, her
words on top, a signature, the quoted mail below an attribution line."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from email.message import Message
from typing import Any, Iterator

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

import coatl_reader as reader
from engine.records import replay
from gateway_helpers import Sink, body, compose, send
from pbem.app import create_app
from pbem.extensions import db
from pbem.games.coatl.cards import prophecies, temples
from pbem.mail.models import InboundMessage
from pbem.models import Game, OrderLogEntry
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import load
from pbem.services.state import log_lines, record
from service_helpers import make_game
from worker_helpers import wait_until

DOMAIN = "pbem.test"
TITLE = "Snakes by mail"
SEED = 27  # a short game (16 turns of Ana's): the bot completes a third cóatl, Ana's final turn has two
# actions (one mail: her third cóatl, then "take head 1"), the bot keeps its secret temple
NAME, ADDRESS = "Ana", "ana@example.org"
SIGNATURE = "Thanks!\nAna\n\n-- \nAna Example\nSent from my phone"
ASK = "STATUS\nBOARD\nHAND"
WAIT = 120  # seconds: a loaded 2-core machine renders reports and runs the bot meanwhile


@pytest.fixture
def web(stack: Any, app: Flask, sink: Sink) -> Iterator[Flask]:
    """The web app as production runs it beside the workers: its mails are handed to them."""
    started = create_app({**stack.config, "PBEM_MAIL_DOMAIN": DOMAIN, "PBEM_SMTP_HOST": "127.0.0.1",
                          "PBEM_SMTP_PORT": sink.port, "PBEM_SMTP_TLS": "off", "PBEM_REPORT_MAIL": "queue"})
    yield started
    with started.app_context():
        db.engine.dispose()


@dataclass
class MailClient:
    """Ana's mail program: it reads what the sink got for her and replies as clients do."""

    gateway: Any
    sink: Sink
    address: str  # her seat's reply address: every mail she gets must lead back to it
    sent: list[str] = field(default_factory=list)  # Message-IDs
    seen: set[str] = field(default_factory=set)  # Message-IDs of the mails acted on

    def inbox(self) -> list[Message]:
        return self.sink.to(ADDRESS)

    def next_mail(self) -> Message:
        """The next turn mail or the final report not acted on yet."""
        def new() -> Message | None:
            return next((m for m in self.inbox() if m["Message-ID"] not in self.seen and
                         (m["Subject"].startswith("Your turn") or "final report" in m["Subject"])), None)
        found = wait_until(new, WAIT, "Ana's next turn mail or the final report", interval=0.05)
        self.seen.add(found["Message-ID"])
        return found

    def reply(self, to: Message, text: str) -> tuple[Message, str]:
        """Reply to `to` with `text` on top, the signature, and the quoted mail; the answer and
        its text."""
        original = to.get_body(("plain",)).get_content().replace("\r\n", "\n")
        quoted = "\n".join(f"> {line}".rstrip() for line in original.splitlines())
        words = f"{text}\n\n{SIGNATURE}\n\nOn {to['Date']}, {to['From']} wrote:\n{quoted}\n"
        address = str(to["Reply-To"] or to["From"])
        assert address == self.address, (to["Subject"], address)
        references = f"{to['References'] or ''} {to['Message-ID']}".strip()
        raw, message_id = compose(ADDRESS, address, words, subject=f"Re: {to['Subject']}",
                                  headers={"In-Reply-To": to["Message-ID"], "References": references})
        # Lines end in CRLF on the wire (smtplib sends bytes as they are; longer mails than one
        # SMTP line of 1000 need it).
        send(self.gateway.port, re.sub(rb"\r?\n", b"\r\n", raw), ADDRESS, address)
        assert self.gateway.handler.wait_idle(30)  # stored, and handed to a worker
        self.sent.append(message_id)
        [answer] = wait_until(lambda: self.sink.replies_to(message_id), WAIT, f"the answer to {text!r}")
        self.seen.add(answer["Message-ID"])
        return answer, body(answer)


def split_answer(answer: str) -> tuple[str, str, str]:
    """STATUS, BOARD and HAND of one answer (each is a block of the answer, in that order)."""
    status, _, rest = answer.partition("\nBoard of ")
    start = min(rest.find(title) for title in ("\nYour draw, to keep", "\nYour prophecies:") if title in rest)
    return status, "Board of " + rest[:start], rest[start + 1:]


def echo(accepted: str) -> list[str]:
    """The orders an "Accepted for ..." answer lists, one per line, as stored."""
    block = accepted.split("\n\n", 1)[0].splitlines()[1:]
    assert all(line.startswith("    ") for line in block), accepted
    return [line.strip() for line in block]


# ---- what must never be told --------------------------------------------------------------------

def secrets(game: Game, lines: list[str], bot: str) -> tuple[dict[int, str], dict[int, str], dict[int, str]]:
    """After the orders `lines`, card number -> title of: the bot's prophecies (in its hand, or
    its setup draw) of which one copy exists, so Ana cannot hold it too; its temples not
    fulfilled; and Ana's own one-copy prophecies."""
    state = replay(record(game, lines))
    robot, anas = (state.players[state.seats.index(bot)], state.players[1 - state.seats.index(bot)])
    single = {number: card.title for number, card in prophecies().items() if card.copies == 1}
    fulfilled = {coatl.temple for coatl in robot.coatls}
    return ({card: single[card] for card in {*robot.hand, *robot.dealt} if card in single},
            {temple: temples()[temple].title for temple in robot.temples if temple not in fulfilled},
            {card: single[card] for card in {*anas.hand, *anas.dealt} if card in single})


def logged(session: Session, game_id: int) -> int:
    count = session.scalar(select(func.count()).select_from(OrderLogEntry).where(OrderLogEntry.game_id == game_id))
    session.rollback()
    return int(count or 0)


def mail_words(message: Message) -> str:
    """Everything a mail says in words: its text parts and its HTML parts as text."""
    words = []
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            words.append(part.get_content())
        elif part.get_content_type() == "text/html":
            words.append(html.unescape(re.sub(r"<[^>]+>", " ", part.get_content())))
    return "\n".join(words)


def tells(card: int, title: str) -> re.Pattern[str]:
    """A card written as mails write one: its number, then its title in brackets."""
    return re.compile(rf"\b{card}\b\W{{1,3}}{re.escape(title)}\b")


# ---- the game ----------------------------------------------------------------------------------------

def test_one_seat_plays_a_whole_coatl_game_by_mail(app, session, make_user, workers, stack, sink, mail_env,
                                                   gateway, web):
    workers.start(concurrency=2, **mail_env)
    ana = make_user(session, ADDRESS, NAME)
    with web.app_context():  # created on the web: its first turn mail goes to the workers
        game = make_game(session, ana, title=TITLE, game="coatl", players=2, bots=("heuristic",), seed=SEED,
                         options={"body_pieces": "fewer"})
    game_id = game.id
    seat = next(s for s in game.seats if s.user_id == ana.id)
    bot = next(s.name for s in game.seats if s.bot)
    seat_name, address = seat.name, seat_reply_address(session, seat, load({**app.config, "PBEM_MAIL_DOMAIN": DOMAIN}))
    session.commit()
    client = MailClient(gateway, sink, address)

    orders: list[str] = []  # every action Ana sent, as the answers echoed it
    two = 0  # mails that carried two actions (a final turn's)
    turn_mails: list[Message] = []
    answers: list[str] = []
    moments: list[tuple[int, list[str]]] = []  # the log's length at a turn, and the words Ana got then
    while True:
        mail = client.next_mail()
        if "final report" in mail["Subject"]:
            final = mail
            break
        turn_mails.append(mail)
        answer, asked = client.reply(mail, ASK)
        answers.append(asked)
        length = logged(session, game_id)  # nothing moves while the game waits for Ana
        position = reader.read(NAME, *split_answer(asked))
        assert position.asked, f"a turn mail came, but STATUS asks nothing of Ana:\n{asked}"
        text = reader.keep(position) if position.asked == "keep" else reader.turn(position)
        _, accepted = client.reply(answer, text)  # she answers the answer she read
        answers.append(accepted)
        moments.append((length, [mail_words(mail), asked, accepted]))
        assert accepted.startswith(f"Accepted for {NAME} ({seat_name}) in game {game_id}"), accepted
        echoed = echo(accepted)  # as stored: canonical words ("add red body to 1" for "add red to 1")
        assert len(echoed) == len(text.splitlines()), (text, accepted)
        two += len(echoed) == 2
        orders.extend(echoed)

    # The game is over, advanced by the worker alone, with a result the log replays to.
    session.expire_all()
    game = session.get(Game, game_id)
    assert game.status == Game.FINISHED and game.result and game.result["ranking"]
    log = session.execute(select(OrderLogEntry.seq, OrderLogEntry.seat, OrderLogEntry.text, OrderLogEntry.by)
                          .where(OrderLogEntry.game_id == game_id).order_by(OrderLogEntry.seq)).all()
    lines = log_lines(session, game_id)
    session.rollback()
    assert [row.seq for row in log] == list(range(1, len(log) + 1))
    # Every action Ana mailed is in the log exactly once, in her order, and nothing else of hers.
    assert [row.text for row in log if row.seat == seat_name] == orders and two == 1
    assert {row.by for row in log if row.seat == seat_name} == {"player"}
    assert {row.seat for row in log if row.by != "player"} == {bot}
    assert replay(record(game, lines)).result().to_json() == game.result
    # Each of her mails was carried out once, and none was refused.
    rows = session.execute(select(InboundMessage.message_id, InboundMessage.status, InboundMessage.reason)
                           .where(InboundMessage.message_id.in_(client.sent))).all()
    session.rollback()
    assert sorted(row.message_id for row in rows) == sorted(client.sent)
    assert {(row.status, row.reason) for row in rows} == {("processed", "ok")}

    # She got a turn mail for each of her turns (one per mail of orders), and the final report:
    # text, HTML and the PDF, replying to which still reaches her seat.
    assert len(turn_mails) == len(client.sent) // 2 >= 10
    kinds = [part.get_content_type() for part in final.walk()]
    assert "text/plain" in kinds and "text/html" in kinds, kinds
    [pdf] = [part for part in final.walk() if part.get_content_type() == "application/pdf"]
    assert pdf.get_payload(decode=True).startswith(b"%PDF-") and pdf.get_filename().endswith(".pdf")
    assert final["Reply-To"] == address
    assert f"For {NAME} (" in final.get_body(("plain",)).get_content()

    # Nothing she was mailed tells the bot's prophecies or its secret temple while they are secret,
    # though her own are told her, in the words the check looks for.
    told, checked, shown = set(), set(), set()
    for length, words in moments:
        hidden, secret, hers = secrets(game, lines[:length], bot)
        checked.update(hidden)
        for text in words:
            told.update(card for card, title in hidden.items() if tells(card, title).search(text))
            told.update(title for title in secret.values() if title in text)
            shown.update(card for card, title in hers.items() if tells(card, title).search(text))
        assert hers.keys() <= shown, (length, hers, words)
    _, secret, _ = secrets(game, lines, bot)
    assert checked and secret, "the bot kept nothing secret: the check would prove nothing"
    told.update(title for m in client.inbox() for title in secret.values() if title in mail_words(m))
    assert not told, told
