"""What a twelfth round of outside testing found: a moderator's files, an operator's `.env` and
shell, through `glossary-bot run` against the fake Discord and the command line
(tests/outsider/PLAN.md, round 12).
What a member sees of a suggestion or a greeting is checked on a bot in this process (a bot
process each cost ~8 s on a loaded machine; trim57b); logs, locks and signals on a process."""

from __future__ import annotations

import json
import signal
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Migrate, Store
from bot.storage.cli import on_store
from bot.storage.models import AliasImport
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot, glossary_bot_here

from .conftest import Scene


async def test_a_second_bot_through_a_symlink_to_the_database_is_refused(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line X27: the second bot on one SQLite file is refused (round 4), but only when
    DATABASE_PATH is spelt the same: through a symlink (a `current` link on a volume, a path
    under /var that is a link) the second started, took the lock beside the link, and
    IDENTIFYed in a loop against the first (4005 from the fake; on Discord each knocks the
    other's session off). The lock is now beside the file itself."""
    fake = scene.fake
    link = tmp_path / "link.db"
    link.symlink_to(scene.db_path)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path):
        second = BotProcess(fake, link, cwd=tmp_path, CLAIM_WAIT="0")  # refused at once
        await second.start(wait_ready=False)
        assert await second.exited(within=60) == 2, second.output
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert card["embeds"], card
    [line] = [x for x in second.lines if x.startswith("glossary-bot:")]
    assert "DATABASE_PATH" in line, line
    assert "another bot runs on this SQLite file" in line, line
    assert "Traceback" not in second.output


def _interrupted_import(db: Path, *, before_the_write: bool) -> BaseException | None:
    """`on_store` as `aliases import` uses it, with the operator's Ctrl-C (SIGINT, which
    asyncio turns into a cancellation) arriving before the write or while it runs."""

    def ctrl_c_inside(item: AliasImport, stored: Mapping[str, str]) -> str | None:
        signal.raise_signal(signal.SIGINT)
        return None

    async def work(store: Store) -> None:
        item = AliasImport(5, "zorbword", "zorbword", "rag")
        if before_the_write:
            signal.raise_signal(signal.SIGINT)
            await store.export_aliases(None)  # the next wait takes the cancellation
        await store.import_aliases([item], check=ctrl_c_inside)

    try:
        on_store(db, work, migrate=Migrate.UPGRADE)
    except BaseException as exc:  # before the fix: KeyboardInterrupt, which must not escape
        return exc
    return None


def test_ctrl_c_during_an_import_says_whether_it_was_written(tmp_path: Path) -> None:
    """Plan line X33: Ctrl-C during `aliases import` of 10,000 rows (or `terms import` of
    2,000): the process went on for 12-30 s, wrote every row (a transaction under way is
    finished, never left half-done), then exited 130 without a word, so the operator believed
    the import stopped. Now one line says whether the changes were written."""
    db = tmp_path / "g.db"
    stopped = _interrupted_import(db, before_the_write=False)
    assert type(stopped).__name__ == "Interrupted", repr(stopped)
    assert "written in full" in str(stopped), stopped
    assert getattr(stopped, "exit_code", None) == 130
    stored = on_store(db, lambda store: store.export_aliases(None))
    assert [a["alias"] for a in stored] == ["zorbword"]

    other = tmp_path / "other.db"
    stopped = _interrupted_import(other, before_the_write=True)
    assert type(stopped).__name__ == "Interrupted", repr(stopped)
    assert str(stopped) == "interrupted; nothing was written"
    assert on_store(other, lambda store: store.export_aliases(None)) == []


async def made(db: Path) -> None:
    """A database as the bot leaves it (empty)."""
    store = await Store.open(db, flush_interval=None, migrate=Migrate.UPGRADE)
    await store.close()


# What a spreadsheet's JSON export, or a hand-made file, looks like: rows, not the topics JSON.
ROWS = [{"title": "Zorblax", "definition": "A thing that zorbs.", "category": "Fundamentals"}]


async def test_a_json_list_of_rows_is_told_what_the_json_must_be(tmp_path: Path) -> None:
    """Plan line X5: a JSON list of rows (a sheet-to-JSON converter's output): "(entry): Input
    should be a valid dictionary or instance of TopicsHeader", the parser's words, naming an
    entry the file does not have. Now it says what the topics JSON is, and that this is a list;
    `check` says the same."""
    rows = tmp_path / "terms.json"
    rows.write_text(json.dumps(ROWS), encoding="utf-8")
    db = tmp_path / "g.db"
    db.touch()
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "terms", "import", str(rows), "--guild", "1", "--db", str(db)
    )
    assert status == 1, said
    assert "TopicsHeader" not in said, said
    assert "(entry)" not in said, said
    # outsider43 (round 30 M1): an import names the list's keys and the formats it reads.
    assert "this JSON (a list of objects with the keys" in said, said
    assert "the topics JSON" in said, said
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "check", str(rows))
    assert status == 1, said
    assert "not a list" in said, said
    assert "TopicsHeader" not in said, said


async def test_a_dry_run_makes_no_database(tmp_path: Path) -> None:
    """Found beside X1-X5: `terms import --dry-run --db` a path with no database there (a
    misspelt path) made a new 94 KB database and answered "Would import: …" as if for the
    server. A dry run writes nothing: it now says there is no database there, as `terms
    export` does, and leaves nothing behind."""
    file = tmp_path / "terms.toml"
    file.write_text(
        '[[entries]]\nid = "zorblax"\ntitle = "Zorblax"\ncategory = "Fundamentals"\n'
        'definition = "A thing that zorbs."\n',
        encoding="utf-8",
    )
    missing = tmp_path / "glosary-bot.db"
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "terms", "import", str(file), "--guild", "1", "--db", str(missing),
        "--dry-run",
    )  # fmt: skip
    # left57: a glossary begun before the bot's first start is checked as into the new
    # database the import makes; the path is said first (a misspelt one is seen), nothing made.
    assert status == 0, said
    assert said.startswith(f"There is no database at {missing} yet: the import will make it"), said
    assert not missing.exists()


async def test_migrate_db_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    """Plan line X29: `migrate-db --to` a SQLite file in a folder that does not exist: two
    lines, the first a warning that it "cannot check that no other bot runs on …" with an
    errno, the second the answer. No folder, no database, no bot on it: one line now."""
    source = tmp_path / "g.db"
    await made(source)
    target = tmp_path / "nowhere" / "copy.db"
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "migrate-db", "--from", str(source), "--to", str(target)
    )
    assert status == 1, said
    assert said.strip().splitlines() == [
        f"glossary-bot: error: --to: the database file cannot be opened: its folder {target.parent} "
        "does not exist"
    ], said


@pytest.mark.parametrize("setting", ["DATABASE_PATH", "HEARTBEAT_PATH"])
async def test_a_path_under_the_home_folder_in_env(tmp_path: Path, setting: str) -> None:
    """Plan line X24: `DATABASE_PATH=~/glossary-bot.db` in `.env` (read without a shell):
    `run` looked for a folder named "~" in its working directory ("its folder …/~ does not
    exist; answering without counts and aliases"), `stats` said "there is no database at
    ~/…". `~` is now the home folder, as in a shell, here and in HEARTBEAT_PATH and
    GLOSSARY_PATHS."""
    home = tmp_path / "home"
    home.mkdir()
    await made(home / "glossary-bot.db")
    (home / "beat").touch()
    (tmp_path / ".env").write_text(
        "DATABASE_PATH=~/glossary-bot.db\nHEARTBEAT_PATH=~/beat\n", encoding="utf-8"
    )
    env = {**CLI_ENV, "HOME": str(home)}
    # In a process of its own, each: the real-process `stats` and `health` of these files (the
    # other steps here run in this process, `glossary_bot_here`).
    if setting == "DATABASE_PATH":
        status, said = await glossary_bot(env, tmp_path, "stats")
        assert status == 0, said
        assert said.startswith("Glossary Bot stats"), said
    else:
        status, said = await glossary_bot(env, tmp_path, "health")
        assert "no heartbeat at" not in said, said
        assert str(home / "beat") in said or status == 0, said


async def test_a_suggestion_of_a_name_the_glossary_has_is_not_queued(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    """Plan line X20: `/suggest RAG` (a bundled acronym), `kv cache` (a title): "Thanks! “RAG”
    is with this server's moderators", queued for review, where accepting it could only clash
    with the name or shadow the card. Now the member is told the glossary has it (the card's
    title), and nothing is queued; a name it lacks is queued as before."""
    fake = scene.fake
    async with start_bot(store):
        for name, title in (("RAG", "Retrieval-Augmented Generation"), ("kv cache", "KV Cache")):
            # Typed in the form (a name given to `/suggest` is said before it opens: outsider49).
            opened = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
            assert (await opened.response())["type"] == 9
            sent = await fake.submit_modal(
                scene.alice, opened, {"title": name, "definition": "What I think it is."}
            )
            said = (await sent.final_message())["content"]
            assert said.startswith(f"“{name}” is already in the glossary: **{title}**")
            assert said.endswith("Nothing was queued."), said
        opened = await fake.slash(
            scene.alice, "suggest", {"term": "zorblax"}, channel=scene.channel
        )
        await opened.response()
        sent = await fake.submit_modal(scene.alice, opened, {"definition": "What I think it is."})
        assert (await sent.final_message())["content"].startswith("Thanks! “zorblax”")
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "stats", "--db", str(scene.db_path), "--json"
    )
    assert status == 0, said
    assert json.loads(said)["suggestions"]["open"] == 1, said


async def test_hello_and_thanks_to_the_bot_get_its_help_not_a_miss(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    """Plan line X17: a DM "hi" got "Did you mean Human-in-the-Loop?", "thanks!" (after a card)
    and "thank you so much" got "No entry for “thanks!”", each recorded as a missed search; a
    mention "@Glossary hey there!" in a server likewise, in public. Now they get the help line
    (as an empty mention does) and record nothing; a term in the same words still opens."""
    fake = scene.fake
    dm = fake.dm_channel(scene.alice)
    async with start_bot(store):  # the store is closed (written) when the block ends
        for text in ("hi", "thanks!", "thank you so much", "ok thanks :)"):
            await fake.user_message(scene.alice, dm, text)
            answer = await fake.wait_for_channel_message(dm)
            assert answer["content"].startswith("Ask me about a term"), (text, answer)
        await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} hey there!")
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["content"].startswith("Ask me about a term"), answer
        await fake.user_message(scene.alice, dm, "hi, what is rag?")
        card = await fake.wait_for_channel_message(dm)
        assert card["embeds"][0]["title"] == "Retrieval-Augmented Generation (RAG)", card
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "stats", "--db", str(scene.db_path), "--json"
    )
    assert status == 0, said
    assert json.loads(said)["top_misses"] == [], said


async def test_a_file_saved_as_ansi_is_told_where_and_how_to_save_it(tmp_path: Path) -> None:
    """Plan line X6: curated TOML saved by Notepad or Excel as "ANSI" (Windows-1252, a `café`
    on line 3): "not UTF-8 text (a byte that is not UTF-8 at position 43)", a byte offset no
    editor shows and no word of what to do (UTF-16 gets "save the file as UTF-8"). Now the
    line, and how to save it."""
    file = tmp_path / "terms.toml"
    file.write_bytes(
        '[[entries]]\nid = "cafe"\ntitle = "Zorb café"\ncategory = "Fundamentals"\n'
        'definition = "A thing – that zorbs."\n'.encode("cp1252")
    )
    db = tmp_path / "g.db"
    await made(db)
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "terms", "import", str(file), "--guild", "1", "--db", str(db)
    )
    assert status == 1, said
    assert "not UTF-8 text (line 3 has a byte that is not UTF-8)" in said, said
    assert "save the file as UTF-8 and import it again" in said, said


async def test_check_names_the_id_a_related_title_meant(tmp_path: Path) -> None:
    """Plan line X30: a maintainer's hand edit puts a title where `related` takes an id
    (`related = ["KV Cache"]`): "related id 'KV Cache' names no entry", while it names one by
    its title. Now the line says which id that name belongs to."""
    (tmp_path / "mine.toml").write_text(
        '[[entries]]\nid = "zorb-cache"\ntitle = "Zorb Cache"\ncategory = "Fundamentals"\n'
        'definition = "A cache of zorbs."\nrelated = ["Blap Store"]\n\n'
        '[[entries]]\nid = "blap-store"\ntitle = "Blap Store"\ncategory = "Fundamentals"\n'
        'definition = "Where blaps are kept."\n',
        encoding="utf-8",
    )
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "check", "-q", "mine.toml")
    assert status == 1, said
    assert (
        "[zorb-cache]: error: related id 'Blap Store' names no entry (it is a name of "
        "'blap-store': related takes ids)"
    ) in said, said


async def test_health_names_the_heartbeat_file_it_looked_for(tmp_path: Path) -> None:
    """Plan line X35: `HEARTBEAT_PATH=beat` (relative) and `glossary-bot health` run from
    another folder (cron, a unit with another WorkingDirectory): "no heartbeat at beat yet
    (starting, or never connected)" while the bot ran, healthy, in its own folder. Now the line
    names the file it looked for, absolute, so the other folder shows."""
    elsewhere = tmp_path / "cron"
    elsewhere.mkdir()
    status, said = glossary_bot_here({**CLI_ENV, "HEARTBEAT_PATH": "beat"}, elsewhere, "health")
    assert status == 1, said
    assert f"no heartbeat at {elsewhere / 'beat'} yet" in said, said


async def test_stats_of_one_lookup_says_one_lookup(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line X10 (the chart with zero, one and many lookups was fine): `/stats` after one
    lookup said "**1** lookups"."""
    await define(scene.fake, scene.alice, "rag", scene.channel)
    handle = await scene.fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    assert embed_of(await handle.final_message())["description"] == "**1** lookup"
    await define(scene.fake, scene.alice, "lora", scene.channel)
    handle = await scene.fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    assert embed_of(await handle.final_message())["description"] == "**2** lookups"


async def test_the_line_that_stops_run_is_json_when_the_logs_are(tmp_path: Path) -> None:
    """Found beside X35 (health and logs as a monitoring system reads them): with
    `LOG_FORMAT=json`, the line that says why `run` stopped (a glossary file missing, Discord
    unreachable, the token refused, another bot on the file) was plain text
    ("glossary-bot: 1 problem in the glossary data: …") among JSON lines: the one line a log
    system most needs, and the one it drops. Now it is a JSON object, level CRITICAL."""
    env = {
        **CLI_ENV,
        "LOG_FORMAT": "json",
        "DISCORD_TOKEN": "MTAx.abc.def",
        "GLOSSARY_PATHS": str(tmp_path / "missing.toml"),
        "DATABASE_PATH": str(tmp_path / "g.db"),
    }
    status, said = await glossary_bot(env, tmp_path, "run")
    assert status == 1, said
    lines = [json.loads(line) for line in said.strip().splitlines()]  # each line one object
    assert lines[-1]["level"] == "CRITICAL", lines
    assert lines[-1]["message"].startswith("1 problem in the glossary data: "), lines
    assert "missing.toml: error: no such file or folder" in lines[-1]["message"], lines


async def test_an_alias_file_made_by_hand_is_told_what_it_needs(tmp_path: Path) -> None:
    """Beside plan lines X1-X5, for `aliases import`: a CSV saved from a sheet said "cannot read
    al.csv: Expecting value: line 1 column 1 (char 0)"; rows with the keys named otherwise
    (`guild`, `term`) "guild_id must be a non-negative integer", of a key that is not there;
    an entry given by its title or acronym "There is no glossary entry with the id “RAG”".
    Now: not JSON and what it must be; which keys are missing and which it has; the id the
    name belongs to."""
    db = tmp_path / "g.db"
    await made(db)
    sheet = tmp_path / "aliases.csv"
    sheet.write_text("guild_id,alias,entry_id\r\n1,zorb,rag\r\n", encoding="utf-8")
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "aliases", "import", str(sheet), "--db", str(db)
    )
    assert status == 1, said
    assert said.strip() == (
        f"glossary-bot: error: cannot read {sheet}: not JSON (Expecting value, line 1): "
        "expected a JSON list of {guild_id, alias, entry_id} objects"
    ), said
    rows = tmp_path / "aliases.json"
    rows.write_text(
        json.dumps(
            [
                {"guild": 1, "alias": "zorb", "term": "rag"},
                {"guild_id": 1, "alias": "zorb", "entry_id": "RAG"},
            ]
        ),
        encoding="utf-8",
    )
    status, said = glossary_bot_here(
        CLI_ENV, tmp_path, "aliases", "import", str(rows), "--db", str(db)
    )
    assert status == 1, said
    assert "item 1: no guild_id and no entry_id (it has 'guild', 'alias', 'term')" in said, said
    assert (
        "item 2: There is no glossary entry with the id “RAG”. It is a name of "
        "Retrieval-Augmented Generation (RAG), whose id is “rag”."
    ) in said, said
