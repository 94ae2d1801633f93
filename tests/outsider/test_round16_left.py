"""Small leftovers of round 16 (task left16), each through the real command line or the bot
against the fake Discord, on real SQLite files; what a command says through `bot.cli.main` in
this process where its process is not what is checked (trim57b)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import metrics
from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import embed_of
from tests.resilience.helpers import warned
from tests.resilience.test_shard_claims import process_of, running_in_a_world

from .conftest import Scene
from .test_round14 import _here
from .test_round14_left import ZORBLAX
from .test_small_faults import _cli as _cli_limited

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
EMBED_LINKS = 1 << 14


async def test_an_alias_imported_from_the_command_line_accepts_the_waiting_suggestions(
    tmp_path: Path,
) -> None:
    """A member suggested "QQ Zorbo"; `glossary-bot aliases import` made it the server's alias
    for KV Cache: the suggestion stayed queued, where `terms import` and `/alias add` accept
    it. Now the import accepts it in the database, the term log naming the command line, and
    its line says so (the command line cannot message members)."""
    _cli = _here
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    await store.add_suggestion(5, 42, "QQ Zorbo", "What it means, in my words.")
    await store.add_suggestion(6, 42, "QQ Zorbo", "Another server's, left waiting.")
    await store.close()
    alias = [{"guild_id": 5, "alias": "qq zorbo", "entry_id": "kv-cache"}]
    added = _cli(tmp_path, "aliases", "import", "-", "--db", str(db), stdin=json.dumps(alias))
    assert added.returncode == 0, added.stderr
    assert added.stdout.strip().endswith(
        "added 1, already present 0, refused 0\n"
        "Also accepted 1 waiting suggestion of that name; its member was not told "
        "(the command line cannot message members)."
    ), added.stdout
    log = _cli(tmp_path, "terms", "log", "--guild", "5", "--db", str(db))
    assert "an operator (command line) accepted the suggestion “QQ Zorbo”" in log.stdout, log
    store = await Store.open(db, flush_interval=None)
    try:
        assert await store.open_suggestions(5) == []
        assert [s.title for s in await store.open_suggestions(6)] == ["QQ Zorbo"]
    finally:
        await store.close()
    again = _cli(tmp_path, "aliases", "import", "-", "--db", str(db), stdin=json.dumps(alias))
    assert again.stdout.strip() == "added 0, already present 1, refused 0", again.stdout


async def test_a_define_posted_past_the_deadline_without_embed_links_says_so_in_one_line(
    scene: Scene, bot: GlossaryBot
) -> None:
    """/define deferred (the server's aliases not read yet), the defer rate limited past
    Discord's 3 s: the card is posted in the channel as a message of its own, which needs Embed
    Links. Without it the post was an empty card, counted as a lookup. Now it says in the one
    line a mention gets there that the card cannot be shown, counted refused, not a lookup;
    where the bot has Embed Links the card is posted as before. A reply (not deferred) rate
    limited past the deadline says the same line."""
    fake = scene.fake
    for role in scene.other_guild.roles.values():
        role.permissions &= ~EMBED_LINKS

    def refused() -> float:
        labels = {"kind": "define", "outcome": "refused"}
        return metrics.REGISTRY.get_sample_value("glossary_interactions_total", labels) or 0.0

    before = refused()
    for guild in (scene.other_guild, scene.guild):
        bot.state.servers.forget(guild.id)  # /define reads the aliases, so it defers
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("posted in channel"):
        await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.other_channel)
        posted = await fake.wait_for_channel_message(scene.other_channel)
    assert not posted["embeds"], posted
    assert posted["content"] == (
        "**Retrieval-Augmented Generation (RAG)** has a card, but I can't show cards in this "
        "channel: it needs the **Embed Links** permission for me here. `/define` shows it "
        "anywhere."
    ), posted
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("posted in channel"):
        await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)
        posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "Retrieval-Augmented Generation (RAG)"
    assert bot.state.store is not None
    await bot.state.store.flush()
    counted = {
        g.id: await bot.state.store.lookup_count(g.id, "rag")
        for g in (scene.other_guild, scene.guild)
    }
    assert counted == {scene.other_guild.id: 0, scene.guild.id: 1}, counted
    assert refused() == before + 1
    # Not deferred (the aliases read by now), the reply itself rate limited past the deadline:
    # the same line, not an empty card, and no lookup (counted once the send is taken: left18).
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("posted in channel"):
        await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.other_channel)
        posted = await fake.wait_for_channel_message(scene.other_channel)
    assert not posted["embeds"], posted
    assert "needs the **Embed Links** permission" in posted["content"], posted
    assert refused() == before + 2
    await bot.state.store.flush()
    assert await bot.state.store.lookup_count(scene.other_guild.id, "rag") == 0


def test_an_old_export_of_a_re_added_term_says_it_replaced_it(
    tmp_path: Path,
) -> None:
    """Plan line X5: an export taken before a term was removed and added again under its title
    (so under a new id), imported after, read "1 added, 0 changed, 1 removed. Added: Zorblax /
    Removed: Zorblax": true by id, puzzling to read. Now one line says the server's term of
    that title was replaced by the file's (its id with it); other adds and removals read as
    before."""
    _cli = _here
    db = str(tmp_path / "g.db")
    old = tmp_path / "old.toml"
    first = _cli(tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=ZORBLAX)
    assert first.returncode == 0, first.stderr
    exported = _cli(tmp_path, "terms", "export", "--guild", "5", "--db", db, "-o", str(old))
    assert exported.returncode == 0, exported.stderr
    again = ZORBLAX.replace('id = "zorblax"', 'id = "zorblax-2"')
    again += (
        '\n[[entries]]\nid = "blapster"\ntitle = "Blapster"\ncategory = "Fundamentals"\n'
        'definition = "The blapster."\n'
    )
    readded = _cli(tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=again)
    assert readded.returncode == 0, readded.stderr
    back = _cli(tmp_path, "terms", "import", str(old), "--guild", "5", "--db", db)
    assert back.returncode == 0, back.stderr
    assert back.stdout.splitlines() == [
        "Imported: 0 added, 0 changed, 1 removed, 1 replaced under another id.",
        "Removed (1):",
        "  Blapster",
        "Replaced by the file's term of the same title (1):",
        "  Zorblax  [zorblax-2 → zorblax]",
    ], back.stdout


async def test_stats_of_every_server_names_their_own_terms_by_title(
    tmp_path: Path,
) -> None:
    """`glossary-bot stats --guild` names a server's own terms by title (ops15); without
    `--guild` they were shown by id ("zorblax"), as were the lookups of a term since removed.
    Now each is named by its title in the server that has it (two servers' terms of one id by
    both titles), its id beside, and one no server has any more "(removed)"."""
    _cli = _here
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    for scope, entry_id in [(5, "zorblax"), (5, "zorblax"), (6, "zorblax"), (5, "kv-cache")]:
        store.record_lookup(scope, entry_id)
    store.record_lookup(6, "gone-term")
    await store.close()
    other = ZORBLAX.replace('title = "Zorblax"', 'title = "Zorblax Prime"')
    for guild, terms in (("5", ZORBLAX), ("6", other)):
        done = _cli(
            tmp_path, "terms", "import", "-", "--guild", guild, "--db", str(db), stdin=terms
        )
        assert done.returncode == 0, done.stderr
    shown = _cli(tmp_path, "stats", "--db", str(db))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    top = lines[lines.index("Top terms:") + 1 : lines.index("Top missed searches:")]
    assert [line.split(None, 1)[1] for line in top] == [
        "Zorblax / Zorblax Prime  [zorblax]",
        "gone-term (removed)",
        "KV Cache  [kv-cache]",
    ], top


def test_reading_on_a_full_disk_says_the_disk_is_full(
    tmp_path: Path,
) -> None:
    """The read-only commands on a disk with no room left (the bot stopped, so SQLite's
    shared-memory file, which even a read needs, is made afresh and cannot grow) said "the
    database could not be written (disk I/O error)": a write nobody asked for, and no word of
    the disk. Now one line says the disk is full, naming the file it needs room for; the
    glossary's own commands (search, check) read no database and work."""
    _cli = _here  # the full disk's commands: processes
    db = tmp_path / "g.db"
    assert _cli(tmp_path, "terms", "import", "-", "--guild", "5", "--db", str(db), stdin=ZORBLAX)
    full = (
        f"glossary-bot: error: the disk holding the database is full: SQLite cannot make room "
        f"for {db}-shm, which even a read needs; free some space there"
    )
    for command in (
        ("stats",),
        ("terms", "export", "--guild", "5"),
        ("terms", "log", "--guild", "5"),
        ("aliases", "export"),
    ):
        status, said = _cli_limited(tmp_path, *command, "--db", str(db), file_size_limit=0)
        assert (status, said.splitlines()) == (1, [full]), (command, said)
    status, said = _cli_limited(tmp_path, "search", "rag", file_size_limit=0)
    assert (status, said.split(" -> ")[0]) == (0, '"rag"'), said
    assert _cli(tmp_path, "stats", "--db", str(db)).returncode == 0  # with room again


@pytest.mark.postgres
async def test_a_shard_claim_on_postgresql_says_at_once_what_it_waits_for(tmp_path: Path) -> None:
    """A second process for shards another one runs on the same PostgreSQL said nothing for
    10 s, then refused. As the SQLite run lock does (ops15), it now says at once which shard it
    waits for, held by whom, and for how long; then refuses with the same line as before."""
    async with running_in_a_world([0, 1], tmp_path) as (w, first):
        assert first.process is not None
        second = process_of(w, [1, 2], tmp_path)
        await second.start(wait_ready=False)
        waiting = await second.wait_for_output(r"waiting up to 10 s for it to let go")
        assert "shard 1 is held by another process on this database" in waiting, waiting
        assert f"(glossary-bot shards 0,1 pid {first.process.pid} on " in waiting, waiting
        assert await second.exited(within=60) == 2, second.output
        [line] = [x for x in second.lines if x.startswith("glossary-bot:")]
        assert "shard 1 is already run by another process" in line, line
        assert second.lines.index(line) > second.lines.index(waiting), second.output
