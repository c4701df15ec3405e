"""A glyph the fonts lack never shows as a box (pbem/reports/glyphs.py): player names of any
script in a report PDF and in a mail picture are drawn from a font that has them (the Noto
fonts CI installs beside DejaVu), and a character that no installed font has shows as its code
point, "[U+F0000]".

The checks that see a box: in a PDF, WeasyPrint's own warning ".notdef glyph rendered", which
it logs at the moment it writes a box; in a picture (librsvg draws a missing glyph as a framed
hex box), ink on all four edges of the character's bounding box.  Both are shown to fire on a
real box: a report and a picture drawn in a child process whose fontconfig knows only DejaVu,
with the stand-ins switched off."""
from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import engine
from engine.core import play_out
from pbem.reports import render_pdf, reports_for_record
from pbem.reports.glyphs import drawable, has_glyph, stand_in
from reports_helpers import pdf_text

# Latin with a diaeresis, CJK, an emoji, Devanagari (shaped: a vowel sign), Arabic (right to left).
NAMES = {"red": "Zoë 李 😀 मनु", "green": "علي", "blue": "Bo"}
NO_FONT_HAS = "\U000F0000"  # a private use character of plane 15: no font draws it
BOX = ".notdef glyph rendered"
ROOT = Path(__file__).resolve().parents[2]


def duel_report(names):
    game = engine.get_game("duel")
    record = {"game": "duel", "seed": 1, "options": {"rounds": 2},
              "players": [{"seat": seat, "name": name} for seat, name in names.items()]}
    state = game.new_game(record)
    play_out(state, [game.make_bot("random", f"1:{i}") for i in range(len(names))])
    return next(iter(reports_for_record({**record, "orders": state.order_log()}, title="Chá 🍵 night")))[2]


class WeasyWarnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture
def weasy_warnings():
    handler = WeasyWarnings()
    logging.getLogger("weasyprint").addHandler(handler)
    yield handler.messages
    logging.getLogger("weasyprint").removeHandler(handler)


def test_the_installed_fonts_draw_every_script_of_these_names():
    missing = [c for name in NAMES.values() for c in name if not has_glyph(c)]
    assert not missing, (f"no installed font draws {missing!r}: install fonts-noto-core, fonts-noto-cjk and "
                         "fonts-noto-color-emoji (.ci/run does)")


def test_a_report_draws_names_of_every_script_with_no_box(tmp_path, weasy_warnings, poppler):
    pdf = tmp_path / "names.pdf"
    pdf.write_bytes(render_pdf(duel_report(NAMES)))
    assert not [m for m in weasy_warnings if BOX in m], weasy_warnings
    text = pdf_text(pdf)
    for name in ("Zoë 李 😀 मनु", "Chá 🍵 night"):  # kept as they are: a font has each glyph
        assert name in text
    assert "علي" in text or "ﻋﻠﻲ" in text  # pdftotext may give Arabic's presentation forms


def test_a_character_no_font_has_shows_as_its_code_point(tmp_path, weasy_warnings, poppler):
    pdf = tmp_path / "private.pdf"
    pdf.write_bytes(render_pdf(duel_report({**NAMES, "blue": f"Bo {NO_FONT_HAS}{NO_FONT_HAS}"})))
    assert not [m for m in weasy_warnings if BOX in m], weasy_warnings
    assert "Bo [U+F0000 U+F0000]" in pdf_text(pdf)


def test_the_stand_in_names_a_run_of_missing_characters_and_keeps_the_rest():
    assert drawable(f"Zoë {NO_FONT_HAS} 李") == "Zoë [U+F0000] 李"
    assert drawable("<b>Bo</b> & Zoë") == "<b>Bo</b> & Zoë"
    assert stand_in(NO_FONT_HAS * 5) == "[U+F0000 U+F0000 U+F0000 and 2 more]"
    assert drawable("a\u200db\ufe0f") == "a\u200db\ufe0f"  # drawn as nothing: never a box, left alone


def boxed(png: bytes) -> bool:
    """Whether the one character drawn black on white in `png` is a box: ink along all four
    edges of its bounding box (a letter such as H has two, a box four)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGBA").convert("L")
    ink = image.point(lambda v: 255 if v < 128 else 0)
    left, top, right, bottom = ink.getbbox()
    band = 3  # an edge is the outermost 3 pixels: anti-aliasing may leave the very last one light

    def inked(box, along):
        strip = ink.crop(box)
        lines = strip.width if along == "x" else strip.height
        hit = sum(1 for i in range(lines) if strip.crop((i, 0, i + 1, strip.height) if along == "x"
                                                         else (0, i, strip.width, i + 1)).getbbox())
        return hit / lines >= 0.9

    return (inked((left, top, left + band, bottom), "y") and inked((right - band, top, right, bottom), "y")
            and inked((left, top, right, top + band), "x") and inked((left, bottom - band, right, bottom), "x"))


def one_character(char: str) -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" '
            f'fill="#fff"/><text x="20" y="150" font-family="DejaVu Sans" font-size="120">{char}</text></svg>')


@pytest.mark.parametrize("char", ["李", "😀", "म", "ع", "H"])
def test_a_mail_picture_draws_each_script_with_no_box(char):
    from pbem.reports.render import svg_to_png
    assert not boxed(svg_to_png(one_character(char), 200))


def test_a_mail_picture_shows_a_character_no_font_has_as_its_code_point():
    from pbem.reports.render import rasterise, svg_to_png
    assert boxed(rasterise(one_character(NO_FONT_HAS), 200))  # what librsvg draws for it: a box
    assert not boxed(svg_to_png(one_character(NO_FONT_HAS), 200))


# Run in a child process whose fontconfig knows only DejaVu, as on a machine without the Noto
# fonts: the report and the picture with and without the stand-ins (DejaVu Sans has the
# emoticons, so 😀 stays).
WITHOUT_NOTO = textwrap.dedent("""
    import json, logging, sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from reports_helpers import pdf_text
    from test_glyphs import NAMES, BOX, WeasyWarnings, boxed, duel_report, one_character
    import pbem.reports.render as render
    warnings = WeasyWarnings()
    logging.getLogger("weasyprint").addHandler(warnings)
    context = duel_report(NAMES)
    out = {}
    for stand_ins in (False, True):
        if not stand_ins:
            render.drawable = lambda text: text
        else:
            from pbem.reports.glyphs import drawable
            render.drawable = drawable
            render.svg_to_png.cache_clear()
        warnings.messages.clear()
        pdf = Path(f"{stand_ins}.pdf")
        pdf.write_bytes(render.render_pdf(context))
        out[str(stand_ins)] = {"boxes": sum(BOX in m for m in warnings.messages),
                               "picture_boxed": boxed(render.svg_to_png(one_character("李"), 200)),
                               "stand_in": "Zoë [U+674E] 😀 [U+092E U+0928 U+0941]" in pdf_text(pdf)}
    print(json.dumps(out))
""")


def test_without_the_fonts_the_checks_see_boxes_and_the_stand_ins_remove_them(tmp_path):
    dejavu = subprocess.run(["fc-match", "-f", "%{file}", "DejaVu Sans"], capture_output=True, text=True,
                            check=True, timeout=60).stdout
    assert "DejaVu" in dejavu, dejavu
    config = tmp_path / "fonts.conf"
    config.write_text(f'<?xml version="1.0"?>\n<fontconfig><dir>{Path(dejavu).parent}</dir>'
                      f'<cachedir>{tmp_path / "cache"}</cachedir></fontconfig>\n')
    env = {**os.environ, "FONTCONFIG_FILE": str(config), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", WITHOUT_NOTO, str(Path(__file__).parent)], capture_output=True,
                          text=True, env=env, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["False"]["boxes"] >= 4 and seen["False"]["picture_boxed"], seen  # 李 म न ु: boxes
    assert seen["True"] == {"boxes": 0, "picture_boxed": False, "stand_in": True}, seen
