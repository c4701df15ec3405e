"""Replies shaped like those of real mail clients, each read to exactly the intended lines.

Every corpus/<name>.eml has a corpus/<name>.json beside it: the client it imitates, the
From address, the reply token and the order lines a person reading the mail would pick.
"""
from __future__ import annotations

import json
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from engine.aztlan.data import packaged_board
from engine.aztlan.orders import parse_line
from pbem.mail.commands import Invalid, OrderLine, split_commands
from pbem.mail.extract import order_lines
from pbem.mail.inbound import MailConfig, parse_message

CORPUS = Path(__file__).parent / "corpus"
CASES = sorted(path.stem for path in CORPUS.glob("*.eml"))
CONFIG = MailConfig(domain="pbem.example")


def load(name: str) -> tuple[bytes, dict]:
    return (CORPUS / f"{name}.eml").read_bytes(), json.loads((CORPUS / f"{name}.json").read_text("utf-8"))


def test_the_corpus_covers_the_clients_we_promised():
    clients = " ".join(load(name)[1]["client"] for name in CASES).lower()
    assert len(CASES) >= 12
    for shape in ("gmail web", "android", "outlook desktop", "outlook on the web", "iphone",
                  "thunderbird", "8859-1", "html only", "attachment", "german", "french", "spanish",
                  "top-posted", "bottom-posted", "signature", "base64"):
        assert shape in clients or shape in " ".join((CORPUS / f"{n}.eml").read_text("latin-1").lower()
                                                      for n in CASES), shape


@pytest.mark.parametrize("name", CASES)
def test_message_gives_exactly_its_order_lines(name):
    raw, expected = load(name)
    mail = parse_message(raw, config=CONFIG)
    assert order_lines(mail.text) == expected["orders"]
    assert mail.from_address == expected["from"]
    assert mail.token == expected["token"]
    assert mail.attachments_ignored == expected.get("attachments", 0)
    assert not mail.automated
    assert mail.dmarc == "absent"  # no trusted server in this configuration


@pytest.mark.parametrize("name", [name for name in CASES if load(name)[1].get("html_same")])
def test_the_html_alternative_gives_the_same_lines(name):
    """Reading the HTML part instead (as for an HTML-only mail) changes nothing."""
    raw, expected = load(name)
    message = BytesParser(policy=policy.default).parsebytes(raw)
    for part in message.walk():
        if part.get_content_type() == "multipart/alternative":
            part.set_payload([sub for sub in part.get_payload() if sub.get_content_type() != "text/plain"])
    assert order_lines(parse_message(message.as_bytes(), config=CONFIG).text) == expected["orders"]


@pytest.mark.parametrize("name", CASES)
def test_expected_lines_are_game_orders_or_mail_commands(name):
    """The corpus means what it says: each expected line parses in the engine's grammar
    on the default board, or is a well-formed mail command."""
    board = packaged_board("default")
    for command in split_commands(load(name)[1]["orders"]):
        assert not isinstance(command, Invalid), command
        if isinstance(command, OrderLine):
            parse_line(command.line, board)
