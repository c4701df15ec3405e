"""Rendering a report context (pbem/reports/content.py) as an HTML mail with a plain-text
alternative, as a web page, and as a PDF, from one template source: the game's presentation
names it (`report_template`, `notice_template`, pbem/games), found in templates/reports/ or,
as "games/<game>/...", in the game's own template folder.

- `render_mail(context)` -> MailReport(subject, html, text, images): the HTML refers to
  its pictures as `cid:NAME`; `images` maps NAME to PNG bytes (the board, the emblem),
  to attach inline with `Content-ID: <NAME>`.  Many mail clients drop inline SVG.
- `render_html(context, for_mail=False)`: a self-contained page (inline SVG, nothing to
  fetch) for the game page; `for_mail=True` gives the mail's HTML.
- `render_pdf(context, page_size="A4"|"Letter")` -> PDF bytes via WeasyPrint, with a URL
  fetcher that serves only pbem's own report assets (pbem/reports/safety.py).
- `render_report(context)` does all of it inside time and memory bounds;
  `report_for_record(record, seat, round, ...)` builds the context too (one call for a worker);
  `pdf_for_record(record, seat, round, ...)` only the PDF (the game page's download).

Autoescape is on for every .html template; player text is never marked safe.  The board
SVG is the presentation's drawing (it escapes names itself) and is checked before it is
inlined.
"""
from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import re
import subprocess
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Hashable, Mapping

import jinja2
from markupsafe import Markup

from pbem.games import presentation, template_loader
from pbem.reports import content as _content
from pbem.reports import recorded
from pbem.reports.glyphs import drawable
from pbem.reports.safety import (DEFAULT_MEMORY_MB, DEFAULT_SECONDS, RENDER_SCHEME, RenderError, bounded,
                                 make_url_fetcher, read_asset)
from pbem.text import clean_text

LOG = logging.getLogger(__name__)
PAGE_SIZES = {"a4": "A4", "letter": "letter"}
TEMPLATES = Path(os.environ.get("PBEM_REPORT_TEMPLATES") or
                 Path(__file__).resolve().parents[2] / "templates" / "reports")
MAIL_BOARD_WIDTH = 600  # CSS pixels in the mail; the PNG has twice as many for sharp screens
RASTER_TIMEOUT = 20
MAX_SVG = 2_000_000
# A PDF whose last page is filled less than this share of its height ends in a nearly empty
# page: it is laid out again up to TIGHTEST times, each a little tighter (_style.css), and a
# tighter layout is kept only if it has fewer pages.
NEARLY_EMPTY = 0.25
TIGHTEST = 2

# What a board drawing may not contain before it is inlined unescaped: scripts, foreign
# HTML, event handlers, style sheets, and any reference that leaves the document.
_SVG_FORBIDDEN = re.compile(r"<\s*(script|foreignObject|iframe|object|embed|image|use|link|style|a)\b"
                            r"|\son[a-z]+\s*=|@import|url\(\s*['\"]?(?!#)|(?:xlink:)?href\s*=\s*['\"](?!#)"
                            r"|<!ENTITY|<!DOCTYPE|javascript:", re.IGNORECASE)


@dataclass(frozen=True)
class MailReport:
    subject: str
    html: str
    text: str
    images: dict[str, bytes] = field(default_factory=dict)  # Content-ID -> PNG


@dataclass(frozen=True)
class ReportPdf:
    pdf: bytes
    filename: str  # for the download (ASCII)
    page_size: str


@dataclass(frozen=True)
class RenderedReport:
    context: dict[str, Any]
    mail: MailReport
    pdf: bytes | None
    filename: str  # for the PDF attachment / download (ASCII)
    page_size: str


# --- the environment ---------------------------------------------------------------------

@lru_cache(maxsize=4)
def environment(folder: str = str(TEMPLATES)) -> jinja2.Environment:
    """Report templates: the shared ones in `folder` by their names, each game's under
    "games/<game>/" in its presentation's own folder."""
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([template_loader(), jinja2.FileSystemLoader(folder)]),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "htm", "xml"),
                                            default_for_string=True, default=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.filters["signed"] = lambda n: f"+{n}" if n > 0 else str(n)
    env.filters["plural"] = lambda n, word, plural=None: f"{n} {word if n == 1 else (plural or word + 's')}"
    env.filters["ordinal"] = _ordinal
    env.filters["wrap_text"] = _wrap
    return env


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _wrap(text: str, width: int = 76, indent: str = "") -> str:
    import textwrap
    return textwrap.fill(str(text), width=width, initial_indent=indent, subsequent_indent=indent,
                         break_long_words=True, break_on_hyphens=False)


def _page_size(page_size: str) -> str:
    try:
        return PAGE_SIZES[str(page_size).lower()]
    except KeyError:
        raise ValueError("page_size must be 'A4' or 'Letter'") from None


def trusted_svg(svg: Any) -> Markup | None:
    """The board drawing as markup to inline, after checking it is a plain SVG image."""
    if not isinstance(svg, str) or not svg.startswith("<svg ") or not svg.rstrip().endswith("</svg>"):
        return None
    if len(svg) > MAX_SVG or _SVG_FORBIDDEN.search(svg):
        raise RenderError("the board drawing holds something a report does not inline")
    return Markup(svg)


def _template(context: dict[str, Any], suffix: str) -> jinja2.Template:
    """The template the context's game shows it with: its .html or its .txt twin."""
    kind, game = context.get("kind"), context.get("game")
    if context.get("format") != _content.FORMAT or not isinstance(kind, str) or not isinstance(game, dict):
        raise ValueError(f"not a report context (kind {kind!r})")
    shown = presentation(str(game.get("name", "")))
    name = shown.notice_template if kind == _content.NOTICE else shown.report_template
    return environment().get_template(name.removesuffix(".html") + suffix)


def _render(context: dict[str, Any], target: str, page_size: str = "A4",
            images: Mapping[str, bytes] | None = None, tight: int = 0, part: str = "whole",
            public_pages: int = 0, reader_pages: tuple[int, int] = (0, 0)) -> str:
    board = context.get("board") or {}
    svg = trusted_svg(board.get("svg"))
    emblem = Markup(read_asset("emblem.svg").decode("utf-8")) if target == "web" else None
    if target == "mail":  # pictures are attachments; without a rasteriser, there are none
        has_board, has_emblem = "board" in (images or {}), "emblem" in (images or {})
    else:
        has_board, has_emblem = svg is not None, True
    html = _template(context, ".html").render(
        r=context, target=target, page_size=_page_size(page_size), board_svg=svg, emblem_svg=emblem,
        has_board=has_board, has_emblem=has_emblem, board_width=MAIL_BOARD_WIDTH, tight=tight, part=part,
        public_pages=public_pages, reader_pages=reader_pages)
    return html.lstrip()


def render_html(context: dict[str, Any], *, for_mail: bool = False) -> str:
    """The report as HTML: the mail's (pictures as cid:board and cid:emblem, see
    render_mail for their bytes) or a self-contained page (inline SVG)."""
    if for_mail:
        return _render(context, "mail", images={"board": b"", "emblem": b""} if _has_board(context)
                       else {"emblem": b""})
    return _render(context, "web")


def _has_board(context: dict[str, Any]) -> bool:
    return trusted_svg((context.get("board") or {}).get("svg")) is not None


def render_text(context: dict[str, Any]) -> str:
    """The plain-text alternative of the mail."""
    text = _template(context, ".txt").render(r=context, target="text")
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def subject(context: dict[str, Any]) -> str:
    """The mail's subject: one line whatever the context holds (no header injection):
    "<game> · <title>: the report of <round name> 3"."""
    game = context["game"]
    prefix = f"{game['game']} · {game['title']}" if game["title"] else game["game"]
    if context["kind"] == _content.FINAL:
        line = f"{prefix}: the final report"
    elif context["kind"] == _content.NOTICE:
        line = f"{prefix}: {context.get('headline', 'news')}"
    else:
        line = f"{prefix}: the report of {game['round_name']} {context['round']}"
    return clean_text(line, 200)


def _ascii(text: Any, limit: int, default: str) -> str:
    return re.sub(r"[^a-z0-9-]", "", str(text).lower())[:limit] or default


def filename(context: dict[str, Any]) -> str:
    """"<game>-<round name>-3-report-<seat>.pdf", "<game>-final-report-<seat>.pdf"."""
    game, seat = _ascii(context["game"]["name"], 30, "game"), _ascii(context["reader"]["seat"], 20, "seat")
    if context["kind"] == _content.FINAL:
        return f"{game}-final-report-{seat}.pdf"
    return f"{game}-{_ascii(context['game']['round_name'], 20, 'round')}-{int(context['round'])}-report-{seat}.pdf"


# --- pictures for mail -------------------------------------------------------------------

RASTER_SCRIPT = Path(__file__).with_name("raster.py")


def rasteriser() -> str | None:
    """What draws mail pictures, if it is installed: libvips through pyvips (the
    `pyvips[binary]` wheel brings both), else None: mails then go without pictures, and
    pbem.checks says so once at start-up."""
    return "pyvips" if importlib.util.find_spec("pyvips") is not None else None


def rasterise(svg: str, width: int) -> bytes:
    """PNG bytes of a trusted SVG drawn `width` pixels wide by pbem/reports/raster.py, in a
    child process with a timeout (this interpreter, isolated: SVG on stdin, PNG on stdout,
    no file names, no base URL, so it loads nothing; a crash in C code ends only the child)."""
    command = [sys.executable, "-I", str(RASTER_SCRIPT), str(int(width))]
    try:
        done = subprocess.run(command, input=svg.encode("utf-8"), capture_output=True, timeout=RASTER_TIMEOUT,
                              check=True, env=_raster_environment())
    except subprocess.TimeoutExpired:
        raise RenderError("drawing the board as PNG took too long") from None
    except subprocess.CalledProcessError as error:
        raise RenderError(f"drawing a PNG failed: {error.stderr[-300:]!r}") from None
    return done.stdout


def _raster_environment() -> dict[str, str]:
    """The child's environment: a path, a UTF-8 locale and where fontconfig's settings are,
    if they were moved (the fonts the pictures draw with are the PDFs')."""
    moved = {name: os.environ[name] for name in ("FONTCONFIG_FILE", "FONTCONFIG_PATH") if name in os.environ}
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", **moved}


@lru_cache(maxsize=8)  # every seat's mail of one moment shows the same board: drawn once
def svg_to_png(svg: str, width: int) -> bytes:
    """A trusted SVG as a PNG `width` pixels wide, in 256 colours (see rasterise)."""
    return _compress_png(rasterise(drawable(svg), width))  # no glyph drawn as a box


def _compress_png(png: bytes) -> bytes:
    """Fewer colours (the drawing uses flat fills), a smaller mail; same picture to the eye."""
    try:
        from io import BytesIO

        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow comes with WeasyPrint
        return png
    image = Image.open(BytesIO(png)).convert("RGBA")
    small = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = BytesIO()
    small.save(out, format="PNG")
    return out.getvalue() if out.tell() < len(png) else png


@lru_cache(maxsize=1)
def _emblem_png() -> bytes:
    return svg_to_png(read_asset("emblem.svg").decode("utf-8"), 96)


def render_mail(context: dict[str, Any]) -> MailReport:
    """The mail: subject, HTML (pictures as cid:NAME), plain text, and the pictures as
    PNG by NAME.  Without a working rasteriser the mail goes without pictures (the PDF has
    the board); pbem.checks warns of that once, at start-up."""
    images: dict[str, bytes] = {}
    if rasteriser() is not None:
        images["emblem"] = _emblem_png()
        if _has_board(context):
            images["board"] = svg_to_png(context["board"]["svg"], MAIL_BOARD_WIDTH * 2)
    html = _render(context, "mail", images=images)
    return MailReport(subject=subject(context), html=html, text=render_text(context), images=images)


# --- PDF -----------------------------------------------------------------------------------

def render_pdf(context: dict[str, Any], *, page_size: str = "A4",
               fetch_log: Callable[[str], None] | None = None) -> bytes:
    """The printable report as PDF bytes.  Only `pbem-asset:` URLs are fetched; every URL
    WeasyPrint asks for is passed to `fetch_log` if given, once (a report laid out again
    asks again)."""
    if context.get("kind") == _content.NOTICE:
        raise ValueError("notices have no PDF")
    import weasyprint

    pictures = {}
    board = print_board(context)
    if board is not None:  # an image, not inline: WeasyPrint then skips styling its 1000 nodes
        pictures[BOARD] = ("image/svg+xml", drawable(board).encode("utf-8"))
    board_key = hashlib.sha256(pictures[BOARD][1]).hexdigest() if board is not None else None
    asked: set[str] = set()

    def log_once(url: str) -> None:
        if fetch_log is not None and url not in asked:
            asked.add(url)
            fetch_log(url)

    fetcher = make_url_fetcher(log_once, pictures)

    def layout(html: str, fetch: Callable[[str], Any] = fetcher) -> Any:
        loaded: dict[str, Any] = {}  # WeasyPrint's pictures of this document, by URL
        body, css = _style_apart(drawable(html))  # no glyph drawn as a box
        document = weasyprint.HTML(string=body, base_url=None, url_fetcher=fetch).render(
            font_config=_font_config(), cache=loaded, stylesheets=[_stylesheet(css)] if css is not None else None)
        if board_key is not None and loaded.get(RENDER_SCHEME + BOARD) is not None:
            _draw_once(document, loaded[RENDER_SCHEME + BOARD], ("board", board_key))
        return document

    failures = _PictureFailures()
    weasy_log = logging.getLogger("weasyprint")
    weasy_log.addHandler(failures)
    try:
        if _has_public_pages(context):
            document = _with_public_pages(context, page_size, layout, make_url_fetcher(log_once, {}))
        else:
            document = _fitted(lambda tight: layout(_render(context, "pdf", page_size, tight=tight)))
        pdf = document.write_pdf(uncompressed_pdf=False)
    finally:
        weasy_log.removeHandler(failures)
    if failures.failed:  # never a PDF with a blank board (an error drawing it, memory running out)
        raise RenderError(f"a picture of the report could not be drawn: {failures.failed[0][:200]}")
    return pdf


_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def _style_apart(html: str) -> tuple[str, str | None]:
    """The document without its style sheet (the first <style> element, _page.html's), and the
    style sheet: WeasyPrint parses a style sheet given apart once (_stylesheet), not once per
    document.  Autoescaped text holds no "<style>": only a template's does."""
    found = _STYLE.search(html)
    if found is None:
        return html, None
    return html[:found.start()] + html[found.end():], found.group(1)


@lru_cache(maxsize=8)  # A4 and Letter, each as tight as _fitted lays them out
def _stylesheet(css: str) -> Any:
    """The report's style sheet, parsed once.  Given apart, it is a "user" style sheet to
    WeasyPrint: below the templates' style attributes as before, above the user agent's, and
    it holds no !important (tests compare the PDFs with the style sheet left inline)."""
    import weasyprint

    return weasyprint.CSS(string=css, base_url=None, url_fetcher=make_url_fetcher())


def _fitted(layout: Callable[[int], Any]) -> Any:
    """A document laid out by `layout(tight)`, again tighter while its last page is nearly
    empty (NEARLY_EMPTY), and the tighter layout kept only if it has fewer pages."""
    document = layout(0)
    for tight in range(1, TIGHTEST + 1):
        if last_page_share(document) >= NEARLY_EMPTY:
            break
        tighter = layout(tight)
        if len(tighter.pages) < len(document.pages):
            document = tighter
    return document


# The reader's pages of a report with public pages, before them (the masthead and the board)
# and after them (the hand and what happens next): one each but for a long hand or title.
READER_PAGES = (1, 1)


def _has_public_pages(context: dict[str, Any]) -> bool:
    return (context.get("kind") not in (_content.FINAL, _content.NOTICE)
            and presentation(str(context["game"].get("name", ""))).report_public_pages)


def _with_public_pages(context: dict[str, Any], page_size: str, layout: Callable[..., Any],
                       no_pictures: Callable[[str], Any]) -> Any:
    """Page one, the public pages (the round's results with no reader's mark), then the
    reader's last pages; the two parts are laid out apart, each with empty pages standing for
    the other's so that the pages are numbered as one document.  The public part is laid
    out once for the seats of a moment: it is taken again only for the very same HTML,
    rendered from this reader's own context, so a seat's PDF shows exactly what its context
    holds.  The public part fetches no picture; it never ends the report, so only the
    reader's part is laid out again tighter (NEARLY_EMPTY)."""
    def public_part(reader_pages: tuple[int, int]) -> Any:
        html = _render(context, "pdf", page_size, part="public", reader_pages=reader_pages)
        return _shared_layout(html, lambda: layout(html, no_pictures))

    def reader_part(public_pages: int) -> Any:
        return _fitted(lambda tight: layout(_render(context, "pdf", page_size, tight=tight, part="private",
                                                    public_pages=public_pages)))

    before, after = READER_PAGES
    for _ in range(3):  # a guess that missed is corrected once, and the correction holds
        public = public_part((before, after))
        shared = len(public.pages) - before - after
        private = reader_part(shared)
        end = next(i for i, page in enumerate(private.pages) if "reader-end" in page.anchors)
        if (end - shared, len(private.pages) - end) == (before, after):
            return private.copy(private.pages[:before] + public.pages[before:before + shared] + private.pages[end:])
        before, after = end - shared, len(private.pages) - end
    raise RenderError("the report's pages could not be counted")  # pragma: no cover


BOARD = "board.svg"  # the board's picture: "pbem-render:board.svg" (templates/reports/_parts.html)


def _draw_once(document: Any, image: Any, key: Hashable) -> None:
    """Draw the picture `image` of a laid-out document through a recording of its drawing kept
    under `key` (the board: the hash of its SVG, drawn from the public parts of the view only),
    the same for every seat of the moment."""
    for page in document.pages:
        for box in page._page_box.descendants():
            if getattr(box, "replacement", None) is image:
                box.replacement = _DrawnOnce(image, key)


class _DrawnOnce:
    """A WeasyPrint picture whose drawing is recorded once and replayed (recorded.draw_once)."""

    def __init__(self, image: Any, key: Hashable):
        self.image, self.key = image, key

    def get_intrinsic_size(self, resolution: float, font_size: float) -> Any:
        return self.image.get_intrinsic_size(resolution, font_size)

    def draw(self, stream: Any, width: float, height: float, style: Any) -> None:
        recorded.draw_once(stream, (self.key, width, height), lambda into: self.image.draw(into, width, height, style))


class _PaintedOnce:
    """A page of the public layout, painted once for every seat that shows it: its painting is
    recorded and replayed (recorded.draw_once); otherwise WeasyPrint's Page."""

    def __init__(self, page: Any, key: Hashable):
        self.page, self.key = page, key

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)

    def paint(self, stream: Any, scale: float = 1) -> None:
        recorded.draw_once(stream, (self.key, scale), lambda into: self.page.paint(into, scale))


_SHARED = threading.local()
SHARED_LAYOUTS = 2  # the public pages of a moment in A4 and in Letter


def _shared_layout(html: str, layout: Callable[[], Any]) -> Any:
    """The layout of the public pages `html`, kept for the next seat of the moment (per
    thread, as WeasyPrint's fonts are, and only the last few: a laid-out document is large)."""
    kept: OrderedDict[str, Any] | None = getattr(_SHARED, "layouts", None)
    if kept is None:
        kept = _SHARED.layouts = OrderedDict()
    key = hashlib.sha256(html.encode("utf-8")).hexdigest()
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    document = kept[key] = layout()
    document.pages = [_PaintedOnce(page, ("page", key, i)) for i, page in enumerate(document.pages)]
    while len(kept) > SHARED_LAYOUTS:
        kept.popitem(last=False)
    return document


def forget_shared_layouts() -> None:
    """Drop this thread's kept public pages and recorded drawings (the bench measures from
    cold caches)."""
    _SHARED.layouts = OrderedDict()
    recorded.forget_recordings()


def last_page_share(document: Any) -> float:
    """How much of its last page's height a laid-out document (WeasyPrint's) fills: 1.0 for
    a document of one page, which has no other page to move its content to."""
    if len(document.pages) < 2:
        return 1.0
    page = document.pages[-1]._page_box
    root = page.children[0]  # the <html> box's part on this page; margin boxes come after it
    return root.margin_height() / page.height if page.height else 1.0


def print_board(context: dict[str, Any]) -> str | None:
    """The board the PDF shows: the drawing's print version if the game made one (flat
    fills, fewer halos: docs/reports.md), else the screen one; checked as the inlined one is."""
    board = context.get("board") or {}
    for svg in (board.get("print_svg"), board.get("svg")):
        if trusted_svg(svg) is not None:
            return str(svg)
    return None


_FONTS = threading.local()


def _font_config() -> Any:
    """One WeasyPrint FontConfiguration per thread, kept: a new one per document costs its
    font map again and is never wholly freed (resident memory grew about 0.25 MB per PDF; the
    reports bench measures it).  Per thread, since Pango's font maps are not thread-safe;
    reports load no web fonts, so nothing accumulates in it."""
    fonts = getattr(_FONTS, "config", None)
    if fonts is None:
        from weasyprint.text.fonts import FontConfiguration

        fonts = _FONTS.config = FontConfiguration()
    return fonts


class _PictureFailures(logging.Handler):
    """WeasyPrint's reports of pictures it failed to load or draw, in this thread: it logs
    them and goes on without the picture, whatever the error was."""

    MESSAGES = ("Failed to load image", "Failed to render SVG image")

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.thread = threading.get_ident()
        self.failed: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread and str(record.msg).startswith(self.MESSAGES):
            self.failed.append(record.getMessage())


def render_report(context: dict[str, Any], *, page_size: str = "A4", pdf: bool = True,
                  seconds: float | None = DEFAULT_SECONDS,
                  memory_mb: int | None = DEFAULT_MEMORY_MB) -> RenderedReport:
    """Mail, text and (for reports, not notices) PDF, within time and memory bounds."""
    with bounded(seconds, memory_mb):
        mail = render_mail(context)
        document = render_pdf(context, page_size=page_size) if pdf and context["kind"] != _content.NOTICE else None
    return RenderedReport(context=context, mail=mail, pdf=document, filename=filename(context),
                          page_size=_page_size(page_size))


def report_for_record(record: dict[str, Any], seat: str, number: int, *, page_size: str = "A4",
                      pdf: bool = True, seconds: float | None = DEFAULT_SECONDS,
                      memory_mb: int | None = DEFAULT_MEMORY_MB, **facts: Any) -> RenderedReport:
    """Build and render one seat's report of round `number` from the game's record: what a
    worker calls, and how any report is made again on demand.  `facts`: title, tz,
    deadline, names, links (see content.round_report)."""
    with bounded(seconds, memory_mb):
        context = _content.round_report(record, seat, number, **facts)
        return render_report(context, page_size=page_size, pdf=pdf, seconds=None, memory_mb=None)


def pdf_for_record(record: dict[str, Any], seat: str, number: int, *, page_size: str = "A4",
                   seconds: float | None = DEFAULT_SECONDS, memory_mb: int | None = DEFAULT_MEMORY_MB,
                   **facts: Any) -> ReportPdf:
    """Only the PDF of one seat's report, within time and memory bounds: the game page's
    download, which needs no mail and so no PNG."""
    with bounded(seconds, memory_mb):
        context = _content.round_report(record, seat, number, **facts)
        return ReportPdf(pdf=render_pdf(context, page_size=page_size), filename=filename(context),
                         page_size=_page_size(page_size))


def notice_for_record(record: dict[str, Any], seat: str, number: int, after: str, *,
                      seconds: float | None = DEFAULT_SECONDS, memory_mb: int | None = DEFAULT_MEMORY_MB,
                      **facts: Any) -> MailReport:
    """Build and render the notice after phase `after` of round `number` (mail only)."""
    with bounded(seconds, memory_mb):
        return render_mail(_content.phase_notice(record, seat, number, after, **facts))
