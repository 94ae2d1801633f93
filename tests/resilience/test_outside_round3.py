"""What a third round of outside testing broke through `glossary-bot run` and the command line:
an alias imported by another process a moment before `/alias add` (the clash check has to sit in
the store's write transaction), mention look-alikes made of other scripts' letters, and emoji
written with variation selectors and joiners refused as invisible text.
What moderators are answered is checked on a bot in this process (a bot process each cost
~8 s on a loaded machine; trim57b); the importers and `glossary-bot` commands stay processes."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import pytest

from bot.glossary.keys import compact
from bot.storage import AddAliasStatus, AliasImport, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of

from .botproc import ROOT, glossary_bot, import_aliases
from .conftest import Scene
from .helpers import add_alias as add
from .helpers import stored_aliases


async def test_an_alias_added_right_after_another_process_imported_its_twin_is_refused(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    """The bot learns of aliases written elsewhere within 2 s; a moderator who adds a spelling
    of one of them inside that window must still be told it is taken."""
    fake = scene.fake
    guild = scene.guild.id
    async with start_bot(store):
        for n in range(3):
            document = [{"guild_id": guild, "alias": f"zorblax{n}", "entry_id": "rag"}]
            status, out, err = await import_aliases(document, scene.db_path, tmp_path)
            assert status == 0, (out, err)
            answer = await add(fake, scene.moderator, f"zorb lax{n}", "kv-cache", scene.channel)
            assert not answer.startswith("Added"), answer
            assert "RAG" in answer or "Retrieval" in answer, answer
            _, card = await define(fake, scene.alice, f"zorb-lax{n}", scene.channel)
            assert embed_of(card)["title"].startswith("Retrieval"), card
    keys = [key for _, key, _ in stored_aliases(scene.db_path)]
    assert keys == ["zorblax0", "zorblax1", "zorblax2"], keys


async def test_mention_look_alikes_are_refused_as_names(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    look_alikes = [
        "@\u0435veryone",  # Cyrillic е
        "@every\u043ene",  # Cyrillic о
        "@everyon\u0435 zorb",
        "@\u04bbere",  # Cyrillic һ
        "@h\u0435re",
        "@ev\u0435ryone",
        "@every\u03bfne",  # Greek ο
        "\uff20\u0435veryone",  # fullwidth @ and Cyrillic е
    ]
    async with start_bot(store):
        for alias in look_alikes:
            answer = await add(fake, scene.moderator, alias, "rag", scene.channel)
            assert not answer.startswith("Added"), (alias, answer)
            assert "Traceback" not in answer
        # Other scripts' words are ordinary aliases.
        for alias in ("кэш ключей", "κρυφή μνήμη", "@зорб"):
            answer = await add(fake, scene.moderator, alias, "kv-cache", scene.channel)
            assert answer.startswith("Added"), (alias, answer)
    assert len(stored_aliases(scene.db_path)) == 3


async def test_emoji_with_variation_selectors_and_joiners_are_ordinary_text(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    emoji_aliases = [
        "\u2764\ufe0f zorb",  # red heart, emoji presentation
        "\U0001f469\u200d\U0001f4bb blix",  # woman technologist (ZWJ sequence)
        "\U0001f3f3\ufe0f\u200d\U0001f308 quux",  # rainbow flag
        "1\ufe0f\u20e3 frob",  # keycap one
        "\U0001f44d\U0001f3fd plonk",  # thumbs up, skin tone
    ]
    async with start_bot(store):
        for alias in emoji_aliases:
            answer = await add(fake, scene.moderator, alias, "rag", scene.channel)
            assert answer.startswith("Added"), (alias, answer)
            _, card = await define(fake, scene.alice, alias, scene.channel)
            assert card["embeds"], (alias, card)
            assert embed_of(card)["title"].startswith("Retrieval"), (alias, card)
        # Scripts that write with joiners: a Persian half-space, a Devanagari conjunct.
        for alias in (
            "\u0646\u06cc\u0645\u200c\u0641\u0627\u0635\u0644\u0647",
            "\u0915\u094d\u200d\u0937 zorb",
        ):
            answer = await add(fake, scene.moderator, alias, "rag", scene.channel)
            assert answer.startswith("Added"), (alias, answer)
        # Joiners and selectors that join no emoji, in scripts that have no use for them, still
        # hide text: refused.
        hidden = (
            "zo\u200drb",
            "zo\u200crb",
            "\u043a\u044d\u200d\u0448",
            "\u200d\u200d",
            "blor\ufe0fp",
            "\ufe0f\ufe0f",
        )
        for alias in hidden:
            answer = await add(fake, scene.moderator, alias, "kv-cache", scene.channel)
            assert not answer.startswith("Added"), (alias, answer)
    assert len(stored_aliases(scene.db_path)) == len(emoji_aliases) + 2


def same_spelling(item: AliasImport, stored: Mapping[str, str]) -> str | None:
    """A stand-in for the alias rules: search reads `zorb lax` and `zorblax` alike."""
    taken = [key for key in stored if compact(key) == compact(item.key)]
    return f"{item.key} clashes with {taken[0]}" if taken else None


@contextlib.asynccontextmanager
async def database(kind: str, tmp_path: Path) -> AsyncIterator[str]:
    if kind == "sqlite":
        yield str(tmp_path / "bot.db")
        return
    from tests.storage.conftest import fresh_schema

    async with fresh_schema(TEST_DATABASE_URL, "round3") as url:
        yield url


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def test_two_processes_adding_twin_aliases_at_once_store_one(
    kind: str, tmp_path: Path
) -> None:
    """Two bots (or a bot and `aliases import`) on one database, each checking its alias against
    the server's aliases inside its own write: only one of two twins gets in."""
    async with database(kind, tmp_path) as location:
        first = await Store.open(location, flush_interval=None)
        second = await Store.open(location, flush_interval=None)
        try:
            for n in range(20):
                results = await asyncio.gather(
                    first.add_alias(
                        1, f"zorb lax{n}", f"zorb lax{n}", "kv-cache", 7, check=same_spelling
                    ),
                    second.import_aliases(
                        [AliasImport(1, f"zorblax{n}", f"zorblax{n}", "rag")], check=same_spelling
                    ),
                )
                statuses = [results[0].status, results[1][0].status]
                assert sorted(statuses) == [AddAliasStatus.ADDED, AddAliasStatus.REFUSED], (
                    n,
                    statuses,
                )
            stored = await first.aliases(1)
        finally:
            await first.close()
            await second.close()
    assert len(stored) == 20, stored


def deep_json(levels: int = 100_000) -> str:
    return "[" * levels + "]" * levels


def cli_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GLOSSARY_"))}
    env.update(PYTHONPATH=str(ROOT), GLOSSARY_PATHS="", DATABASE_PATH=str(tmp_path / "bot.db"))
    env.update(settings)
    return env


NESTED_FILES = {
    "topics.json": '{"schemaVersion": 1, "topics": ' + deep_json() + "}",
    "terms.toml": "[[entries]]\nid = 'x'\nkeywords = " + deep_json() + "\n",
    "other.toml": "a = " + deep_json() + "\n",
}


@pytest.mark.parametrize("name", list(NESTED_FILES))
async def test_a_glossary_file_nested_too_deep_is_one_line_for_check_and_run(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    path.write_text(NESTED_FILES[name], encoding="utf-8")
    code, out = await glossary_bot(cli_env(tmp_path), tmp_path, "check", "-q", str(path))
    assert code == 1, out
    assert "Traceback" not in out, out[-2000:]
    assert f"{path}:" in out, out
    env = cli_env(tmp_path, DISCORD_TOKEN="not-used", GLOSSARY_PATHS=str(path))
    code, out = await glossary_bot(env, tmp_path, "run")
    assert code == 1, out[-2000:]
    assert out.startswith("glossary-bot: "), out[-2000:]
    assert "Traceback" not in out, out[-2000:]
    assert str(path) in out


@pytest.mark.parametrize(
    "document",
    [
        deep_json(),
        '[{"guild_id": 99999999999999999999999, "alias": "zorb lax", "entry_id": "rag"}]',
    ],
    ids=["nested too deep", "guild id past 64 bits"],
)
async def test_aliases_import_of_a_hostile_file_is_one_line(tmp_path: Path, document: str) -> None:
    path = tmp_path / "aliases.json"
    path.write_text(document, encoding="utf-8")
    code, out = await glossary_bot(cli_env(tmp_path), tmp_path, "aliases", "import", str(path))
    assert code == 1, out
    assert "Traceback" not in out, out[-2000:]
    assert "aliases.json" in out or "item 1" in out, out


async def test_terms_export_to_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "terms.toml"
    code, out = await glossary_bot(
        cli_env(tmp_path), tmp_path, "terms", "export", "--guild", "1", "-o", str(target)
    )
    assert code == 1, out
    assert out.startswith("glossary-bot: "), out[-2000:]
    assert "Traceback" not in out, out[-2000:]
    assert len(out.splitlines()) == 1, out


async def test_a_members_suggestion_reaches_moderators_inert(
    scene: Scene, start_bot: StartBot
) -> None:
    """A suggestion is a member's free text: in /term review it must not render markup, carry
    links or turn its text around with direction overrides. (Since outsider round 13 `/suggest`
    refuses such a name at once, since round 21 before its form opens, so the hostile one is stored
    as an older bot queued it.)"""
    fake = scene.fake
    title = "@\u0435veryone \u202eexe.gnp"
    definition = (
        f"ping @everyone <@&{scene.guild.id}> <t:99999999999:F> https://evil.example/free "
        "\u202egnp.exe\u202c and a \u200bhidden word"
    )
    store = await Store.open(scene.db_path)
    try:
        await store.add_suggestion(scene.guild.id, scene.bob.id, title, definition)
    finally:
        await store.close()
    async with start_bot(await Store.open(scene.db_path)):
        opened = await fake.slash(scene.alice, "suggest", {"term": title}, channel=scene.channel)
        body = await opened.response()  # refused before the form (outsider round 21)
        assert "Nothing was queued" in str(body["data"]["content"]), body
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = embed_of(await review.final_message())
    for text in (shown["title"], shown["description"]):
        assert not any(ch in text for ch in "\u202e\u202c"), text
        assert "://" not in text, text
        assert "<" not in text.replace("\\<", ""), text
    assert "ping" in shown["description"]
    assert "a hidden word" in shown["description"]  # the member's zero-width space dropped
