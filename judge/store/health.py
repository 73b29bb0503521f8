"""Whether a running judge is healthy, as ``judge status`` (its exit status) and the web's
``/metrics`` page see it from the database alone.

Contract::

    from judge.store.health import check
    report = check(session, config, now)   # Health: problems (empty when healthy) and facts

Healthy means: a judge process alive (a ``mail_node`` row whose heartbeat is younger than
``[sender] node_timeout_seconds``: the process that takes and sends mail beats every quarter
of it); no inbox mail quarantined and no outbox mail failed within ``[status]
recent_hours``; no outbox mail waiting on a relay that refused or could not be reached (its
attempts counted, its error kept); no game whose deadline passed more than ``[status]
overdue_minutes`` ago with the phase still waiting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from . import queues
from .games import Game
from .mail import InboxMessage, InboxStatus, OutboxMessage, OutboxStatus
from .nodes import Node

ACTIVE = ("active",)  # a forming game waits for players, not for the judge


class Settings(Protocol):
    """The configuration's values the checks use (:class:`judge.config.Config` has them)."""

    @property
    def node_timeout_seconds(self) -> float: ...
    @property
    def status_overdue_minutes(self) -> float: ...
    @property
    def status_recent_hours(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Process:
    """One judge process the nodes table knows."""

    host: str
    pid: int
    started_at: datetime
    seen_at: datetime
    alive: bool


@dataclass(slots=True)
class Health:
    """What is wrong (``problems``, empty when healthy) and what was measured."""

    now: datetime
    problems: list[str] = field(default_factory=list)
    processes: list[Process] = field(default_factory=list)
    queues: dict[str, dict[str, int]] = field(default_factory=dict)
    overdue: list[tuple[str, str | None, datetime]] = field(default_factory=list)
    relay_waiting: int = 0
    relay_error: str = ""

    @property
    def healthy(self) -> bool:
        return not self.problems

    def as_json(self) -> dict[str, Any]:
        """The report for scripts (``judge status --json``)."""
        return {
            "healthy": self.healthy, "problems": self.problems, "checked_at": self.now.isoformat(),
            "processes": [{"host": p.host, "pid": p.pid, "started_at": p.started_at.isoformat(),
                           "seen_at": p.seen_at.isoformat(), "alive": p.alive} for p in self.processes],
            "queues": self.queues,
            "overdue": [{"game": g, "phase": ph, "deadline": d.isoformat()} for g, ph, d in self.overdue],
            "relay": {"waiting_after_errors": self.relay_waiting, "last_error": self.relay_error},
        }


def check(session: Session, config: Settings, now: datetime) -> Health:
    """The judge's health now (see the module docstring)."""
    report = Health(now=now, queues=queues.counts(session))
    fresh = timedelta(seconds=config.node_timeout_seconds)
    for node in session.scalars(select(Node).order_by(Node.started_at)):
        report.processes.append(Process(node.host, node.pid, node.started_at, node.seen_at, now - node.seen_at <= fresh))
    if not any(p.alive for p in report.processes):
        last = max((p.seen_at for p in report.processes), default=None)
        report.problems.append("no judge process alive (no heartbeat within "
                               f"{config.node_timeout_seconds:g} s{'' if last is None else ', last ' + last.isoformat()})")
    since = now - timedelta(hours=config.status_recent_hours)
    quarantined = session.scalar(select(func.count()).select_from(InboxMessage).where(
        InboxMessage.status == InboxStatus.QUARANTINED, InboxMessage.received_at >= since)) or 0
    if quarantined:
        report.problems.append(f"inbox: {quarantined} mail(s) quarantined in the last "
                               f"{config.status_recent_hours:g} h (judge mail list inbox)")
    failed = session.scalar(select(func.count()).select_from(OutboxMessage).where(
        OutboxMessage.status == OutboxStatus.FAILED, OutboxMessage.created_at >= since)) or 0
    if failed:
        report.problems.append(f"outbox: {failed} mail(s) failed in the last {config.status_recent_hours:g} h "
                               "(judge mail list outbox)")
    waiting = session.execute(select(func.count(), func.max(OutboxMessage.id)).where(
        OutboxMessage.status == OutboxStatus.PENDING, OutboxMessage.attempts > 0, OutboxMessage.last_error.is_not(None))).one()
    report.relay_waiting = int(waiting[0] or 0)
    if report.relay_waiting:
        report.relay_error = session.scalar(select(OutboxMessage.last_error).where(OutboxMessage.id == waiting[1])) or ""
        report.problems.append(f"relay: {report.relay_waiting} mail(s) waiting after refused or failed attempts "
                               f"({report.relay_error[:120]})")
    late = now - timedelta(minutes=config.status_overdue_minutes)
    report.overdue = [(name, phase, deadline) for name, phase, deadline in session.execute(
        select(Game.name, Game.phase, Game.deadline).where(
            Game.status.in_(ACTIVE), Game.deadline.is_not(None), Game.deadline < late).order_by(Game.deadline))]
    if report.overdue:
        names = ", ".join(f"{g} {ph or '-'}" for g, ph, _ in report.overdue[:5])
        report.problems.append(f"deadlines: {len(report.overdue)} overdue by more than "
                               f"{config.status_overdue_minutes:g} min ({names})")
    return report
