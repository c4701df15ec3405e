"""Turn reports and phase notices: per-seat HTML mail, plain text and PDF (docs/reports.md).

One line for a worker:

    report = report_for_record(record, "coyote", 2, title=game.title, tz=user.tz,
                               deadline=next_deadline, names=display_names, page_size="A4")
    report.mail.subject, report.mail.html, report.mail.text, report.mail.images, report.pdf

Contexts are plain JSON (store them, or rebuild them from the record at any time).
"""
from pbem.reports.content import (FORMAT, ReportError, age_report, final_report, phase_notice,
                                  reports_for_record)
from pbem.reports.render import (MailReport, RenderedReport, ReportPdf, notice_for_record,
                                 pdf_for_record, render_html, render_mail, render_pdf, render_report,
                                 render_text, report_for_record)
from pbem.reports.safety import RenderError, RenderTimeout, bounded, make_url_fetcher

__all__ = ["FORMAT", "MailReport", "RenderError", "RenderTimeout", "RenderedReport", "ReportError",
           "ReportPdf", "age_report", "bounded", "final_report", "make_url_fetcher", "notice_for_record",
           "pdf_for_record", "phase_notice", "render_html", "render_mail", "render_pdf", "render_report",
           "render_text", "report_for_record", "reports_for_record"]
