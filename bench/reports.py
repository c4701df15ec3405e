"""Report rendering speed, all in this one process after a warm-up, as in a warm Celery worker
(the packaged default board, a recorded 4-player game):

- `reports.pdf_ms`, `reports.html_ms`: the median milliseconds per PDF and per mail HTML over
  every report of the game (PDFs: each once, then PDF_RENDERS more, cycling through them;
  each PDF whole, its public pages not taken from another seat's: pbem/reports/render.py).
- `reports.pdf_per_fair_floor`: a report's PDF beside the *fair floor* measured in the same run:
  the same report's HTML (pages, tables, the same board drawing inline, the emblem inline),
  written once to a static string and fed straight to `weasyprint.HTML(string=...).write_pdf()`:
  what WeasyPrint alone costs for that document.  (`reports.weasyprint_floor_ms`, a one-line
  document, is kept as a row for reference, no longer as a ratio: it has no pages or tables.)
- `reports.milestone_set_per_single`: what the report worker does for one milestone (replay,
  each seat's context and "what happens next", mail with its board PNG, PDF) for all 4 seats,
  over the same for one seat alone, each from cold caches (pbem/services/report_mail.py).
- `reports.pdf_rss_growth_mb`, `reports.pdf_traced_growth_kb`: resident memory per PDF over
  the PDF_RENDERS renders after each report was rendered once (the first renders fill caches
  and the allocator's arenas), and Python's own allocations per PDF (tracemalloc) over TRACED more,
  each measured without the public pages kept for the next seat (bounded: the last two).
"""
from __future__ import annotations

import gc
import os
import re
import statistics
import time
import tracemalloc
from typing import Any, Callable

from engine.aztlan.bots import make_bot, play_out
from engine.aztlan.game import GAME

SEED = 33
BOTS = ("heuristic", "random", "heuristic", "random")
FLOOR_RUNS = 15
HTML_REPEATS = 3
MAIL_REPORTS = 8
PDF_RENDERS = 50
TRACED = 10
FAIR_PAIRS = 6    # (report, fair floor) pairs, alternating, against drift
MILESTONES = (2, 3)  # ages whose 4-seat set is timed against one seat
MINIMAL = "<!DOCTYPE html><html><head><style>@page{size:A4}</style></head><body><p>Age 1.</p></body></html>"


def _record() -> dict[str, Any]:
    seats = GAME.seating(SEED, len(BOTS))
    record = {"game": "aztlan", "board": "default", "edition": "default", "seed": SEED,
              "players": [{"seat": seat, "name": f"Player {i + 1}"} for i, seat in enumerate(seats)]}
    state = GAME.new_game(record)
    play_out(state, [make_bot(bot, f"{SEED}:{i}") for i, bot in enumerate(BOTS)])
    return {**record, "orders": state.order_log()}


def _ms(work: Callable[[], Any]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def _row(name: str, values: list[float], **extra: Any) -> dict[str, Any]:
    return {"name": name, "value": round(statistics.median(values), 1), "unit": "ms",
            "runs": len(values), "min": round(min(values), 1), "max": round(max(values), 1), **extra}


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def _static_report(context: dict[str, Any]) -> str:
    """The report's PDF HTML as a static document: its pictures inline (the board drawing the
    PDF shows, the emblem), nothing to fetch, no templates."""
    from pbem.reports.glyphs import drawable
    from pbem.reports.render import _render, print_board
    from pbem.reports.safety import read_asset

    html = drawable(_render(context, "pdf", "A4"))
    board, emblem = print_board(context) or "", read_asset("emblem.svg").decode("utf-8")
    html = re.sub(r'<img class="board"[^>]*>', lambda _: board, html)
    html = re.sub(r'<img src="pbem-asset:emblem.svg"[^>]*>', lambda _: emblem, html)
    assert "pbem-" not in html, "the static document still fetches something"
    return html


def _milestone_ms(record: dict[str, Any], age: int, seats: list[str]) -> float:
    """The report worker's work for `seats` of one milestone, from cold caches: one replay of
    the moment and of the game now, then per seat its context, what happens next, its mail
    (board PNG) and PDF (as pbem/services/report_mail.py renders them)."""
    from pbem.games.aztlan import report as aztlan_report
    from pbem.reports import Moment, Position, render_report
    from pbem.reports.render import forget_shared_layouts, svg_to_png

    svg_to_png.cache_clear()
    aztlan_report._drawn.cache_clear()
    forget_shared_layouts()
    start = time.perf_counter()
    moment, now = Moment.of_round(record, age), Position(record)
    for seat in seats:
        context = moment.report(seat, title="Bench game")
        context["next"] = now.next_step(seat, title="Bench game")
        render_report(context)
    return (time.perf_counter() - start) * 1000


def run() -> list[dict[str, Any]]:
    import weasyprint

    from pbem.reports import make_url_fetcher, render_html, render_mail, reports_for_record
    from pbem.reports.render import forget_shared_layouts, last_page_share, rasteriser, svg_to_png

    def render_pdf(context: dict[str, Any]) -> bytes:
        """One report's whole PDF: its public pages laid out too, not kept from another."""
        from pbem.reports import render_pdf as render
        forget_shared_layouts()
        return render(context)

    record = _record()
    contexts: list[dict[str, Any]] = []
    context_ms: list[float] = []
    start = time.perf_counter()
    for _, _, context in reports_for_record(record, title="Bench game"):
        contexts.append(context)
    context_ms.append((time.perf_counter() - start) * 1000 / len(contexts))

    def floor() -> bytes:
        return weasyprint.HTML(string=MINIMAL, base_url=None, url_fetcher=make_url_fetcher()).write_pdf()

    # Warm-up: fonts, templates, the board drawing, WeasyPrint's user-agent style sheet.
    floor()
    render_pdf(contexts[0])
    render_html(contexts[0], for_mail=True)

    floor_ms = [_ms(floor) for _ in range(FLOOR_RUNS)]
    pdf_ms = [_ms(lambda c=c: render_pdf(c)) for c in contexts]  # every report once: caches filled
    forget_shared_layouts()
    gc.collect()
    rss_before = _rss_mb()
    pdf_ms += [_ms(lambda c=contexts[i % len(contexts)]: render_pdf(c)) for i in range(PDF_RENDERS)]
    forget_shared_layouts()
    gc.collect()
    rss_growth = (_rss_mb() - rss_before) / PDF_RENDERS
    html_ms = [_ms(lambda c=c: render_html(c, for_mail=True)) for c in contexts for _ in range(HTML_REPEATS)]
    floor_ms += [_ms(floor) for _ in range(FLOOR_RUNS)]  # before and after, against drift

    fair = contexts[len(contexts) // 2]  # a middle age's report: every section, four pages
    static = _static_report(fair)
    share = last_page_share(weasyprint.HTML(string=static).render())  # under NEARLY_EMPTY: laid out again
    report_ms, fair_ms = [], []
    for _ in range(FAIR_PAIRS):
        report_ms.append(_ms(lambda: render_pdf(fair)))
        fair_ms.append(_ms(lambda: weasyprint.HTML(string=static).write_pdf()))

    tracemalloc.start()
    render_pdf(contexts[0])
    forget_shared_layouts()  # the public pages kept for the next seat are not a leak (a few MB, bounded)
    gc.collect()
    traced_before = tracemalloc.get_traced_memory()[0]
    for i in range(TRACED):
        render_pdf(contexts[i % len(contexts)])
    forget_shared_layouts()
    gc.collect()
    traced_growth = (tracemalloc.get_traced_memory()[0] - traced_before) / TRACED / 1024
    tracemalloc.stop()

    seats = GAME.seating(SEED, len(BOTS))
    single_ms, set_ms = [], []
    for age in MILESTONES:
        single_ms.append(_milestone_ms(record, age, seats[:1]))
        set_ms.append(_milestone_ms(record, age, seats))
    ratios = [whole / one for whole, one in zip(set_ms, single_ms)]

    rows = [
        _row("reports.weasyprint_floor_ms", floor_ms, note="WeasyPrint, a one-line document (for reference)"),
        _row("reports.pdf_ms", pdf_ms, reports=len(contexts), page_size="A4"),
        {"name": "reports.pdf_per_fair_floor", "value": round(statistics.median(report_ms) / statistics.median(fair_ms), 2),
         "unit": "ratio", "goal": "<= 1.3", "report_ms": round(statistics.median(report_ms), 1),
         "fair_floor_ms": round(statistics.median(fair_ms), 1), "runs": FAIR_PAIRS,
         "last_page_share": round(share, 2),
         "note": "render_pdf of a report / WeasyPrint alone on its static HTML (same pages, tables, inline board SVG)"},
        {"name": "reports.milestone_set_per_single", "value": round(statistics.median(ratios), 2), "unit": "ratio",
         "goal": "<= 2", "set_ms": [round(v) for v in set_ms], "single_ms": [round(v) for v in single_ms],
         "ages": list(MILESTONES), "note": "all 4 seats' report mails (context, mail + board PNG, PDF) / one seat's"},
        {"name": "reports.pdf_rss_growth_mb", "value": round(rss_growth, 3), "unit": "MB per PDF",
         "runs": PDF_RENDERS, "note": "resident memory after / before PDF renders (after each report once), garbage collected"},
        {"name": "reports.pdf_traced_growth_kb", "value": round(traced_growth, 1), "unit": "KiB per PDF",
         "runs": TRACED, "note": "Python allocations still held after each PDF (tracemalloc)"},
        _row("reports.html_ms", html_ms, reports=len(contexts), note="the mail's HTML (Jinja)"),
        {"name": "reports.context_ms", "value": round(context_ms[0], 1), "unit": "ms",
         "reports": len(contexts), "note": "building a report's context from the record, replayed once"},
    ]
    if rasteriser():
        def first_of_moment(context: dict[str, Any]) -> Any:
            svg_to_png.cache_clear()  # the first seat's mail of a moment draws the board
            return render_mail(context)
        mail_ms = [_ms(lambda c=c: first_of_moment(c)) for c in contexts[:MAIL_REPORTS]]
        rows.append(_row("reports.mail_ms", mail_ms, note="HTML + text + board PNG (pyvips), board not drawn yet"))
        render_mail(contexts[0])
        again_ms = [_ms(lambda: render_mail(contexts[0])) for _ in range(MAIL_REPORTS)]
        rows.append(_row("reports.mail_same_board_ms", again_ms,
                         note="another seat's mail of the same moment: the board PNG is drawn once"))
    return rows


if __name__ == "__main__":
    import json

    for row in run():
        print(json.dumps(row))
