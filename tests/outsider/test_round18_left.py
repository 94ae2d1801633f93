"""Known product faults left by earlier rounds (task left18), each through the real command
line or the bot against the fake Discord, on real SQLite files."""

from __future__ import annotations

import gc
import sqlite3
import weakref
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary import load_glossary
from bot.storage import Store, StoredTerm
from bot.term_storage import parse_readable
from tests.discord_app.helpers import buttons, define, embed_of
from tests.resilience.conftest import StartBot
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_round14 import _cli
from .test_round15 import ZORB
from .test_round16_left import CALLBACK, EMBED_LINKS

ZORBLAX_ENGINE = (
    '[[entries]]\nid = "zorblax-engine"\ntitle = "Zorblax Engine"\nacronym = "ZXE"\n'
    'category = "Fundamentals"\ndefinition = "The nightly zorblax job."\n'
)


def _top_terms(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    top = lines[lines.index("Top terms:") + 1 : lines.index("Top missed searches:")]
    return [line.split(None, 1)[1] for line in top]


async def test_stats_of_every_server_names_a_term_with_its_acronym(tmp_path: Path) -> None:
    """`stats --guild` (and `/stats`) name a server's term "Zorblax Engine (ZXE)"; `stats`
    without `--guild` named it "Zorblax Engine", the acronym dropped."""
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    store.record_lookup(5, "zorblax-engine")
    await store.close()
    imported = _cli(
        tmp_path, "terms", "import", "-", "--guild", "5", "--db", str(db), stdin=ZORBLAX_ENGINE
    )
    assert imported.returncode == 0, imported.stderr
    for scope in (("--guild", "5"), ()):
        shown = _cli(tmp_path, "stats", "--db", str(db), *scope)
        assert shown.returncode == 0, shown.stderr
        assert _top_terms(shown.stdout) == ["Zorblax Engine (ZXE)  [zorblax-engine]"], scope


async def test_stats_with_a_stored_term_that_cannot_be_read_says_so_in_one_line(
    tmp_path: Path,
) -> None:
    """A stored term's body that no longer parses (a hand edit, a damaged copy) made `stats` a
    traceback, with or without `--guild`. Now one line names the server and the term, and the
    rest of the stats is printed, that term's lookups under its id."""
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    store.record_lookup(5, "zorblax-engine")
    store.record_lookup(5, "kv-cache")
    await store.close()
    imported = _cli(
        tmp_path, "terms", "import", "-", "--guild", "5", "--db", str(db), stdin=ZORBLAX_ENGINE
    )
    assert imported.returncode == 0, imported.stderr
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE terms SET body = '{\"title\": 3' WHERE id = 'zorblax-engine'")
    for scope in (("--guild", "5"), ()):
        shown = _cli(tmp_path, "stats", "--db", str(db), *scope)
        assert shown.returncode == 0, shown.stderr
        assert "Traceback" not in shown.stderr, shown.stderr
        assert shown.stderr.splitlines() == [
            "glossary-bot: warning: server 5's stored term 'zorblax-engine' cannot be read "
            "(not valid JSON): its lookups are shown by id"
        ], shown.stderr
        assert "KV Cache  [kv-cache]" in _top_terms(shown.stdout), shown.stdout
        assert any(line.startswith("zorblax-engine") for line in _top_terms(shown.stdout))


def test_a_stored_term_body_that_is_no_object_is_named_without_a_stray_colon() -> None:
    """A body that is JSON but not an object ("[]", "null") fails at the top, where pydantic
    gives no field: the reason was ": Input should be an object", a colon after nothing."""
    rows = [(5, StoredTerm("a", "[]")), (5, StoredTerm("b", '{"id": "b"}'))]
    assert parse_readable(rows)[1] == [
        (5, "a", "Input should be an object"),
        (5, "b", "title: Field required"),
    ]


async def test_a_card_is_built_from_the_glossary_its_search_used(
    scene: Scene, bot: GlossaryBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`reply_for` read the server's glossary again for the card's buttons (and, on a miss, for
    the note on an alias whose entry is gone) rather than taking the one the search used: a
    glossary reload in between had RAG's card, found in the bundled glossary, drawn against
    the glossary loaded after it: "Something went wrong" (its other sources' names are not in
    that glossary), and its buttons would have been the new glossary's. Now the answer is made
    from the one glossary the search used; the reload shows from the next lookup."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    state = bot.state
    counted = state.lookup_count

    async def count_during_a_reload(scope: int, entry_id: str) -> int | None:
        state.glossary_paths = [folder]
        assert state.reload().startswith("reloaded")
        return await counted(scope, entry_id)

    monkeypatch.setattr(state, "lookup_count", count_during_a_reload)
    _, card = await define(scene.fake, scene.alice, "rag", scene.channel)
    assert embed_of(card)["title"] == "Retrieval-Augmented Generation (RAG)"
    bundled = load_glossary()
    rag = bundled.get("rag")
    assert rag is not None
    related = {e.title for r in rag.related if (e := bundled.get(r)) is not None}
    assert related
    assert related <= set(buttons(card)), buttons(card)
    monkeypatch.setattr(state, "lookup_count", counted)
    _, after = await define(scene.fake, scene.alice, "rag", scene.channel)
    assert "No entry" in after["content"], after


async def test_define_without_embed_links_tells_the_operator_once_per_channel(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A /define posted in the channel past Discord's deadline, where the bot lacks Embed
    Links, gets a line of text saying the card cannot be shown there. The operator was told
    the bot lacks Embed Links only for mentions (once per channel); a /define's line said only
    that its answer was posted. Now the first such /define in a channel says it too, once per
    channel (shared with mentions)."""
    fake = scene.fake
    for role in scene.other_guild.roles.values():
        role.permissions &= ~EMBED_LINKS
    seen: list[str] = []
    for _ in range(2):
        fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
        async with warned("posted in channel") as records:
            await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.other_channel)
            posted = await fake.wait_for_channel_message(scene.other_channel)
        assert "needs the **Embed Links** permission" in posted["content"], posted
        seen += [r.getMessage() for r in records]
    said = [line for line in seen if "lacks Embed Links" in line]
    assert len(said) == 1, seen
    assert str(scene.other_channel.id) in said[0], said


async def test_migrate_db_refusing_a_target_names_no_zeros(tmp_path: Path) -> None:
    """`migrate-db` refuses a target that holds data, saying what it holds in words ("1 alias,
    1 alias audit entry"); when only a table it has no words for held rows (here a lookup row
    whose count is 0, written by hand past the CHECK), it listed every table with its zero:
    "1 lookups, 0 lookup total, 0 misses, …". Now only what is there."""
    source, target = tmp_path / "from.db", tmp_path / "to.db"
    for path in (source, target):
        await (await Store.open(path, flush_interval=None)).close()
    with sqlite3.connect(target) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("INSERT INTO lookups (scope, entry_id, hour, count) VALUES (5, 'rag', 0, 0)")
    refused = _cli(tmp_path, "migrate-db", "--from", str(source), "--to", str(target))
    assert refused.returncode != 0
    assert "already holds data (1 lookups); copying on top of it needs --force" in (
        refused.stderr
    ), refused.stderr


async def test_a_private_define_lost_to_the_deadline_is_no_lookup(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A private /define whose answer was rate limited past Discord's 3 s is lost (a private
    answer cannot be posted in the channel), yet it was counted as a lookup: the count is made
    with the card, before its send fails. Now the card is counted once it is sent (or posted
    in the channel instead); the card's footer still counts itself."""
    fake, store = scene.fake, bot.state.store
    assert store is not None
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("private answer is lost"):
        await fake.slash(
            scene.alice, "define", {"term": "rag", "private": True}, channel=scene.channel
        )
    _, card = await define(scene.fake, scene.bob, "rag", scene.channel, private=True)
    assert "looked up 1 time here" in embed_of(card)["footer"]["text"], card
    await fake.settle()  # counted once its send returned: let the bot take the reply in
    await store.flush()
    assert await store.lookup_count(scene.guild.id, "rag") == 1


async def test_a_miss_echoes_emoji_joined_by_zero_width_joiners(
    scene: Scene, bot: GlossaryBot
) -> None:
    """What a member typed is shown back without invisible characters, which dropped the
    zero-width joiners that glue emoji into one: a family (👨‍👩‍👧) came back as three people,
    a rainbow flag (🏳️‍🌈) as a white flag and a rainbow. Now a joiner between two emoji stays;
    one anywhere else (hiding a word's letters) still goes."""
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    rainbow = "\U0001f3f3\ufe0f\u200d\U0001f308"
    typed = f"{family} {rainbow} zo\u200drblaxqq \u200d\U0001f308"
    _, said = await define(scene.fake, scene.alice, typed, scene.channel)
    assert said["content"].startswith(f"No entry for “{family} {rainbow} zorblaxqq \U0001f308”."), (
        said["content"]
    )


async def test_a_glossary_reload_lets_the_old_glossary_go(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """The log says once per server what a glossary change left at odds with it (here an
    alias of an entry the glossary lacks). To tell it once, the server cache kept, per server,
    the whole glossary it was told against: after a reload, a server that was forgotten (its
    read failed, say) kept the old glossary alive, and the same mismatch was told again after
    each reload. Now it keeps the ids it told of: the old glossary goes, and the warning comes
    again only when what is at odds changes."""
    await store.add_alias(scene.guild.id, "qq zorbo", "qq zorbo", "zorb", actor_id=1)
    told = "1 alias of entries no longer in the glossary (zorb)"
    async with start_bot(store) as bot:
        assert bot.state.reload().startswith("reloaded")  # not the tests' (a fixture keeps it)
        old = weakref.ref(bot.state.glossary)
        _, said = await define(scene.fake, scene.alice, "qq zorbo", scene.channel)
        assert "which is no longer in the glossary" in said["content"], said
        assert bot.state.reload().startswith("reloaded")
        bot.state.servers.forget(scene.guild.id)  # idle since: nothing of it is read again
        await scene.fake.settle()  # the /define under way ends
        gc.collect()
        assert old() is None
        _, said = await define(scene.fake, scene.alice, "qq zorbo", scene.channel)
        assert "which is no longer in the glossary" in said["content"], said
    assert sum(told in r.getMessage() for r in caplog.records) == 1, caplog.text
