"""``/metrics``: the judge's state in the Prometheus text format, read from the database at
each scrape (so every judge process sharing it is seen, whichever web process answers), with
the ``prometheus-client`` library.

Metrics (all gauges or counters of rows; ``judge_`` prefix):

- ``inbox_messages{status}``, ``outbox_messages{status}``: the queues, row counts per status;
- ``mails_received_total``, ``mails_sent_total``: mail taken in, mail the relay accepted;
- ``phases_processed_total``: phases processed (rolled back ones not counted);
- ``deadlines_overdue``: active games whose deadline passed more than ``[status]
  overdue_minutes`` ago; ``deadline_overdue_seconds`` how long the oldest has waited;
- ``process_heartbeat_age_seconds{host,pid}``, ``process_alive{host,pid}``: the judge
  processes of the nodes table and how long ago each was seen;
- ``healthy``: 1 when ``judge status`` would exit 0 (:mod:`judge.store.health`).
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from ..config import Config
from ..store.base import utcnow
from ..store.games import PhaseRecord
from ..store.health import check


class JudgeCollector(Collector):
    """Reads the metrics from the database at each scrape."""

    def __init__(self, sessions: sessionmaker[Session], config: Config) -> None:
        self.sessions = sessions
        self.config = config

    def collect(self) -> Iterator[Metric]:
        now = utcnow()
        with self.sessions() as session:
            health = check(session, self.config, now)
            phases = session.scalar(select(func.count()).select_from(PhaseRecord)
                                    .where(PhaseRecord.withdrawn == 0)) or 0
        for box in ("inbox", "outbox"):
            family = GaugeMetricFamily(f"judge_{box}_messages", f"{box} rows per status", labels=["status"])
            for state, count in sorted(health.queues.get(box, {}).items()):
                family.add_metric([state], count)
            yield family
        received = sum(health.queues.get("inbox", {}).values())
        yield CounterMetricFamily("judge_mails_received", "mails taken in by the listener", value=received)
        yield CounterMetricFamily("judge_mails_sent", "mails the relay accepted",
                                  value=health.queues.get("outbox", {}).get("sent", 0))
        yield CounterMetricFamily("judge_phases_processed", "phases processed (rolled back ones not counted)",
                                  value=phases)
        yield GaugeMetricFamily("judge_deadlines_overdue", "active games past their deadline by more than "
                                "[status] overdue_minutes", value=len(health.overdue))
        oldest = min((d for _, _, d in health.overdue), default=None)
        yield GaugeMetricFamily("judge_deadline_overdue_seconds", "how long the oldest overdue deadline has passed",
                                value=(now - oldest).total_seconds() if oldest is not None else 0)
        age = GaugeMetricFamily("judge_process_heartbeat_age_seconds", "seconds since each judge process was seen",
                                labels=["host", "pid"])
        alive = GaugeMetricFamily("judge_process_alive", "1 while the process's heartbeat is fresh",
                                  labels=["host", "pid"])
        for p in health.processes:
            age.add_metric([p.host, str(p.pid)], (now - p.seen_at).total_seconds())
            alive.add_metric([p.host, str(p.pid)], 1 if p.alive else 0)
        yield age
        yield alive
        yield GaugeMetricFamily("judge_healthy", "1 when judge status would exit 0", value=1 if health.healthy else 0)


def registry(sessions: sessionmaker[Session], config: Config) -> CollectorRegistry:
    """A registry of the judge's metrics alone (not the library's global one: one app, one registry)."""
    out = CollectorRegistry(auto_describe=False)
    out.register(JudgeCollector(sessions, config))
    return out


def exposition(metrics: CollectorRegistry) -> bytes:
    """The text a scrape gets."""
    return generate_latest(metrics)
