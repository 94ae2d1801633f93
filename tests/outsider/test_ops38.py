"""An operator's pass (tests/outsider/PLAN.md, "An operator's pass (ops38)"): logs, metrics,
the stats chart and `prune`, tried as an operator runs them.

Through `glossary-bot` in a process of its own, with real SQLite files."""

from __future__ import annotations

import asyncio
import http.client
import io
import json
import logging
import signal
import threading
import time
import urllib.error
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

import pytest

from bot.cards.chart import bins
from bot.discord_app.logs import configure_logging
from bot.storage import Store
from bot.storage.models import AliasImport
from tests.conftest import TEST_DATABASE_URL
from tests.ops.test_metrics import metrics_port, scrape
from tests.polling import eventually
from tests.resilience.botproc import BotProcess
from tests.resilience.test_reload import ZEBRA, ZEBRA_ONLY, glossary_files

from .conftest import Scene
from .test_left24 import _cli, in_a_read_only_folder

MISS = "café naïve — 東京"
ALIAS = "größe"


def test_prune_dry_run_reads_a_snapshot_in_a_read_only_folder(tmp_path: Path) -> None:
    """O8: `prune --dry-run` on a bot's file alone in a read-only folder (a snapshot) said
    "the database's folder … is read-only (SQLite needs to create files beside the database)",
    while `stats` and `terms import --dry-run` read such a file through a copy. Now it says
    what would go as well; the folder and the file as they were."""
    folder = tmp_path / "snap"
    command = ("prune", "--older-than", "30", "--dry-run", "--db", "snap/g.db")
    done, before = in_a_read_only_folder(folder, *command)
    assert done.returncode == 0, done
    assert "lookups: would remove 1 hourly lookup count from before" in done.stdout, done.stdout
    assert "(--dry-run: nothing was removed)" in done.stdout, done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before


def test_a_prune_of_a_snapshot_is_refused_in_one_line(tmp_path: Path) -> None:
    """O8: a real prune there is refused in one line, nothing claimed, the file as it was."""
    folder = tmp_path / "snap"
    done, before = in_a_read_only_folder(folder, "prune", "--older-than", "30", "--db", "snap/g.db")
    assert done.returncode == 1, done
    assert done.stdout == "", done.stdout
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"folder {folder} is read-only" in done.stderr, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before


def test_a_dry_run_vacuum_of_a_snapshot_is_refused_as_the_vacuum_would_be(
    tmp_path: Path,
) -> None:
    """O8: `prune --dry-run --vacuum` there says the vacuum would be refused, not that it
    would rewrite the file."""
    folder = tmp_path / "snap"
    command = ("prune", "--older-than", "30", "--dry-run", "--vacuum", "--db", "snap/g.db")
    done, before = in_a_read_only_folder(folder, *command)
    assert done.returncode == 1, done
    assert f"folder {folder} is read-only" in done.stderr, done.stderr
    assert (folder / "g.db").read_bytes() == before


def _database_with_letters(path: Path) -> None:
    """A bot's SQLite file holding a missed search and an alias outside ASCII."""

    async def made() -> None:
        store = await Store.open(path, flush_interval=None)
        store.record_miss(1, MISS)
        await store.import_aliases([AliasImport(1, ALIAS, ALIAS, "rag")])
        await store.close()

    asyncio.run(made())


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize(
    ("command", "shows"),
    [(("stats",), MISS), (("aliases", "export"), ALIAS)],
    ids=["stats", "aliases-export"],
)
def test_output_to_a_terminal_that_is_not_utf8(
    tmp_path: Path, encoding: str, command: tuple[str, ...], shows: str
) -> None:
    """O9: `stats` in a terminal (or a cron job) whose encoding is not UTF-8 (a legacy locale,
    PYTHONIOENCODING) ended in a traceback, UnicodeEncodeError, at a missed search in other
    letters; `aliases export > file` likewise. Now the output is UTF-8 whatever the locale, as
    the files `-o` writes are, so an export read back by `aliases import` is whole."""
    _database_with_letters(tmp_path / "g.db")
    done = _cli(tmp_path, *command, "--db", "g.db", PYTHONIOENCODING=encoding)
    assert done.returncode == 0, done
    assert "Traceback" not in done.stderr, done.stderr
    assert shows in done.stdout, done.stdout


HOSTILE = 'kv cache"}\n{"level": "CRITICAL", "message": "forged"}\x1b[2J'


@pytest.mark.parametrize("log_format", ["json", "text"])
async def test_metrics_across_reloads_and_a_members_text_in_the_log(
    scene: Scene, tmp_path: Path, log_format: str
) -> None:
    """O4, O6, O1: `glossary-bot run` with metrics, at DEBUG: no counter goes down across a good
    and a refused `kill -HUP`, `glossary_entries` stays the serving glossary's after the refusal,
    no label names a server; a member's query holding a line break, quotes and an ANSI escape
    forges no log line and sends no escape to the operator's terminal."""
    data, extra = glossary_files(tmp_path)
    settings = {"GLOSSARY_PATHS": f"{data}:{extra}", "METRICS_PORT": "0", "LOG_LEVEL": "DEBUG"}
    async with BotProcess(
        scene.fake, scene.db_path, cwd=tmp_path, LOG_FORMAT=log_format, **settings
    ) as bot:
        port = await metrics_port(bot)
        for term in ("kv cache", HOSTILE):
            handle = await scene.fake.slash(
                scene.alice, "define", {"term": term}, channel=scene.channel
            )
            await handle.final_message()
        before = await asyncio.to_thread(scrape, port)
        extra.write_text(ZEBRA_ONLY, encoding="utf-8")
        bot.send_signal(signal.SIGHUP)
        await bot.wait_for_output(r"glossary reloaded")
        reloaded = await asyncio.to_thread(scrape, port)
        extra.write_text(ZEBRA[: len(ZEBRA) // 2], encoding="utf-8")  # saved half-way
        bot.send_signal(signal.SIGHUP)
        await bot.wait_for_output(r"glossary reload refused")
        after = await asyncio.to_thread(scrape, port)
        for key, value in before.items():
            if key[0].endswith(("_total", "_count", "_sum", "_bucket")):
                assert after.get(key, 0.0) >= value, key

        def entries(values: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> float:
            return sum(v for (name, _), v in values.items() if name == "glossary_entries")

        assert entries(reloaded) == entries(before) - 1  # the yak is gone
        assert entries(after) == entries(reloaded)  # the refused reload serves nothing new
        labels = {label for (_, ls) in after for label, _ in ls}
        assert labels <= {"kind", "outcome", "shard", "source", "result", "le"}, labels
        assert await bot.stop() == 0
    lines = bot.output.splitlines()
    assert "forged" in bot.output  # the query reached the log (discord.py's DEBUG lines)
    assert "\x1b" not in bot.output
    assert not any("forged" in line and not line.startswith(("{", "20")) for line in lines)
    if log_format == "json":
        parsed = [json.loads(line) for line in lines]  # every line one object
        assert not any(p["message"] == "forged" for p in parsed)


def test_text_log_lines_are_dated_in_utc_as_everything_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """O3: with TZ set (a host's local zone, `TZ=America/New_York`) JSON lines were in UTC but
    text lines in local time, with no zone said, beside `stats`, `prune`, `health` and `/stats`,
    which all say UTC: an operator matching a log line to a stop or a count was hours out.
    Now text lines are in UTC as well."""
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        stream = io.StringIO()
        configure_logging("INFO", [], "text", stream)
        logging.getLogger("ops38").info("hello")
        stamp = datetime.strptime(stream.getvalue()[:19], "%Y-%m-%d %H:%M:%S")
        assert abs(stamp.replace(tzinfo=UTC) - datetime.now(UTC)) < timedelta(hours=1)
    finally:
        monkeypatch.undo()
        time.tzset()
        root.handlers[:], root.level = handlers, level


async def test_metrics_scraped_through_the_stop(scene: Scene, tmp_path: Path) -> None:
    """O5: `/metrics` scraped over and over while the bot stops (SIGTERM): each scrape parses
    as Prometheus text, is reset, or finds the port closed; no traceback in the log, exit 0."""
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, METRICS_PORT="0") as bot:
        port = await metrics_port(bot)
        stopping = threading.Event()
        outcomes: list[str] = []

        def scrape_until_closed() -> None:
            while True:
                try:
                    scrape(port)  # parses every family, or raises
                except (ConnectionError, http.client.HTTPException, urllib.error.URLError) as exc:
                    if not stopping.is_set():
                        raise
                    # A scrape under way as the server closes is reset (Prometheus counts a
                    # failed scrape, as for a stopped target): never a cut page that parses.
                    outcomes.append(type(exc).__name__)
                    if "refused" in str(exc).lower():
                        return
                    continue
                outcomes.append("parsed")

        scraper = asyncio.create_task(asyncio.to_thread(scrape_until_closed))

        async def scraped() -> bool:
            return "parsed" in outcomes

        await eventually(scraped, "a scrape before the stop")
        stopping.set()
        assert await bot.stop() == 0
        await scraper
    assert outcomes[-1] == "URLError", outcomes[-3:]
    assert "Traceback" not in bot.output, bot.output[-3000:]


PASSWORD = "s3cr%40t:pw"  # percent-encoded in the URL: "s3cr@t:pw" once decoded


@pytest.mark.postgres
@pytest.mark.parametrize("log_format", ["json", "text"])
@pytest.mark.parametrize("where", ["wrong password", "unreachable"])
async def test_the_database_password_is_in_no_log_line(
    scene: Scene, tmp_path: Path, log_format: str, where: str
) -> None:
    """O2: DATABASE_URL refused (a wrong password) or unreachable (nothing on its port), the
    password holding `%40` and `:`, at DEBUG: neither its encoded nor its decoded form in any
    line, the `exception` field included; /define answers."""
    parts = urlsplit(TEST_DATABASE_URL)
    port = parts.port if where == "wrong password" else 1
    url = urlunsplit(parts._replace(netloc=f"{parts.username}:{PASSWORD}@{parts.hostname}:{port}"))
    settings = {"DATABASE_URL": url, "LOG_FORMAT": log_format, "LOG_LEVEL": "DEBUG"}
    settings["DATABASE_WAIT"] = "2"  # refused: tried again once (shards49), its line too
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        handle = await scene.fake.slash(
            scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
        )
        assert (await handle.final_message())["embeds"][0]["title"] == "KV Cache"
        await bot.wait_for_output(r"cannot open the database|unreachable|asyncpg")
    for secret in (PASSWORD, unquote(PASSWORD), "s3cr"):
        assert secret not in bot.output, secret


def test_an_all_time_chart_of_one_day_dates_its_hours() -> None:
    """O10: `stats --period all --chart` of a database whose lookups all came in the last hours
    of one day labelled its bars "00:00", "01:00": an all-time chart with no day on it, which
    read as any day's. Now its hours carry the date, as the last day's chart's do."""
    now = datetime(2026, 12, 5, 1, 44, tzinfo=UTC)
    drawn, unit = bins({datetime(2026, 12, 5, 0, tzinfo=UTC): 1}, None, now)
    assert unit == "hour"
    assert [b.label for b in drawn] == ["Dec 05 00:00", "Dec 05 01:00"]
    assert sum(b.count for b in drawn) == 1
