"""The card's buttons and menus: in place for the asker, ephemeral for anyone else, and still
working after a restart."""

from __future__ import annotations

import pytest

from bot.cards.embed import OTHER_SOURCE_INLINE, RELATED_BUTTONS
from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary
from bot.storage import Store

from .conftest import Scene, StartBot
from .helpers import (
    CHANNEL_MESSAGE,
    UPDATE_MESSAGE,
    buttons,
    define,
    embed_of,
    fields,
    is_ephemeral,
    selects,
)


async def test_related_button_by_the_asker_navigates_in_place(
    scene: Scene, bot: GlossaryBot
) -> None:
    fake = scene.fake
    _, card = await define(fake, scene.alice, "kv cache", scene.channel)
    click = await fake.click(scene.alice, card, buttons(card)["PagedAttention"])
    assert (await click.response())["type"] == UPDATE_MESSAGE
    updated = await click.final_message()
    assert updated["id"] == card["id"]
    assert embed_of(updated)["title"] == "PagedAttention"
    assert "KV Cache" in buttons(updated)  # and back again from there
    back = await fake.click(scene.alice, updated, buttons(updated)["KV Cache"])
    assert embed_of(await back.final_message())["title"] == "KV Cache"


async def test_related_button_by_someone_else_opens_a_card_just_for_them(
    scene: Scene, bot: GlossaryBot
) -> None:
    fake = scene.fake
    _, card = await define(fake, scene.alice, "kv cache", scene.channel)
    click = await fake.click(scene.bob, card, buttons(card)["PagedAttention"])
    assert (await click.response())["type"] == CHANNEL_MESSAGE
    theirs = await click.final_message()
    assert theirs["id"] != card["id"]
    assert is_ephemeral(theirs)
    assert embed_of(theirs)["title"] == "PagedAttention"
    assert fake.message(int(card["id"])) == card  # alice's card is exactly as it was
    # Bob's own card is his to navigate: its buttons update it in place.
    again = await fake.click(scene.bob, theirs, buttons(theirs)["KV Cache"])
    assert (await again.response())["type"] == UPDATE_MESSAGE
    assert (await again.final_message())["id"] == theirs["id"]


async def test_plain_words_toggles_there_and_back(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    fake = scene.fake
    entry = glossary["attention"]
    assert entry.plain
    _, card = await define(fake, scene.alice, "attention", scene.channel)
    assert embed_of(card)["title"] == entry.display_title
    full_description = embed_of(card)["description"]
    assert "In plain words" not in full_description

    plain = await fake.click(scene.alice, card, buttons(card)["Plain words"])
    assert (await plain.response())["type"] == UPDATE_MESSAGE
    shown = await plain.final_message()
    assert shown["id"] == card["id"]
    assert embed_of(shown)["description"].startswith("**In plain words:** ")
    assert entry.plain[:40] in embed_of(shown)["description"]
    assert "Plain words" not in buttons(shown)

    back = await fake.click(scene.alice, shown, buttons(shown)["Full definition"])
    restored = await back.final_message()
    assert embed_of(restored)["description"] == full_description
    assert "Plain words" in buttons(restored)


@pytest.fixture
def roomy_glossary(glossary: Glossary) -> Glossary:
    """The bundled glossary with two entries stretched to show the select and the sources button.

    No bundled entry has more than RELATED_BUTTONS related terms or another source's wording
    longer than OTHER_SOURCE_INLINE (both asserted below), so those parts of the card are only
    reachable with a glossary that has them; a self-hoster's glossary may well.
    """
    assert all(len(e.related) <= RELATED_BUTTONS for e in glossary)
    assert not any(len(s.definition) > OTHER_SOURCE_INLINE for e in glossary for s in e.sources[1:])
    kv = glossary["kv-cache"]
    extra = [e.id for e in glossary if e.id not in kv.related and e.id != kv.id][:6]
    rag = glossary["rag"]
    assert len(rag.sources) > 1
    long_wording = " ".join(["Retrieval adds documents to the prompt before generation."] * 10)
    second = rag.sources[1].model_copy(update={"definition": long_wording})
    changed = {
        kv.id: kv.model_copy(update={"related": (*kv.related, *extra)}),
        rag.id: rag.model_copy(update={"sources": (rag.sources[0], second, *rag.sources[2:])}),
    }
    return Glossary(tuple(changed.get(e.id, e) for e in glossary), glossary.sources)


async def test_related_select_opens_the_terms_beyond_the_buttons(
    scene: Scene, start_bot: StartBot, store: Store, roomy_glossary: Glossary
) -> None:
    fake = scene.fake
    kv = roomy_glossary["kv-cache"]
    async with start_bot(store, glossary=roomy_glossary):
        _, card = await define(fake, scene.alice, "kv cache", scene.channel)
        assert len([b for b in buttons(card) if b not in ("Plain words",)]) == RELATED_BUTTONS
        [menu] = selects(card)
        offered = [o["value"] for o in menu["options"]]
        assert offered == list(kv.related[RELATED_BUTTONS:])
        target = roomy_glossary[offered[0]]

        by_other = await fake.select(scene.bob, card, menu["custom_id"], [target.id])
        theirs = await by_other.final_message()
        assert is_ephemeral(theirs)
        assert embed_of(theirs)["title"] == target.display_title
        assert fake.message(int(card["id"])) == card

        by_owner = await fake.select(scene.alice, card, menu["custom_id"], [target.id])
        assert (await by_owner.response())["type"] == UPDATE_MESSAGE
        mine = await by_owner.final_message()
        assert mine["id"] == card["id"]
        assert embed_of(mine)["title"] == target.display_title


async def test_other_sources_button_shows_every_wording(
    scene: Scene, start_bot: StartBot, store: Store, roomy_glossary: Glossary
) -> None:
    fake = scene.fake
    rag = roomy_glossary["rag"]
    async with start_bot(store, glossary=roomy_glossary):
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert not any(name.startswith("As the ") for name in fields(card))  # behind the button
        click = await fake.click(scene.bob, card, buttons(card)["Other sources"])
        shown = await click.final_message()
        assert is_ephemeral(shown)
        wordings = fields(shown)
        assert len(wordings) == len(rag.sources)
        assert any(v.startswith("Retrieval adds documents") for v in wordings.values())
        assert fake.message(int(card["id"])) == card


async def test_buttons_keep_working_after_a_restart(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store):
        _, card = await define(fake, scene.alice, "kv cache", scene.channel)
        _, plain_card = await define(fake, scene.alice, "attention", scene.channel)
    assert not fake.gateway.connected

    reopened = await Store.open(scene.db_path)
    async with start_bot(reopened) as restarted:
        assert fake.gateway.identify_count == 2
        other = await fake.click(scene.bob, card, buttons(card)["Prefill"])
        assert is_ephemeral(await other.final_message())

        click = await fake.click(scene.alice, card, buttons(card)["PagedAttention"])
        assert (await click.response())["type"] == UPDATE_MESSAGE
        assert embed_of(await click.final_message())["title"] == "PagedAttention"

        plain = await fake.click(scene.alice, plain_card, buttons(plain_card)["Plain words"])
        assert "In plain words" in embed_of(await plain.final_message())["description"]
    assert restarted.is_closed()
