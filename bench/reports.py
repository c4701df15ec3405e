"""Report rendering speed: median milliseconds per PDF report and per HTML report over every
report of a recorded 4-player game (packaged default board), beside the floor: WeasyPrint
rendering a minimal one-page document in the same run.  Everything runs in this one
process after a warm-up, as in a warm Celery worker.
"""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable

from engine.aztlan.bots import make_bot, play_out
from engine.aztlan.game import GAME

SEED = 33
BOTS = ("heuristic", "random", "heuristic", "random")
FLOOR_RUNS = 15
HTML_REPEATS = 3
MAIL_REPORTS = 8
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


def run() -> list[dict[str, Any]]:
    import weasyprint

    from pbem.reports import make_url_fetcher, render_html, render_mail, render_pdf, reports_for_record
    from pbem.reports.render import rasteriser, svg_to_png

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
    pdf_ms = [_ms(lambda c=c: render_pdf(c)) for c in contexts]
    html_ms = [_ms(lambda c=c: render_html(c, for_mail=True)) for c in contexts for _ in range(HTML_REPEATS)]
    floor_ms += [_ms(floor) for _ in range(FLOOR_RUNS)]  # before and after, against drift
    floor_median = statistics.median(floor_ms)
    rows = [
        _row("reports.weasyprint_floor_ms", floor_ms, note="WeasyPrint, a minimal one-page document"),
        _row("reports.pdf_ms", pdf_ms, reports=len(contexts), page_size="A4",
             floor_ms=round(floor_median, 1), ratio_to_floor=round(statistics.median(pdf_ms) / floor_median, 1)),
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
