"""DIARY: a player's private diary, kept by the judge (njudge ``data/index``; the entries
and their numbering are :mod:`judge.game.diary`'s).

- ``DIARY`` or ``DIARY RECORD``: the lines after it, to ``ENDPRESS``, ``ENDBROADCAST`` or
  ``SIGNOFF`` (as a press message), are a new numbered entry;
- ``DIARY LIST``: the numbers of the entries and when each was written;
- ``DIARY READ n``: entry ``n``;
- ``DIARY DELETE n [n ...]``: takes entries away (their numbers are not given again).
"""

from __future__ import annotations

from .. import render
from ..game import diary
from .outcome import Call, Outcome, said


def record(call: Call) -> Outcome:
    """DIARY, DIARY RECORD: a new entry of the lines after it."""
    if call.cmd.text.strip() and call.cmd.text.strip().upper() != "RECORD":
        return call.error(render.refusal("diary_option_unknown", option=call.cmd.text.strip()))
    lines = [line.text for line in call.cmd.body]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return call.error(render.refusal("diary_empty"))
    entry = diary.record(call.session, call.me, "\n".join(lines), call.now)
    return said(render.section("player/diary_recorded", game=call.view.name, number=entry.number,
                               when=call.context().when(entry.written)))


def listing(call: Call) -> Outcome:
    """DIARY LIST: the entries' numbers and when each was written."""
    ctx = call.context()
    found = [(e.number, ctx.when(e.written)) for e in diary.entries(call.session, call.me)]
    return said(render.section("player/diary_list", game=call.view.name, entries=found))


def read(call: Call) -> Outcome:
    """DIARY READ n: one entry."""
    numbers = _numbers(call.cmd.args)
    if numbers is None or len(numbers) != 1:
        return call.error(render.refusal("diary_number_syntax", what="READ"))
    entry = diary.entry(call.session, call.me, numbers[0])
    if entry is None:
        return call.error(render.refusal("diary_no_entry", number=numbers[0]))
    return said(render.section("player/diary_entry", game=call.view.name, number=entry.number,
                               when=call.context().when(entry.written), body=entry.body))


def delete(call: Call) -> Outcome:
    """DIARY DELETE n [n ...]: entries taken away."""
    numbers = _numbers(call.cmd.args)
    if not numbers:
        return call.error(render.refusal("diary_number_syntax", what="DELETE"))
    gone, missing = diary.delete_entries(call.session, call.me, numbers)
    text = render.section("player/diary_deleted", game=call.view.name, deleted=gone)
    if missing:
        refused = call.error(render.refusal("diary_no_entry", number=missing[0]))
        return Outcome(reply=((text,) if gone else ()) + refused.reply, errors=refused.errors)
    return said(text)


def _numbers(words: tuple[str, ...]) -> list[int] | None:
    """Entry numbers written with spaces or commas (``3 5``, ``3,5``); None if a word is
    no number."""
    parts = [w for word in words for w in word.split(",") if w]
    if not all(p.isdigit() for p in parts):
        return None
    return [int(p) for p in parts]
