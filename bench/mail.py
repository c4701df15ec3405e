"""Inbound mail parsing: messages per second on the test corpus, and the slowest of the
hostile inputs the tests feed (they once took minutes; now bounded)."""
from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from pbem.mail.extract import html_to_text, order_lines, reply_text
from pbem.mail.inbound import MailConfig, MailRejected, parse_message

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "mail" / "corpus"
CONFIG = MailConfig(domain="pbem.example")
ROUNDS = 20

HOSTILE_TEXT = {
    "reply_text_long_on_line": lambda: reply_text("card 5\nOn " + "a " * 100_000 + "\n"),
    "html_unclosed_comments": lambda: html_to_text("<div>card 5</div>" + "<!--" * 250_000),
    "html_many_tags": lambda: html_to_text("<div>card 5</div>" + "<b>x</b>" * 125_000),
}


def _hostile_headers() -> bytes:
    return (b"From: a@b.example\r\nTo: orders@pbem.example\r\nSubject: " + b"=?utf-8?q?a?= " * 60_000
            + b"\r\nMessage-ID: <m@b.example>\r\n\r\ncard 5\r\n")


def run() -> list[dict[str, Any]]:
    messages = [path.read_bytes() for path in sorted(CORPUS.glob("*.eml"))]
    for raw in messages:  # warm up imports and regex caches
        order_lines(parse_message(raw, config=CONFIG).text)

    def corpus_round() -> float:
        start = time.perf_counter()
        for raw in messages:
            order_lines(parse_message(raw, config=CONFIG).text)
        return time.perf_counter() - start

    per_round = statistics.median(corpus_round() for _ in range(ROUNDS))
    rows = [{"name": "mail.parse_corpus", "value": round(len(messages) / per_round, 1),
             "unit": "messages/s", "messages": len(messages),
             "note": "parse, extract the reply and find order lines; no database"}]
    hostile = dict(HOSTILE_TEXT)

    def headers() -> None:
        try:
            parse_message(_hostile_headers(), config=CONFIG)
        except MailRejected:
            pass

    hostile["huge_encoded_subject"] = headers
    worst = {}
    for name, work in hostile.items():
        start = time.perf_counter()
        work()
        worst[name] = round((time.perf_counter() - start) * 1000, 1)
    rows.append({"name": "mail.hostile_input_worst", "value": max(worst.values()), "unit": "ms",
                 "cases": worst})
    return rows
