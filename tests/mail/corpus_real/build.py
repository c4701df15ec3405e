"""Build the corpus of real replies from the public test fixtures of reply parsers.

    python tests/mail/corpus_real/build.py SOURCES_DIR

SOURCES_DIR holds a git clone of each repository in SOURCES below, named owner+name (plain or
bare clones both work; the commit recorded here is read, whatever is checked out).  Nothing
here is needed at test time: the cases/ it writes are committed, and the tests read them.

Each fixture is a real reply (the body a client sent, as the parser's project kept it).  From
each one this script makes:

- `top`: 1 to 3 order lines above the person's text (which then follows the orders, like a
  sign-off, and must be ignored);
- `replace` (where the source says what the person wrote, and the fixture starts with it):
  the orders instead of the person's text, so that their signature and the history follow;
- `bottom` (where the fixture ends in '>'-quoted history): the orders below the quote;
- `chatty` (every third fixture): the reply as it is, no orders.

Each case is cases/<name>.txt (or .html for an HTML body) with cases/<name>.json beside it:
source repository, path, commit and licence, a guessed client and language, the variant
and the exact order lines expected.
"""
from __future__ import annotations

import email
import hashlib
import json
import quopri
import re
import subprocess
import sys
from email import policy
from pathlib import Path

HERE = Path(__file__).parent
CASES = HERE / "cases"
MAX_FIXTURE = 12_000  # bytes: keeps the corpus small; longer fixtures are long quotes

# (repository, commit, licence, licence file, fixture folders, source of "what the person wrote")
SOURCES = [
    ("github/email_reply_parser", "59e5859cfe826d3cb6069bbbfd8577230c93b3cf", "MIT", "LICENSE",
     ["test/emails"], None),
    ("willdurand/EmailReplyParser", "f25f8c6c3cb876112e3857eb3da15e38e44e4725", "MIT", "LICENSE",
     ["tests/Fixtures"], None),
    ("crisp-oss/email-reply-parser", "0b3704c8744d6f57ae1d86d7eab75535c51d2f5c", "MIT", "LICENSE",
     ["test/fixtures"], None),
    ("alfonsrv/mail-parser-reply", "fc44bc880932f81f70a7deaf91c4525b3a6feddb", "MIT", "LICENSE",
     ["test/emails"], None),
    ("discourse/email_reply_trimmer", "117fd1a2703d110651d4faec09b12dc1fc22f237", "MIT", "LICENSE",
     ["test/emails"], "test/trimmed"),
    ("mailgun/talon", "71d9b6eb78e985bcdfbf99b69c20c001b4b818c4", "Apache-2.0", "LICENSE",
     ["tests/fixtures/standard_replies", "tests/fixtures/html_replies"], None),
    ("web-ridge/email-reply-parser", "95e2a82fa6bde0e10708fd1596574afb6fa76ec1", "MIT", "LICENSE",
     ["dataset/quoted_reply", "dataset/signatures"], None),
]
# Not replies, or made to stress a parser rather than written by a person.
SKIP = re.compile(r"pathological|spam_|normalize_line_endings|text_only|usenet|block_code|ls-l|"
                  r"retains_spaces|_reply_text$|email_long_quote|correct_sig|sig_no_empty_line|"
                  r"tricky_3_code_block|email_bullets|quote_only|empty_reply|empty_signature")

# Cases the reader still gets wrong, and why (the test runs them as xfails that fail once a case reads right).
KNOWN_MISSES = {
    "alfonsrv__email_pl_1_2__bottom": "the fixture starts with an Outlook header block: all below it is history",
    "willdurand__email_23_1__bottom": "orders written below history the client left unquoted ('Something wrote:')",
}

ORDERS = ["card 7", "place 12", "place Amatlán eagle Ocotlán", "place 3 move 3 to 4", "battle 12",
          "coexist Tecolotlan", "tie 7", "sacred 12", "accept 5", "score wild desert",
          "score blessing jungle", "tlatoani 12 coexist", "STATUS", "HAND", "place 8 eagle 15"]

LANGUAGES = [  # first match wins: header words of the languages the fixtures are in
    ("zh", r"写道|发件人|原始邮件"), ("ja", r"のメッセージ|年\d+月\d+日\(.\)"), ("ko", r"작성|님이"),
    ("ru", r"написал|пользователь|Отправлено"), ("uk", r"пише:"),
    ("pl", r"napisał|Dnia |W dniu |pisze:"), ("cs", r"napsal"), ("hu", r"írta:"),
    ("vi", r"đã viết"), ("fi", r"kirjoitti"), ("ca", r"va escriure"),
    ("nl", r"schreef|geschreven|Verzonden|Van:"), ("de", r"schrieb|Von:|Gesendet|Ursprüngliche"),
    ("fr", r"a écrit|Envoyé|De :|Cordialement"), ("es", r"escribió|Enviado desde"),
    ("pt", r"escreveu"), ("it", r"ha scritto|In data |Inviato"), ("sv", r"Från:|Skickat|skrev:\s*$"),
    ("da", r"Fra:|Sendt fra|Oprindelig|Med venlig"), ("no", r"skrev|På "),
]
CLIENTS = [
    ("Outlook", r"^From: .*\n(?:.*\n)?Sent:|_{20,}|Get Outlook|Original Message|Outlook"),
    ("Apple Mail / iPhone", r"Sent from my iP|Begin forwarded message|Envoyé de mon iPhone"),
    ("phone (Android, BlackBerry)", r"Android|BlackBerry|mobile"),
    ("Gmail", r"^On .*(?:\n.*)?wrote:|gmail|GMT[+-]\d"), ("Yahoo or other webmail", r"Yahoo|Zimbra|Zoho|msn|hotmail|AOL|yandex|mail\.ru"),
    ("Thunderbird", r"Thunderbird|moz-"),
]


def git_show(sources: Path, repo: str, commit: str, path: str) -> bytes:
    folder = sources / repo.replace("/", "+")
    git_dir = folder / ".git" if (folder / ".git").exists() else (folder / "repo" if (folder / "repo").exists() else folder)
    return subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                          check=True, capture_output=True).stdout


def git_files(sources: Path, repo: str, commit: str, folder: str) -> list[str]:
    root = sources / repo.replace("/", "+")
    git_dir = root / ".git" if (root / ".git").exists() else (root / "repo" if (root / "repo").exists() else root)
    out = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "--name-only", f"{commit}:{folder}"],
                         check=True, capture_output=True, text=True).stdout
    return [f"{folder}/{name}" for name in out.split()]


def body_of(raw: bytes, path: str) -> tuple[str, str] | None:
    """(text, 'txt' or 'html') of a fixture: a text file, an HTML body, or a MIME message's text."""
    if path.endswith(".eml"):
        message = email.message_from_bytes(raw, policy=policy.default)
        part = message.get_body(preferencelist=("plain",))
        return (part.get_content(), "txt") if part is not None else None
    if re.search(rb"=\r?\n", raw) and re.search(rb"=[0-9A-F]{2}", raw):  # saved quoted-printable
        raw = quopri.decodestring(raw)
    text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return (text, "html") if path.endswith(".html") else (text, "txt")


def guess(table: list[tuple[str, str]], text: str, default: str) -> str:
    return next((name for name, pattern in table if re.search(pattern, text, re.MULTILINE)), default)


def orders_for(name: str) -> list[str]:
    digest = hashlib.sha256(name.encode()).digest()
    count = 1 + digest[0] % 3
    picked: list[str] = []
    for byte in digest[1:]:
        order = ORDERS[byte % len(ORDERS)]
        if order not in picked:
            picked.append(order)
        if len(picked) == count:
            break
    return picked


def insert_html(html: str, orders: list[str]) -> str:
    block = "".join(f"<div>{order}</div>" for order in orders) + "<div><br></div>"
    match = re.search(r"<body[^>]*>", html, re.IGNORECASE)
    return html[:match.end()] + block + html[match.end():] if match else block + html


def ends_in_quote(text: str) -> bool:
    lines = [line for line in text.rstrip().split("\n") if line.strip()]
    return bool(lines) and lines[-1].lstrip().startswith(">")


def main(sources: Path) -> None:
    CASES.mkdir(exist_ok=True)
    for old in CASES.iterdir():
        old.unlink()
    (HERE / "LICENSES").mkdir(exist_ok=True)
    seen: set[str] = set()
    count = 0
    for repo, commit, licence, licence_file, folders, trimmed_folder in SOURCES:
        (HERE / "LICENSES" / f"{repo.replace('/', '+')}.txt").write_bytes(
            git_show(sources, repo, commit, licence_file))
        for folder in folders:
            for path in git_files(sources, repo, commit, folder):
                stem = Path(path).stem
                raw = git_show(sources, repo, commit, path)
                if SKIP.search(stem) or len(raw) > MAX_FIXTURE:
                    continue
                found = body_of(raw, path)
                if found is None:
                    continue
                text, kind = found
                key = hashlib.sha256(" ".join(text.split()).encode()).hexdigest()
                if key in seen or not text.strip():
                    continue
                seen.add(key)
                meta = {"source": {"repository": repo, "path": path, "commit": commit, "licence": licence},
                        "client": guess(CLIENTS, text, "other or unknown"),
                        "language": guess(LANGUAGES, text, "en")}
                base = f"{repo.split('/')[0]}__{stem}".replace(".", "_")
                variants: list[tuple[str, str, list[str]]] = []
                orders = orders_for(base)
                if kind == "html":
                    variants.append(("top", insert_html(text, orders), orders))
                else:
                    variants.append(("top", "\n".join(orders) + "\n\n" + text, orders))
                    if trimmed_folder:
                        own = git_show(sources, repo, commit, f"{trimmed_folder}/{Path(path).name}").decode()
                        if own.strip() and text.lstrip().startswith(own.strip()):
                            rest = text.lstrip()[len(own.strip()):]
                            second = orders_for(base + "replace")
                            variants.append(("replace", "\n".join(second) + "\n" + rest, second))
                    if ends_in_quote(text):
                        third = orders_for(base + "bottom")
                        variants.append(("bottom", text.rstrip() + "\n\n" + "\n".join(third) + "\n", third))
                if count % 3 == 0:
                    variants.append(("chatty", text, []))
                count += 1
                for variant, body, expected in variants:
                    name = f"{base}__{variant}"
                    (CASES / f"{name}.{kind}").write_text(body, "utf-8")
                    miss = {"known_miss": KNOWN_MISSES[name]} if name in KNOWN_MISSES else {}
                    (CASES / f"{name}.json").write_text(json.dumps(
                        {**meta, "variant": variant, "orders": expected, **miss}, ensure_ascii=False, indent=1)
                        + "\n", "utf-8")
    print(f"{count} fixtures, {len(list(CASES.glob('*.json')))} cases")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
