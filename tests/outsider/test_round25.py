"""Outside testing round 25: the bot's files as operators and moderators handle them
(tests/outsider/PLAN.md, round 25).

Through `glossary-bot run` against the fake Discord and the command line, with real SQLite
files."""

from __future__ import annotations

import json
import re
import shutil
import signal
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.cards.chart import _terms_chart
from bot.storage import Store
from bot.storage.periods import period_start
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_here, glossary_bot_waited

from .conftest import Scene

DATA = Path(__file__).resolve().parents[2] / "data"


async def _alias(scene: Scene, alias: str, term: str) -> None:
    added = await scene.fake.slash(
        scene.moderator, "alias add", {"alias": alias, "term": term}, channel=scene.channel
    )
    assert (await added.final_message())["content"].startswith("Added"), alias


def _aliases(cwd: Path, db: Path) -> list[str]:
    status, output = glossary_bot_here(CLI_ENV, cwd, "aliases", "export", "--db", str(db))
    assert status == 0, output
    return sorted(row["alias"] for row in json.loads(output))


def _size(path: Path) -> int:
    return path.stat().st_size


def _names(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir()}


async def test_a_backup_restored_after_a_crash_is_the_backup(scene: Scene, tmp_path: Path) -> None:
    """Plan line R1: the bot killed (-9, an OOM kill, a container killed past its grace) leaves
    its write-ahead log beside the file; the operator then copies last night's backup over the
    file, as one restores a file. SQLite applies the old log over the copied file at the next
    open: the "restored" bot served the aliases added after the backup (and a log from another
    database would have corrupted it), in silence. Now `glossary-bot restore BACKUP` puts the
    backup in place without the old log, keeping the database it replaced beside it."""
    fake, db, backup = scene.fake, scene.db_path, tmp_path / "b.db"
    env = {"GLOSSARY_CACHE_DIR": str(tmp_path / "cache"), "COOLDOWN_USES": "50"}
    async with BotProcess(fake, db, cwd=tmp_path, **env) as bot:
        await _alias(scene, "qq before", "rag")
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "backup", str(backup), "--db", str(db)
        )
        assert status == 0, output
        for n in range(3):
            await _alias(scene, f"qq after {n}", "kv-cache")
        await bot.stop(signal.SIGKILL)
    assert _size(Path(f"{db}-wal")) > 0  # the crash left the log

    # What the README's old advice (copy the file back) did: the later aliases came back.
    copied = tmp_path / "copied"
    copied.mkdir()
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(f"{db}{suffix}", copied / f"bot.db{suffix}")
    shutil.copyfile(backup, copied / "bot.db")
    assert _aliases(tmp_path, copied / "bot.db") != ["qq before"]

    status, output = glossary_bot_here(CLI_ENV, tmp_path, "restore", str(backup), "--db", str(db))
    assert status == 0, output
    assert f"restored {db} from {backup}" in output, output
    kept = Path(f"{db}.before-restore")
    assert f"the database it replaced is kept as {kept}" in output, output
    assert f"{db.name}-wal" not in _names(db.parent)
    assert _aliases(tmp_path, db) == ["qq before"]
    # Nothing lost: the replaced database, its log with it, holds every alias.
    assert _aliases(tmp_path, kept) == ["qq after 0", "qq after 1", "qq after 2", "qq before"]
    async with BotProcess(fake, db, cwd=tmp_path, **env) as bot:
        listed = await fake.slash(scene.moderator, "alias list", {}, channel=scene.channel)
        description = (await listed.final_message())["embeds"][0]["description"]
        assert "qq before" in description, description
        assert "qq after" not in description, description
    assert "Traceback" not in bot.output, bot.output


async def test_restore_refuses_while_a_bot_runs_on_the_file(scene: Scene, tmp_path: Path) -> None:
    """Plan line R3: copied over the file of a running bot, a backup was not taken up (the file
    is the same file, its log still applied over it) and nobody was told. `restore` is refused
    while a bot runs on the file, in one line, and changes nothing."""
    fake, db, backup = scene.fake, scene.db_path, tmp_path / "b.db"
    env = {"GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(fake, db, cwd=tmp_path, **env):
        await _alias(scene, "qq before", "rag")
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "backup", str(backup), "--db", str(db)
        )
        assert status == 0, output
        await _alias(scene, "qq after", "rag")
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "restore", str(backup), "--db", str(db)
        )
        assert status == 1, output
        assert output.startswith(f"glossary-bot: error: {db}: a bot runs on this file ("), output
        assert output.rstrip().endswith("stop it first; nothing was changed"), output
        assert output.count("\n") == 1, output
        assert f"{db.name}.before-restore" not in _names(db.parent)
    assert _aliases(tmp_path, db) == ["qq after", "qq before"]


def test_restore_checks_the_backup_before_touching_the_database(tmp_path: Path) -> None:
    """A restore of the wrong file (a typo, a glossary file, a truncated copy) is refused in one
    line naming it; the database stays as it was."""
    db, backup = tmp_path / "bot.db", tmp_path / "b.db"
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "backup", str(backup), "--db", str(db))
    assert status == 1  # no database yet
    one = [{"guild_id": 1, "alias": "qq one", "entry_id": "rag"}]
    (tmp_path / "one.json").write_text(json.dumps(one), encoding="utf-8")
    status, output = glossary_bot_here(
        CLI_ENV, tmp_path, "aliases", "import", "one.json", "--db", str(db)
    )
    assert status == 0, output
    assert db.exists()
    before = db.read_bytes()
    (tmp_path / "notes.toml").write_text("title = 'not a database'\n", encoding="utf-8")
    for name, expected in (
        ("missing.db", f"there is no backup at {tmp_path / 'missing.db'}"),
        ("notes.toml", f"{tmp_path / 'notes.toml'} is not a usable SQLite database"),
    ):
        status, output = glossary_bot_here(
            CLI_ENV, tmp_path, "restore", str(tmp_path / name), "--db", str(db)
        )
        assert status == 1, output
        assert output.startswith(f"glossary-bot: error: {expected}"), output
        assert output.rstrip().endswith("nothing was changed"), output
        assert output.count("\n") == 1, output
    assert db.read_bytes() == before
    assert _aliases(tmp_path, db) == ["qq one"]
    assert not Path(f"{db}.before-restore").exists()


def test_restore_on_postgresql_names_the_command_to_run(tmp_path: Path) -> None:
    """With DATABASE_URL, `backup` names a `pg_dump` command; `restore` names the `pg_restore`
    that reads its file back, without the password, and touches nothing."""
    url = "postgresql://glossary:secret@db.example:5432/glossary"
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "restore", "b.dump", "--db", url)
    assert status == 1, output
    command = "pg_restore --clean --if-exists --dbname=postgresql://glossary@db.example:5432/glossary b.dump"
    assert f"stop the bots, then restore with `{command}`" in output, output
    assert "secret" not in output, output


def test_terms_import_refuses_direct_messages(tmp_path: Path) -> None:
    """Plan line T6 (beside it): `terms import --guild 0` (0 is direct messages for `stats`)
    imported the file, "Imported: 3 added", into a place no one is ever served from: a server's
    terms are found only in that server, never in direct messages. Now refused in one line."""
    (tmp_path / "t.toml").write_text(
        '[[entries]]\nid = "qterm"\ntitle = "Qterm"\ncategory = "Fundamentals"\n'
        'definition = "Made up."\n',
        encoding="utf-8",
    )
    db = tmp_path / "g.db"
    status, output = glossary_bot_here(
        CLI_ENV, tmp_path, "terms", "import", "t.toml", "--guild", "0", "--db", str(db)
    )
    assert status == 2, output
    assert output.startswith(
        "glossary-bot terms import: error: argument --guild: 0 is direct messages, which have "
        "no server terms: give a server's id"
    ), output
    assert not db.exists()


def _drawn_text(svg: str) -> str:
    return "".join(re.findall(r">([^<>]*)</text>", svg))


def test_top_terms_the_charts_font_cannot_draw_are_not_drawn_as_boxes() -> None:
    """Plan line S3: a server's own terms titled in Chinese, in fullwidth letters or with emoji
    were drawn in `/stats`' chart as rows of empty boxes (the chart carries DejaVu Sans alone:
    no CJK, no emoji), beside bars no one could name. Now a name is drawn as NFKC folds it
    ("Ｚorb" as "Zorb"), without the symbols the font lacks ("🧠 Brain Net" as "Brain Net"),
    and a name whose letters it cannot draw is labelled by its place in the list the chart is
    posted with ("#1")."""
    svg = _terms_chart(
        [("注意力机制", 9), ("Ｚorb Ｅngine", 5), ("🧠 Brain Net", 3), ("RAG", 1)], 360, 420
    )
    drawn = _drawn_text(svg)
    for text in ("#1", "Zorb Engine", "Brain Net", "RAG"):
        assert text in drawn, drawn
    lacking = {c for c in drawn if "\u4e00" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef"}
    lacking |= {c for c in drawn if ord(c) >= 0x1F300}
    assert not lacking, drawn


def _sources_edited(tmp_path: Path, edit: Callable[[str], str]) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    manifest = folder / "sources.toml"
    manifest.write_text(edit(manifest.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


def test_check_refuses_a_file_or_key_sources_toml_lists_twice(tmp_path: Path) -> None:
    """Plan line C4: a pull request's `sources.toml` with a `[[sources]]` table pasted twice
    (the same file under a second key), or two tables sharing a key: `check` passed both
    ("0 error(s)", "163 from Foundations glossary" twice), and the bot read the file twice, so
    every card of it had its own wording twice under "Other sources". Now an error names the
    file (or key) and both tables; the second is not read."""
    foundations = '[[sources]]\nkey = "foundations"\nname = "Foundations glossary"\n'
    foundations += 'file = "foundations.toml"\nformat = "curated-toml"\n'
    again = foundations.replace('key = "foundations"', 'key = "foundations-again"')
    twice = _sources_edited(tmp_path / "a", lambda text: text + "\n" + again)
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "check", "-q", str(twice))
    assert status == 1, output
    assert (
        f"{twice / 'sources.toml'}: error: [[sources]] 'foundations-again' names the file "
        "'foundations.toml' of [[sources]] 'foundations' again: list each file once"
    ) in output, output
    shared = _sources_edited(
        tmp_path / "b", lambda text: text.replace('key = "backend-ai-go"', 'key = "foundations"')
    )
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "check", "-q", str(shared))
    assert status == 1, output
    assert (
        f"{shared / 'sources.toml'}: error: two [[sources]] tables have the key 'foundations' "
        "('foundations.toml' and 'backend-ai-go-glossary.md'): give each its own"
    ) in output, output


async def test_lookups_dated_ahead_are_not_counted_in_the_last_day(tmp_path: Path) -> None:
    """Plan line S1: the bot ran a while with its clock a year ahead (a host's clock set wrong,
    then put right). Its lookups, dated a year on, were counted in "the last day", week and
    month (the periods had no end) for a year, and in the chart's title but in none of its
    bars. A period now ends at the present hour; all time still counts them."""
    ahead = datetime.now(UTC) + timedelta(days=365)
    wrong = await Store.open(tmp_path / "g.db", flush_interval=None, clock=lambda: ahead)
    for _ in range(3):
        wrong.record_lookup(1, "rag")
        wrong.record_miss(1, "zorbulate")
    await wrong.close()
    store = await Store.open(tmp_path / "g.db", flush_interval=None)
    try:
        store.record_lookup(1, "kv-cache")
        store.record_miss(1, "blorpify")
        for period in ("day", "week", "month"):
            since = period_start(period, datetime.now(UTC))
            stats = await store.stats(1, since)
            assert stats.total_lookups == 1, period
            assert stats.top_terms == [("kv-cache", 1)], period
            assert [miss.query for miss in stats.top_misses] == ["blorpify"], period
            assert sum((await store.lookups_by_hour(1, since)).values()) == 1, period
        assert (await store.stats(1, None)).total_lookups == 4
    finally:
        await store.close()
