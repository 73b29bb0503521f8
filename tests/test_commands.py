"""Splitting mail text into commands (judge.mail.commands)."""

from judge.mail import commands as c
from judge.mail.commands import parse_commands


def verbs(text: str) -> list[str]:
    return [cmd.verb for cmd in parse_commands(text)]


def test_signon_orders_signoff() -> None:
    cmds = parse_commands("signon Fdt pass\nA par - bur\n\nF bre - mao\nsignoff\nthis is a signature\n")
    assert [x.verb for x in cmds] == [c.SIGNON, c.ORDER, c.ORDER, c.SIGNOFF]
    assert cmds[0].args == ("Fdt", "pass")
    assert cmds[1].text == "A par - bur"
    assert cmds[2].lineno == 4


def test_spellings_and_case() -> None:
    assert verbs("Sign On ?dt pw\nSET NO WAIT\nset nowait\nSet Wait\nsign off") == [
        c.SIGNON, c.SET_NOWAIT, c.SET_NOWAIT, c.SET_WAIT, c.SIGNOFF]
    assert verbs("send me info") == [c.GET]
    assert verbs("watch dt pw") == [c.OBSERVE]
    assert verbs("withdraw") == [c.RESIGN]


def test_lines_before_signon_are_unknown() -> None:
    cmds = parse_commands("A par - bur\nlist dt")
    assert [x.verb for x in cmds] == [c.UNKNOWN, c.LIST]
    assert cmds[1].args == ("dt",)


def test_help_before_signon_ends_the_mail() -> None:
    assert verbs("help\nlist\n") == [c.HELP]
    assert verbs("signon fdt pw\nhelp\nA par H") == [c.SIGNON, c.HELP, c.ORDER]


def test_press_block() -> None:
    cmds = parse_commands("signon mdt pw\nbroadcast\nHello all!\n  process this?\n\nendbroadcast\nprocess\n")
    assert [x.verb for x in cmds] == [c.SIGNON, c.BROADCAST, c.PROCESS]
    assert cmds[1].body == ("Hello all!", "  process this?", "")
    assert cmds[1].press_text == "Hello all!\n  process this?"


def test_press_ends_at_signoff_or_end_of_mail() -> None:
    assert verbs("signon fdt pw\npress to g\nhi\nsign off\nA par H") == [c.SIGNON, c.PRESS]
    cmds = parse_commands("signon fdt pw\nbroadcast\nhi\nEND PRESS\nA par H")
    assert [x.verb for x in cmds] == [c.SIGNON, c.BROADCAST, c.ORDER]
    cmds = parse_commands("signon fdt pw\nbroadcast\nhi there")
    assert cmds[-1].body == ("hi there",)
    assert cmds[1].args == ()


def test_press_end_must_stand_alone() -> None:
    cmds = parse_commands("signon fdt pw\nbroadcast\nendpress is a word\nendpress")
    assert cmds[1].body == ("endpress is a word",)


def test_set_commands() -> None:
    cmds = parse_commands("signon mdt pw\nset deadline 2026-12-01 18:00 UTC\nset option railway=no\n"
                          "set preference E[FGR]\nset grey press")
    assert [x.verb for x in cmds[1:]] == [c.SET_DEADLINE, c.SET_OPTION, c.SET_PREFERENCE, c.SET_PRESS]
    assert cmds[1].text == "2026-12-01 18:00 UTC"
    assert cmds[2].text == "railway=no"
    assert cmds[3].args == ("E[FGR]",)
    assert cmds[4].text == "grey press"


def test_quoted_lines_and_signature_are_skipped() -> None:
    assert verbs("signon fdt pw\n> A par - bur\nA mar H\n--\nA bre H") == [c.SIGNON, c.ORDER]


def test_create_signs_on() -> None:
    cmds = parse_commands("create ?dt pw standard\nset deadline Mon Dec 1 2026 18:00\nA par - bur")
    assert [x.verb for x in cmds] == [c.CREATE, c.SET_DEADLINE, c.ORDER]
    assert cmds[0].args == ("?dt", "pw", "standard")


def test_crlf_and_stray_end() -> None:
    assert verbs("list\r\nendpress\r\n") == [c.LIST, c.STRAY_END]


def test_clock_and_draw_commands() -> None:
    cmds = parse_commands("signon fdt pw\nset grace 24\nset moves next 48 grace 72\nset adjust 12\n"
                          "set draw\nset no draw\nset nodraw\nset no dias")
    assert [(c.verb, c.text) for c in cmds[1:]] == [
        ("SET GRACE", "24"), ("SET MOVES", "next 48 grace 72"), ("SET BUILDS", "12"), ("SET DRAW", ""),
        ("SET NODRAW", ""), ("SET NODRAW", ""), ("SET", "no dias")]


def test_press_settings_keep_their_words() -> None:
    cmds = parse_commands("signon mdt pw\nset grey\nset no white press\nset white/grey, no partial\n"
                          "set no press\nset press none\nset nopartial\nset postal press")
    assert [(x.verb, x.text) for x in cmds[1:]] == [
        (c.SET_PRESS, "grey"), (c.SET_PRESS, "no white press"), (c.SET_PRESS, "white/grey, no partial"),
        (c.SET_PRESS, "no press"), (c.SET_PRESS, "press none"), (c.SET_PRESS, "nopartial"),
        (c.SET_OTHER, "postal press")]
