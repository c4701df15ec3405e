"""The mail settings: the Flask app's configuration wins, else the environment.

Outgoing mail (domain, sender, SMTP) and the email gateway's switches (PBEM_MAIL_PROCESS,
the SMTP server, webhook and IMAP), read here rather than in pbem/config.py so they live
with the mail; `create_app({...})` overrides reach them the same way.  The variables are
listed in docs/email.md.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import urlsplit

from flask import current_app, has_app_context

MODES = ("inline", "queue")
TLS_MODES = ("off", "starttls", "ssl")


@dataclass(frozen=True)
class MailSettings:
    domain: str
    sender: str  # From of everything we send, "pbem <noreply@domain>"
    loop_marker: str  # our X-Loop value
    trusted_authserv_ids: frozenset[str]
    base_url: str
    secret_key: str
    mode: str  # inline: the gateway processes and delivers itself; queue: Celery tasks do
    rate_per_hour: int  # mails that fail authentication, per sender address and hour
    dedup_hours: float  # a re-sent body (new Message-ID) within this window is a replay
    smtp_host: str | None
    smtp_port: int
    smtp_tls: str
    smtp_user: str | None
    smtp_password: str | None
    smtpd_host: str
    smtpd_port: int
    webhook_secret: str | None
    imap_host: str | None
    imap_port: int
    imap_ssl: bool
    imap_user: str | None
    imap_password: str | None
    imap_folder: str
    imap_seconds: float = 60.0  # beat polls the mailbox this often (only with imap_host)
    operators: frozenset[str] = frozenset()  # addresses of the accounts that review held mail
    # answers per From address and hour to authenticated mail that carried nothing out
    # (an autoresponder without auto-reply headers loops with us no longer than this)
    replies_per_hour: int = 10
    # answers per From address and hour in all (STATUS, BOARD, orders...); a seat's whole game
    # by mail at one sitting took 73
    answers_per_hour: int = 200

    @property
    def sender_address(self) -> str:
        return self.sender.rpartition("<")[2].rstrip(">").strip() or self.sender


def _get(config: Mapping[str, Any], name: str, default: Any = None) -> Any:
    value = config.get(name)
    if value is None or value == "":
        value = os.environ.get(name)
    return default if value is None or value == "" else value


def _flag(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def _config(config: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """`config`, by default the current app's, else none."""
    if config is None:
        return current_app.config if has_app_context() else {}
    return config


def _base_url(config: Mapping[str, Any]) -> str:
    return str(_get(config, "PBEM_BASE_URL", "http://127.0.0.1:5000")).rstrip("/")


def _domain(config: Mapping[str, Any], base_url: str) -> str:
    domain = str(_get(config, "PBEM_MAIL_DOMAIN", urlsplit(base_url).hostname or "localhost")).lower()
    return "pbem.localhost" if domain in ("127.0.0.1", "localhost") else domain


# Two settings asked for with every mail an advance sends: read alone, as `load` reads some
# thirty variables (a tenth of a millisecond an order, issue 18).

def mail_domain(config: Mapping[str, Any] | None = None) -> str:
    """`load(config).domain`, the domain of reply addresses."""
    config = _config(config)
    return _domain(config, _base_url(config))


def smtp_host(config: Mapping[str, Any] | None = None) -> str | None:
    """`load(config).smtp_host`: None when no mail goes out by SMTP."""
    return _get(_config(config), "PBEM_SMTP_HOST")


def load(config: Mapping[str, Any] | None = None) -> MailSettings:
    """The settings for an app configuration (default: the current app's, else none)."""
    config = _config(config)
    base_url = _base_url(config)
    domain = _domain(config, base_url)
    mode = str(_get(config, "PBEM_MAIL_PROCESS", _get(config, "PBEM_ADVANCE", "inline")))
    if mode not in MODES:
        raise RuntimeError(f"PBEM_MAIL_PROCESS must be one of {', '.join(MODES)}, not {mode!r}")
    tls = str(_get(config, "PBEM_SMTP_TLS", "off")).lower()
    tls = {"1": "starttls", "true": "starttls", "yes": "starttls", "0": "off", "false": "off",
           "no": "off"}.get(tls, tls)
    if tls not in TLS_MODES:
        raise RuntimeError(f"PBEM_SMTP_TLS must be one of {', '.join(TLS_MODES)}, not {tls!r}")
    trusted = str(_get(config, "PBEM_MAIL_TRUSTED_AUTHSERV", ""))
    return MailSettings(
        domain=domain,
        sender=str(_get(config, "PBEM_MAIL_FROM", f"pbem <noreply@{domain}>")),
        loop_marker=str(_get(config, "PBEM_MAIL_LOOP_MARKER", f"pbem@{domain}")),
        trusted_authserv_ids=frozenset(t.strip().lower() for t in trusted.split(",") if t.strip()),
        base_url=base_url,
        secret_key=str(_get(config, "SECRET_KEY", "")),
        mode=mode,
        rate_per_hour=int(_get(config, "PBEM_MAIL_RATE_PER_HOUR", 120)),
        dedup_hours=float(_get(config, "PBEM_MAIL_DEDUP_HOURS", 24)),
        smtp_host=_get(config, "PBEM_SMTP_HOST"),
        smtp_port=int(_get(config, "PBEM_SMTP_PORT", 465 if tls == "ssl" else 587 if tls == "starttls" else 25)),
        smtp_tls=tls,
        smtp_user=_get(config, "PBEM_SMTP_USER"),
        smtp_password=_get(config, "PBEM_SMTP_PASSWORD"),
        smtpd_host=str(_get(config, "PBEM_SMTPD_HOST", "127.0.0.1")),
        smtpd_port=int(_get(config, "PBEM_SMTPD_PORT", 2525)),
        webhook_secret=_get(config, "PBEM_WEBHOOK_SECRET"),
        imap_host=_get(config, "PBEM_IMAP_HOST"),
        imap_port=int(_get(config, "PBEM_IMAP_PORT", 993 if _flag(_get(config, "PBEM_IMAP_SSL", "1")) else 143)),
        imap_ssl=_flag(_get(config, "PBEM_IMAP_SSL", "1")),
        imap_user=_get(config, "PBEM_IMAP_USER"),
        imap_password=_get(config, "PBEM_IMAP_PASSWORD"),
        imap_folder=str(_get(config, "PBEM_IMAP_FOLDER", "INBOX")),
        imap_seconds=float(_get(config, "PBEM_IMAP_SECONDS", 60)),
        replies_per_hour=int(_get(config, "PBEM_MAIL_REPLIES_PER_HOUR", 10)),
        answers_per_hour=int(_get(config, "PBEM_MAIL_ANSWERS_PER_HOUR", 200)),
        operators=frozenset(a.strip().lower() for a in str(_get(config, "PBEM_OPERATORS", "")).split(",")
                            if a.strip()),
    )
