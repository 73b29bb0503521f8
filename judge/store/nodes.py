"""The judge processes sharing a database, so mail a dead one had claimed is sent at once.

Contract::

    from judge.store.nodes import Node, register, heartbeat, release_dead, leave
    node_id = register(session, now)            # this process, in its own transaction
    heartbeat(session, node_id, now)            # every few seconds
    release_dead(session, node_id, now, stale)  # free the claims of processes that are gone
    leave(session, node_id)                     # at a clean stop: free our claims, drop our row

A process is dead when it ran on this host and its pid is gone (or is now ours but the node
is not one this interpreter registered: a container restarted with the same pid), or when it
has not been seen for ``stale`` seconds. Two judges in one interpreter (the tests run them so)
are both alive. Its claimed
outbox rows go back to the queue at once, so a kill -9 costs seconds, not a lease.
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import datetime, timedelta

from sqlalchemy import String, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from .base import Base
from .mail import OutboxMessage


class Node(Base):
    """One running judge process: where it runs and when it was last seen."""

    __tablename__ = "mail_node"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int]
    started_at: Mapped[datetime]
    seen_at: Mapped[datetime]


def _host() -> str:
    return socket.gethostname()[:255]


#: The nodes this interpreter registered and has not left: alive although they share our pid.
_OURS: set[str] = set()


def _alive(node: Node) -> bool:
    """Whether the process of ``node`` (which ran on this host) still runs."""
    if node.pid == os.getpid():
        return node.id in _OURS  # else an earlier process with our pid: it is gone, we are it now
    return _pid_alive(node.pid)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def register(session: Session, now: datetime) -> str:
    """Add this process as a node; its id."""
    node_id = f"{_host()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
    session.add(Node(id=node_id, host=_host(), pid=os.getpid(), started_at=now, seen_at=now))
    _OURS.add(node_id)
    return node_id


def heartbeat(session: Session, node_id: str, now: datetime) -> None:
    """Record that ``node_id`` is alive (and add it again if another process dropped it)."""
    if session.execute(update(Node).where(Node.id == node_id).values(seen_at=now)).rowcount == 0:  # type: ignore[attr-defined]
        try:
            with session.begin_nested():
                session.add(Node(id=node_id, host=_host(), pid=os.getpid(), started_at=now, seen_at=now))
        except IntegrityError:
            pass  # added again meanwhile by another thread of this process


def release_dead(session: Session, node_id: str, now: datetime, stale_seconds: float) -> int:
    """Forget dead nodes and put the mail they had claimed back in the queue; how many rows."""
    host = _host()
    dead = [n.id for n in session.scalars(select(Node).where(Node.id != node_id))
            if n.seen_at < now - timedelta(seconds=stale_seconds) or (n.host == host and not _alive(n))]
    if dead:
        session.execute(delete(Node).where(Node.id.in_(dead)))
    alive = select(Node.id)
    released = session.execute(
        update(OutboxMessage)
        .where(OutboxMessage.claimed_by.is_not(None), OutboxMessage.claimed_by != node_id,
               or_(OutboxMessage.claimed_by.in_(dead), OutboxMessage.claimed_by.not_in(alive)))
        .values(claimed_by=None)).rowcount  # type: ignore[attr-defined]
    return int(released or 0)


def release_own(session: Session, node_id: str) -> int:
    """Put back every row ``node_id`` still holds; how many."""
    return int(session.execute(update(OutboxMessage).where(OutboxMessage.claimed_by == node_id)
                               .values(claimed_by=None)).rowcount or 0)  # type: ignore[attr-defined]


def leave(session: Session, node_id: str) -> int:
    """A clean stop: release what ``node_id`` holds and remove it; how many rows went back."""
    released = release_own(session, node_id)
    session.execute(delete(Node).where(Node.id == node_id))
    _OURS.discard(node_id)
    return released
