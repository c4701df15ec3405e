"""Start-up checks: the parts pbem needs that installing its Python packages cannot bring
(README.md, "What a machine needs"), so that a missing one is said once, loudly, when a
process starts, instead of quietly costing every report mail its board picture.

`warn_missing_parts(config)` is called by the app factory (the web, the workers, `pbem run`
and the mail gateway all build the app); it logs one warning per missing part, once per
process, and nothing under tests.  `missing_parts()` returns the same sentences.
"""
from __future__ import annotations

import logging
from io import BytesIO
from typing import Any, Mapping

LOG = logging.getLogger(__name__)

# A word in a font every machine has if it has one at all: drawn, it must leave ink.
TEXT_PROBE = ('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30">'
              '<text x="4" y="24" font-family="DejaVu Sans, sans-serif" font-size="24">Ag</text></svg>')

_checked = False


def _pango() -> str | None:
    try:
        import weasyprint  # noqa: F401  - it loads Pango when imported
    except (ImportError, OSError) as error:
        return (f"WeasyPrint cannot load Pango ({str(error)[:200]}): report PDFs cannot be made and "
                "report mails fail. Install libpango-1.0-0, libpangoft2-1.0-0 and libharfbuzz-subset0 "
                "(the Docker image has them).")
    return None


def _pictures() -> str | None:
    from PIL import Image

    from pbem.reports.render import RenderError, rasterise, rasteriser

    if rasteriser() is None:
        return ("pyvips is not installed: report mails and BOARD answers go without the board picture. "
                "Install from the lock file (make test, or pip install -r requirements.lock).")
    try:
        png = rasterise(TEXT_PROBE, 60)
    except RenderError as error:
        return (f"the board rasteriser (pyvips/libvips) does not work ({error}): report mails and BOARD "
                "answers go without the board picture.")
    _, most_ink = Image.open(BytesIO(png)).convert("RGBA").getchannel("A").getextrema()
    if not most_ink:  # not one pixel drawn: no font to draw the text with
        return ("no fonts found: board pictures and report PDFs show no text. Install fonts-dejavu-core "
                "(the Docker image has it).")
    return None


# A letter of each script the fallback fonts bring (CJK, Devanagari, emoji): DejaVu has none.
FALLBACK_PROBE = "李म🍵"


def _fallback_fonts() -> str | None:
    from pbem.reports.glyphs import has_glyph

    lacking = [char for char in FALLBACK_PROBE if not has_glyph(char)]
    if lacking:
        return (f"no installed font draws {' '.join(lacking)}: names and press in such scripts show as code "
                "points ([U+674E]) in report PDFs and pictures. Install fonts-noto-core, fonts-noto-cjk and "
                "fonts-noto-color-emoji (the Docker image has them).")
    return None


def missing_parts() -> list[str]:
    """One sentence per missing part: what is missing, what it costs, what to install."""
    return [problem for problem in (_pango(), _pictures(), _fallback_fonts()) if problem]


def warn_missing_parts(config: Mapping[str, Any]) -> list[str]:
    """Log each missing part as a warning, once per process (not under tests)."""
    global _checked
    if _checked or config.get("TESTING") or config.get("PBEM_ENV") == "testing":
        return []
    _checked = True
    problems = missing_parts()
    for problem in problems:
        LOG.warning("MISSING PART: %s", problem)
    return problems
