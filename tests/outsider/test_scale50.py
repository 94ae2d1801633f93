"""Many servers at their caps in one bot: tests/outsider/PLAN.md, "scale50".

The stall is shown by where work runs and how often, never by a time."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from bot import aliases as aliases_module
from bot.cli import main
from bot.discord_app import alias_cache
from bot.glossary import lookalikes
from bot.search.semantic import term_vectors
from bot.storage import AliasImport, Migrate, Store
from bot.storage.cli import on_store
from bot.term_storage import change_terms, read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of, put, terms

from .conftest import Scene


async def test_a_servers_read_looks_for_mismatches_off_the_loop_and_not_again_unchanged(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """scale50: every read of a server with terms looked for what a glossary change left at odds
    with them (`find_mismatches`) on the event loop: 0.14 s there for a server at its caps, at
    the bot's start for each of up to 200 servers it reads ahead, and again at each server's
    next request after ANY server's change (the versions are the database's, not a server's),
    though its own terms had not changed. It runs with the indexing, off the loop, and not at
    all for a server read again unchanged."""
    looked: list[tuple[str, int]] = []  # (thread, how many terms)
    real = alias_cache.find_mismatches

    def recorded(local: Any, glossary: Any, readings: Any = None) -> Any:
        looked.append((threading.current_thread().name, len(local.terms)))
        return real(local, glossary, readings)

    monkeypatch.setattr(alias_cache, "find_mismatches", recorded)
    guild = scene.guild.id
    await change_terms(store, guild, put(*terms("Zorbic", 3)), 1)
    async with start_bot(store) as bot:
        _, card = await define(scene.fake, scene.alice, "Zorbic Quux 1", scene.channel)
        assert embed_of(card)["title"] == "Zorbic Quux 1"
        ours = [thread for thread, count in looked if count == 3]
        assert ours, looked  # looked for once the server was read
        assert threading.current_thread().name not in ours, looked  # the event loop's
        before = len(looked)

        # Another server's change: this server is not read again (its own version, versions51;
        # it was read again, unchanged, before).
        other = scene.other_guild.id
        await change_terms(store, other, put(*terms("Blorp", 1)), 1)
        reads = 0
        real_terms = store.terms

        async def counted(scope: int) -> Any:
            nonlocal reads
            reads += scope == guild
            return await real_terms(scope)

        monkeypatch.setattr(store, "terms", counted)
        local = await bot.state.servers.current(guild)
        assert reads == 0  # not read again
        assert len(local.terms) == 3
        assert looked[before:] == []  # and nothing looked for again
        _, card = await define(scene.fake, scene.alice, "Zorbic Quux 2", scene.channel)
        assert embed_of(card)["title"] == "Zorbic Quux 2"


def toml_of(prefix: str, count: int) -> str:
    return "".join(
        f'\n[[entries]]\nid = "{prefix.lower()}-{n}"\ntitle = "{prefix} Quux {n}"\n'
        f'category = "Fundamentals"\ndefinition = "Our {prefix.lower()} job number {n}."\n'
        for n in range(count)
    )


async def test_two_moderators_importing_at_once_store_one_file_whole_and_answer_true(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """scale50: two `/term import`s of one server at once, different files: one file's terms
    stored whole, never a mix, and each answer true in the order they were written."""
    fake = scene.fake
    async with start_bot(store):
        handles = [
            await fake.slash(
                user,
                "term import",
                {"file": fake.add_attachment(f"{prefix}.toml", toml_of(prefix, 40))},
                channel=scene.channel,
            )
            for user, prefix in ((scene.moderator, "Zorbic"), (scene.admin, "Blorpic"))
        ]
        said = [str((await h.final_message())["content"]) for h in handles]
        rows = await store.terms(scene.guild.id)
    assert len(rows) == 40, said
    kept = {t.id.split("-")[0] for t in rows}
    firsts = [text.split("\n")[0] for text in said]
    assert sorted(firsts) == [
        "Imported: 40 added, 0 changed, 0 removed.",
        "Imported: 40 added, 0 changed, 40 removed.",
    ], said
    later = said[firsts.index("Imported: 40 added, 0 changed, 40 removed.")]
    assert kept == {later.split("Added: ")[1].split()[0].lower()}, (kept, said)


async def test_an_import_while_the_same_term_is_edited_keeps_the_moderators_text(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """scale50: a moderator has `/term edit` open on a term when another imports a file that
    changes it: the import is stored, and the form's save says the term changed meanwhile and
    keeps its text (Edit again), never overwriting the import unasked."""
    fake = scene.fake
    guild = scene.guild.id
    await change_terms(store, guild, put(*terms("Zorbic", 3)), 1)
    async with start_bot(store):
        opened = await fake.slash(
            scene.moderator, "term edit", {"term": "zorbic-1"}, channel=scene.channel
        )
        assert (await opened.response())["type"] == 9
        changed = toml_of("Zorbic", 3).replace("job number", "nightly task number")
        imported = await fake.slash(
            scene.admin,
            "term import",
            {"file": fake.add_attachment("z.toml", changed)},
            channel=scene.channel,
        )
        said = str((await imported.final_message())["content"])
        assert said.startswith("Imported: 0 added, 3 changed, 0 removed."), said
        mine = await fake.submit_modal(
            scene.moderator, opened, {"definition": "My own words for it."}
        )
        told = await mine.final_message()
        assert "changed this term while you edited it" in told["content"], told
        rows = {t.id: t for t in await read_terms(store, guild)}
    assert rows["zorbic-1"].definition == "Our zorbic nightly task number 1."


async def test_embedding_a_servers_terms_writes_the_cache_file_once_a_while_not_each_batch(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """scale50: the bot wrote its whole cache of term vectors (37 MB once it keeps 50,000) after
    every batch of 16 texts: an import of 2,000 terms wrote it 250 times, 9 GB, each write a
    second or more of disk beside two or three seconds of embedding. It writes at most every
    SAVE_EVERY seconds and once more when the server's embedding ends, and a restart finds
    every vector. (SAVE_EVERY set past the test's length: no clock decides the count.)"""
    monkeypatch.setenv("GLOSSARY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(term_vectors, "SAVE_EVERY", 10**9, raising=False)
    writes: list[int] = []
    real = term_vectors.write_vectors

    def counted(folder: Path, vectors: dict, *args: Any, **kwargs: Any) -> bool:
        # this test's cache only: a bot of an earlier test in this process may still finish a
        # batch and write its own folder (seen once in CI at load 17: [344, 16, 50])
        if Path(folder).is_relative_to(tmp_path):
            writes.append(len(vectors))
        return bool(real(folder, vectors, *args, **kwargs))

    monkeypatch.setattr(term_vectors, "write_vectors", counted)
    many = terms("Zorbic", 25)  # 50 texts: four batches
    await change_terms(store, scene.guild.id, put(*many), 1)
    async with start_bot(store) as bot:
        local = await bot.state.servers.embedded(scene.guild.id)
        assert local.complete
        assert len(local.texts) > 3 * term_vectors.EMBED_BATCH
        assert writes == [term_vectors.EMBED_BATCH, len(local.texts)], writes
    again = term_vectors.TermVectors(local.base.semantic.encoder, tmp_path / "cache")  # type: ignore[union-attr]
    assert again.missing(text for _, text in local.texts) == []


async def test_a_server_the_bot_is_removed_from_lets_its_glossary_go(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """scale50: the bot kicked from a server at its caps kept that server's compiled glossary
    (its index, aliases and vectors: some 10 MB at the caps) for IDLE_AFTER, 15 minutes, and
    went on embedding its terms (minutes of the one embedding thread that every other server's
    new terms wait for). GUILD_DELETE lets them go: the embedding stops at its batch."""
    fake = scene.fake
    guild = scene.guild.id
    await change_terms(store, guild, put(*terms("Zorbic", 3)), 1)
    async with start_bot(store) as bot:
        _, card = await define(fake, scene.alice, "Zorbic Quux 1", scene.channel)
        assert embed_of(card)["title"] == "Zorbic Quux 1"
        servers = bot.state.servers
        assert servers.indexed_servers() == 1
        del scene.guild.members[fake.bot.id]
        await fake.gateway.dispatch("GUILD_DELETE", {"id": str(guild)}, guild_id=guild)
        await define(fake, scene.alice, "lora", scene.other_channel)  # read after GUILD_DELETE
        assert bot.get_guild(guild) is None
        assert servers.indexed_servers() == 0
        assert not servers.knows(guild)


async def test_an_import_compiles_the_servers_aliases_once_not_once_a_term(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """scale50: `/term import` checked each term of the file against the server's aliases by
    compiling them all again (their search keys and look-alike index) for every term, inside
    the write, on the event loop: 2,000 terms beside 1,000 aliases held the loop 113 s of CPU
    (264 s on a loaded machine), every server's `/define` waiting. Once per import now; the
    checks are the same (a clash is still refused, naming the alias)."""
    fake = scene.fake
    guild = scene.guild.id
    await store.import_aliases(
        [AliasImport(guild, f"blorp {n}", f"blorp {n}", "rag") for n in range(5)]
    )
    compiled: list[int] = []
    real = aliases_module.alias_lookalikes

    def counted(aliases: Any) -> Any:
        compiled.append(len(aliases))
        return real(aliases)

    monkeypatch.setattr(aliases_module, "alias_lookalikes", counted)
    async with start_bot(store):
        upload = fake.add_attachment("z.toml", toml_of("Zorbic", 30))
        handle = await fake.slash(
            scene.moderator, "term import", {"file": upload}, channel=scene.channel
        )
        said = str((await handle.final_message())["content"])
        assert said.startswith("Imported: 30 added"), said
        assert compiled == [5], compiled
        clash = toml_of("Zorbic", 30).replace('title = "Zorbic Quux 7"', 'title = "Blorp 3"')
        upload = fake.add_attachment("clash.toml", clash)
        handle = await fake.slash(
            scene.moderator, "term import", {"file": upload}, channel=scene.channel
        )
        said = str((await handle.final_message())["content"])
        assert "already this server's alias “blorp 3”" in said, said
        assert len(await store.terms(guild)) == 30


def test_an_alias_file_is_checked_against_one_look_alike_index_grown_line_by_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """trim56: `aliases import` built the server's look-alike index afresh for every line (the
    stored aliases and the lines accepted so far): 1,000 aliases took over a minute of CPU
    (test_round4's full server, 177 s on a loaded machine). Built once per server now and grown
    with each line accepted; a line that looks like a stored alias or an earlier line of the
    file is still refused."""
    db = tmp_path / "g.db"
    stored = [AliasImport(5, f"blorp {n}", f"blorp {n}", "rag") for n in range(5)]
    on_store(db, lambda store: store.import_aliases(stored), migrate=Migrate.CREATE_ONLY)
    rows = [{"guild_id": 5, "alias": f"zorbix {n}", "entry_id": "rag"} for n in range(30)]
    rows += [
        {"guild_id": 5, "alias": "bl\u043erp 3", "entry_id": "kv-cache"},  # Cyrillic о
        {"guild_id": 5, "alias": "z\u043erbix 7", "entry_id": "kv-cache"},  # a line above's
    ]
    (tmp_path / "aliases.json").write_text(json.dumps(rows), encoding="utf-8")
    built: list[int] = []
    real = lookalikes.alias_lookalikes

    def counted(aliases: Any) -> Any:
        built.append(len(aliases))
        return real(aliases)

    monkeypatch.setattr(lookalikes, "alias_lookalikes", counted)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    status = main(["aliases", "import", "aliases.json", "--db", str(db), "--quiet"])
    said = capsys.readouterr()
    assert built == [5], built
    assert status == 1, said
    refused = said.err.splitlines()
    assert len(refused) == 2, refused
    assert "blorp 3" in refused[0], refused
    assert "zorbix 7" in refused[1], refused
    assert "added 30, already present 0, refused 2" in said.out, said
