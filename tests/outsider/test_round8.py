"""What an eighth round of outside testing found through `glossary-bot run`, the command line
and the real client against the fake Discord (tests/outsider/PLAN.md, round 8)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary import interchange, load_glossary
from bot.glossary.interchange import parse_import
from bot.glossary.server_terms import MAX_TERMS, MAX_TEXT_BYTES, check_caps, text_size
from bot.storage import ALIAS_CAP, AliasImport, Store
from bot.term_storage import TermChange, change_terms
from tests.discord_app.term_commands import open_add, submit
from tests.polling import eventually
from tests.resilience.botproc import CLI_ENV, ROOT, BotProcess, bot_env, glossary_bot
from tests.resilience.helpers import add_alias, stored_aliases

from .conftest import Scene
from .full_server import full_server_file

CHANNEL_MESSAGES = "/channels/{channel_id}/messages"


async def health(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """`glossary-bot health` as the container's HEALTHCHECK runs it: exit status and output."""
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot.cli", "health", "--max-age", "30"),
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, output.decode().strip()


async def test_health_during_a_discord_outage_stays_healthy_and_says_so(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line H1: Discord's REST API failing (503) while the gateway stays up. A restart
    mends nothing there, so `health` stays healthy (exit 0: a HEALTHCHECK must not restart the
    bot through Discord's outage); but it said plain "healthy", hiding that every answer was
    lost. Now it says so, and says nothing more once Discord answers again."""
    fake = scene.fake
    heartbeat = tmp_path / "heartbeat"
    settings = {"HEARTBEAT_PATH": str(heartbeat), "COOLDOWN_USES": "1000"}
    env = bot_env(fake, scene.db_path, PYTHONPATH=str(ROOT), **settings)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        await eventually(heartbeat.exists, "the first heartbeat")
        fake.fail_next("POST", CHANNEL_MESSAGES, status=503, times=1000)
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag")
        await bot.wait_for_output(r"WARNING.*Discord.*failing", within=30.0)

        async def says_failing() -> bool:
            status, said = await health(env, tmp_path)
            assert status == 0, said  # healthy all along: a restart would not help
            return "Discord" in said

        await eventually(says_failing, "`health` to say Discord is failing")
        _, said = await health(env, tmp_path)
        assert said.startswith("healthy"), said
        assert "503 Service Unavailable" in said, said
        assert "a restart would not help" in said, said

        fake.faults.clear()  # Discord is back
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag")
        await fake.wait_for_channel_message(scene.channel)

        async def says_healthy_only() -> bool:
            status, said = await health(env, tmp_path)
            return status == 0 and "Discord" not in said

        await eventually(says_healthy_only, "`health` to say healthy, nothing more")
        await bot.wait_for_output(r"INFO.*Discord.*answer", within=30.0)
        assert await bot.stop() == 0
    assert "Traceback" not in bot.output


async def test_a_term_refused_for_an_alias_names_the_aliases_card_not_its_id(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line N3: `/term add` of `Zorb Lax` after `/alias add zorblax` for LoRA is refused
    (right), but named the alias's entry by its id, "(for lora-qlora)", which no moderator
    typed or sees anywhere else; the same for an alias of a server term."""
    fake, moderator = scene.fake, scene.moderator
    said = await add_alias(fake, moderator, "zorblax", "lora-qlora", scene.channel)
    assert said.startswith("Added"), said
    opened = await open_add(scene, moderator, category="Fundamentals")
    answer = await submit(scene, moderator, opened, {"title": "Quib Unit", "definition": "A."})
    assert answer["content"].startswith("Added"), answer
    said = await add_alias(fake, moderator, "quibble", "quib-unit", scene.channel)
    assert said.startswith("Added"), said

    for title, card in (("Zorb Lax", "LoRA & QLoRA"), ("Quib Ble", "Quib Unit")):
        opened = await open_add(scene, moderator, category="Fundamentals")
        answer = await submit(scene, moderator, opened, {"title": title, "definition": "B."})
        said = answer["content"]
        assert said.startswith("Nothing was saved"), said
        assert f"(for **{card}**)" in said, said


async def test_the_alias_cap_is_named_when_it_refuses(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line C3: `/alias add` at 1,000 aliases said "reached its limit of aliases", where
    `aliases import` says "(1,000)": a moderator could not tell how many that is."""
    store = bot.state.store
    assert store is not None
    guild = scene.guild.id
    await store.import_aliases(
        [AliasImport(guild, f"zq{n}", f"zq{n}", "rag") for n in range(ALIAS_CAP)]
    )
    bot.state.servers.forget(guild)
    said = await add_alias(scene.fake, scene.moderator, "zorbix", "rag", scene.channel)
    assert said == (
        "This server has reached its limit of 1,000 aliases. Remove some with `/alias remove` "
        "first."
    ), said


async def test_aliases_import_reads_a_file_saved_with_a_bom(scene: Scene, tmp_path: Path) -> None:
    """Plan line I1: a JSON file saved by a Windows editor starts with a UTF-8 byte-order mark:
    `aliases import` said "Unexpected UTF-8 BOM (decode using utf-8-sig)" (`terms import` reads
    such files)."""
    store = await Store.open(scene.db_path, flush_interval=None)
    await store.close()
    lines = f'[{{"guild_id": {scene.guild.id}, "alias": "blorp", "entry_id": "rag"}}]\r\n'
    source = tmp_path / "aliases.json"
    source.write_bytes(b"\xef\xbb\xbf" + lines.encode())
    args = ("aliases", "import", str(source), "--db", str(scene.db_path))
    status, said = await glossary_bot(CLI_ENV, tmp_path, *args)
    assert status == 0, said
    assert said.strip() == "added 1, already present 0, refused 0", said
    assert stored_aliases(scene.db_path) == [(scene.guild.id, "blorp", "rag")]


async def fill_server(db_path: Path, guild: int) -> None:
    """The server's terms at its caps, as moderators grow them one form at a time (an import
    cannot: a file is at most 1 MiB, and an import replaces)."""
    terms, problems = parse_import(full_server_file(), "t.toml", load_glossary(), max_bytes=2**30)
    assert not [p for p in problems if p.severity == "error"], problems[:3]
    assert check_caps(terms) == []
    assert sum(text_size(t) for t in terms) > 0.95 * MAX_TEXT_BYTES
    store = await Store.open(db_path, flush_interval=None)
    try:
        await change_terms(store, guild, lambda *_: (TermChange(put=tuple(terms)), None), 1)
    finally:
        await store.close()


async def test_an_export_of_a_server_at_its_caps_imports_back(scene: Scene, tmp_path: Path) -> None:
    """Plan line I5: the README promises that `/term export` writes a file that imports back
    unchanged, so a glossary can move to another server; but a server holding more than about
    1 MiB of its 2 MiB of text exported a file `terms import` refused: "exp.toml is 2.1 MiB;
    an import is at most 1 MiB" (`/term import` likewise)."""
    guild, elsewhere = scene.guild.id, scene.other_guild.id
    await fill_server(scene.db_path, guild)
    env = {**CLI_ENV, "DATABASE_PATH": str(scene.db_path)}
    exported = tmp_path / "export.toml"
    args = ("terms", "export", "--guild", str(guild), "-o", str(exported))
    status, said = await glossary_bot(env, tmp_path, *args)
    assert status == 0, said
    assert exported.stat().st_size > 2 * 2**20  # past the old import cap twice over
    args = ("terms", "import", str(exported), "--guild", str(guild), "--dry-run")
    status, said = await glossary_bot(env, tmp_path, *args)
    assert status == 0, said
    assert "0 added, 0 changed, 0 removed" in said, said
    args = ("terms", "import", str(exported), "--guild", str(elsewhere))
    status, said = await glossary_bot(env, tmp_path, *args)
    assert status == 0, said
    assert said.startswith("Imported: 2,000 added, 0 changed, 0 removed"), said[:300]


async def test_explain_terms_finds_a_server_term_of_many_words(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line L4: "Explain terms" on a message of the full server's own titles (~100
    characters, 18 words each) found none of them, only "Token" inside one: names of more than
    six words were never looked for in running text. A server term's title may be 256
    characters; a seven-word one is ordinary ("Quarterly Business Review Meeting Notes Template
    Guide")."""
    fake, moderator = scene.fake, scene.moderator
    titles = [
        "Quarterly Business Review Meeting Notes Template Guide",
        "Zorbic Handbook Procedure 0042 vault ticket roster dock anchor bramble roster beacon",
    ]
    for title in titles:
        opened = await open_add(scene, moderator, category="Fundamentals")
        answer = await submit(scene, moderator, opened, {"title": title, "definition": "Ours."})
        assert answer["content"].startswith("Added"), answer
    text = f"see the {titles[0].lower()} and the {titles[1]}, please"
    message = await fake.user_message(scene.alice, scene.channel, text)
    handle = await fake.message_command(scene.alice, "Explain terms", message)
    listing = await handle.final_message()
    embed = listing["embeds"][0]
    assert embed["title"] == "2 glossary terms in this message", listing
    for title in titles:
        assert f"**{title}**" in embed["description"], embed["description"]


def test_a_markdown_file_of_more_headings_than_terms_is_refused_unparsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found checking I5's larger import cap: a 4.9 MiB Markdown file of 434,850 tiny headings
    was parsed whole (12.6 s, 480 MB) before it was refused for having more entries than a
    server may hold. Its headings are counted first, as TOML's `[[entries]]` are."""
    text = "Glossary¶\nA¶\n" + "".join(f"T{n}¶\nx\n" for n in range(MAX_TERMS + 1))

    def parsed(*_: object) -> list[object]:
        raise AssertionError("parsed")

    monkeypatch.setattr(interchange, "parse_markdown", parsed)
    terms, problems = parse_import(text.encode(), "g.md", load_glossary())
    assert terms == []
    assert [p.message for p in problems] == [
        "2,001 entries; a server can have at most 2,000 terms."
    ], problems


def test_a_topics_json_of_more_topics_than_terms_is_refused_unchecked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found beside it: a 1 MiB topics JSON of 349,458 empty topics (`{},{},...`) was checked
    topic by topic before the count refused it: 45 s and 1.6 GB for `terms import` (and for
    `/term import`, in the bot's process), 3,484,580 problems listed; 5 MiB ran past two
    minutes at 2.4 GB. Its topics are counted first."""
    topics = ",".join(["{}"] * (MAX_TERMS + 1))
    text = f'{{"schemaVersion": 1, "language": "en", "categories": [], "topics": [{topics}]}}'

    def checked(*_: object) -> list[object]:
        raise AssertionError("checked topic by topic")

    monkeypatch.setattr(interchange, "parse_topics_json", checked)
    terms, problems = parse_import(text.encode(), "t.json", load_glossary())
    assert terms == []
    assert [p.message for p in problems] == [
        "2,001 entries; a server can have at most 2,000 terms."
    ], problems


def test_a_topics_json_of_far_more_keys_than_a_glossary_needs_is_refused_unchecked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Beside it: 2,000 topics of 290 unknown keys each (5 MB) listed 590,000 problems after
    7 s at 266 MB; TOML's keys are counted before parsing, the topics' were not."""
    topic = json.dumps({f"k{n}": 0 for n in range(290)})
    topics = ",".join([topic] * MAX_TERMS)
    text = f'{{"schemaVersion": 1, "language": "en", "categories": [], "topics": [{topics}]}}'

    def checked(*_: object) -> list[object]:
        raise AssertionError("checked topic by topic")

    monkeypatch.setattr(interchange, "parse_topics_json", checked)
    terms, problems = parse_import(text.encode(), "t.json", load_glossary(), max_bytes=2**30)
    assert terms == []
    assert [p.message for p in problems] == [
        "580,000 keys in its topics: more than a glossary of 2,000 terms needs; is this a "
        "glossary file?"
    ], problems
