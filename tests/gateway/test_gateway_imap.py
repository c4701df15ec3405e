"""The IMAP poller against a real server (a private Dovecot): messages delivered into the
mailbox become orders exactly once, however often it polls and even when it crashes between
storing a message and marking it seen; oversized mail is skipped and flagged; a wrong
password is a clear error that changes nothing."""
from __future__ import annotations

import imaplib
import re
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gateway_helpers import compose, inbound_rows, snapshot
from imap_server import PASSWORD, Dovecot, dovecot, dovecot_server  # noqa: F401 - fixtures
from pbem.mail import gateway, replies
from pbem.mail.imap import ImapError, poll, poll_once
from pbem.mail.inbound import MAX_BYTES
from pbem.outbox.settings import MailSettings, load
from pbem.models import OrderLogEntry, OutboxMessage
from seat_game import ANA, ana_game


@pytest.fixture
def table(app: Any, session: Session) -> dict[str, Any]:
    return ana_game(session, app.config)


def _settings(app: Any, server: Dovecot, **overrides: Any) -> MailSettings:
    return load({**app.config, **server.settings(), **overrides})


def _orders(session: Session, table: dict[str, Any]) -> list[str]:
    """Ana's orders in the game's log."""
    session.expire_all()
    return list(session.scalars(select(OrderLogEntry.text).where(
        OrderLogEntry.game_id == table["game_id"], OrderLogEntry.seat == table["seat"])))


def _replies(session: Session) -> int:
    return int(session.scalar(select(func.count(OutboxMessage.id)).where(
        OutboxMessage.to_address == ANA, OutboxMessage.topic == replies.REPLY_TOPIC)) or 0)


def test_appended_mail_becomes_orders_once(app: Any, session: Session, table: dict[str, Any],
                                           dovecot: Dovecot) -> None:
    raw, _ = compose(ANA, table["address"], table["order"] + "\nSTATUS")
    dovecot.append(raw)
    settings = _settings(app, dovecot)

    ids = poll(session, settings)

    assert len(ids) == 1
    row = inbound_rows(session)[-1]
    assert (row.channel, row.status, row.reason) == ("imap", "processed", "ok")
    assert _orders(session, table) == [table["order"]]
    assert _replies(session) == 1
    assert dovecot.flags() == [{r"\Seen"}]
    # Nothing new: a second poll fetches nothing and changes nothing.
    after = snapshot(session, table["game_id"])
    assert poll(session, settings) == []
    assert snapshot(session, table["game_id"]) == after
    assert len(inbound_rows(session)) == 1 and _replies(session) == 1


def test_a_crash_between_storing_and_flagging_does_not_repeat_orders(
        app: Any, session: Session, table: dict[str, Any], dovecot: Dovecot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    raw, _ = compose(ANA, table["address"], table["order"])
    dovecot.append(raw)
    settings = _settings(app, dovecot)
    real_uid = imaplib.IMAP4.uid

    def crash_on_store(self: imaplib.IMAP4, command: str, *args: Any) -> Any:
        if command.upper() == "STORE":
            raise imaplib.IMAP4.abort("connection lost")  # the poller dies after the commit
        return real_uid(self, command, *args)

    monkeypatch.setattr(imaplib.IMAP4, "uid", crash_on_store)
    with pytest.raises(ImapError, match="went away"):
        poll_once(session, settings)
    monkeypatch.setattr(imaplib.IMAP4, "uid", real_uid)
    assert dovecot.flags() == [set()], "not marked seen: the next poll fetches it again"
    assert gateway.process_pending(session, settings) == ["processed"]  # the sweep finds the stored copy
    before = snapshot(session, table["game_id"])

    assert len(poll(session, settings)) == 1  # the same message, stored a second time

    rows = inbound_rows(session)
    assert [(r.status, r.reason) for r in rows] == [("processed", "ok"), ("ignored", "duplicate_message_id")]
    assert snapshot(session, table["game_id"]) == before
    assert _orders(session, table) == [table["order"]]
    assert _replies(session) == 1
    assert dovecot.flags() == [{r"\Seen"}]


def test_an_oversized_message_is_skipped_and_flagged(app: Any, session: Session, table: dict[str, Any],
                                                     dovecot: Dovecot) -> None:
    big, _ = compose(ANA, table["address"], table["order"] + "\n" + ("y" * 76 + "\n") * (MAX_BYTES // 77 + 10))
    small, _ = compose(ANA, table["address"], "STATUS")
    dovecot.append(big)
    dovecot.append(small)
    before = snapshot(session, table["game_id"])

    ids = poll(session, _settings(app, dovecot))

    assert len(ids) == 1 and inbound_rows(session)[0].reason == "ok"  # only the small one
    assert snapshot(session, table["game_id"]) == before
    assert dovecot.flags() == [{r"\Seen", r"\Flagged"}, {r"\Seen"}]


def test_a_wrong_password_is_a_clear_error_and_changes_nothing(app: Any, session: Session,
                                                               table: dict[str, Any], dovecot: Dovecot) -> None:
    raw, _ = compose(ANA, table["address"], table["order"])
    dovecot.append(raw)
    before = snapshot(session, table["game_id"])

    with pytest.raises(ImapError, match="login .* failed") as error:
        poll(session, _settings(app, dovecot, PBEM_IMAP_PASSWORD="not-the-password"))

    assert "PBEM_IMAP_PASSWORD" in str(error.value) and "not-the-password" not in str(error.value)
    assert PASSWORD not in str(error.value)
    assert inbound_rows(session) == [] and _replies(session) == 0
    assert snapshot(session, table["game_id"]) == before
    assert dovecot.flags() == [set()]


def test_a_missing_folder_is_a_clear_error(app: Any, session: Session, dovecot: Dovecot) -> None:
    with pytest.raises(ImapError, match="cannot open the IMAP folder 'Game Mail'"):
        poll_once(session, _settings(app, dovecot, PBEM_IMAP_FOLDER="Game Mail"))


@pytest.mark.parametrize("shape", ["html-only base64", "plain base64"])
def test_html_only_and_base64_mail_over_imap(app: Any, session: Session, table: dict[str, Any],
                                             dovecot: Dovecot, shape: str) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = ANA, table["address"], "Re: your turn"
    message["Message-ID"] = make_msgid(domain="client.example")
    if shape.startswith("html"):
        message.set_content(f"<html><body><div>{table['order']}</div><div><br></div>"
                            f"<blockquote>card 99</blockquote></body></html>", subtype="html", cte="base64")
    else:
        message.set_content(f"{table['order']}\n\n> card 99\n", cte="base64")
    raw = bytes(message)
    assert table["order"].encode() not in raw  # base64 on the wire
    dovecot.append(raw)

    poll(session, _settings(app, dovecot))

    row = inbound_rows(session)[-1]
    assert (row.status, row.reason) == ("processed", "ok")
    assert _orders(session, table) == [table["order"]]


def test_what_was_stored_before_the_connection_dropped_is_processed(
        app: Any, session: Session, table: dict[str, Any], dovecot: Dovecot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As from cron (`pbem imap-poll`), where no sweep would find it later."""
    first, _ = compose(ANA, table["address"], table["order"])
    second, _ = compose(ANA, table["address"], "STATUS")
    dovecot.append(first)
    dovecot.append(second)
    settings = _settings(app, dovecot)
    real_uid, stores = imaplib.IMAP4.uid, []

    def drop_on_second_store(self: imaplib.IMAP4, command: str, *args: Any) -> Any:
        if command.upper() == "STORE":
            stores.append(args[0])
            if len(stores) == 2:
                raise imaplib.IMAP4.abort("connection lost")
        return real_uid(self, command, *args)

    monkeypatch.setattr(imaplib.IMAP4, "uid", drop_on_second_store)
    with pytest.raises(ImapError, match="went away"):
        poll(session, settings)
    monkeypatch.setattr(imaplib.IMAP4, "uid", real_uid)

    assert [(r.status, r.reason) for r in inbound_rows(session)] == [("processed", "ok"), ("processed", "ok")]
    assert _orders(session, table) == [table["order"]] and _replies(session) == 2
    assert dovecot.flags() == [{r"\Seen"}, set()]
    # The next poll fetches the unmarked one again and drops it as a replay.
    assert len(poll(session, settings)) == 1
    assert inbound_rows(session)[-1].reason == "duplicate_message_id"
    assert _replies(session) == 2 and dovecot.flags() == [{r"\Seen"}, {r"\Seen"}]


def test_a_message_larger_than_its_reported_size_is_flagged_and_the_poll_goes_on(
        app: Any, session: Session, table: dict[str, Any], dovecot: Dovecot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server may report a size smaller than what it then sends: the message is refused when
    stored, flagged like any oversized one, and the poll does not stop on it."""
    big, _ = compose(ANA, table["address"], table["order"] + "\n" + ("y" * 76 + "\n") * (MAX_BYTES // 77 + 10))
    small, _ = compose(ANA, table["address"], "STATUS")
    dovecot.append(big)
    dovecot.append(small)
    real_uid = imaplib.IMAP4.uid

    def understated(self: imaplib.IMAP4, command: str, *args: Any) -> Any:
        status, data = real_uid(self, command, *args)
        if command.upper() == "FETCH" and args[1] == "(RFC822.SIZE)":
            data = [re.sub(rb"RFC822\.SIZE \d+", b"RFC822.SIZE 1000", part) if isinstance(part, bytes) else part
                    for part in data]
        return status, data

    monkeypatch.setattr(imaplib.IMAP4, "uid", understated)
    settings = _settings(app, dovecot)

    ids = poll(session, settings)

    assert len(ids) == 1 and [r.reason for r in inbound_rows(session)] == ["ok"]  # the small one
    assert dovecot.flags() == [{r"\Seen", r"\Flagged"}, {r"\Seen"}]
    assert poll(session, settings) == []  # nothing left to stop on


def test_a_bad_answer_from_the_server_is_an_imap_error(app: Any, session: Session, table: dict[str, Any],
                                                       dovecot: Dovecot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A BAD answer makes imaplib raise its own IMAP4.error: the poller says ImapError, as for
    every other failure, and keeps nothing half done."""
    raw, _ = compose(ANA, table["address"], table["order"])
    dovecot.append(raw)
    real_uid = imaplib.IMAP4.uid

    def garbled(self: imaplib.IMAP4, command: str, *args: Any) -> Any:
        if command.upper() == "FETCH" and args[1] == "(RFC822.SIZE)":
            args = (args[0], "(NO.SUCH.ITEM)")  # Dovecot answers BAD
        return real_uid(self, command, *args)

    monkeypatch.setattr(imaplib.IMAP4, "uid", garbled)
    with pytest.raises(ImapError, match="127.0.0.1"):
        poll(session, _settings(app, dovecot))
    assert inbound_rows(session) == [] and dovecot.flags() == [set()]
