"""Every report of the recorded game rendered as mail HTML, web HTML, plain text and PDF
(A4 and Letter); the PDF pages are turned into PNG with pdftoppm and kept under
artifacts/reports/.  The PDFs' text is checked against the record."""
import re

import pytest

from pbem.reports import (phase_notice, render_html, render_mail, render_pdf, render_report, render_text,
                          report_for_record)
from pbem.reports import round_report as age_report
from reports_helpers import pdf_info, pdf_text, replay_to_age, squash

PNG = b"\x89PNG\r\n\x1a\n"


def _name(seat, age, context):
    return f"final-{seat}" if context["kind"] == "final" else f"age{age}-{seat}"


def test_every_report_renders_as_mail_web_and_text(reports, artifacts):
    for seat, age, context in reports:
        name = _name(seat, age, context)
        mail = render_html(context, for_mail=True)
        web = render_html(context)
        text = render_text(context)
        (artifacts / f"{name}.mail.html").write_text(mail, "utf-8")
        (artifacts / f"{name}.html").write_text(web, "utf-8")
        (artifacts / f"{name}.txt").write_text(text, "utf-8")
        assert mail.startswith("<!DOCTYPE html>") and web.startswith("<!DOCTYPE html>")
        assert 'src="cid:board"' in mail and "<svg" not in mail
        assert "cid:" not in web and "pbem-asset:" not in web and "<svg" in web
        assert context["reader"]["name"] in text
        for entry in context["scores"]:
            assert f"{entry['points']:+d} -> {entry['total']}" in text


def test_every_report_as_pdf(pdfs, reports, record, poppler):
    """One test over the rendered PDFs, so that under pytest-xdist one worker renders them
    (and writes the artefacts): pages as PNG, page sizes, text, fetched URLs."""
    assert len(pdfs) == len(reports) == 20
    check_pages_as_png(pdfs)
    check_page_sizes(pdfs)
    check_text_against_the_record(pdfs, reports, record)
    check_only_own_assets_fetched(pdfs)


def check_pages_as_png(pdfs):
    for name, done in pdfs.items():
        pages = int(pdf_info(done["pdf"])["Pages"])
        assert 2 <= pages <= 8, f"{name}: {pages} pages"
        assert len(done["pngs"]) == pages
        for png in done["pngs"]:
            with open(png, "rb") as handle:
                assert handle.read(8) == PNG


def check_page_sizes(pdfs):
    sizes = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}
    seen = set()
    for name, done in pdfs.items():
        found = re.match(r"([\d.]+) x ([\d.]+) pts", pdf_info(done["pdf"])["Page size"])
        width, height = float(found[1]), float(found[2])
        expected = sizes[done["page_size"]]
        assert abs(width - expected[0]) < 1 and abs(height - expected[1]) < 1, name
        seen.add(done["page_size"])
    assert seen == {"A4", "Letter"}


def check_text_against_the_record(pdfs, reports, record):
    for seat, age, context in reports:
        text = squash(pdf_text(pdfs[_name(seat, age, context)]["pdf"]))
        state, _ = replay_to_age(record, age)
        assert context["reader"]["name"] in text
        assert ("The final report" if age == 5 else ["", "The first age", "The second age", "The third age",
                                                     "The fourth age"][age]) in text
        for who, scored in state.age_scores[age - 1].items():
            assert f"{scored['points']:+d} → {scored['total']}" in text, (seat, age, who)
        for conflict in context["conflicts"]:
            assert f"{conflict['territory']['id']} {conflict['territory']['name']}" in text
        for card in context["hand"]:
            assert card["title"] in text
        if age < 5:
            assert f"Turn order, age {age + 1}" in text
            assert context["next"]["deadline"]["local"] in text
        else:
            final = state.result()
            assert f"{context['final']['winner']['name']} wins" in text or "You win" in text
            for who, score in final["scores"].items():
                assert str(score) in text
            assert "Tie-break." in text


def check_only_own_assets_fetched(pdfs):
    for done in pdfs.values():
        assert sorted(done["urls"]) == ["pbem-asset:emblem.svg", "pbem-render:board.svg"], done["urls"]


def test_mail_pictures_are_png_attachments_named_in_the_html(reports, artifacts):
    seat, age, context = reports[5]
    mail = render_mail(context)
    assert set(mail.images) == {"board", "emblem"}
    assert all(data.startswith(PNG) for data in mail.images.values())
    assert set(re.findall(r'cid:([a-z]+)', mail.html)) == set(mail.images)
    assert len(mail.images["board"]) < 400_000  # a mail stays light
    assert "Friday night Aztlán" in mail.subject and f"age {age}" in mail.subject
    assert "\n" not in mail.subject and "\r" not in mail.subject
    (artifacts / "mail-board.png").write_bytes(mail.images["board"])


def test_reports_are_reproducible_from_the_record(record):
    seat = record["players"][3]["seat"]
    one = report_for_record(record, seat, 1, title="T", page_size="Letter")
    two = report_for_record(record, seat, 1, title="T", page_size="Letter")
    assert one.pdf == two.pdf and one.mail == two.mail
    assert one.filename == f"aztlan-age-1-report-{seat}.pdf" and one.page_size == "letter"
    assert one.pdf.startswith(b"%PDF-")


def test_notices_render_as_mail_without_pdf(record, artifacts):
    seat = record["players"][0]["seat"]
    for after in ("choosing", "development", "conflict"):
        notice = phase_notice(record, seat, 2, after, title="T")
        done = render_report(notice)
        assert done.pdf is None
        assert notice["headline"] in done.mail.html
        assert ("board" in done.mail.images) == (after != "choosing")
        (artifacts / f"notice-{after}-{seat}.mail.html").write_text(done.mail.html, "utf-8")
        (artifacts / f"notice-{after}-{seat}.txt").write_text(done.mail.text, "utf-8")
        with pytest.raises(ValueError):
            render_pdf(notice)


def test_page_size_is_checked(record):
    context = age_report(record, record["players"][0]["seat"], 1)
    with pytest.raises(ValueError):
        render_pdf(context, page_size="A5")


def test_a_notice_without_a_board_picture_still_tells_the_phase(record, monkeypatch, caplog):
    """Without the rasteriser (pyvips not installed) the mail has no board picture and logs
    nothing (the start-up check said it once, pbem/checks.py); the rest of the notice stays."""
    from pbem.reports import render
    monkeypatch.setattr(render, "rasteriser", lambda: None)
    seat = record["players"][0]["seat"]
    for after in ("development", "conflict"):
        notice = phase_notice(record, seat, 3, after)
        assert notice["conflicts"] and (after == "development" or (notice["played"] and notice["my_draws"]))
        with caplog.at_level("INFO"):
            mail = render_mail(notice)
        assert mail.images == {} and "cid:board" not in mail.html
        assert not [entry for entry in caplog.records if entry.levelno >= 30], "a warning for every mail"
        assert "Power cards revealed" in mail.html
        for conflict in notice["conflicts"]:
            assert conflict["territory"]["name"] in mail.html
        if after == "conflict":
            assert "Prosperity cards played:" in mail.html and "You drew:" in mail.html


def test_the_download_renders_only_the_pdf_within_bounds(record, tmp_path):
    """The game page's download needs the PDF alone: no mail, so no PNG drawn (not even one
    taken from the cache)."""
    from pbem.reports import RenderTimeout, pdf_for_record
    from pbem.reports.render import _emblem_png, svg_to_png
    from pbem.services import reports as service
    assert service.pdf_for_record is pdf_for_record  # what the game page's download calls
    seat = record["players"][1]["seat"]
    pictures = (svg_to_png.cache_info(), _emblem_png.cache_info())
    download = pdf_for_record(record, seat, 2, page_size="Letter", title="T")
    assert (svg_to_png.cache_info(), _emblem_png.cache_info()) == pictures
    full = report_for_record(record, seat, 2, page_size="Letter", title="T")
    assert (download.filename, download.page_size) == (full.filename, full.page_size)
    # The same document: WeasyPrint's font subsets are not byte-stable from one run to the
    # next, so the pages' text is compared, not the bytes.
    texts = []
    for n, pdf in enumerate((download.pdf, full.pdf)):
        path = tmp_path / f"{n}.pdf"
        path.write_bytes(pdf)
        texts.append(pdf_text(path))
    assert texts[0] == texts[1] and "Age 2" in texts[0]
    with pytest.raises(RenderTimeout):
        pdf_for_record(record, seat, 2, seconds=0.001)


@pytest.mark.parametrize("age, page_size", [(2, "Letter"), (5, "A4")])  # 5: the final report
def test_the_style_sheet_parsed_once_gives_the_pdf_of_the_style_sheet_inline(record, monkeypatch, age, page_size):
    from pbem.reports import render

    context = age_report(record, record["players"][1]["seat"], age, title="T")
    assert render._style_apart(render._render(context, "pdf", page_size))[1]  # there is a style sheet to part
    render.forget_shared_layouts()
    apart = render_pdf(context, page_size=page_size)
    monkeypatch.setattr(render, "_style_apart", lambda html: (html, None))  # WeasyPrint reads the <style>
    render.forget_shared_layouts()
    assert render_pdf(context, page_size=page_size) == apart
