"""What the player wrote: the body's text, then the reply without history, then its lines.

    body_text(message)  the chosen text part (or HTML made text), decoded and normalised
    reply_text(body)    without quoted history, "On ... wrote:" lines and signatures
    order_lines(reply)  the lines to act on, capped, up to a line END or STOP

Reply parsing uses the patterns of mail-parser-reply (maintained, pure Python, many
languages: reply headers, signatures, disclaimers); a small pass of our own catches what
they miss (attribution lines in more languages and wrapped ones, "Sent from my ..." in
more languages, Outlook separators) and keeps orders written below a quote.
"""
from __future__ import annotations

import re
import unicodedata
from email.message import Message
from email.utils import collapse_rfc2231_value

from mailparser_reply import EmailMessage as ReplyMessage

from pbem.mail.htmltext import html_to_text

# The reply parser's header regexes take time quadratic in line length (a 100 kB line
# starting with "On " takes minutes), so they only ever see bounded text: lines cut to
# SCAN_LINE_CHARS (still too long for an order, so still an error) and, once each quoted
# block is one line, the first SCAN_CHARS.  Worst case about 0.2 s; a typical reply 1 ms.
SCAN_CHARS = 32 * 1024
SCAN_LINE_CHARS = 300
MAX_ORDER_LINES = 100
MAX_LINE_CHARS = 200
MAX_MIME_DEPTH = 12
LANGUAGES = ("en", "de", "fr", "es", "it", "nl")  # not pl/sv/da: their patterns eat short lines
# Only the library's compiled patterns are used (headers, signatures, disclaimers).
_PATTERNS = ReplyMessage("", languages=list(LANGUAGES), keep_hyphen_lists=True)


class OrderTextError(ValueError):
    """The text cannot be taken line by line; like the engine's ParseError it says why."""

    def __init__(self, message: str, *, line: str, expected: str):
        super().__init__(message)
        self.line = line
        self.expected = expected


# --- body -------------------------------------------------------------------------------

def is_attachment(part: Message) -> bool:
    return (part.get_content_disposition() == "attachment" or part.get_filename() is not None
            or part.get_content_maintype() not in ("text", "multipart"))


def count_attachments(part: Message, depth: int = 0) -> int:
    if part.get_content_maintype() != "multipart" or depth > MAX_MIME_DEPTH:
        return int(is_attachment(part))
    return sum(count_attachments(sub, depth + 1) for sub in _parts(part))


def body_text(message: Message) -> str:
    """The text a mail client would show first: text/plain, else the HTML made text."""
    return normalize(_text_of(message, 0))


def _parts(part: Message) -> list[Message]:
    payload = part.get_payload()
    return [sub for sub in payload if isinstance(sub, Message)] if isinstance(payload, list) else []


def _param(part: Message, name: str) -> str:
    value = part.get_param(name)
    return collapse_rfc2231_value(value).strip().lower() if value else ""


def _text_of(part: Message, depth: int) -> str:
    ctype = part.get_content_type()
    if depth > MAX_MIME_DEPTH:
        return ""
    if part.get_content_maintype() != "multipart":
        if is_attachment(part) or ctype not in ("text/plain", "text/html"):
            return ""
        payload = part.get_payload(decode=True)  # undoes quoted-printable and base64
        text = decode_bytes(payload if isinstance(payload, bytes) else b"", part.get_content_charset())
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if ctype == "text/html":
            return html_to_text(text)
        if _param(part, "format") == "flowed":
            return unflow(text, delsp=_param(part, "delsp") == "yes")
        return text
    subs = _parts(part)
    if ctype == "multipart/alternative":
        # Plain text first: it is what the player typed; HTML only when plain is empty.
        ranked = sorted(subs, key=lambda sub: sub.get_content_type() != "text/plain")
        return next((text for text in (_text_of(sub, depth + 1) for sub in ranked) if text.strip()), "")
    if ctype in ("multipart/related", "multipart/signed", "multipart/report"):
        return _text_of(subs[0], depth + 1) if subs else ""  # the root / the signed content / the notice
    if ctype == "multipart/encrypted":
        return ""
    # multipart/mixed and unknown kinds: the inline text parts in order (Apple Mail puts
    # text on both sides of an inline picture).
    return "\n".join(text for text in (_text_of(sub, depth + 1) for sub in subs) if text.strip())


_SINGLE_BYTE = re.compile(
    r"^(?:us-?ascii|ascii|latin-?\d|l\d|iso[-_]?8859[-_]?\d+|(?:windows|cp)-?125\d|koi8-[ru])$")
_CP1252_LABELS = {"us-ascii", "ascii", "iso-8859-1", "iso8859-1", "iso_8859-1", "latin-1", "latin1", "l1"}


def decode_bytes(data: bytes, declared: str | None) -> str:
    """Decode with the declared charset, surviving wrong or unknown declarations.

    Labels of single-byte charsets are often wrong about UTF-8 text, and valid UTF-8 is
    almost never an accident, so UTF-8 is tried first for them.  ASCII and Latin-1 labels
    read as windows-1252, as browsers do.  Whatever happens, some text comes out.
    """
    label = (declared or "").strip().strip('"').lower()
    if label in _CP1252_LABELS:
        label = "cp1252"
    guesses = ["utf-8", label] if not label or _SINGLE_BYTE.match(label) else [label, "utf-8"]
    for charset in [*filter(None, guesses), "cp1252"]:
        try:
            return data.decode(charset)
        except (LookupError, ValueError):  # unknown label, bad bytes, a NUL in the label
            continue
    return data.decode("latin-1")  # every byte is a Latin-1 character


def unflow(text: str, *, delsp: bool = False) -> str:
    """Undo format=flowed (RFC 3676): a line ending in a space continues on the next."""
    out: list[str] = []
    current: str | None = None
    current_depth = 0
    for raw in text.split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        soft = line.endswith(" ") and line != "-- "
        if soft and delsp:
            line = line[:-1]
        if current is not None and depth == current_depth:
            current += line
        else:
            if current is not None:
                out.append(_quoted(current_depth, current))
            current, current_depth = line, depth
        if not soft:
            out.append(_quoted(current_depth, current))
            current = None
    if current is not None:
        out.append(_quoted(current_depth, current))
    return "\n".join(out)


def _quoted(depth: int, line: str) -> str:
    return f"{'>' * depth} {line}" if depth else line


_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f"
                                    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
_SPACES = dict.fromkeys(map(ord, "\t\u00a0\u2007\u202f\u3000"), " ")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def normalize(text: str) -> str:
    """One form for all clients: LF line ends, NFC (macOS may send decomposed accents),
    no invisible or direction-changing characters, no trailing spaces."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", unicodedata.normalize("NFC", text).translate(_INVISIBLE).translate(_SPACES))
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


# --- reply ------------------------------------------------------------------------------

_ATTRIBUTION = re.compile(
    r"^(?:on|am|le|el|il|op|em|den|dne|w\s+dniu)\b.*"
    r"\b(?:wrote|writes|schrieb|a\s+écrit|escribió|ha\s+scritto|schreef|escreveu|skrev|napisał|napsal)\b.*:$",
    re.IGNORECASE)
_LEAD = re.compile(r"^(?:on|am|le|el|il|op|em|den|dne|w\s+dniu)\s", re.IGNORECASE)
_STOP = re.compile(
    r"""^(?: --?                                   # "-- " signature delimiter (space already gone)
         | _{10,} | -{10,} | ={10,}                # separator lines above quoted history
         | -+\s*(?:original\s+message|ursprüngliche\s+nachricht|message\s+d'origine|mensaje\s+original
                  |messaggio\s+originale|oorspronkelijk\s+bericht|forwarded\s+message
                  |weitergeleitete\s+nachricht|message\s+transféré)\s*-+
         | begin\s+forwarded\s+message:
         | (?:sent\s+from|sent\s+with|sent\s+via|get\s+outlook\s+for|envoyé\s+de|envoyé\s+depuis
              |enviado\s+desde|enviado\s+de|von\s+meinem|gesendet\s+von|inviato\s+da
              |verzonden\s+(?:vanaf|met))\s.{0,60}
       )$""", re.IGNORECASE | re.VERBOSE)


def is_attribution(text: str) -> bool:
    """An "On <date>, <someone> wrote:" line (maybe wrapped), in any of several languages."""
    line = " ".join(text.replace(">", " ").split())
    return len(line) <= 2 * SCAN_LINE_CHARS and line.endswith(":") and bool(_ATTRIBUTION.match(line))


def reply_text(body: str) -> str:
    """What the player wrote in this mail, without quoted history and signatures.

    Top-posted text is kept, and so is text written below or between quoted blocks
    (bottom-posting): a quoted block only drops its own '>' lines.  History that is not
    '>'-quoted (Outlook's "From: / Sent:" block, "-----Original Message-----") ends the
    reply: nothing below it is the player's.
    """
    lines = [line.strip()[:SCAN_LINE_CHARS] for line in body.split("\n")]
    text = "\n".join(_collapse_quotes(lines))[:SCAN_CHARS]  # quotes, however long, cost nothing
    # The library's patterns, not its splitter: read() takes inner regex groups for headers
    # (its French pattern has one) and finds them again with str.find.  Match spans are exact.
    segments, at = [], 0
    for match in _PATTERNS.HEADER_REGEX.finditer(text):
        segments.append(text[at:match.start()])
        at = match.end()
        if not is_attribution(match.group()):
            break  # unquoted history starts here
    else:
        segments.append(text[at:])
    kept: list[str] = []
    for segment in segments:
        for disclaimer in _PATTERNS.DISCLAIMERS_REGEX.findall(segment):
            segment = segment.replace(disclaimer, "")
        signature = _PATTERNS.SIGNATURE_REGEX.search(segment)
        kept.extend((segment[:signature.start()] if signature else segment).split("\n"))
    return "\n".join(_own_pass(kept)).strip("\n")


def _collapse_quotes(lines: list[str]) -> list[str]:
    """Each run of '>' lines becomes one '>' line: the reply parser still sees that a quote
    follows an attribution, but no quoted signature or header can cut the player's text."""
    out: list[str] = []
    for line in lines:
        if line.lstrip().startswith(">"):
            if not out or out[-1] != ">":
                out.append(">")
        else:
            out.append(line)
    return out


def _own_pass(lines: list[str]) -> list[str]:
    kept: list[str] = []
    for line in lines:
        line = line.strip()
        if line.startswith(">"):
            continue
        if _STOP.match(line):
            break
        if is_attribution(line):
            continue
        if line.endswith(":") and kept and _LEAD.match(kept[-1]) and is_attribution(f"{kept[-1]} {line}"):
            kept.pop()  # an attribution wrapped over two lines
            continue
        kept.append(line)
    return kept


# --- lines ------------------------------------------------------------------------------

_END = re.compile(r"(?:end|stop)[.!]*", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•·]|\d{1,2}[.)])\s+")


def order_lines(text: str, *, max_lines: int = MAX_ORDER_LINES,
                max_chars: int = MAX_LINE_CHARS) -> list[str]:
    """The lines to act on: stripped, without '#' comments, list bullets or blank lines,
    up to a line END or STOP.  Too many or too long lines are an error, not a silent cut:
    a truncated order could mean another order."""
    lines: list[str] = []
    for raw in text.split("\n"):
        line = _BULLET.sub("", raw.split("#", 1)[0].strip())
        line = " ".join(line.split())
        if not line:
            continue
        if _END.fullmatch(line):
            break
        if len(line) > max_chars:
            raise OrderTextError(f"a line is longer than {max_chars} characters",
                                 line=line[:max_chars] + "...",
                                 expected=f"one order per line, at most {max_chars} characters")
        if len(lines) >= max_lines:
            raise OrderTextError(f"more than {max_lines} lines", line=line,
                                 expected=f"at most {max_lines} orders and commands in one mail")
        lines.append(line)
    return lines
