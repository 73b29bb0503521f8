"""Issue 27, item 3: the web process's ``/metrics`` page, scraped over HTTP from a real
uvicorn while a real judge runs a game: the Prometheus text format (parsed with the
library's own parser), with the queues, mails in and out, phases processed, overdue
deadlines and the judge processes' heartbeats."""

from __future__ import annotations

from dataclasses import replace

import test_e2e_harness as harness
from prometheus_client.parser import text_string_to_metric_families
from test_e2e_harness import LiveJudge, start_game
from test_web import ArchiveServer, process

live = harness.live


def scrape(server: ArchiveServer) -> dict[str, list[tuple[dict[str, str], float]]]:
    status, media, body = server.get("/metrics")
    assert status == 200 and media.startswith("text/plain; version="), (status, media)
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            out.setdefault(sample.name, []).append((sample.labels, sample.value))
    return out


def one(metrics: dict[str, list[tuple[dict[str, str], float]]], name: str) -> float:
    ((_, value),) = metrics[name]
    return value


def test_metrics_follow_the_judge(live: LiveJudge) -> None:
    server = ArchiveServer(replace(live.config, web_enabled=True))
    try:
        start_game(live, "met")
        before = scrape(server)
        assert one(before, "judge_phases_processed_total") == 0
        process(live, "met")
        live.settle()
        after = scrape(server)
    finally:
        server.stop()
    assert one(after, "judge_phases_processed_total") == 1
    assert one(after, "judge_mails_received_total") >= 9  # create, seven sign-ons, process
    assert one(after, "judge_mails_sent_total") > one(before, "judge_mails_sent_total")
    outbox = {labels["status"]: value for labels, value in after["judge_outbox_messages"]}
    assert outbox.get("pending", 0) == 0 and outbox["sent"] == one(after, "judge_mails_sent_total")
    assert one(after, "judge_deadlines_overdue") == 0
    ((labels, alive),) = after["judge_process_alive"]
    assert alive == 1 and labels["pid"].isdigit()
    assert one(after, "judge_healthy") == 1
