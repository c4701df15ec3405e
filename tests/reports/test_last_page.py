"""No report PDF ends in a nearly empty page (pbem/reports/render.py lays a report out again a
little tighter when its last page would be nearly empty; _style.css keeps a list's last items
together).  Recorded bot games of every registered game, their reports rendered in A4 and
Letter; each PDF's pages are drawn by poppler and measured by their ink.

The measure: how far down its page the content of the last page reaches (the lowest row with
ink, the running footer below the content excluded), as a share of the page's height.  A page
with a line or two reaches about a tenth of the way down (the top margin is 5% of it); the
last page must reach at least a quarter, i.e. carry a real share of a page.  A one-page report
has no page to spare and is not measured."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import engine
from engine.core import play_out
from pbem.reports import reports_for_record, render_pdf

# Seeds whose reports, before the tighter second layout, ended on pages of a line or two:
# Cóatl 1 and 7 (an event line and the closing note), Aztlán 33 and 5 (what happens next in Letter).
GAMES = {"aztlan": ((33, 5), 4), "coatl": ((1, 7), 3), "duel": ((1, 2), 3), "azteca": ((7, 4), 3)}
BOARDS = ("aztlan", "azteca")  # their boards make their PDFs slow: one page size each
LEAST_REACH = 0.25
FOOTER_ZONE_MM = 10  # the running footer sits lower than this above the page's bottom edge
DPI = 36


def recorded_game(name: str, seed: int, players: int) -> dict:
    game = engine.get_game(name)
    seats = game.seating(seed, players)
    record = {"game": name, "seed": seed, "players": [{"seat": s, "name": f"Player {i}"} for i, s in enumerate(seats)]}
    state = game.new_game(record)
    play_out(state, [game.make_bot("random", f"{seed}:{i}") for i in range(players)])
    return {**record, "orders": state.order_log()}


def chosen_reports(name: str):
    """Every final report, and one seat's report of every other round (the seat goes round):
    (label, context, page size).  A game with a board picture (BOARDS) gets one size each."""
    seeds, players = GAMES[name]
    for seed in seeds:
        record = recorded_game(name, seed, players)
        for index, (seat, number, context) in enumerate(reports_for_record(record, title="Friday game")):
            if context["kind"] != "final" and index % players != number % players:
                continue
            sizes = ("A4", "Letter") if name not in BOARDS else (("A4", "Letter")[index % 2],)
            for size in sizes:
                yield f"{name}-{seed}-{seat}-{number}-{size}", context, size


def ink_reach(png: Path) -> float:
    """How far down the page its content reaches, as a share of the page's height."""
    from PIL import Image

    page = Image.open(png).convert("L")
    width, height = page.size
    above_footer = height - round(FOOTER_ZONE_MM / 25.4 * DPI)
    rows = [y for y in range(above_footer) if page.crop((0, y, width, y + 1)).getextrema()[0] < 200]
    return (rows[-1] + 1) / height if rows else 0.0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_report_ends_on_a_nearly_empty_page(name, tmp_path, poppler):
    assert set(GAMES) == set(engine.games()), "every registered game is measured"
    measured, short = 0, []
    for label, context, size in chosen_reports(name):
        pdf = tmp_path / f"{label}.pdf"
        pdf.write_bytes(render_pdf(context, page_size=size))
        pages = int(subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True,
                                   timeout=60).stdout.split("Pages:")[1].split()[0])
        if pages < 2:
            continue
        subprocess.run(["pdftoppm", "-gray", "-r", str(DPI), "-f", str(pages), "-l", str(pages), "-png",
                        str(pdf), str(tmp_path / label)], check=True, timeout=120)
        reach = ink_reach(next(tmp_path.glob(f"{label}-*.png")))
        measured += 1
        if reach < LEAST_REACH:
            short.append((label, pages, round(reach, 3)))
    assert not short, f"reports ending on a nearly empty page (label, pages, reach): {short}"
    if name != "duel":  # Duel's plain reports fit one page: nothing to measure, nothing to fail
        assert measured >= 4, "the chosen games give reports of more than one page"
