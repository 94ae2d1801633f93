"""Prometheus metrics: what the store, the state and the bot count, the scrape endpoint, and the
Grafana dashboard built on them."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import shutil
import socket
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.discord_app import metrics as bot_metrics
from bot.discord_app.state import BotState
from bot.glossary import load_glossary
from bot.storage import Store
from tests.polling import eventually
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import unhurried

from .conftest import Lab

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "docs" / "grafana-dashboard.json"


def sample(name: str, **labels: str) -> float:
    value = metrics.REGISTRY.get_sample_value(name, labels)
    return 0.0 if value is None else value


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def metrics_port(bot: BotProcess) -> int:
    """The port a bot started with `METRICS_PORT=0` serves its metrics on, from its log line
    (a port picked here and handed to the bot could be taken by another test meanwhile)."""
    line = await bot.wait_for_output(r"metrics on http://127\.0\.0\.1:\d+/metrics")
    found = re.search(r":(\d+)/metrics", line)
    assert found is not None, line
    return int(found[1])


# -- the dashboard ------------------------------------------------------------------------------


def exported_names() -> set[str]:
    """Every sample name the bot exports (counters' _total, histograms' _bucket/_sum/_count)."""
    live = metrics.LiveValues(
        lambda: [(None, 0.05)], lambda: True, lambda: {"foundations": 3}, entries=lambda: 3
    )
    metrics.REGISTRY.register(live)
    try:
        metrics.reloaded(ok=True)  # the last reload's gauges are absent before one
        metrics.INTERACTIONS.labels(kind="define", outcome="card").inc(0)
        metrics.HANDLER_SECONDS.labels(kind="define")
        metrics.GATEWAY_RECONNECTS.labels(shard="0").inc(0)
        return {s.name for family in metrics.REGISTRY.collect() for s in family.samples}
    finally:
        metrics.REGISTRY.unregister(live)


def test_the_dashboard_queries_the_metrics_the_bot_exports_and_all_of_them() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    queries = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    assert len(queries) >= 10
    queried = {name for q in queries for name in re.findall(r"\bglossary_[a-z_]+", q)}
    exported = exported_names()
    assert queried - exported == set(), "panels query metrics the bot does not export"
    families = {re.sub(r"_(total|bucket|sum|count|created)$", "", n) for n in exported}
    used = {re.sub(r"_(total|bucket|sum|count)$", "", n) for n in queried}
    assert families - used == set(), "metrics no panel shows"
    assert set(metrics.LIVE_METRICS) <= used


# -- what the parts count -----------------------------------------------------------------------


async def test_the_store_counts_buffered_and_flushed_lookups_and_failed_flushes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.db"
    store = await Store.open(db, flush_interval=None, busy_timeout=0.05)
    store.observer = metrics.StoreMetrics()  # as `glossary-bot run` sets it with METRICS_PORT
    before = {
        n: sample(n)
        for n in (
            "glossary_lookups_buffered_total",
            "glossary_lookups_flushed_total",
            "glossary_flush_failures_total",
            "glossary_flush_seconds_count",
        )
    }
    try:
        for _ in range(7):
            store.record_lookup(1, "kv-cache")
        assert (
            sample("glossary_lookups_buffered_total") - before["glossary_lookups_buffered_total"]
            == 7
        )
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            assert not await store.flush()
        finally:
            conn.execute("ROLLBACK")
            conn.close()
        assert (
            sample("glossary_flush_failures_total") - before["glossary_flush_failures_total"] == 1
        )
        assert sample("glossary_lookups_flushed_total") == before["glossary_lookups_flushed_total"]
        assert await store.flush()
    finally:
        await store.close()
    assert sample("glossary_lookups_flushed_total") - before["glossary_lookups_flushed_total"] == 7
    assert sample("glossary_flush_seconds_count") - before["glossary_flush_seconds_count"] == 2


def test_a_reload_sets_the_last_reload_result(tmp_path: Path) -> None:
    folder = tmp_path / "glossary"
    shutil.copytree(ROOT / "data", folder)
    state = BotState(load_glossary([folder]), None, [folder])
    ok_before = sample("glossary_reloads_total", result="ok")
    state.reload()
    assert sample("glossary_last_reload_ok") == 1
    assert sample("glossary_reloads_total", result="ok") == ok_before + 1
    (folder / "foundations.toml").write_text("[[entries]]\nthis is = not [valid\n")
    state.reload()
    assert sample("glossary_last_reload_ok") == 0
    assert sample("glossary_last_reload_timestamp_seconds") == pytest.approx(time.time(), abs=60)


async def test_work_is_counted_with_its_outcome_and_time_when_its_task_ends() -> None:
    def count(kind: str, outcome: str) -> float:
        return sample("glossary_interactions_total", kind=kind, outcome=outcome)

    before = count("test-kind", "no_entry"), count("test-kind", "error")
    seconds_before = sample("glossary_handler_seconds_count", kind="test-kind")

    async def answer(final: str, then: str | None = None) -> None:
        bot_metrics.start("test-kind", 42)
        bot_metrics.outcome(final)
        if then:
            bot_metrics.outcome(then)  # an error stands

    await asyncio.gather(
        asyncio.create_task(answer("no_entry")),
        asyncio.create_task(answer("error", then="card")),
    )
    await asyncio.sleep(0)  # done callbacks run on the next turn of the loop
    assert (count("test-kind", "no_entry"), count("test-kind", "error")) == (
        before[0] + 1,
        before[1] + 1,
    )
    assert sample("glossary_handler_seconds_count", kind="test-kind") == seconds_before + 2
    bot_metrics.outcome("card")  # outside any work: ignored, nothing raised


def test_the_server_serves_live_values_and_stops() -> None:
    writable = [True]
    live = metrics.LiveValues(
        lambda: [(None, 0.042), (1, float("inf"))],  # shard 1 not connected: absent
        lambda: writable[0],
        lambda: {"foundations": 163, "llm-studio": 117},
        entries=lambda: 250,
    )
    server = metrics.serve("127.0.0.1", 0, live)
    try:
        values = scrape(server.port)
        assert values["glossary_gateway_latency_seconds", (("shard", "0"),)] == 0.042
        assert ("glossary_gateway_latency_seconds", (("shard", "1"),)) not in values
        assert values["glossary_definitions", (("source", "foundations"),)] == 163
        assert values["glossary_entries", ()] == 250
        assert values["glossary_database_writable", ()] == 1
        writable[0] = False
        assert scrape(server.port)["glossary_database_writable", ()] == 0
    finally:
        server.stop()
    with pytest.raises(urllib.error.URLError):
        scrape(server.port)
    # Stopped cleanly: the same live values can be served again.
    metrics.serve("127.0.0.1", 0, live).stop()


def test_head_is_answered_like_get_without_the_body() -> None:
    """Uptime checkers ask with HEAD: it was refused (405). Now the same status and headers as
    GET, the body's length included, and no body."""
    live = metrics.LiveValues(
        lambda: [], lambda: True, lambda: {"foundations": 1}, entries=lambda: 1
    )
    server = metrics.serve("127.0.0.1", 0, live)
    try:
        answers = {}
        for method in ("GET", "HEAD"):
            client = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            try:
                client.request(method, "/metrics")
                response = client.getresponse()
                answers[method] = (response.status, response.getheaders(), response.read())
            finally:
                client.close()
        get_status, get_headers, body = answers["GET"]
        assert (get_status, b"glossary_entries" in body) == (200, True)
        head_status, head_headers, _ = answers["HEAD"]
        assert head_status == 200
        by_name = dict(head_headers)
        assert by_name["Content-Type"] == dict(get_headers)["Content-Type"]
        assert int(by_name["Content-Length"]) == len(body)
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
            raw.sendall(b"HEAD /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
            said = b""
            while chunk := raw.recv(65536):
                said += chunk
        assert said.startswith(b"HTTP/1.0 200"), said[:80]
        assert said.endswith(b"\r\n\r\n"), said[-80:]  # the headers, and nothing after them
    finally:
        server.stop()


def test_fifty_scrapes_at_once_all_get_an_answer() -> None:
    """A burst of scrapes (several Prometheus servers, a dashboard refresh) arriving while the
    server is busy waits in the listen queue: none is refused or left hanging for a SYN retry.
    The accept loop is paused so that all 50 wait in the queue at once."""
    live = metrics.LiveValues(
        lambda: [], lambda: True, lambda: {"foundations": 1}, entries=lambda: 1
    )
    server = metrics.serve("127.0.0.1", 0, live)
    inner = server._server
    inner.shutdown()  # stop accepting; the socket still listens and the kernel still queues
    clients = []
    try:
        for _ in range(50):
            # A connection beyond the listen backlog is not completed while nothing accepts.
            clients.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        threading.Thread(target=inner.serve_forever, daemon=True).start()
        for client in clients:
            client.sendall(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
        for client in clients:
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
            assert answer.startswith(b"HTTP/1.0 200"), answer[:80]
            assert b"glossary_entries" in answer
    finally:
        for client in clients:
            client.close()
        server.stop()


# -- through glossary-bot run ------------------------------------------------------------------


async def test_glossary_bot_run_serves_metrics_that_move_with_define(lab: Lab) -> None:
    unhurried(lab.fake)  # what the metrics count, not how fast a bot process on a busy machine is
    async with lab.bot(METRICS_PORT="0") as bot:
        port = await metrics_port(bot)
        latency = ("glossary_gateway_latency_seconds", (("shard", "0"),))

        async def heartbeat_acknowledged() -> bool:
            # The latency is absent until the gateway acknowledges the first heartbeat, which on
            # a busy machine may come after the metrics server is up.
            return latency in await asyncio.to_thread(scrape, port)

        await eventually(heartbeat_acknowledged, "the gateway latency to be exported")
        first = await asyncio.to_thread(scrape, port)
        assert first["glossary_database_writable", ()] == 1
        assert first["glossary_definitions", (("source", "foundations"),)] > 100
        assert first[latency] >= 0
        # No reload yet: its result and time are absent, not a 0 that reads as "refused".
        assert ("glossary_last_reload_ok", ()) not in first
        assert ("glossary_last_reload_timestamp_seconds", ()) not in first

        for term in ("kv cache", "zzqx nothing here", "kv cache"):
            handle = await lab.fake.slash(lab.user, "define", {"term": term}, channel=lab.channel)
            await handle.final_message()

        def moved(
            values: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str
        ) -> float:
            key = (name, tuple(sorted(labels.items())))
            return values.get(key, 0.0) - first.get(key, 0.0)

        async def flushed() -> bool:
            now = await asyncio.to_thread(scrape, port)
            return moved(now, "glossary_lookups_flushed_total") >= 2

        await eventually(flushed, "the flusher to write the two lookups")
        now = await asyncio.to_thread(scrape, port)
        assert moved(now, "glossary_interactions_total", kind="define", outcome="card") == 2
        assert moved(now, "glossary_interactions_total", kind="define", outcome="no_entry") == 1
        assert moved(now, "glossary_handler_seconds_count", kind="define") == 3
        assert moved(now, "glossary_lookups_buffered_total") == 2
        assert moved(now, "glossary_flush_failures_total") == 0

        await lab.fake.drop_gateway()  # the connection breaks: the bot resumes
        await lab.fake.wait_resumed()

        async def reconnected() -> bool:
            now = await asyncio.to_thread(scrape, port)
            return moved(now, "glossary_gateway_reconnects_total", shard="0") == 1

        await eventually(reconnected, "the resume to be counted")
    assert bot.process is not None
    assert bot.process.returncode == 0


async def test_metrics_bind_to_localhost_and_a_taken_port_does_not_stop_the_bot(
    lab: Lab,
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with lab.bot(METRICS_PORT=str(port)) as bot:
            await bot.wait_for_output("cannot serve metrics on 127.0.0.1:")
            handle = await lab.fake.slash(lab.user, "define", {"term": "rag"}, channel=lab.channel)
            assert (await handle.final_message())["embeds"]


def test_the_metrics_url_puts_an_ipv6_address_in_brackets() -> None:
    assert bot_metrics.metrics_url("127.0.0.1", 9100) == "http://127.0.0.1:9100/metrics"
    assert bot_metrics.metrics_url("::1", 9100) == "http://[::1]:9100/metrics"
