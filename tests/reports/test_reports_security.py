"""Safety of rendering: player-chosen text (names, game titles) is escaped and fetches
nothing; the URL fetcher serves only pbem's own assets; input is capped; render time and
memory are bounded."""
import gc
import re
import resource
import signal
import socket
import sys
import threading
import time
import weakref
import urllib.request

import pytest
from markupsafe import escape

from pbem.reports import (RenderError, RenderTimeout, bounded, final_report, make_url_fetcher, render_html,
                          render_mail, render_pdf, render_text)
from pbem.reports import round_report as age_report
from pbem.reports.render import trusted_svg
from pbem.reports.safety import FetchRefused
from pbem.text import clean_link, clean_text
from reports_helpers import pdf_text, squash

PAYLOADS = [
    "<b>x</b>",
    '<img src="file:///etc/passwd">',
    "<link rel=stylesheet href=http://127.0.0.1:9/x.css>",
    "<style>body{background:url(http://127.0.0.1:9/x)}</style>",
    "x{background:url(file:///etc/passwd)}",
    '"><svg onload=alert(1)><image href="file:///etc/passwd"/>',
]


def hostile_record(record, names):
    players = [dict(p, name=name) for p, name in zip(record["players"], names)]
    return {**record, "players": players}


@pytest.fixture
def no_network(monkeypatch):
    """Fail on any attempt to open a socket connection or a URL."""
    attempts = []

    def refuse(self, address, *args, **kwargs):
        attempts.append(address)
        raise OSError("network access in a report render")

    def refuse_open(self, *args, **kwargs):
        attempts.append(args[0] if args else "?")
        raise OSError("URL opened in a report render")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(urllib.request.OpenerDirector, "open", refuse_open)
    return attempts


def _check_page(page, texts):
    for text in texts:
        if str(escape(text)) != text:  # text with markup characters never appears raw
            assert text not in page
        assert str(escape(text)) in page
    assert not re.search(r"<(img|link|style|image|svg)\b[^>]*(file:|127\.0\.0\.1|onload)", page)
    styles = re.findall(r"<style\b[^>]*>(.*?)</style>", page, re.S)
    assert len(styles) == 1 and "passwd" not in styles[0] and "127.0.0.1" not in styles[0]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_title_shows_as_text(record, payload):
    seat = record["players"][0]["seat"]
    for context in (age_report(record, seat, 1, title=payload), final_report(record, seat, title=payload)):
        assert context["game"]["title"] == payload  # kept as the player wrote it, as text
        for page in (render_html(context), render_html(context, for_mail=True)):
            _check_page(page, [payload])
        assert payload in render_text(context)


def test_hostile_names_and_title_fetch_nothing_and_print_as_text(record, no_network, tmp_path):
    names = PAYLOADS[1:5]
    title = f"{PAYLOADS[0]} {PAYLOADS[5]}"
    hostile = hostile_record(record, names)
    seat = hostile["players"][0]["seat"]
    context = age_report(hostile, seat, 1, title=title)
    for page in (render_html(context), render_html(context, for_mail=True)):
        _check_page(page, [*names, title])
    for page in (render_html(final_report(hostile, seat)), render_html(final_report(hostile, seat), for_mail=True)):
        _check_page(page, names)
    urls = []
    pdf = render_pdf(context, fetch_log=urls.append)
    # The fetcher was asked for nothing but the emblem and this report's own board drawing.
    assert sorted(urls) == ["pbem-asset:emblem.svg", "pbem-render:board.svg"]
    assert no_network == []  # and nothing went to the network
    path = tmp_path / "hostile.pdf"
    path.write_bytes(pdf)
    text = squash(pdf_text(path))
    for name in names:
        assert squash(name)[:30] in text  # the names print as text
    assert "<b>x</b>" in text


def test_display_names_given_by_the_service_are_escaped_too(record):
    seat = record["players"][0]["seat"]
    others = {p["seat"]: PAYLOADS[1] for p in record["players"]}
    context = age_report(record, seat, 1, names=others)
    page = render_html(context)
    assert PAYLOADS[1] not in page and str(escape(PAYLOADS[1])) in page


def test_the_fetcher_serves_own_assets_only():
    fetcher = make_url_fetcher()
    response = fetcher.fetch("pbem-asset:emblem.svg")
    assert response.read().startswith(b"<svg")
    for url in ("pbem-render:board.svg", "file:///etc/passwd", "http://127.0.0.1:9/x.css", "https://example.org/x.png",
                "data:image/png;base64,iVBORw0KGgo=", "ftp://example.org/x", "pbem-asset:../render.py",
                "pbem-asset:/etc/passwd", "pbem-asset:nothing.svg", "pbem-asset:emblem.svg/../../x",
                "emblem.svg", "//127.0.0.1:9/x", "PBEM-ASSET:emblem.svg"):
        with pytest.raises(FetchRefused):
            fetcher.fetch(url)
    with pytest.raises(FetchRefused):
        fetcher.open("http://127.0.0.1:9/")
    own = make_url_fetcher(pictures={"board.svg": ("image/svg+xml", b"<svg/>")})
    assert own.fetch("pbem-render:board.svg").read() == b"<svg/>"
    for url in ("pbem-render:other.svg", "pbem-render:../board.svg", "file:board.svg"):
        with pytest.raises(FetchRefused):
            own.fetch(url)


def test_a_document_with_external_references_fetches_nothing(no_network):
    """WeasyPrint with our fetcher, given HTML that references the outside world."""
    import weasyprint
    urls = []
    document = ('<html><head><link rel="stylesheet" href="http://127.0.0.1:9/x.css">'
                '<style>@import url(http://127.0.0.1:9/y.css); body{background:url(file:///etc/passwd)}'
                '@font-face{font-family:x;src:url(http://127.0.0.1:9/f.woff)}</style></head>'
                '<body><img src="file:///etc/passwd"><img src="data:image/png;base64,iVBORw0KGgo=">'
                '<img src="pbem-asset:emblem.svg"><img src="relative.png"></body></html>')
    weasyprint.HTML(string=document, base_url=None, url_fetcher=make_url_fetcher(urls.append)).write_pdf()
    assert no_network == []
    assert all(url.startswith(("http://127.0.0.1:9/", "file:", "data:", "pbem-asset:")) for url in urls)
    # Everything but our own asset was refused by the fetcher (asked, but not fetched).
    assert "pbem-asset:emblem.svg" in urls


def test_only_a_plain_svg_drawing_is_inlined():
    assert trusted_svg('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg>') is not None
    for bad in ('<svg ><script>alert(1)</script></svg>',
                '<svg ><image href="file:///etc/passwd"/></svg>',
                '<svg ><rect fill="url(http://127.0.0.1:9/x)"/></svg>',
                '<svg ><rect onclick="x()"/></svg>',
                '<svg ><foreignObject><img src="x"/></foreignObject></svg>',
                '<svg ><style>@import "http://x";</style></svg>',
                '<svg ><use href="http://127.0.0.1:9/x#a"/></svg>'):
        with pytest.raises(RenderError):
            trusted_svg(bad)
    assert trusted_svg("<b>not svg</b>") is None


def test_player_text_is_cleaned_and_capped(record):
    seat = record["players"][0]["seat"]
    long_name = "N" * 5000
    context = age_report(record, seat, 1, title="T\r\nBcc: victim@example.org\u202e" + "t" * 500,
                         names={seat: long_name})
    assert len(context["game"]["title"]) == 120 and "\n" not in context["game"]["title"]
    assert "\u202e" not in context["game"]["title"]
    assert len(context["reader"]["name"]) == 60 and context["reader"]["name"].endswith("…")
    mail = render_mail(context)
    assert "\r" not in mail.subject and "\n" not in mail.subject
    assert clean_text("a\x00b\tc\u200bd", 10) == "ab cd"


def test_links_must_be_http():
    assert clean_link("https://pbem.example/g/1") == "https://pbem.example/g/1"
    for bad in ("javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "https://x/\"><script>",
                "http://" + "x" * 3000, None, 7):
        assert clean_link(bad) is None


def test_too_many_events_are_capped(record, monkeypatch):
    from pbem.games import reporting
    monkeypatch.setattr(reporting, "MAX_EVENTS_PER_ROUND", 5)
    context = age_report(record, record["players"][0]["seat"], 1)
    assert "Some events of this age are not listed." in context["notes"]


main_thread_only = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                      reason="the render timer needs the main thread")


@main_thread_only
def test_render_time_is_bounded():
    before = signal.getsignal(signal.SIGALRM)
    give_up = time.monotonic() + 10
    with pytest.raises(RenderTimeout):
        with bounded(seconds=0.2, memory_mb=None):
            while time.monotonic() < give_up:
                time.sleep(0.01)
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@main_thread_only
def test_the_alarm_never_rings_inside_a_garbage_collector_callback():
    """An error raised in a gc callback is ignored ("Exception ignored in ...") and the
    callback's work lost; the alarm stays quiet there and a later ring ends the render."""
    ignored = []
    previous_hook = sys.unraisablehook
    sys.unraisablehook = ignored.append

    def slow(phase, info):
        if phase == "start":
            spin(0.1)
    gc.callbacks.append(slow)
    try:
        with pytest.raises(RenderTimeout):
            with bounded(seconds=0.05, memory_mb=None):
                give_up = time.monotonic() + 20
                while time.monotonic() < give_up:
                    gc.collect()  # most rings land in `slow`
                    spin(0.05)
    finally:
        gc.callbacks.remove(slow)
        sys.unraisablehook = previous_hook
    assert ignored == []


@main_thread_only
def test_the_alarm_never_rings_inside_a_weak_references_callback_during_a_collection():
    """The same for the callbacks of weak references the collector runs (any library's: CI saw
    a ring land in SQLAlchemy's), whatever module they live in."""
    ignored = []
    previous_hook = sys.unraisablehook
    sys.unraisablehook = ignored.append
    refs = []

    class Node:
        pass

    def slow(ref):
        spin(0.02)
    try:
        with pytest.raises(RenderTimeout):
            with bounded(seconds=0.05, memory_mb=None):
                give_up = time.monotonic() + 20
                while time.monotonic() < give_up:
                    for _ in range(5):  # garbage in cycles, so the collector runs their callbacks
                        node = Node()
                        node.me = node
                        refs.append(weakref.ref(node, slow))
                        del node
                    gc.collect()  # most rings land in `slow`
                    spin(0.05)
    finally:
        sys.unraisablehook = previous_hook
    assert ignored == []


def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_render_memory_is_bounded():
    soft_before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(MemoryError):
        with bounded(seconds=None, memory_mb=64):
            bytearray(512 * 1024 * 1024)
    assert resource.getrlimit(resource.RLIMIT_AS) == soft_before
    bytearray(128 * 1024 * 1024)  # and the limit is gone again


@main_thread_only
def test_an_earlier_longer_timer_is_given_back():
    fired = []
    before = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        with bounded(seconds=5, memory_mb=None):
            pass
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 25 < left <= 30 and not fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


@main_thread_only
def test_a_slow_render_stops(record, monkeypatch):
    """A render given too little time stops with RenderTimeout instead of holding the worker."""
    from pbem.reports import render_report
    context = age_report(record, record["players"][0]["seat"], 1)
    with pytest.raises(RenderTimeout):
        render_report(context, seconds=0.05)


def _wait_for_the_alarm(url):
    """A board picture that takes longer to fetch than the render may last."""
    if url == "pbem-render:board.svg":
        give_up = time.monotonic() + 20  # never hang the suite if no alarm comes
        while time.monotonic() < give_up:
            time.sleep(0.01)


@main_thread_only
def test_a_timeout_weasyprint_swallows_still_ends_the_render(record):
    """WeasyPrint turns any error while it fetches or draws a picture into a missing picture;
    a render that outlived its bound there must still end in RenderTimeout, not in a PDF with
    a blank board, and the alarm must not outlive the render."""
    before = signal.getsignal(signal.SIGALRM)
    context = age_report(record, record["players"][0]["seat"], 1)
    render_pdf(context)  # warm: the board is then fetched well within the first second
    with pytest.raises(RenderTimeout):
        with bounded(seconds=1, memory_mb=None):
            render_pdf(context, fetch_log=_wait_for_the_alarm)
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_board_that_cannot_be_drawn_fails_the_pdf(record):
    """WeasyPrint would leave the picture out and go on: a PDF with a blank board must not go
    out (memory running out while the board is read, here)."""
    def out_of_memory(url):
        if url == "pbem-render:board.svg":
            raise MemoryError
    context = age_report(record, record["players"][0]["seat"], 1)
    with pytest.raises(RenderError):
        render_pdf(context, fetch_log=out_of_memory)
    assert render_pdf(context).startswith(b"%PDF-")
