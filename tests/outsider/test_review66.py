"""Attacks on this session's changes (review66): env-file values as `.env` reads them, a full
disk's health. No bot, no clock.

Plan and findings: tests/outsider/PLAN.md, "Attacks on this session's changes (review66)"."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dotenv import dotenv_values

from bot.settings import SettingsError, comments_read_off, load_settings
from bot.storage import StorageUnavailable, Store
from tests.storage.full_disk import FullDisk


@pytest.mark.parametrize(
    "written",
    [
        '"/data/glossary-bot.db"# the main database',
        "'/data/glossary-bot.db'\t# the main database",
        '"/data/glossary-bot.db"#',
    ],
)
@pytest.mark.usefixtures("no_dotenv")
def test_a_comment_right_after_a_closing_quote_is_read_off_as_dotenv_does(
    written: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Self-hoster: `DATABASE_PATH="/data/glossary-bot.db"# main` in the env file. python-dotenv
    (`.env`, `make run`) reads /data/glossary-bot.db: after a closing quote a comment needs no
    space before its '#'. Through `podman run --env-file` the bot read the line whole, quotes and
    comment in the file's name (with WORKDIR /data, a relative name is a second, empty database
    beside the served one), and said nothing of a comment."""
    dotenv_reads = dotenv_values(stream=io.StringIO(f"DATABASE_PATH={written}\n"))
    assert dotenv_reads["DATABASE_PATH"] == "/data/glossary-bot.db"  # what `.env` does
    monkeypatch.setenv("DATABASE_PATH", written)
    assert load_settings().database_path == Path("/data/glossary-bot.db")
    assert [line.split()[0] for line in comments_read_off()] == ["DATABASE_PATH"]


@pytest.mark.usefixtures("no_dotenv")
def test_a_bad_value_under_a_spelled_name_is_not_said_to_come_from_dotenv(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`export COOLDOWN_USES=abc` in an env file (`--env-file` passes the name "export
    COOLDOWN_USES", read as COOLDOWN_USES) stopped `run` with "COOLDOWN_USES (from .env) is not
    valid", though there was no `.env`: the value shown, as for NAME=abc."""
    monkeypatch.setenv("export COOLDOWN_USES", "abc")
    with pytest.raises(SettingsError) as raised:
        load_settings()
    said = str(raised.value)
    assert "from .env" not in said, said
    assert "COOLDOWN_USES=abc is not valid" in said, said


async def test_a_disk_freed_after_a_command_failed_for_room_is_healthy_without_traffic(
    tmp_path: Path,
) -> None:
    """Self-hoster: a moderator's `/alias add` failed on the full disk (no lookup counts waiting);
    the operator freed room. `health` stayed unhealthy, "the database or disk is full", for as
    long as nothing else was written: outsider54's probe fails while the last write failed for
    room, and only a later write that needs room (the count flush's, so a lookup) ends that: a
    quiet server's container stayed unhealthy for hours after the disk was freed. The probe now
    looks for room (the disk's free space, the page limit) while the last write lacked it."""
    store = await Store.open(tmp_path / "g.db", flush_interval=None)
    try:
        store.record_lookup(1, "seed")
        assert await store.flush()
        disk = await FullDisk.of(store)
        await disk.fill()
        failed = None
        for n in range(1000):  # aliases until one finds no room
            try:
                await store.add_alias(1, f"key-{n}-{'x' * 300}", f"key {n}", "rag", 5)
            except StorageUnavailable as exc:
                failed = exc
                break
        assert failed is not None
        assert "full" in str(failed)
        assert "full" in (await store.why_not_writable() or "")
        await disk.free()  # the operator frees room
        assert await store.why_not_writable() is None
    finally:
        await store.close()
