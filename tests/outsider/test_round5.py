"""What a fifth round of outside testing found through `glossary-bot run` and the command line
(tests/outsider/PLAN.md, round 5). What moderators see of terms and aliases is checked on a
bot in this process (a bot process each cost ~8 s on a loaded machine; trim57b); the backup
beside a running bot, the log and the pool on a process."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.glossary.server_terms import MAX_TERMS
from bot.storage import Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of
from tests.resilience.botproc import ROOT, BotProcess, glossary_bot
from tests.resilience.helpers import add_alias
from tests.resilience.test_outside_round3_terms import add_term, import_terms
from tests.storage.conftest import fresh_schema

from .conftest import Scene


async def edit_term(scene: Scene, term: str, values: dict[str, str]) -> str:
    fake = scene.fake
    opened = await fake.slash(scene.moderator, "term edit", {"term": term}, channel=scene.channel)
    assert (await opened.response())["type"] == 9  # the form
    saved = await (await fake.submit_modal(scene.moderator, opened, values)).final_message()
    return str(saved["content"])


async def alias_list(scene: Scene, **options: str) -> str:
    handle = await scene.fake.slash(scene.moderator, "alias list", options, channel=scene.channel)
    message: dict[str, Any] = await handle.final_message()
    return str(message["content"]) + "".join(str(e.get("description")) for e in message["embeds"])


async def test_an_alias_follows_its_term_when_an_edit_makes_it_a_bundled_entrys_wording(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store):
        quarble = {"title": "Quarble", "definition": "The team's word for a retrieval step."}
        assert (await add_term(scene, quarble)).startswith("Added"), quarble
        added = await add_alias(fake, scene.moderator, "blorp", "quarble", scene.channel)
        assert added.startswith("Added"), added
        # The moderator renames the term to a bundled entry's title: it becomes the server's
        # wording of that entry, one card.
        renamed = await edit_term(scene, "quarble", {"title": "Retrieval-Augmented Generation"})
        assert renamed.startswith("Saved"), renamed
        _, card = await define(fake, scene.alice, "blorp", scene.channel)
        assert card.get("embeds"), card.get("content")
        assert embed_of(card)["title"].startswith("Retrieval-Augmented Generation"), card
        assert "retrieval step" in str(embed_of(card)["description"]), card
        listed = await alias_list(scene)
        assert "blorp” → Retrieval-Augmented Generation" in listed, listed
        assert "→ quarble" not in listed, listed
        assert "blorp" in await alias_list(scene, term="rag")
        # /alias remove's picker names the card too, not the term's id.
        picker = await fake.autocomplete(
            scene.moderator,
            "alias remove",
            {"alias": "blo"},
            focused="alias",
            channel=scene.channel,
        )
        names = [c["name"] for c in await picker.choices()]
        assert names == ["blorp → Retrieval-Augmented Generation"], names
        # Removing the term names the alias that goes with it (it points at the term's id).
        asked = await fake.slash(
            scene.moderator, "term remove", {"term": "quarble"}, channel=scene.channel
        )
        prompt = str((await asked.final_message())["content"])
        assert "blorp" in prompt, prompt
        # Renamed back, the alias opens the server's own card again.
        back = await edit_term(scene, "quarble", {"title": "Quarble"})  # autocomplete's value
        assert back.startswith("Saved"), back
        _, card = await define(fake, scene.alice, "blorp", scene.channel)
        assert embed_of(card)["title"] == "Quarble", card


# An endless input must not be read whole: under this memory cap a command that tries fails
# (instead of taking the machine's memory) and the test says so.
_MEMORY_CAP = """
import resource, runpy, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
sys.argv = ["glossary-bot", *sys.argv[1:]]
runpy.run_module("bot.cli", run_name="__main__")
"""


async def glossary_bot_capped(
    cwd: Path, *args: str, settings: dict[str, str] | None = None
) -> tuple[int, str]:
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ["PATH"], "GLOSSARY_PATHS": ""}
    env.update(settings or {})
    command = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _MEMORY_CAP,
        *args,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(command.communicate(), timeout=60)
    except TimeoutError:
        command.kill()
        await command.wait()
        raise
    assert command.returncode is not None
    return command.returncode, output.decode()


async def test_cli_imports_refuse_an_endless_device_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    for args in (
        ("terms", "import", "/dev/zero", "--guild", "5", "--db", db),
        ("aliases", "import", "/dev/zero", "--db", db),
    ):
        status, output = await glossary_bot_capped(tmp_path, *args)
        assert status == 1, (args, output)
        assert output.startswith("glossary-bot: error: "), (args, output)
        assert "/dev/zero" in output, (args, output)
        assert len(output.strip().splitlines()) == 1, (args, output)
        assert "Traceback" not in output, (args, output)


async def test_stats_name_a_removed_terms_lookups_as_removed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    entry = '[[entries]]\nid = "{id}"\ntitle = "{title}"\ncategory = "Fundamentals"\ndefinition = "d."\n'
    async with start_bot(store):
        both = entry.format(id="t0", title="🚀 Rocketword") + entry.format(id="t1", title="Keeper")
        assert (await import_terms(scene, both)).startswith("Imported"), both
        for title in ("🚀 Rocketword", "Keeper", "Keeper"):
            _, card = await define(fake, scene.alice, title, scene.channel)
            assert embed_of(card)["title"] == title, card
        kept = entry.format(id="t1", title="Keeper")
        assert (await import_terms(scene, kept)).startswith("Imported"), kept
        handle = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
        shown = await handle.final_message()
    top = {f["name"]: f["value"] for f in embed_of(shown)["fields"]}["Most looked up"]
    assert top.splitlines() == ["1. Keeper: 2", "2. t0 (removed): 1"], top


def inode(path: str) -> int | None:
    return Path(path).stat().st_ino if Path(path).exists() else None


async def test_backup_refuses_the_running_databases_own_files(scene: Scene, tmp_path: Path) -> None:
    """`backup` onto the database's -wal or its bot lock replaced them under the running bot: the
    next connection read a database file as the log ("disk I/O error"), and a second bot could
    start on the same file."""
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000") as bot:
        added = await add_alias(fake, scene.moderator, "blorptex", "rag", scene.channel)
        assert added.startswith("Added"), added
        for companion in ("-wal", "-shm", "-journal", "-bot.lock"):
            target = f"{scene.db_path}{companion}"
            before = inode(target)
            status, output = await glossary_bot(bot.env, tmp_path, "backup", target)
            assert status == 1, (companion, output)
            assert output.startswith("glossary-bot: error: "), (companion, output)
            assert target in output, (companion, output)
            assert len(output.strip().splitlines()) == 1, (companion, output)
            assert inode(target) == before, companion  # not replaced (the bot writes to it)
        # The database and the bot are as they were: another command reads the alias.
        status, output = await glossary_bot(bot.env, tmp_path, "aliases", "export")
        assert status == 0, output
        assert "blorptex" in output, output
        _, card = await define(fake, scene.alice, "blorptex", scene.channel)
        assert embed_of(card)["title"].startswith("Retrieval"), card


async def test_a_term_over_the_text_cap_says_by_how_much(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """At the text cap the answer read "at most 1 KiB of text (1 KiB with this change)": the
    moderator could not tell what to cut."""
    async with start_bot(store, term_caps=(MAX_TERMS, 1024)):  # MAX_SERVER_TERM_BYTES=1024
        answer = await add_term(scene, {"title": "Capped", "definition": "d" * 1020})
    assert answer.startswith("Nothing was saved"), answer
    assert "too many" in answer, answer
    over = answer.split("(", 1)[1]
    assert "bytes with this change" in over, answer
    assert "1 KiB" not in over, answer


class TcpRelay:
    """A port in front of PostgreSQL that the test can take away (connections cut, new ones
    refused) and give back: the server gone mid-run, as the bot sees it, without stopping the
    PostgreSQL other tests share."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def open(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in list(self.writers):
            writer.transport.abort()
        await self.server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.writers |= {writer, upstream_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.IncompleteReadError):
                pass
            finally:
                dst.transport.abort()

        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))
        self.writers -= {writer, upstream_writer}


@pytest.mark.postgres
async def test_postgresql_gone_mid_run_is_logged_in_lines_not_tracebacks(
    scene: Scene, tmp_path: Path
) -> None:
    """With PostgreSQL gone, asyncpg's pool logged a 40-line traceback at every reconnection
    attempt ("Failed to restore the pool connection floor"), for as long as it was gone."""
    real = urlsplit(TEST_DATABASE_URL)
    relay = TcpRelay(real.hostname or "127.0.0.1", real.port or 5432)
    await relay.open()
    fake = scene.fake
    async with fresh_schema(TEST_DATABASE_URL, "outsider") as url:
        through_relay = urlunsplit(
            urlsplit(url)._replace(netloc=f"{real.username}:{real.password}@127.0.0.1:{relay.port}")
        )
        async with BotProcess(
            fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=through_relay
        ) as bot:
            added = await add_alias(fake, scene.moderator, "zqbefore", "rag", scene.channel)
            assert added.startswith("Added"), added
            await relay.close()
            _, card = await define(fake, scene.alice, "zqbefore", scene.channel)
            assert embed_of(card)["title"].startswith("Retrieval"), card
            refused = await add_alias(fake, scene.moderator, "zqduring", "rag", scene.channel)
            assert "nothing was changed" in refused, refused
            # The pool retries after 1, 2 and 4 s: wait for its third failure to be logged.
            await bot.wait_for_output("asyncpg.pool", within=30, count=3)
            await relay.open()
            after = await add_alias(fake, scene.moderator, "zqafter", "rag", scene.channel)
            assert after.startswith("Added"), after
    pool_lines = [line for line in bot.lines if "asyncpg.pool" in line]
    assert pool_lines, bot.output[-2000:]
    assert "Traceback" not in bot.output, bot.output[-3000:]
    # Each says why, on its own line.
    assert all("retrying: " in line for line in pool_lines), pool_lines


async def test_check_of_a_device_or_pipe_does_not_call_it_missing(tmp_path: Path) -> None:
    fifo = tmp_path / "glossary.toml"
    os.mkfifo(fifo)
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ["PATH"]}
    for path in ("/dev/zero", str(fifo)):
        status, output = await glossary_bot(env, tmp_path, "check", path)
        assert status == 1, (path, output)
        assert f"{path}: error: " in output, output
        assert "no such file" not in output, output
        assert "not a file or folder" in output, output
    status, output = await glossary_bot(env, tmp_path, "check", str(tmp_path / "missing.toml"))
    assert "no such file or folder" in output, output


@pytest.mark.postgres
async def test_a_wrong_password_or_database_in_the_url_names_where(tmp_path: Path) -> None:
    """Plan line P1: a bad password and a missing database said only "database error: ...", and
    `--db` took a URL for a file's path (echoing its password)."""
    real = urlsplit(TEST_DATABASE_URL)
    host = f"{real.hostname}:{real.port or 5432}"
    cases = {
        "cannot log in to the database at": real._replace(
            netloc=f"{real.username}:not-the-password@{host}"
        ),
        "database error at": real._replace(path="/no_such_database_here"),
    }
    for said, url in cases.items():
        by_setting = ("aliases", "export"), {"DATABASE_URL": urlunsplit(url)}
        by_option = ("aliases", "export", "--db", urlunsplit(url)), {}  # not a file's path
        for args, settings in (by_setting, by_option):
            status, output = await glossary_bot_capped(tmp_path, *args, settings=settings)
            assert status == 1, output
            line = output.strip()
            assert line.startswith(f"glossary-bot: error: {said} postgresql://"), line
            assert f"{host}/" in line, line
            assert "not-the-password" not in line, line
            assert len(line.splitlines()) == 1, line
