"""Splitting mail text into commands with the command table's words (judge.commands.reading)."""

from judge.commands.command import ORDERS, STRAY_END, UNKNOWN, Command
from judge.commands.reading import read_commands
from judge.commands.table import TABLE, VOCABULARY


def parse(text: str) -> list[Command]:
    return read_commands(VOCABULARY, text)


def verbs(text: str) -> list[str]:
    return [cmd.verb for cmd in parse(text)]


def test_signon_orders_signoff() -> None:
    cmds = parse("signon Fdt pass\nA par - bur\n\nF bre - mao\nsignoff\nthis is a signature\n")
    assert [x.verb for x in cmds] == ["SIGNON", ORDERS, "SIGNOFF"]
    assert cmds[0].args == ("Fdt", "pass")
    assert [(line.text, line.number) for line in cmds[1].body] == [("A par - bur", 2), ("F bre - mao", 4)]


def test_a_run_of_orders_ends_at_the_next_command() -> None:
    cmds = parse("signon Fdt pass\nA par - bur\nbroadcast\nhi\nendpress\nF bre - mao\nA mar h")
    assert [x.verb for x in cmds] == ["SIGNON", ORDERS, "BROADCAST", ORDERS]
    assert [line.text for line in cmds[3].body] == ["F bre - mao", "A mar h"]


def test_spellings_and_case() -> None:
    assert verbs("Sign On ?dt pw\nSET NO WAIT\nset nowait\nSet Wait\nsign off") == [
        "SIGNON", "SET NOWAIT", "SET NOWAIT", "SET WAIT", "SIGNOFF"]
    assert verbs("send me info") == ["GET"]
    assert verbs("watch dt pw") == ["OBSERVE"]
    assert verbs("withdraw") == ["RESIGN"]


def test_lines_before_signon_are_unknown() -> None:
    cmds = parse("A par - bur\nlist dt")
    assert [x.verb for x in cmds] == [UNKNOWN, "LIST"]
    assert cmds[1].args == ("dt",)


def test_help_before_signon_ends_the_mail() -> None:
    assert verbs("help\nlist\n") == ["HELP"]
    assert verbs("signon fdt pw\nhelp\nA par H") == ["SIGNON", "HELP", ORDERS]


def test_press_block() -> None:
    cmds = parse("signon mdt pw\nbroadcast\nHello all!\n  process this?\n\nendbroadcast\nprocess\n")
    assert [x.verb for x in cmds] == ["SIGNON", "BROADCAST", "PROCESS"]
    assert [line.text for line in cmds[1].body] == ["Hello all!", "  process this?", ""]
    assert cmds[1].press_text == "Hello all!\n  process this?"


def test_press_ends_at_signoff_or_end_of_mail() -> None:
    assert verbs("signon fdt pw\npress to g\nhi\nsign off\nA par H") == ["SIGNON", "PRESS"]
    cmds = parse("signon fdt pw\nbroadcast\nhi\nEND PRESS\nA par H")
    assert [x.verb for x in cmds] == ["SIGNON", "BROADCAST", ORDERS]
    cmds = parse("signon fdt pw\nbroadcast\nhi there")
    assert cmds[-1].press_text == "hi there"
    assert cmds[1].args == ()


def test_press_end_must_stand_alone() -> None:
    cmds = parse("signon fdt pw\nbroadcast\nendpress is a word\nendpress")
    assert cmds[1].press_text == "endpress is a word"


def test_set_commands() -> None:
    cmds = parse("signon mdt pw\nset deadline 2026-12-01 18:00 UTC\nset option railway=no\n"
                 "set preference E[FGR]\nset grey press")
    assert [x.verb for x in cmds[1:]] == ["SET DEADLINE", "SET OPTION", "SET PREFERENCE", "SET PRESS"]
    assert cmds[1].text == "2026-12-01 18:00 UTC"
    assert cmds[2].text == "railway=no"
    assert cmds[3].args == ("E[FGR]",)
    assert cmds[4].line == "set grey press"


def test_quoted_lines_and_signature_are_skipped() -> None:
    cmds = parse("signon fdt pw\n> A par - bur\nA mar H\n--\nA bre H")
    assert [x.verb for x in cmds] == ["SIGNON", ORDERS] and [line.text for line in cmds[1].body] == ["A mar H"]


def test_create_signs_on() -> None:
    cmds = parse("create ?dt pw standard\nset deadline Mon Dec 1 2026 18:00\nA par - bur")
    assert [x.verb for x in cmds] == ["CREATE", "SET DEADLINE", ORDERS]
    assert cmds[0].args == ("?dt", "pw", "standard")


def test_crlf_and_stray_end() -> None:
    assert verbs("list\r\nendpress\r\n") == ["LIST", STRAY_END]


def test_clock_and_draw_commands() -> None:
    cmds = parse("signon fdt pw\nset grace 24\nset moves next 48 grace 72\nset adjust 12\n"
                 "set draw\nset no draw\nset nodraw\nset no dias")
    assert [(c.verb, c.text) for c in cmds[1:]] == [
        ("SET GRACE", "24"), ("SET MOVES", "next 48 grace 72"), ("SET BUILDS", "12"), ("SET DRAW", ""),
        ("SET NODRAW", ""), ("SET NODRAW", ""), ("SET NODIAS", "")]


def test_press_settings_keep_their_words() -> None:
    cmds = parse("signon mdt pw\nset grey\nset no white press\nset white/grey, no partial\n"
                 "set no press\nset press none\nset nopartial\nset postal press\nset partial may be faked\n"
                 "set no grace press\nset grace 24\nset observer no press\nset no must order\nset touch press")
    assert [(x.verb, x.line) for x in cmds[1:]] == [
        ("SET PRESS", "set grey"), ("SET PRESS", "set no white press"), ("SET PRESS", "set white/grey, no partial"),
        ("SET PRESS", "set no press"), ("SET PRESS", "set press none"), ("SET PRESS", "set nopartial"),
        ("SET PRESS", "set postal press"), ("SET PRESS", "set partial may be faked"),
        ("SET PRESS", "set no grace press"), ("SET GRACE", "set grace 24"), ("SET PRESS", "set observer no press"),
        ("SET PRESS", "set no must order"), ("SET", "set touch press")]


def test_a_phase_line_directs_the_commands_after_it() -> None:
    cmds = parse("signon fdt pw\na par - bur\nphase fall 1901 movement\nif french par\n  a par - pic\nendif\n"
                 "set wait\npress to e\nhi\nendpress\nf bre - mao\nphase s1902m\nclear\na pic - bel")
    assert [(c.verb, c.phase, [line.text for line in c.body] if c.verb == "ORDERS" else c.text)
            for c in cmds[1:]] == [
        ("ORDERS", "", ["a par - bur"]), ("PHASE", "fall 1901 movement", "fall 1901 movement"),
        ("ORDERS", "fall 1901 movement", ["if french par", "a par - pic", "endif"]),
        ("SET WAIT", "fall 1901 movement", ""), ("PRESS", "fall 1901 movement", "to e"),
        ("ORDERS", "fall 1901 movement", ["f bre - mao"]), ("PHASE", "s1902m", "s1902m"),
        ("CLEAR", "s1902m", ""), ("ORDERS", "s1902m", ["a pic - bel"])]


def test_a_mail_to_a_reply_address_is_read_as_signed_on() -> None:
    assert [c.verb for c in read_commands(VOCABULARY, "a par - bur\nset wait")] == ["UNKNOWN", "SET WAIT"]
    assert [c.verb for c in read_commands(VOCABULARY, "a par - bur\nset wait", signed_on=True)] == [
        "ORDERS", "SET WAIT"]


def test_every_spelling_reads_as_its_row() -> None:
    for row in TABLE:
        for text in row.spellings:
            assert verbs(f"signon fdt pw\n{text.lower()} x")[1] == row.verb, text
