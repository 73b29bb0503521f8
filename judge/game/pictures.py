"""The map picture a result mail carries, and the picture of any phase for ``GET MAP``.

A result mail carries the PNG of the new position with the phase's orders (issue 9), unless
the game's master turned pictures off for the game (``Game.pictures``) or the reader turned
them off for themself (``Player.pictures``, ``SET NOPICTURES``); the text part is the same
either way, so mapping tools read it unchanged. The picture of a past phase is drawn again
from its record (the position before it and its stored orders, adjudicated again: the engine
is a pure function), of the current phase from the position alone.

Drawing the SVG takes a few milliseconds; making the PNG from it some 25 ms (the board kept,
``judge/render/pictures/compose.py``), more for a process's first picture of a map.
So a mail is queued with the picture's SVG and waits (``held``) while :class:`PictureStage`
makes the PNG outside the transaction that processed the phase (which holds the game's
lock, and on SQLite the one write lock): the PNG is made after the commit, stored, and the
mails go. The PNGs are made in processes of their own where the judge has a core to spare
(:mod:`judge.picture_process`, ``[judge] picture_processes``), so a burst's pictures do
not take turns with the game work and the sender. Several judge processes may make the
same PNG; the first stored wins.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence

from sqlalchemy.orm import Session, sessionmaker

from .. import render
from ..engine import Adjudication, Position, adjudicate
from ..engine.phase import Phase, PhaseError
from ..render.pictures import phase_picture, svg_to_png
from ..store.games import Player, phase_records
from ..store.mail import File, complete_attachment, waiting_attachments
from ..worker import WakeLoop
from .errors import GameError
from .view import GameView, entries_from_json

PNG = "image/png"
Draw = Callable[[Sequence[str]], Iterable[bytes]]  # SVGs in, their PNGs out in order
log = logging.getLogger(__name__)


def picture_file(view: GameView, position: Position, adjudication: Adjudication | None) -> File:
    """The PNG of ``position`` (before the phase) with ``adjudication``'s orders, as a file
    to attach, ``<game>-<phase>.png``: given by its SVG, made by :class:`PictureStage`."""
    picture = phase_picture(view.board, position, adjudication, game=view.name)
    return File(f"{view.name}-{position.phase.code}.png", PNG, source=picture.svg)


def in_this_process(svgs: Sequence[str]) -> Iterator[bytes]:
    """The PNG of each of ``svgs``, made here, one after another."""
    return (svg_to_png(svg) for svg in svgs)


def make_waiting(factory: sessionmaker[Session], limit: int = 8, draw: Draw = in_this_process) -> int:
    """Make the PNG of up to ``limit`` waiting pictures, outside any transaction (by ``draw``:
    here, or in picture processes, :mod:`judge.picture_process`), and let each picture's
    mails go as soon as it is made; how many were made."""
    with factory() as session:
        waiting = waiting_attachments(session, limit)
    for (attachment_id, _), png in zip(waiting, draw([svg for _, svg in waiting]), strict=True):
        with factory() as session, session.begin():
            released = complete_attachment(session, attachment_id, png)
        log.info("picture %d made (%d bytes), %d mails released", attachment_id, len(png), released)
    return len(waiting)


class PictureStage:
    """Makes waiting pictures whenever woken, and every ``poll_seconds``, until cancelled."""

    def __init__(self, factory: sessionmaker[Session], poll_seconds: float,
                 on_made: Callable[[], None] | None = None, draw: Draw = in_this_process) -> None:
        self.factory = factory
        self.draw = draw
        self.poll_seconds = poll_seconds
        self.on_made = on_made
        self._loop = WakeLoop()

    def wake(self) -> None:
        """Say a picture may be waiting (call from the event loop's thread)."""
        self._loop.wake()

    async def run(self) -> None:
        await self._loop.run(lambda: make_waiting(self.factory, draw=self.draw), self.poll_seconds, self.on_made, log,
                             "making pictures failed; retrying")


def wants_pictures(view: GameView, reader: Player) -> bool:
    return view.game.pictures and reader.pictures


class PhaseUnknown(GameError, LookupError):
    """``GET MAP`` of a phase the game has not played; the message is for the sender."""


def phase_file(session: Session, view: GameView, code: str | None) -> File:
    """The picture of phase ``code`` of the game (``S1901M`` or ``spring 1901 movement``), or
    of its current position when ``code`` is None or the current phase."""
    wanted = _phase_code(code) if code else None
    if wanted is None or (view.started and wanted == view.phase.code and not _played(session, view, wanted)):
        return picture_file(view, view.position, None)
    for record in reversed(phase_records(session, view.game)):
        if record.phase == wanted:
            position = Position.from_json(view.map, record.position)
            orders = [e.order for entries in entries_from_json(record.orders or {}).values() for e in entries]
            return picture_file(view, position, adjudicate(view.board, position, orders))
    raise PhaseUnknown(render.refusal("phase_not_played", game=view.name, phase=code))


def _played(session: Session, view: GameView, code: str) -> bool:
    return any(r.phase == code for r in phase_records(session, view.game))


def _phase_code(text: str) -> str:
    try:
        return Phase.parse(text).code
    except PhaseError:
        raise PhaseUnknown(render.refusal("phase_unreadable", text=text)) from None
