"""Round reports and phase notices for every game: per-seat HTML mail, plain text and PDF
(docs/reports.md).

One line for a worker:

    report = report_for_record(record, "red", 2, title=game.title, tz=user.tz,
                               deadline=next_deadline, names=display_names, page_size="A4")
    report.mail.subject, report.mail.html, report.mail.text, report.mail.images, report.pdf

Contexts are plain JSON (store them, or rebuild them from the record at any time).  What a
game's report holds and which templates show it come from its presentation (pbem/games).
"""
from pbem.reports.content import (FORMAT, Facts, Moment, Position, ReportError, final_report, final_round, next_step,
                                  phase_notice, reports_for_record, round_report)
from pbem.reports.render import (MailReport, RenderedReport, ReportPdf, notice_for_record, pdf_for_record,
                                 render_html, render_mail, render_pdf, render_report, render_text,
                                 report_for_record)
from pbem.reports.safety import RenderError, RenderTimeout, bounded, make_url_fetcher

__all__ = ["FORMAT", "Facts", "MailReport", "Moment", "Position", "RenderError", "RenderTimeout", "RenderedReport", "ReportError",
           "ReportPdf", "bounded", "final_report", "final_round", "make_url_fetcher", "next_step",
           "notice_for_record", "pdf_for_record", "phase_notice", "render_html", "render_mail", "render_pdf",
           "render_report", "render_text", "report_for_record", "reports_for_record", "round_report"]
