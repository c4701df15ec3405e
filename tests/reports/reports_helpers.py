"""Helpers for the report tests: a recorded 4-player game, replaying it to a point, the
twin game for secrecy, rendering in worker processes, and PDF tools (poppler-utils)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

from engine.aztlan.bots import make_bot, play_out
from engine.aztlan.game import GAME
from engine.records import split_line

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "reports"
SEED = 33  # a game with ties, battles, Sacred Games, Tlatoani, Eagle, Rafts, the wild card,
#            Blessings, a reshuffled deck and two players on the same final score
BOTS = ("heuristic", "random", "heuristic", "random")
NAMES = ("Ana Xóchitl", "Bo", "Cy", "Di")
TITLE = "Friday night Aztlán"


def play_record(seed: int = SEED, names: tuple[str, ...] = NAMES) -> dict[str, Any]:
    """A whole game between bots, as a record (what `pbem play` writes)."""
    seats = GAME.seating(seed, len(BOTS))
    record = {"game": "aztlan", "board": "default", "edition": "default", "options": {}, "seed": seed,
              "players": [{"seat": seat, "name": name} for seat, name in zip(seats, names)]}
    state = GAME.new_game(record)
    play_out(state, [make_bot(bot, f"{seed}:{i}") for i, bot in enumerate(BOTS)])
    return {**record, "orders": state.order_log()}


def replay_until(record: dict[str, Any], reached: Callable[[Any], bool], what: str) -> tuple[Any, int]:
    """The engine's state right after the first order that makes `reached(state)` true, and
    how many orders that took."""
    state = GAME.new_game(record)
    for index, line in enumerate(record["orders"]):
        seat, text = split_line(line)
        state.apply(seat, state.parse(text)[0])
        if reached(state):
            return state, index + 1
    raise AssertionError(f"the record does not reach {what}")


def replay_to_age(record: dict[str, Any], age: int) -> tuple[Any, int]:
    """The engine's state right after the scoring of `age`, and how many orders that took."""
    return replay_until(record, lambda state: len(state.age_scores) == age, f"the end of age {age}")


def twin_record(record: dict[str, Any], other: str, age: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Two records that agree on everything public up to the end of `age` but give seat
    `other` a different prosperity card in hand then: the deck is given explicitly, and
    one drawn card is swapped with a card of another kind that nobody had drawn by then.
    Orders are cut at the end of `age`.  None if this game allows no such swap."""
    state, upto = replay_to_age(record, age)
    o = state.seat_index(other)
    if state.reshuffles:  # every card was drawn once: nothing undrawn to swap with
        return None
    deck = list(state.setup.deck)  # top card first (the test may look: it is the oracle)
    drawn = len(deck) - len(state.deck)
    base = {**record, "deck": deck, "orders": record["orders"][:upto]}
    for i in range(drawn):
        if deck[i] not in state.hands[o]:
            continue
        for j in range(drawn, len(deck)):
            if deck[j] in state.hands[o]:
                continue
            twin_deck = list(deck)
            twin_deck[i], twin_deck[j] = twin_deck[j], twin_deck[i]
            twin = {**base, "deck": twin_deck}
            try:
                twin_state, _ = replay_to_age(twin, age)
            except Exception:  # the swapped card went to a seat that played it later
                continue
            if (sorted(twin_state.hands[o]) != sorted(state.hands[o]) and
                    all(twin_state.hands[s] == state.hands[s] for s in range(state.n) if s != o)):
                return base, twin
    return None


def expand(hand: list[dict[str, Any]]) -> list[str]:
    return sorted(card["id"] for card in hand for _ in range(card["count"]))


def pdf_info(path: Path) -> dict[str, str]:
    done = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True, timeout=30)
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in done.stdout.splitlines() if ":" in line)}


def pdf_text(path: Path) -> str:
    done = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True,
                          timeout=30)
    return done.stdout


def to_png(pdf: Path, dpi: int = 50) -> list[Path]:
    """The PDF's pages as PNG files beside it (pdftoppm), kept as test artefacts."""
    stem = pdf.with_suffix("")
    for old in pdf.parent.glob(stem.name + "-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(stem)], check=True, timeout=120)
    return sorted(pdf.parent.glob(stem.name + "-*.png"))


def have_poppler() -> bool:
    return all(shutil.which(tool) for tool in ("pdftoppm", "pdfinfo", "pdftotext"))


def render_job(job: tuple[str, dict[str, Any], str, str]) -> dict[str, Any]:
    """Render one context to PDF (in a worker process), write it and its PNG pages."""
    from pbem.reports import render_pdf

    name, context, page_size, folder = job
    urls: list[str] = []
    pdf = render_pdf(context, page_size=page_size, fetch_log=urls.append)
    path = Path(folder) / f"{name}.pdf"
    path.write_bytes(pdf)
    pngs = to_png(path) if have_poppler() else []
    return {"name": name, "pdf": str(path), "pngs": [str(p) for p in pngs], "urls": urls}


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def check_set_equals_alone(record: dict[str, Any]) -> int:
    """Every seat's report of every scored round, and its notice after every other phase,
    built in the set (`Moment`: the record replayed once for all seats, the board drawn once)
    equals the one built alone (`round_report` / `phase_notice`: its own replay, no drawing
    kept from the set); likewise `Position.next_step` and `next_step`.  Returns how many
    contexts were compared."""
    from datetime import datetime, timezone

    from engine.records import replay
    from pbem.games.aztlan import report as aztlan_report
    from pbem.reports import Moment, Position, next_step, phase_notice, round_report

    zones = ("Europe/Paris", "America/New_York", "Asia/Tokyo", "UTC")
    state = replay(record)

    def facts(seat: str) -> dict[str, Any]:  # each reader's own zone: a set must not mix them up
        return {"title": TITLE, "tz": zones[state.seats.index(seat) % len(zones)],
                "deadline": datetime(2025, 3, 7, 17, 30, tzinfo=timezone.utc),
                "links": {"game": "https://pbem.example/games/7"}}

    compared = 0
    now = Position(record)
    for milestone in state.milestones():
        moment = (Moment.of_round(record, milestone.round) if milestone.scored
                  else Moment.after_phase(record, milestone.round, milestone.phase))
        in_set = {seat: moment.report(seat, **facts(seat)) if milestone.scored else moment.notice(seat, **facts(seat))
                  for seat in moment.seats}
        for seat, context in in_set.items():
            aztlan_report._drawn.cache_clear()  # alone: nothing drawn for the set is reused
            alone = (round_report(record, seat, milestone.round, **facts(seat)) if milestone.scored
                     else phase_notice(record, seat, milestone.round, milestone.phase, **facts(seat)))
            assert context == alone, f"{seat}'s {milestone} built in the set differs from the one built alone"
            compared += 1
    for seat in state.seats:
        assert now.next_step(seat, **facts(seat)) == next_step(record, seat, **facts(seat))
    return compared
