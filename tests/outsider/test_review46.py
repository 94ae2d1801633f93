"""Review of the last merges (tests/outsider/PLAN.md, "Review of the last merges (review46)")."""

from __future__ import annotations

import re
import signal
import socket
from pathlib import Path

import asyncpg
import pytest

from bot.discord_app import runner
from bot.storage import Store
from tests.conftest import TEST_DATABASE_URL
from tests.fake_discord import FakeDiscord
from tests.polling import eventually
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_waited
from tests.storage.conftest import fresh_schema


def _named(name: str) -> set[int]:
    """The shards a holder name says its process runs (a cut list: those it shows)."""
    found = re.search(r"shards (\S+?)…? pid", name)
    if found is None:
        return set()
    shards: set[int] = set()
    for part in found.group(1).strip(",-").split(","):
        low, _, high = part.partition("-")
        shards.update(range(int(low), int(high or low) + 1))
    return shards


def test_a_cut_holder_name_names_no_shard_the_process_does_not_run() -> None:
    """Attack 3: where the room left after pid and host was shorter than the first range, the
    range was cut inside a number: shards 100-999 on a 22-byte host read "shards 10…", 0-149
    on a 23-byte one "shards 0-1…": shards another process may run, named as this one's."""
    for ids in (range(150), range(100, 1000), range(7, 1000, 2), [12345, 12346, 99999]):
        for length in range(1, 64):
            name = runner.holder_name(ids, 4194304, "h" * length)
            assert len(name.encode()) <= runner.HOLDER_BYTES, name
            assert _named(name) <= set(ids), (length, name)


@pytest.mark.postgres
@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
async def test_a_sigterm_while_waiting_for_shards_another_process_holds_stops_at_once(
    tmp_path: Path,
) -> None:
    """Attack 1: a rolling restart, the new process waiting (CLAIM_WAIT, 10 s) for a shard
    the old one still holds, is sent SIGTERM (the restart called off, `docker stop`). The
    login was raced with the stop (readme45), the claim's wait was not: the stop waited it
    out, past the 7 s the README promises, and then the process said the shard was taken,
    exit 2. Now the wait ends with the stop: exit 0, nothing identified."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        old = await Store.open(url, flush_interval=None)
        try:
            async with (
                old.claim_shards([0], holder="old 0", wait=0, shard_count=1),
                FakeDiscord(shard_count=1) as fake,
            ):
                bot = BotProcess(
                    fake,
                    tmp_path / "unused.db",
                    cwd=tmp_path,
                    DATABASE_URL=url,
                    SHARD_COUNT="1",
                    SHARD_IDS="0",
                )
                await bot.start(wait_ready=False)
                assert bot.process is not None
                pid = bot.process.pid
                await eventually(lambda: _waiting_for_the_claim(url, pid), "the wait")
                code = await bot.stop(within=30)
                assert code == 0, bot.output
                assert "glossary-bot: " not in bot.output, bot.output
                assert "Traceback" not in bot.output, bot.output
                assert "Unclosed" not in bot.output, bot.output
                assert fake.gateway.identify_count == 0
        finally:
            await old.close()


async def _waiting_for_the_claim(url: str, pid: int) -> bool:
    """The new process's (`pid`) claim session (named by `holder_name`) is open: it is waiting.
    By its pid: pg_stat_activity is the whole server's, and other tests' bots run shard 0 too."""
    admin = await asyncpg.connect(url)
    try:
        found = await admin.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE $1",
            f"glossary-bot shards 0 pid {pid} %",
        )
    finally:
        await admin.close()
    return bool(found)


async def test_a_sigterm_while_waiting_for_a_sqlite_file_another_bot_runs_on_stops_at_once(
    tmp_path: Path,
) -> None:
    """Attack 1 on SQLite: a file has one bot; a second waits up to CLAIM_WAIT for the first
    to stop (a restart). A SIGTERM meanwhile waited the 10 s out, then said "another bot
    runs on", exit 2. Now exit 0 at once; the first bot runs on."""
    async with (
        FakeDiscord(shard_count=1) as fake,
        BotProcess(fake, tmp_path / "bot.db", cwd=_folder(tmp_path, "first")) as first,
    ):
        second = BotProcess(fake, tmp_path / "bot.db", cwd=_folder(tmp_path, "second"))
        await second.start(wait_ready=False)
        await eventually(lambda: "waiting up to" in second.output, "the second to wait")
        assert second.process is not None
        second.process.send_signal(signal.SIGTERM)
        code = await second.exited(within=30)
        assert code == 0, second.output
        assert "glossary-bot: " not in second.output, second.output
        assert "Traceback" not in second.output, second.output
        assert first.process is not None
        assert first.process.returncode is None  # the first runs on


def _folder(parent: Path, name: str) -> Path:
    folder = parent / name
    folder.mkdir()
    return folder


def test_check_deep_on_a_url_it_cannot_read_says_no_check_was_made(tmp_path: Path) -> None:
    """Attack 9: `check --db URL --deep` printed "this database had the usual check" before
    the check, so also where the database could not be read at all (nothing listens there:
    "cannot reach the database", exit 1). The note now says what `--deep` does, not how the
    check went; the error line says that."""
    url = f"postgresql://u:p@127.0.0.1:{_closed_port()}/db"
    status, said = glossary_bot_waited(CLI_ENV, tmp_path, "check", "-q", "--db", url, "--deep")
    assert status == 1, said
    assert "cannot reach the database" in said, said
    assert "had the usual check" not in said, said
    assert "check: --deep applies to a SQLite file only" in said, said


def _closed_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port
