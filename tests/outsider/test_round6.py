"""What a sixth round of outside testing found through `glossary-bot run` and the command line
(tests/outsider/PLAN.md, round 6)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.discord_app.logs import configure_logging
from bot.settings import Settings, load_settings
from bot.storage import AliasImport, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.resilience.botproc import ROOT, BotProcess, glossary_bot, import_aliases
from tests.resilience.conftest import without_permission_override
from tests.resilience.helpers import HANG_GUARD, add_alias, stored_aliases
from tests.resilience.test_outside_round3_terms import add_term
from tests.storage.conftest import fresh_schema

from .conftest import Scene
from .test_round5 import TcpRelay, edit_term


async def health_until(env: dict[str, str], cwd: Path, said: str, bound: float = 30.0) -> str:
    """`glossary-bot health`'s answer once it says `said` (polled: it reads another process's
    file, there is no event to await); fails after `bound` seconds with the last answer."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    while True:
        status, output = await glossary_bot(env, cwd, "health")
        if said in output or loop.time() > deadline:
            return f"{status} {output.strip()}"
        await asyncio.sleep(0.5)


@pytest.mark.postgres
async def test_health_names_the_database_when_postgresql_goes_right_after_start(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line P1: PostgreSQL gone right after start, before the first heartbeat: `health`
    said "no heartbeat ... yet (starting, or never connected)" for as long as it was gone, and
    the log "not connected to Discord, or the database is not writable", while the bot was
    connected and answering."""
    real = urlsplit(TEST_DATABASE_URL)
    relay = TcpRelay(real.hostname or "127.0.0.1", real.port or 5432)
    await relay.open()
    heartbeat = tmp_path / "heartbeat"
    async with fresh_schema(TEST_DATABASE_URL, "outsider6") as url:
        through_relay = urlsplit(url)._replace(
            netloc=f"{real.username}:{real.password}@127.0.0.1:{relay.port}"
        )
        settings = {"DATABASE_URL": urlunsplit(through_relay), "HEARTBEAT_PATH": str(heartbeat)}
        async with BotProcess(scene.fake, tmp_path / "unused.db", cwd=tmp_path, **settings) as bot:
            await relay.close()
            said = await health_until(dict(bot.env), tmp_path, "not writable")
            assert said.startswith("1 "), said
            assert "database at postgresql://" in said, said
            assert f"127.0.0.1:{relay.port}" in said, said  # where: the operator's URL
            assert f":{real.password}@" not in said, said
            assert "never connected" not in said, said
            line = await bot.wait_for_output(r"unhealthy: .*database")
            assert "not connected to Discord, or" not in line, line
            await relay.open()
            said = await health_until(dict(bot.env), tmp_path, "healthy: last heartbeat")
            assert said.startswith("0 "), said


async def a_term_wording_rag(scene: Scene, store: Store) -> str:
    """A server term renamed to the bundled RAG's title: the server's wording of RAG, one card
    (RAG's), while its own id, which aliases take, stays `quarble`."""
    quarble = {"title": "Quarble", "definition": "Our way of fetching notes."}
    assert (await add_term(scene, quarble)).startswith("Added")
    renamed = await edit_term(scene, "quarble", {"title": "Retrieval-Augmented Generation"})
    assert renamed.startswith("Saved"), renamed
    [term] = await store.terms(scene.guild.id)
    assert term.id == "quarble", term
    return term.id


async def test_alias_add_rechecks_against_an_alias_of_a_term_shown_as_a_bundled_card(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line A1: another process stored `zorblax` for the server's term that words RAG a
    moment before `/alias add zorb-lax` for LoRA. The check inside the write read the stored
    alias by the term's id, which no card has, so it let the clash in: `zorb-lax` then took
    `zorblax` from RAG."""
    async with start_bot(store, alias_check_interval=3600.0):  # this bot has not seen it yet
        term_id = await a_term_wording_rag(scene, store)
        other = await Store.open(scene.db_path, flush_interval=None)
        try:
            [result] = await other.import_aliases(
                [AliasImport(scene.guild.id, "zorblax", "zorblax", term_id)]
            )
            assert result.status.name == "ADDED", result
        finally:
            await other.close()
        said = await add_alias(scene.fake, scene.moderator, "zorb-lax", "lora-qlora", scene.channel)
    assert "already this server's alias for **Retrieval-Augmented Generation (RAG)**" in said, said
    assert stored_aliases(scene.db_path) == [(scene.guild.id, "zorblax", term_id)]


async def test_aliases_import_checks_against_an_alias_of_a_term_shown_as_a_bundled_card(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    """Plan line A1, the operator's side: `aliases import` checked a file's alias against the
    stored aliases by their entry ids, so one of a term that words a bundled entry counted for
    nothing and its spelling twin was imported."""
    async with start_bot(store):
        term_id = await a_term_wording_rag(scene, store)
        [result] = await store.import_aliases(
            [AliasImport(scene.guild.id, "zorblax", "zorblax", term_id)]
        )
        assert result.status.name == "ADDED", result
    line = {"guild_id": scene.guild.id, "alias": "zorb-lax", "entry_id": "lora-qlora"}
    status, out, err = await import_aliases([line], scene.db_path, tmp_path)
    assert status == 1, (out, err)
    assert "Retrieval-Augmented Generation" in out + err, (out, err)
    assert stored_aliases(scene.db_path) == [(scene.guild.id, "zorblax", term_id)]


async def test_env_file_lines_as_operators_write_them_are_read_as_in_dotenv(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan lines K3-K5: `--env-file` keeps quotes, `export ` and trailing spaces literally
    (python-dotenv, which reads `.env`, drops them). A quoted token or URL stopped the container
    with "DISCORD_API_BASE_URL is not valid: expected an http(s) URL" (or a rejected token);
    `DEV_GUILD_ID=  ` "is not valid"; `export DISCORD_TOKEN=...` "DISCORD_TOKEN is not set"."""
    fake = scene.fake
    as_written = {
        "DISCORD_TOKEN": f'"{fake.token}"  ',
        "DISCORD_API_BASE_URL": f"'{fake.api_base}'",
        "DISCORD_GATEWAY_URL": f'"{fake.gateway_url}" ',
        "DEV_GUILD_ID": "  ",
        "METRICS_PORT": " ",
        "DATABASE_URL": "   ",
        "SHARD_COUNT": " ",
        "export LOG_FORMAT": "json",
    }
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **as_written) as bot:
        handle = await fake.slash(
            scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
        )
        assert (await handle.final_message())["embeds"][0]["title"] == "KV Cache"
        assert bot.lines[0].startswith("{"), bot.lines[:3]  # LOG_FORMAT=json was taken


async def test_a_token_with_a_line_break_is_named_as_such(tmp_path: Path) -> None:
    """Plan line K2: a token pasted over two lines, or with a space inside."""
    for token in ("abc\ndef", "abc def"):
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": token}
        status, output = await glossary_bot(env, tmp_path, "run")
        assert status == 2, output
        assert output.strip().count("\n") == 0, output
        assert "DISCORD_TOKEN" in output, output
        assert "without spaces or line breaks" in output, output
        assert "abc" not in output, output


@pytest.mark.parametrize("kind", ["folder not writable", "folder missing"])
async def test_a_database_that_cannot_be_opened_at_start_is_one_line_naming_why(
    scene: Scene, tmp_path: Path, kind: str
) -> None:
    """Plan lines K6-K7: a read-only data volume, or one another uid owns: the bot ran (as it
    should), but logged "cannot open the database glossary-bot.db" (the bare setting, no why)
    and a 35-line traceback; `health` then said "no database"."""
    folder = tmp_path / "data"
    if kind == "folder not writable":
        folder.mkdir(mode=0o555)
    db = folder / "glossary-bot.db"
    heartbeat = tmp_path / "heartbeat"
    prefix = without_permission_override()  # root ignores file modes; this process must not
    try:  # DATABASE_PATH relative, as in the image (WORKDIR /data): the line says where
        async with BotProcess(
            scene.fake,
            Path("data/glossary-bot.db"),
            cwd=tmp_path,
            prefix=prefix,
            HEARTBEAT_PATH=str(heartbeat),
        ) as bot:
            handle = await scene.fake.slash(
                scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
            )
            assert (await handle.final_message())["embeds"][0]["title"] == "KV Cache"
            said = await health_until(dict(bot.env), tmp_path, "could not be opened")
    finally:
        if folder.exists():
            folder.chmod(0o755)
    [line] = [line for line in bot.lines if "cannot open the database" in line]
    assert f"DATABASE_PATH={db}" in line, line
    said_of_folder = "is not writable" if kind == "folder not writable" else "does not exist"
    assert f"its folder {folder} {said_of_folder}" in line, line
    assert "Traceback" not in bot.output, bot.output[-3000:]
    assert said.startswith("1 unhealthy: "), said
    assert f"{db}" in said, said


def without_send_messages(scene: Scene) -> None:
    """The server's admins took Send Messages away from everyone, the bot's role included."""
    send = 1 << 11  # SEND_MESSAGES
    for role in scene.other_guild.roles.values():
        role.permissions &= ~send


async def test_a_mention_where_the_bot_may_not_post_is_one_warning_line(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line X4: a mention in a channel where the bot may not send messages: an ERROR
    with a traceback, then a second try to post "Something went wrong" there, refused too,
    which discord.py logged as another traceback ("Ignoring exception in on_message"). Since
    round 22 (N6) the bot, knowing its permissions there, tries no post at all."""
    fake = scene.fake
    without_send_messages(scene)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, LOG_FORMAT="json") as bot:
        await fake.user_message(scene.alice, scene.other_channel, f"{fake.bot.mention} rag")
        line = await bot.wait_for_output("lacks Send Messages")
        handle = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)
        assert (await handle.final_message())["embeds"], "the bot carries on"
    refused = [v for v in fake.pop_violations() if v.kind == "missing_permissions"]
    assert refused == [], refused  # no try to post where it may not
    assert '"level": "WARNING"' in line, line
    assert str(scene.other_channel.id) in line, line
    assert "Send Messages" in line, line
    assert "Traceback" not in bot.output, bot.output[-3000:]


async def test_an_answer_discord_no_longer_takes_is_one_warning_line(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line X6: an answer that reached Discord after its deadline (10062 Unknown
    interaction: the bot was too slow, or the token expired) was logged as an ERROR "error <id>"
    with two chained tracebacks, for an error id no user ever saw, then a second refused try.
    (product68: Discord's 10062 to a first response now says it was not taken, as the bot's own
    deadline does: the public card is posted in the channel instead, said in that one line.)"""
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, LOG_FORMAT="json") as bot:
        fake.ack_deadline = 0.0  # every answer is late
        late = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)
        line = await bot.wait_for_output("no first response could be sent within")
        assert "posted in channel" in line, line
        posted = await fake.wait_for_channel_message(scene.channel)
        assert posted["embeds"], posted
        await fake.waiter.wait_for(lambda: late.records, "the late answer")
        fake.ack_deadline = HANG_GUARD  # answered, however busy the machine: not late
        handle = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)
        assert (await handle.final_message())["embeds"], "the bot carries on"
    assert [v.kind for v in fake.pop_violations()] == ["unknown_interaction"]  # one try only
    assert '"level": "WARNING"' in line, line
    assert f"interaction {late.id} " in line, line
    assert "Traceback" not in bot.output, bot.output[-3000:]
    assert "error_id" not in bot.output, bot.output[-3000:]


def test_a_log_call_whose_arguments_do_not_fit_is_a_json_line_not_an_exception() -> None:
    """Plan line J2/J3: a log call whose format and arguments disagree (a library's slip) raised
    TypeError into the code that logged, since the redaction filter formats the message before
    logging's own guard; and an exception's newlines, lone surrogates, NUL and 100 kB stay one
    JSON object per line, the token redacted in both."""
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    configure_logging("DEBUG", ["s3cret-token"], "json", stream=stream)
    try:
        log = logging.getLogger("outsider6")
        log.warning("retrying %s after %s s", "s3cret-token")  # one argument short
        try:
            raise ValueError("bad\nline \udcff \x00 s3cret-token " + "y" * 100_000)
        except ValueError:
            log.exception("failed %s", b"\xff".decode("utf-8", "surrogateescape"))
    finally:
        root.handlers[:], root.level = handlers, level
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 2, lines
    assert lines[0]["message"].startswith("retrying"), lines[0]
    assert lines[1]["exception"].count("\n") > 1, lines[1]
    assert "s3cret-token" not in stream.getvalue()


@pytest.mark.parametrize("blank", [" ", '""', "' '"])
def test_a_blank_env_file_value_falls_back_to_the_installations_default(
    blank: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plan line K5, in the image: `HEARTBEAT_PATH= ` (a trailing space) from an --env-file
    replaced the image's /tmp/glossary-bot.heartbeat with nothing: the bot wrote no heartbeat
    and the container stayed unhealthy while it answered."""
    defaults = tmp_path / "defaults.env"
    defaults.write_text("HEARTBEAT_PATH=/tmp/hb\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(Settings.model_config, "env_file", (str(defaults), ".env"))
    monkeypatch.setenv("HEARTBEAT_PATH", blank)
    assert load_settings().heartbeat_path == Path("/tmp/hb")
