"""The operator's commands: ``judge status`` and ``judge mail list|show|retry|drop``.

``judge status`` is a monitor: it exits 0 only when the judge is healthy
(:mod:`judge.health`) and 1 naming each problem otherwise; it prints the judge processes, the
queues (inbox new, failed, quarantined; outbox pending, failed), the next deadlines and the
last errors, or with ``--json`` the health report for scripts. ``judge mail list [inbox|outbox] [--status S]``
lists the rows that need attention (failed and quarantined by default), ``show`` prints one
row whole (the raw message or the mail as it would be sent), ``retry`` queues rows again
with their attempts cleared, ``drop`` marks them "dropped" (kept, never handled).

The database layer is imported by the commands when they run, not with the parsers: every
``judge`` command builds these parsers, and ``judge adjudicate`` (started by tools, often
once per game) would otherwise wait a fifth of a second for SQLAlchemy it never uses.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from .config import Config
    from .store.health import Health
    from .store.mail import InboxMessage, OutboxMessage


def _when(value: object) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S UTC") if value is not None else "-"  # type: ignore[attr-defined]


def _line(row: InboxMessage | OutboxMessage) -> str:
    from .store.mail import InboxMessage

    if isinstance(row, InboxMessage):
        return (f"inbox  {row.id:>7} {row.status:<11} {row.attempts} tries  {_when(row.received_at)}  "
                f"from {row.envelope_sender or '<>'}  {row.message_id}  {(row.note or '')[:80]}")
    return (f"outbox {row.id:>7} {row.status:<11} {row.attempts} tries  {_when(row.created_at)}  "
            f"to {row.to_addr}  {row.kind}{' ' + row.game if row.game else ''}  {(row.last_error or '')[:80]}")


def status(session: Session, out: TextIO, health: Health | None = None) -> None:
    """What ``judge status`` prints: the processes and the health first (when given), then
    the queues, the next deadlines and the last errors."""
    from sqlalchemy import select

    from .store import queues
    from .store.games import Game, GameStatus

    if health is not None:
        for p in health.processes:
            out.write(f"process: {p.host} pid {p.pid}, started {_when(p.started_at)}, last seen {_when(p.seen_at)}"
                      f" ({'alive' if p.alive else 'gone'})\n")
        if not health.processes:
            out.write("process: none registered\n")
        out.write("health: ok\n" if health.healthy else "".join(f"PROBLEM: {p}\n" for p in health.problems))
    count = queues.counts(session)
    i, o = count["inbox"], count["outbox"]
    out.write(f"inbox:  {i.get('new', 0)} new, {i.get('failed', 0)} failed (to be retried), "
              f"{i.get('quarantined', 0)} quarantined, {i.get('done', 0)} done, {i.get('ignored', 0)} ignored\n")
    out.write(f"outbox: {o.get('pending', 0)} pending, {o.get('failed', 0)} failed, {o.get('sent', 0)} sent\n")
    inbox, outbox = queues.oldest_waiting(session)
    out.write(f"oldest waiting: inbox {_when(inbox)}, outbox {_when(outbox)}\n")
    games = session.execute(select(Game.name, Game.phase, Game.deadline, Game.status)
                            .where(Game.deadline.is_not(None), Game.status.in_((GameStatus.ACTIVE, GameStatus.FORMING)))
                            .order_by(Game.deadline).limit(5)).all()
    out.write("next deadlines:\n" if games else "next deadlines: none\n")
    for name, phase, deadline, state in games:
        out.write(f"  {name:<8} {phase or '-':<7} {_when(deadline)}  ({state})\n")
    errors = queues.last_errors(session)
    out.write("last errors:\n" if errors else "last errors: none\n")
    for box, row_id, state, error in errors:
        out.write(f"  {box} {row_id} ({state}): {error[:150]}\n")


def run(args: argparse.Namespace, config: Config, out: TextIO) -> int:
    """Carry out ``judge status`` or a ``judge mail`` command; the exit status."""
    from .store.base import make_engine, make_sessionmaker

    engine = make_engine(config.database_url)
    factory = make_sessionmaker(engine, mail_domain=config.domain)
    try:
        with factory() as session, session.begin():
            if args.command == "status":
                return _status(args, config, session, out)
            return _mail(args, config, session, out)
    finally:
        engine.dispose()


def _status(args: argparse.Namespace, config: Config, session: Session, out: TextIO) -> int:
    """``judge status [--json]``: 0 when healthy, 1 (the problems named) when not. The
    report is written whole into a buffer first, so a reader that closes the pipe early
    (``judge status | head -1``) costs no traceback and leaves the exit status the health's."""
    import io
    import json

    from .store.base import utcnow
    from .store.health import check

    health = check(session, config, utcnow())
    if args.json:
        text = json.dumps(health.as_json(), indent=2) + "\n"
    else:
        buffer = io.StringIO()
        status(session, buffer, health)
        text = buffer.getvalue()
    code = 0 if health.healthy else 1
    try:
        out.write(text)
        out.flush()
    except BrokenPipeError:
        _quiet_stdout()
    return code


def _quiet_stdout() -> None:
    """Point standard output at /dev/null: the reader is gone, and the interpreter's last
    flush would otherwise fail again at exit."""
    import os
    import sys

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _mail(args: argparse.Namespace, config: Config, session: Session, out: TextIO) -> int:
    from .mail.outgoing import build_message, wire_bytes
    from .store import queues
    from .store.mail import InboxMessage

    action = args.mail_command
    if action == "list":
        boxes: list[queues.Box] = [args.box] if args.box else ["inbox", "outbox"]
        found = [row for box in boxes for row in queues.rows(session, box, args.status, args.limit)]
        for row in found:
            out.write(_line(row) + "\n")
        if not found:
            out.write("nothing to show\n")
        return 0
    if action == "show":
        one = queues.find(session, args.box, args.id)
        if one is None:
            out.write(f"no {args.box} row {args.id}\n")
            return 1
        out.write(_line(one) + "\n\n")
        data = one.raw if isinstance(one, InboxMessage) else wire_bytes(build_message(one, config), "\n")
        out.write(data.decode("utf-8", "replace"))
        return 0
    act = queues.retry if action == "retry" else queues.drop
    status_code = 0
    for row_id in args.ids:
        if act(session, args.box, row_id):
            out.write(f"{args.box} {row_id}: {'queued again' if action == 'retry' else 'dropped'}\n")
        else:
            out.write(f"{args.box} {row_id}: no such row, or not in a state to {action}\n")
            status_code = 1
    return status_code


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser], config_help: str) -> None:
    """The ``status`` and ``mail`` subcommands."""
    p = sub.add_parser("status", help="health (exit 1 naming what is wrong), processes, queues, deadlines, errors")
    p.add_argument("--json", action="store_true", help="the health report as JSON, for scripts")
    p.add_argument("--config", metavar="FILE", help=config_help)
    p = sub.add_parser("mail", help="see and act on stuck mail: list, show, retry, drop")
    mail = p.add_subparsers(dest="mail_command", required=True)
    p = mail.add_parser("list", help="rows needing attention (failed and quarantined by default)")
    p.add_argument("box", nargs="?", choices=("inbox", "outbox"))
    p.add_argument("--status", help="rows in this status instead (new, done, ignored, pending, sent, ...)")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--config", metavar="FILE", help=config_help)
    p = mail.add_parser("show", help="one row whole")
    p.add_argument("box", choices=("inbox", "outbox"))
    p.add_argument("id", type=int)
    p.add_argument("--config", metavar="FILE", help=config_help)
    for name, what in (("retry", "queue rows again, attempts cleared"), ("drop", "never handle these rows")):
        p = mail.add_parser(name, help=what)
        p.add_argument("box", choices=("inbox", "outbox"))
        p.add_argument("ids", type=int, nargs="+")
        p.add_argument("--config", metavar="FILE", help=config_help)
