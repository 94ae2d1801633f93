"""review74 (tests/outsider/PLAN.md, "review74"): attacks on the ninth session's changes as an
outsider makes them."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs import aliases as aliases_cog
from bot.search.local import LocalGlossary
from bot.storage import AliasRecord, Store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.helpers import define, download_all, embed_of
from tests.discord_app.term_commands import made_up, stored_now

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_mend71 import database  # noqa: F401  (the fixture)
from .test_mend72 import checked_db
from .test_outsider69 import import_file
from .test_product70 import _imported
from .test_review71 import ONE_ENTRY
from .test_review73 import _exported_and_imported_back

# Discord's most for an embed's link (openapi.json's RichEmbed.url maxLength): one past it.
LONG_REFERENCE = "https://example.org/" + "a" * 2029


async def test_a_stored_reference_past_discords_length_leaves_the_card_without_its_link(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """review73 guarded a card's link with `is_web_url`, which took an address of any length:
    Discord refuses a card whose link is past 2,048 characters, so `/define` of a server term
    with a longer reference (a file imported before this check) answered no card at all."""
    term = made_up("zorb", reference=LONG_REFERENCE)
    await stored_now(scene, bot, store, term)
    asked = await scene.fake.slash(scene.alice, "define", {"term": "zorb"}, channel=scene.channel)
    [card] = (await asked.final_message())["embeds"]
    assert card["title"] == "Zorb", card
    assert card.get("url") is None, card
    # The server's own export imports back, the stored reference kept (review73).
    answer = await _exported_and_imported_back(scene)
    assert answer.startswith("Nothing changed: the file holds this server's terms"), answer
    assert await read_terms(store, scene.guild.id) == [term]


def test_a_reference_url_past_discords_length_is_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`terms import` (and `check`) say so, in one short line, not the 2,000 characters."""
    monkeypatch.chdir(tmp_path)
    code, said = _imported(
        tmp_path, capsys, "ours.toml", ONE_ENTRY + f'reference = "{LONG_REFERENCE}"\n'
    )
    assert code == 1, said
    assert "Reference: reference URL longer than 2,048 characters (2,049)" in said, said
    assert LONG_REFERENCE not in said


# -- Discord markup at a name's start, which search reads away --


@pytest.mark.parametrize(
    ("alias", "read"),
    [("# zorb", "zorb"), ("-# quux", "quux"), ("1. blorp", "blorp"), ("• plonk", "plonk")],
)
async def test_an_alias_search_reads_without_its_markup_is_refused_saying_how(
    scene: Scene, bot: GlossaryBot, store: Store, alias: str, read: str
) -> None:
    """mend73 made search's reading of a heading, subtext or list mark ("# WHAT IS??") the
    rule for "Suggest it", but `/alias add "# zorb"` answered "Added: “# zorb” now opens LoRA"
    while `/define # zorb`, the alias typed as added, was "No entry": search reads it as
    "zorb", which no alias held. Failed before (added, then no card)."""
    said = await moderator_answer(scene, "alias add", {"alias": alias, "term": "lora"})
    assert f"(“{alias}” is read as “{read}”)" in said, said
    assert f"Add “{read}”" in said, said
    assert await store.aliases(scene.guild.id) == {}
    said = await moderator_answer(scene, "alias add", {"alias": read, "term": "lora"})
    assert said.startswith("Added"), said
    _, answer = await define(scene.fake, scene.bob, alias, scene.channel)
    assert answer["embeds"][0]["title"] == "LoRA & QLoRA", answer


async def test_a_question_s_wording_under_markup_is_no_name_in_any_door(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """mend73 refused "# what is" as a suggestion (search reads "what is": no term), but
    `/alias add` and `/term import` took it as a name. Failed before (both added)."""
    said = await moderator_answer(scene, "alias add", {"alias": "# what is", "term": "lora"})
    assert "is only the wording of a question" in said, said
    assert await store.aliases(scene.guild.id) == {}
    text = (
        '[[entries]]\ntitle = "# what is"\ncategory = "Fundamentals"\n'
        'definition = "A made-up thing for a test."\n'
    )
    said = await import_file(scene, "ours.toml", text)
    assert said.startswith("Nothing was imported: 1 problem"), said
    assert "is only the wording of a question" in said, said
    assert await read_terms(store, scene.guild.id) == []


# -- /alias list's file, made in a thread while the server changes --


async def test_a_download_made_while_its_term_is_removed_is_the_click_s_own(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/alias list`'s **Download all** (product74) makes its file in a thread, from the aliases
    read when it is clicked. A server term removed with its aliases (by another moderator, or
    another process) while that file is made: the file is the click's, whole and naming the
    term as the listing did, and no error. Held (as aliaslist73's listing-time file held)."""
    zorb = made_up("zorb", title="Zorb Engine")
    await stored_now(scene, bot, store, zorb)
    guild = scene.guild.id
    for n in range(120):
        await store.add_alias(guild, f"zorbish {n:03}", f"zorbish {n:03}", "zorb", 4242)
    handle = await scene.fake.slash(scene.moderator, "alias list", {}, channel=scene.channel)
    listing = await handle.final_message()
    assert listing["embeds"][0]["title"] == "120 aliases in this server", listing
    building, changed = threading.Event(), threading.Event()
    line = aliases_cog._alias_line

    def held_line(record: AliasRecord, local: LocalGlossary, *, plain: bool) -> str:
        if plain and not building.is_set():
            building.set()
            assert changed.wait(timeout=30)  # bounded: the test's change below sets it
        return line(record, local, plain=plain)

    monkeypatch.setattr(aliases_cog, "_alias_line", held_line)
    download = asyncio.create_task(download_all(scene.fake, scene.moderator, listing))
    assert await asyncio.to_thread(building.wait, 30)
    gone = TermChange(remove=("zorb",), drop_aliases=tuple(f"zorbish {n:03}" for n in range(120)))
    await change_terms(store, guild, lambda *_: (gone, None), 1)
    bot.state.servers.forget(guild)
    await bot.state.servers.local(guild, patient=True)
    changed.set()
    expected = "".join(f"zorbish {n:03} → Zorb Engine (by user 4242)\n" for n in range(120))
    assert await download == expected.encode()
    assert await store.aliases(guild) == {}


# -- the footer quoting what matched --

ALIAS_AT_CAP = " ".join(["zorbquux"] * 11) + " z"  # 100 characters, as search reads it too


@pytest.mark.parametrize(
    "said",
    [
        f"hey @everyone so what is {ALIAS_AT_CAP} in this context? <@123> `pls` **thx**",
        f"what is {ALIAS_AT_CAP}\u200b",
        f"> what is {ALIAS_AT_CAP}",
    ],
    ids=["chat-around", "zero-width", "quoted"],
)
async def test_a_footer_quoting_an_alias_at_the_cap_quotes_it_whole_and_nothing_else(
    scene: Scene, bot: GlossaryBot, store: Store, said: str
) -> None:
    """product73's footer quotes what matched: an alias at its 100-character cap written in a
    mention among markup, mentions and a zero-width space is quoted whole, alone, and the card
    pings nobody. Held."""
    added = await moderator_answer(scene, "alias add", {"alias": ALIAS_AT_CAP, "term": "lora"})
    assert added.startswith("Added"), added
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {said}")
    message = await fake.wait_for_channel_message(scene.channel)
    card = embed_of(message)
    assert card["title"] == "LoRA & QLoRA", card
    quoted = f' · matched "{ALIAS_AT_CAP}" as this server\'s alias'
    assert quoted in card["footer"]["text"], card["footer"]
    assert all(sent.pings == [] for sent in fake.sent_messages), fake.sent_messages


def test_check_db_says_a_stored_long_reference_and_aliases_under_markup(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database: str,  # noqa: F811  (the fixture)
) -> None:
    """`check --db`'s warnings for what a server stored before it was refused: a reference past
    Discord's 2,048 characters said by its length in one short line, an alias "# what is"
    (search reads "what is") and one "# zorbish" (read "zorbish", never found typed as added).
    Failed before: none was named."""
    term = made_up("zorb", reference=LONG_REFERENCE)

    status, lines = checked_db(
        database, tmp_path, monkeypatch, capsys, [term], "# what is", "# zorbish"
    )
    named = [line for line in lines if "(id 'zorb'): reference URL longer than 2,048" in line]
    assert len(named) == 1, lines
    assert len(named[0]) < 300, named
    assert len([line for line in lines if "alias “# what is” is only the wording" in line]) == 1
    dead = [line for line in lines if "alias “# zorbish” starts with Discord markup" in line]
    assert len(dead) == 1, lines
    assert "(“# zorbish” is read as “zorbish”)" in dead[0], dead
    assert status == 0, lines
