"""The start-up check (pbem/checks.py): a part pip cannot install that is missing is named
once, loudly, when a process builds its app (the web, a worker, `pbem run`), with what it
costs; tests' apps check nothing; and the mail pictures are drawn by a real child process."""
from __future__ import annotations

import logging
import sys
from io import BytesIO
from typing import Any

import pytest
from PIL import Image

from pbem import checks
from pbem.app import create_app
from pbem.reports import RenderError, render


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a process that has not checked yet."""
    monkeypatch.setattr(checks, "_checked", False)


def _production(tmp_path: Any) -> dict[str, Any]:
    return {"PBEM_ENV": "production", "SECRET_KEY": "a-production-secret",
            "DATABASE_URL": f"sqlite:///{tmp_path}/pbem.sqlite3"}


def _missing(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [entry.getMessage() for entry in caplog.records
            if entry.name == "pbem.checks" and entry.levelno == logging.WARNING]


def test_this_machine_has_every_part():
    """CI installs what the README says a machine needs: then nothing is missing, and the
    rasteriser draws text (fonts found)."""
    assert checks.missing_parts() == []


def test_a_missing_rasteriser_is_said_once_when_the_app_starts(fresh_process, monkeypatch, caplog, tmp_path):
    monkeypatch.setattr(render, "rasteriser", lambda: None)  # as if pyvips were not installed
    with caplog.at_level(logging.WARNING, logger="pbem.checks"):
        create_app(_production(tmp_path))
        create_app(_production(tmp_path))  # a second app in the same process says nothing more
    (message,) = _missing(caplog)
    assert message.startswith("MISSING PART: pyvips is not installed")
    assert "without the board picture" in message and "requirements.lock" in message


def test_apps_under_test_check_nothing(fresh_process, monkeypatch, caplog, tmp_path):
    monkeypatch.setattr(render, "rasteriser", lambda: None)
    with caplog.at_level(logging.WARNING, logger="pbem.checks"):
        create_app({**_production(tmp_path), "PBEM_ENV": "testing"})
    assert _missing(caplog) == [] and checks._checked is False


def test_a_rasteriser_that_fails_is_named(monkeypatch, tmp_path):
    broken = tmp_path / "raster.py"
    broken.write_text("import sys\nsys.exit('libvips.so.42: cannot open shared object file')\n")
    monkeypatch.setattr(render, "RASTER_SCRIPT", broken)
    (problem,) = checks.missing_parts()
    assert problem.startswith("the board rasteriser (pyvips/libvips) does not work")
    assert "libvips.so.42" in problem and "without the board picture" in problem


def test_a_machine_without_fonts_is_told(monkeypatch):
    """The probe draws a word; if nothing is drawn there is no font (here: a probe with no
    word in it, drawn by the real rasteriser)."""
    monkeypatch.setattr(checks, "TEXT_PROBE", '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30"/>')
    (problem,) = checks.missing_parts()
    assert problem.startswith("no fonts found") and "fonts-dejavu-core" in problem


def test_a_machine_without_fallback_fonts_is_told(monkeypatch):
    """A script no installed font draws (here: fontconfig's answer without CJK and emoji)."""
    from pbem.reports import glyphs

    monkeypatch.setattr(glyphs, "covered", lambda: ([0x20, 0x900], [0x7E, 0x97F]))
    monkeypatch.setattr(glyphs, "has_glyph", glyphs.has_glyph.__wrapped__)  # no answers cached
    (problem,) = checks.missing_parts()
    assert problem.startswith("no installed font draws 李 🍵:") and "fonts-noto-cjk" in problem


def test_missing_pango_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # the import fails, as without Pango
    (problem,) = checks.missing_parts()
    assert problem.startswith("WeasyPrint cannot load Pango") and "report PDFs cannot be made" in problem


def test_the_rasteriser_draws_text_at_the_width_asked(monkeypatch):
    png = render.rasterise(checks.TEXT_PROBE, 240)
    image = Image.open(BytesIO(png)).convert("RGBA")
    assert image.size == (240, 120)  # the drawing's proportions kept
    assert image.getchannel("A").getbbox() is not None


def test_a_rasterisation_that_takes_too_long_is_ended(monkeypatch):
    monkeypatch.setattr(render, "RASTER_TIMEOUT", 0.001)
    with pytest.raises(RenderError, match="took too long"):
        render.rasterise(checks.TEXT_PROBE, 60)
