"""What the player wrote: the body's text, then the reply without history, then its lines.

    body_text(message)  the chosen text part (or HTML made text), decoded and normalised
    reply_text(body)    without quoted history, "On ... wrote:" lines and signatures
    order_lines(reply)  its lines, up to a line END or STOP (commands.OrderSorter picks the orders)

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
from mailparser_reply.constants import MAIL_LANGUAGES

from pbem.mail.htmltext import html_to_text
from pbem.outbox.marker import is_marker
from pbem.text import FORMATTING

# The reply parser's header regexes take time quadratic in line length (a 100 kB line
# starting with "On " takes minutes), so they only ever see bounded text: lines cut to
# SCAN_LINE_CHARS (still too long for an order, so still an error) and, once each quoted
# block is one line, the first SCAN_CHARS.  Worst case about 0.2 s; a typical reply 1 ms.
SCAN_CHARS = 32 * 1024
SCAN_LINE_CHARS = 300
MAX_MIME_DEPTH = 12
LANGUAGES = tuple(MAIL_LANGUAGES)  # all of them: en de cs da es fr it ja ko nl pl sv zh, and David
# Only the library's compiled patterns are used (headers, signatures, disclaimers).
_PATTERNS = ReplyMessage("", languages=list(LANGUAGES), keep_hyphen_lists=True)
# Its sign-offs end anywhere, so Danish "Tak" took a line "take body 3" (and all below it)
# for a signature.  The same pattern, with a sign-off that ends where its word ends.
_SIGNOFF_END = r"))(.|\s)*)"
assert _PATTERNS.SIGNATURE_REGEX.pattern.endswith(_SIGNOFF_END), "mail-parser-reply changed its pattern"
_SIGNATURE_REGEX = re.compile(_PATTERNS.SIGNATURE_REGEX.pattern[:-len(_SIGNOFF_END)] + r")(?!\w))(.|\s)*)",
                              _PATTERNS.SIGNATURE_REGEX.flags)


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


_FORMATTING = re.compile(f"[{FORMATTING}]")
_SPACES = dict.fromkeys(map(ord, "\t\u00a0\u2007\u202f\u3000"), " ")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def normalize(text: str) -> str:
    """One form for all clients: LF line ends, NFC (macOS may send decomposed accents),
    no invisible or direction-changing characters, no trailing spaces."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", _FORMATTING.sub("", unicodedata.normalize("NFC", text)).translate(_SPACES))
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


# --- reply ------------------------------------------------------------------------------

# Attribution lines ("On <date>, <someone> wrote:") the library does not know, in any
# language: the verb of writing, or a date and an address just before the colon.  Gmail's
# "2016-10-24 15:36 GMT+02:00 Name <a@b>:", Russian "ср, 1 апр. 2015 г. в 18:29, Name <a@b>:"
# and Japanese "2016/10/24 15:36 Name <a@b>:" have no verb.
_WROTE = (r"wrote|writes|said|says|schrieb|schreibt|geschrieben|a\s+écrit|écrit|escribió|escreveu|scritto"
          r"|schreef|geschreven|skrev|skriver|napisał(?:\(a\))?|napisała|pisze|napsal(?:\(a\))?|написал(?:\(а\))?"
          r"|написала|написав(?:\(ла\))?|пише|kirjoitti|írta|đã\s+viết|va\s+escriure|写道|寫道|のメッセージ"
          r"|작성|님이\s*작성")
_ATTRIBUTION = re.compile(
    rf"^.{{0,400}}(?:\b(?:{_WROTE})\b.{{0,120}}[:：]|\b(?:{_WROTE})|[:：]\s*\b(?:{_WROTE}))$"
    r"|^.{0,200}\d.{0,200}[<\[(][^<>\[\]()\s]+@[^<>\[\]()\s]+[>\])]\)?\s*[:：]$",
    re.IGNORECASE)
# How an attribution starts, for one wrapped over several lines: a lead word, a date, or a
# name with its address.
_LEAD = re.compile(
    r"^(?:(?:on|am|le|el|il|op|em|den|dne|dnia|w\s+dniu|in\s+data|på|pe|ma|ti|ke|to|pá|la|su|vào|a)\s"
    r"|\d{4}\D|\d{1,2}[./]\d{1,2}[./]\d{2}|\w+\.?,\s|[^<]*<[^>\s]+@)", re.IGNORECASE)
# Blocks of unquoted history: a header block (two header lines, maybe a wrapped one
# between), a separator with words ("-----Original Message-----", "--- Oprindelig
# meddelelse ---", "------------------ 原始邮件 ------------------"), a forward.
_HEADER_KEY = re.compile(
    r"^\*?(?:from|sent|to|subject|date|cc|de|envoyé(?:\s+le)?|à|objet|von|gesendet|an|betreff|datum|fra|sendt|til|"
    r"emne|dato|från|skickat|till|ämne|van|verzonden|aan|onderwerp|da|inviato|a|oggetto|data|od|wysłano|do|temat|"
    r"от|отправлено|дата|кому|тема|від|надіслано|lähettäjä|lähetetty|vastaanottaja|aihe|feladó|elküldve|címzett|"
    r"tárgy|dátum|từ|đã\s+gửi|đến|chủ\s+đề|enviat|per\s+a|assumpte|para|enviado|asunto|fecha|assunto|"
    r"发件人|发送时间|收件人|主题|日期|寄件者|差出人|送信日時|宛先|件名|보낸\s*사람|받는\s*사람|날짜|제목)\*?\s?[:：]",
    re.IGNORECASE)
_SEPARATOR = re.compile(r"^(?:[-_=*\s]{0,3}[-_=]{2,}\s*[^-_=]{3,40}?\s*[-_=]{2,}[*\s]{0,3}|_{10,}|-{10,}|={10,}"
                        r"|begin\s+forwarded\s+message:?|début\s+du\s+message\s+réexpédié\s*:?)$", re.IGNORECASE)
_SIGNATURE = re.compile(
    r"""^(?: --?                                   # "-- " signature delimiter (space already gone)
         | (?:sent\s+from|sent\s+with|sent\s+via|get\s+outlook\s+for|envoyé\s+de|envoyé\s+depuis
              |envoyé\s+à\s+partir\s+de|téléchargez\s+outlook|enviado\s+desde|enviado\s+de|enviado\s+do
              |von\s+meinem|gesendet\s+von|gesendet\s+mit|inviato\s+da|verzonden\s+(?:vanaf|met)
              |verstuurd\s+vanaf|sendt\s+fra|skickat\s+från|wysłane\s+z|wysłano\s+z|отправлено\s+с
              |надіслано\s+з|lähetetty|küldve|gửi\s+từ)\s.{0,60}
         | \S{0,20}から送信 | 从我的.{0,30}发送 | 내\s.{0,30}에서\s보냄
       )$""", re.IGNORECASE | re.VERBOSE)


def is_attribution(text: str) -> bool:
    """An "On <date>, <someone> wrote:" line (maybe wrapped), in any of many languages."""
    line = " ".join(text.replace(">", " >").split()).strip("-* ")
    line = line.replace(" >", ">").replace("< ", "<")
    return len(line) <= 2 * SCAN_LINE_CHARS and bool(_ATTRIBUTION.match(line))


def reply_text(body: str) -> str:
    """What the player wrote in this mail, without quoted history and signatures.

    Everything from our own marker line on is history, whatever the client did to it (see
    pbem.outbox.marker).  Top-posted text is kept, and so is text written below or between
    quoted blocks (bottom-posting): a quoted block only drops its own '>' lines, and the
    attribution above it.  History that is not '>'-quoted (an attribution followed by
    unquoted text, Outlook's "From: / Sent:" block, "-----Original Message-----") ends the
    reply: nothing below it is the player's.
    """
    lines = _join_split_addresses([line.strip()[:SCAN_LINE_CHARS] for line in body.split("\n")])
    lines = lines[:next((n for n, line in enumerate(lines) if is_marker(line)), len(lines))]
    text = "\n".join(_collapse_quotes(lines))[:SCAN_CHARS]  # quotes, however long, cost nothing
    # The library's patterns, not its splitter: read() takes inner regex groups for headers
    # (its French pattern has one) and finds them again with str.find.  Match spans are exact.
    segments, at = [], 0
    for match in _PATTERNS.HEADER_REGEX.finditer(text):
        start = match.start()
        if not _quote_follows(text, match.end()):  # unquoted history starts here, or a line or
            start = _wrapped_start(text, at, start)  # two above ("From: Name" / "<address>")
            segments.append(text[at:start])
            break
        segments.append(text[at:start])
        at = match.end()
    else:
        segments.append(text[at:])
    kept: list[str] = []
    for segment in segments:
        for disclaimer in _PATTERNS.DISCLAIMERS_REGEX.findall(segment):
            segment = segment.replace(disclaimer, "")
        signature = _SIGNATURE_REGEX.search(segment)
        if signature:  # a signature ends what was written above a quote, not what is below it
            below = segment.find("\n>", signature.start())
            segment = segment[:signature.start()] + ("\n" + segment[below:] if below >= 0 else "")
        kept.extend(segment.split("\n"))
    return "\n".join(_own_pass(kept)).strip("\n")


def _wrapped_start(text: str, floor: int, start: int) -> int:
    """Where a header block found at `start` really starts: one or two lines higher when the
    first of them is a header line too (a client wrapped "From: Name <address>")."""
    above = text[floor:start].rstrip("\n").split("\n")
    for size in (2, 1):
        if len(above) >= size and _HEADER_KEY.match(above[-size].strip()):
            return floor + len("\n".join(above[:-size]))
    return start


def _join_split_addresses(lines: list[str]) -> list[str]:
    """A client that wraps "Name <a@b>:" after the address leaves ">:" alone on a line,
    which would read as a quote: it goes back to its line."""
    out: list[str] = []
    for line in lines:
        if out and line in (">:", "> :", ">") and "<" in out[-1] and not out[-1].endswith(">") \
                and out[-1].count("<") > out[-1].count(">"):
            out[-1] += ">:" if line != ">" else ">"
        else:
            out.append(line)
    return out


def _quote_follows(text: str, at: int) -> bool:
    """Whether the first non-blank line from `at` on is '>'-quoted (or the text ends)."""
    rest = text[at:].lstrip("\n ")
    return not rest or rest.startswith(">")


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
    signed = False  # below a signature: skipped up to the next quote (answers below it count)
    skip = -1  # the end of an attribution wrapped forward ("... schreef" / "Name <a@b>:")
    for number, line in enumerate(lines):
        line = line.strip()
        if number <= skip:
            continue
        if line.startswith(">"):
            signed = False
            continue
        if _SEPARATOR.match(line) or _header_block(lines, number):
            break
        signed = signed or bool(_SIGNATURE.match(line))
        if signed:
            continue
        wrapped = _attribution_size(kept, line)
        if wrapped:
            del kept[len(kept) - wrapped + 1:]
            following = lines[number + 1].strip() if number + 1 < len(lines) else ""
            if not line.endswith((":", "：")) and following.endswith((":", "：")) and len(following) < 120:
                skip = number + 1
            if not _quote_follows("\n".join(lines[max(skip, number) + 1:]), 0):
                break  # history the client left unquoted
            continue
        kept.append(line)
    return kept


def _attribution_size(kept: list[str], line: str) -> int:
    """How many lines (1 to 3, the last being `line`) make an attribution; 0 if none."""
    if not line:
        return 0
    for size in (3, 2):  # the longest first: "écrit :" alone is an attribution too
        above = kept[len(kept) - size + 1:]
        if len(above) == size - 1 and all(above) and _LEAD.match(above[0]) \
                and not any(_BULLET.match(text) for text in above) and is_attribution(" ".join([*above, line])):
            return size
    return int(is_attribution(line))


def _header_block(lines: list[str], number: int) -> bool:
    """Whether an unquoted header block ("From: ...", "Sent: ...") starts at this line: two
    header lines, a wrapped line allowed between them."""
    if not _HEADER_KEY.match(lines[number].strip()):
        return False
    following = [line.strip() for line in lines[number + 1:number + 3]]
    return any(_HEADER_KEY.match(line) for line in following)


# --- lines ------------------------------------------------------------------------------

_END = re.compile(r"(?:end|stop)[.!]*", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•·]|\d{1,2}[.)])\s+")


def order_lines(text: str) -> list[str]:
    """The lines read: stripped, without '#' comments, list bullets or blank lines, up to a
    line END or STOP.  Which of them are orders is for commands.OrderSorter to tell: a long
    line or a long mail is prose then, not an error."""
    lines: list[str] = []
    for raw in text.split("\n"):
        line = _BULLET.sub("", raw.split("#", 1)[0].strip())
        line = " ".join(line.split())
        if not line:
            continue
        if _END.fullmatch(line):
            break
        lines.append(line)
    return lines
