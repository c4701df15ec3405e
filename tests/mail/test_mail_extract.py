"""From body to order lines: charsets, format=flowed, HTML, quoted history, signatures, caps."""
from __future__ import annotations


import pytest

from mail_guards import hang_guard

from pbem.mail.extract import decode_bytes, normalize, order_lines, reply_text, unflow
from pbem.mail.htmltext import html_to_text
from pbem.outbox.marker import with_marker, with_marker_html

QUOTE = "> Your turn: place a pawn.\n>\n> --\n> pbem, reply HELP for the commands"


def lines(body: str) -> list[str]:
    return order_lines(reply_text(normalize(body)))


# --- charsets ---------------------------------------------------------------------------

@pytest.mark.parametrize("data, declared", [
    ("place Amatlán".encode("utf-8"), "utf-8"),
    ("place Amatlán".encode("latin-1"), "iso-8859-1"),
    ("place Amatlán".encode("cp1252"), "windows-1252"),
    ("place Amatlán".encode("utf-8"), "iso-8859-1"),  # declared Latin-1, sent UTF-8
    ("place Amatlán".encode("utf-8"), "us-ascii"),
    ("place Amatlán".encode("latin-1"), "utf-8"),  # declared UTF-8, sent Latin-1
    ("place Amatlán".encode("latin-1"), "x-unknown-8bit"),  # no such codec
    ("place Amatlán".encode("utf-8"), None),
    ("place Amatlán".encode("utf-8"), "base64"),  # a codec, but not a text encoding
])
def test_text_survives_wrong_or_unknown_charsets(data, declared):
    assert decode_bytes(data, declared) == "place Amatlán"


def test_latin1_label_reads_windows_1252_quotes():
    assert decode_bytes("“card 7”".encode("cp1252"), "iso-8859-1") == "“card 7”"


def test_a_declared_multibyte_charset_is_used():
    assert decode_bytes("place Amatlán".encode("utf-16"), "utf-16") == "place Amatlán"


def test_normalize_composes_accents_and_drops_invisible_characters():
    text = "place Amatla\u0301n\u200b\r\n\ufeffcard\u00a07 \u202e\r\n"
    assert normalize(text) == "place Amatlán\ncard 7"


# --- format=flowed ----------------------------------------------------------------------

def test_unflow_joins_soft_breaks_and_keeps_hard_ones():
    assert unflow("score wild fields rafts 3 \nand 7\ncard 5") == "score wild fields rafts 3 and 7\ncard 5"


def test_unflow_delsp_removes_the_space_at_the_break():
    assert unflow("Amat \nlán", delsp=True) == "Amatlán"


def test_unflow_keeps_quote_depths_apart_and_the_signature_delimiter():
    text = "> quoted \n> line\nmine \ncontinues\n-- \nAna"
    assert unflow(text) == "> quoted line\nmine continues\n-- \nAna"


def test_unflow_removes_space_stuffing():
    assert unflow(" From here\ncard 5") == "From here\ncard 5"


# --- HTML -------------------------------------------------------------------------------

def test_html_blocks_and_breaks_make_lines():
    html = "<div>card 5<br>place Amatl&aacute;n</div><p>battle 12</p><ul><li>tie 3</li><li>sacred 4</li></ul>"
    assert html_to_text(html).split("\n") == ["card 5", "place Amatlán", "battle 12", "tie 3", "sacred 4"]


def test_html_blockquote_becomes_quoted_lines():
    html = "card 5<blockquote>Your turn<br>board<blockquote>older</blockquote></blockquote>place 3"
    assert html_to_text(html).split("\n") == ["card 5", "> Your turn", "> board", ">> older", "place 3"]


def test_html_drops_head_style_script_hidden_and_signature_blocks():
    html = ("<html><head><title>t</title><style>p {color: red}</style></head><body>"
            "<script>var a = 'battle 1';</script><span style='display: none'>preheader</span>"
            "<div hidden>resign</div><div>card 5</div>"
            "<div class='gmail_signature'><div>Ana</div><div>Madrid</div></div>"
            "<div id='Signature'>Get Outlook</div><div>place 3</div></body></html>")
    assert html_to_text(html).split("\n") == ["card 5", "place 3"]


def test_html_keeps_pre_lines_and_separates_table_cells():
    html = "<pre>card 5\nplace  3</pre><table><tr><td>tie</td><td>4</td></tr></table>"
    text = html_to_text(html)
    assert [" ".join(line.split()) for line in text.split("\n")] == ["card 5", "place 3", "tie 4"]


def test_html_survives_broken_markup():
    text = html_to_text("<div>card 5<p>place 3</div></blockquote></b><br/>tie 4")
    assert [line for line in text.split("\n") if line] == ["card 5", "place 3", "tie 4"]


# --- quoted history ---------------------------------------------------------------------

@pytest.mark.parametrize("attribution", [
    "On Mon, 3 Nov 2026 at 10:02, pbem <orders+x@pbem.example> wrote:",
    "On Mon, Nov 3, 2026, 10:02 AM pbem <orders+x@pbem.example> wrote:",
    "On 3 Nov 2026, at 10:02, pbem <orders+x@pbem.example> wrote:",
    "On 03/11/2026 10:02, pbem wrote:",
    "Am Mo., 3. Nov. 2026 um 10:02 Uhr schrieb pbem <orders+x@pbem.example>:",
    "Am 03.11.26 um 10:02 schrieb pbem:",
    "Le lun. 3 nov. 2026 à 10:02, pbem <orders+x@pbem.example> a écrit :",
    "El lun, 3 nov 2026 a las 10:02, pbem (<orders+x@pbem.example>) escribió:",
    "Il giorno lun 3 nov 2026 alle ore 10:02 pbem <orders+x@pbem.example> ha scritto:",
    "Op ma 3 nov 2026 om 10:02 schreef pbem <orders+x@pbem.example>:",
    "Em seg., 3 de nov. de 2026 às 10:02, pbem <orders+x@pbem.example> escreveu:",
])
def test_attribution_lines_and_quotes_are_dropped_in_many_languages(attribution):
    assert lines(f"card 5\n\n{attribution}\n{QUOTE}\n") == ["card 5"]


def test_an_attribution_wrapped_over_two_lines_is_dropped():
    body = f"card 5\n\nLe lun. 3 nov. 2026 à 10:02, pbem <orders+x@pbem.example> a\nécrit :\n{QUOTE}"
    assert lines(body) == ["card 5"]


def test_bottom_posted_orders_below_a_quote_with_a_signature_are_kept():
    """The quoted mail ends in a '-- ' signature: it must not cut what follows the quote."""
    body = f"On Mon, 3 Nov 2026 at 10:02, pbem wrote:\n{QUOTE}\n\ncard 5\nplace Amatlán\n\n-- \nAna\n"
    assert lines(body) == ["card 5", "place Amatlán"]


def test_interleaved_answers_are_kept_in_order():
    body = "On Mon, pbem wrote:\n> Choose a card.\ncard 5\n> Place a pawn.\n>\nplace 3\n> --\n> pbem\n"
    assert lines(body) == ["card 5", "place 3"]


def test_a_quote_without_attribution_is_dropped():
    assert lines("card 5\n> battle 3\n> resign confirm\nplace 4") == ["card 5", "place 4"]


@pytest.mark.parametrize("separator", [
    "From: pbem <orders+x@pbem.example>\nSent: Monday, November 3, 2026 10:02 AM\nTo: Ana\nSubject: turn",
    "-----Original Message-----\nFrom: pbem\nSent: Monday",
    "________________________________\nFrom: pbem\nSent: Monday",
    "De : pbem <orders+x@pbem.example>\nEnvoyé : lundi 3 novembre 2026 10:02\nÀ : Ana\nObjet : your turn",
    "Von: pbem <orders+x@pbem.example>\nGesendet: Montag, 3. November 2026 10:02\nAn: Ana\nBetreff: Zug",
    "-----Ursprüngliche Nachricht-----\nVon: pbem",
    "---------- Forwarded message ---------\nFrom: pbem",
])
def test_unquoted_history_ends_the_reply(separator):
    body = f"card 5\n\n{separator}\n\nYour turn.\nbattle 3\nresign confirm\n"
    assert lines(body) == ["card 5"]


@pytest.mark.parametrize("closing", [
    "-- \nAna", "--\nAna", "Sent from my iPhone", "Sent from my Galaxy", "Get Outlook for Android",
    "Sent from Mail for Windows", "Von meinem iPhone gesendet", "Envoyé de mon iPhone",
    "Enviado desde mi iPhone", "Inviato da iPhone", "Best regards,\nAna", "Thanks,\nAna",
    "Mit freundlichen Grüßen\nAna", "Cordialement,\nAna", "Saludos,\nAna",
])
def test_signatures_are_dropped(closing):
    assert lines(f"card 5\nplace 3\n\n{closing}\n") == ["card 5", "place 3"]


@pytest.mark.parametrize("order", ["take body 3", "khaki 2", "knusper 1", "hilsener 4", "mvhx 1"])
def test_an_order_that_begins_like_a_closing_word_is_no_signature(order):
    """The library's closings end at the end of their word: "Tak" is a signature, "take" is not."""
    assert lines(f"choose 2\n{order}\n\nTak\nAna\n") == ["choose 2", order]


def test_a_hyphen_list_is_not_taken_for_a_signature():
    assert lines("- card 5\n- place 3\n") == ["card 5", "place 3"]


def test_prose_is_left_for_the_order_sorter():
    """Which lines are chatter is told by the game's grammar (commands.OrderSorter), not here."""
    assert lines("Hi!\ncard 5\n") == ["Hi!", "card 5"]


def test_quadratic_regexes_only_see_bounded_text():
    """A forged 200 kB line starting with "On " takes the reply parser minutes unbounded."""
    body = "card 5\n" + "On " + "a " * 100_000 + "\n" + ("On " + "b " * 400 + "\n") * 300
    with hang_guard():
        reply_text(body)


# --- order lines ------------------------------------------------------------------------

def test_order_lines_stop_at_end_or_stop():
    assert order_lines("card 5\nEND\nresign confirm") == ["card 5"]
    assert order_lines("card 5\nStop.\nresign confirm") == ["card 5"]
    assert order_lines("card 5\nend game soon") == ["card 5", "end game soon"]


def test_order_lines_drop_comments_bullets_numbers_and_extra_spaces():
    text = "# my orders\n1. card   5\n2) place 3 # the lake\n* tie 4\n• sacred 2\n\n   \n"
    assert order_lines(text) == ["card 5", "place 3", "tie 4", "sacred 2"]


def test_long_lines_and_long_mails_are_read_not_refused():
    """Prose may be long: which lines are orders is the sorter's business (test_mail_commands)."""
    text = "\n".join(f"line {n} " + "x" * 300 for n in range(150))
    assert len(order_lines(text)) == 150


@pytest.mark.parametrize("html", ["<!--" * 250_000, "<![CDATA[" * 100_000, "</" * 250_000, "<?" * 250_000,
                                  "<a " + "b=c " * 250_000, '<a b="' * 150_000])
def test_malformed_html_takes_linear_time(html):
    """CPython 3.11's HTMLParser.close() is quadratic on these (minutes for 1 MB)."""
    with hang_guard():
        html_to_text("<div>card 5</div>" + html)


def test_html_text_at_the_end_is_kept():
    assert html_to_text("<div>card 5</div>place Amatl&aacute;n") == "card 5\nplace Amatlán"
    assert html_to_text("<div>card 5</div>tie 3 &amp") == "card 5\ntie 3 &"
    assert html_to_text("<div>card 5</div>place 3 <!-- never closed").split("\n") == ["card 5", "place 3"]


def test_html_is_read_only_so_far():
    html = "<div>card 5</div>" + "<b>x</b>" * 125_000 + "<div>resign confirm</div>"
    with hang_guard():
        text = html_to_text(html)
    assert text.startswith("card 5") and "resign" not in text


def test_a_stray_less_than_is_text():
    assert html_to_text("<div>a < b <3</div>") == "a < b <3"


# --- quote headers and history of many clients and languages -----------------------------

HISTORY = "Your turn in Aztlán game 42.\ncard 7\nplace 12\n"
QUOTED = "\n".join("> " + line for line in HISTORY.splitlines())


@pytest.mark.parametrize("header", [
    "2016-10-24 15:36 GMT+02:00 pbem <orders+x@pbem.example>:",                      # Gmail, date first
    "pbem <orders+x@pbem.example> schrieb am Fr., 28. Apr. 2017 um 11:53 Uhr:",      # German Gmail
    "Am 18.09.2013 um 16:24 schrieb pbem <orders+x@pbem.example>:",                   # German Apple Mail
    "ср, 1 апр. 2015 г. в 18:29, pbem <orders+x@pbem.example>:",                      # Russian
    "суббота, 14 марта 2015 г. пользователь pbem написал:",                           # Russian Gmail
    "30 серп. 2016 р. 20:45 \"pbem\" <orders+x@pbem.example> пише:",                  # Ukrainian
    "Dnia 14 lip 2015 o godz. 00:25 pbem <orders+x@pbem.example> napisał(a):",        # Polish
    "W dniu 14.07.2015 o 00:25, pbem pisze:",                                          # Polish
    "In data 3 novembre 2026 10:02, pbem <orders+x@pbem.example> ha scritto:",        # Italian
    "Den 15. jun. 2016 kl. 20.42 skrev pbem <orders+x@pbem.example>:",                 # Swedish, Danish
    "På 3. nov. 2026 kl. 10:02 skrev pbem <orders+x@pbem.example>:",                   # Norwegian
    "Op 24 aug. 2013 om 16:48 heeft pbem <orders+x@pbem.example> het volgende geschreven:",  # Dutch iPhone
    "pe 3. marrask. 2026 klo 10.02 pbem <orders+x@pbem.example> kirjoitti:",           # Finnish
    "2026. november 3., hétfő 10:02 keltezéssel, pbem írta:",                          # Hungarian
    "Vào 10:02 Th 2, 3 thg 11, 2026 pbem <orders+x@pbem.example> đã viết:",            # Vietnamese
    "El dl., 3 de nov. 2026 a les 10:02, pbem (<orders+x@pbem.example>) va escriure:",  # Catalan
    "在 2026年11月3日 10:02, pbem <orders+x@pbem.example> 写道：",                      # Chinese
    "2026年11月3日(月) 10:02 pbem <orders+x@pbem.example>:",                            # Japanese
    "2026/11/03 10:02、pbem のメッセージ:",                                             # Japanese
    "2026년 11월 3일 (월) 오전 10:02, pbem <orders+x@pbem.example>님이 작성:",           # Korean
    "At 11/3/2026 10:02 AM, you wrote:",                                                # Eudora
    "---- On Mon, 03 Nov 2026 10:02:00 +0100 pbem <orders+x@pbem.example> wrote ----",  # Zoho
    "On Mon, 3 Nov 2026 at 10:02, pbem <orders+x@pbem.example> wrote",                  # no colon
    "- On Mon, 3 Nov 2026 at 10:02, pbem <orders+x@pbem.example> wrote:",               # a leading dash
])
def test_quote_headers_of_many_clients_and_languages_end_the_reply(header):
    """Unquoted history below: cut; '>'-quoted below: dropped, and text under the quote kept."""
    assert lines(f"card 5\n\n{header}\n{HISTORY}") == ["card 5"]
    assert lines(f"card 5\n\n{header}\n\n{QUOTED}\nplace 3") == ["card 5", "place 3"]


@pytest.mark.parametrize("header", [
    "On Mon, 3 Nov 2026 at 10:02, pbem\n<orders+x@pbem.example>\nwrote:",
    "On Mon, 3 Nov 2026 at 10:02, pbem <orders+x@pbem.example\n>:",
    "Op za 8 mei 2021 om 12:09 schreef\npbem <orders+x@pbem.example>:",
    "Am Mo., 3. Nov. 2026 um 10:02 Uhr schrieb pbem <\norders+x@pbem.example>:",
])
def test_wrapped_quote_headers(header):
    assert lines(f"card 5\n\n{header}\n{QUOTED}\nplace 3\n") == ["card 5", "place 3"]
    assert lines(f"card 5\n\n{header}\n{HISTORY}") == ["card 5"]


@pytest.mark.parametrize("block", [
    "De : pbem [mailto:orders+x@pbem.example]\nEnvoyé le : lundi 3 novembre 2026 10:02\nÀ : Ana\nObjet : turn",
    "Fra: pbem <orders+x@pbem.example>\nSendt: 3. november 2026 10:02\nTil: Ana\nEmne: turn",
    "-----Oprindelig meddelelse-----\nFra: pbem",
    "Från: pbem <orders+x@pbem.example>\nSkickat: den 3 november 2026 10:02\nTill: Ana\nÄmne: turn",
    "From: pbem\n<orders+x@pbem.example>\nSent: Monday, November 3, 2026 10:02 AM\nTo: Ana",
    "*From:* pbem <orders+x@pbem.example>\n*Sent:* Monday\n*To:* Ana",
    "От: pbem <orders+x@pbem.example>\nОтправлено: 3 ноября 2026 г. 10:02\nКому: Ana",
    "------------------ 原始邮件 ------------------\n发件人: pbem",
    "Début du message réexpédié :\n\nDe: pbem",
])
def test_original_message_and_forwarded_blocks_end_the_reply(block):
    assert lines(f"card 5\n\n{block}\n\n{HISTORY}") == ["card 5"]


@pytest.mark.parametrize("closing", [
    "Envoyé à partir de Outlook pour iOS", "Sendt fra min iPad", "Skickat från min iPhone",
    "Verstuurd vanaf mijn iPhone", "iPhoneから送信",
])
def test_phone_signatures_in_other_languages(closing):
    assert lines(f"card 5\n\n{closing}\n") == ["card 5"]


def test_a_signature_above_a_quote_does_not_cut_the_answers_below_it():
    body = f"Sounds good.\n\nSent from my iPhone\n\nOn Mon, pbem wrote:\n{QUOTED}\ncard 5\n"
    assert lines(body) == ["Sounds good.", "card 5"]


# --- our marker --------------------------------------------------------------------------

def test_everything_from_our_marker_on_is_history_whatever_the_client_did():
    """Our confirmation pasted unquoted under an 'On ... wrote:' line: its orders are history."""
    ours = with_marker("Accepted for Ana (serpent) in game 42:\n    card 7\n    place 12")
    assert lines(f"card 3\n\nOn Mon, pbem <noreply@pbem.example> wrote:\n{ours}\n") == ["card 3"]
    assert lines(f"card 3\n\nsome header we do not know\n{ours}\n") == ["card 3", "some header we do not know"]


def test_a_quoted_marker_is_only_part_of_the_quote():
    quoted = "\n".join("> " + line for line in with_marker("Your turn.\nplace 12").split("\n"))
    assert lines(f"On Mon, pbem wrote:\n{quoted}\n\ncard 3\n") == ["card 3"]


def test_the_marker_survives_html():
    html = with_marker_html("<html><body><div>Your turn.</div><div>place 12</div></body></html>")
    assert lines(f"card 3\n{html_to_text(html)}") == ["card 3"]
