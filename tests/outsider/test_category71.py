"""category71: a new server term's first save asked for a category and saved nothing.

`/term add`'s form holds Discord's five text inputs (title, definition, what it is not, other
names, related), none a category: a term that matches no bundled entry, added without the
command's `category` option, was refused "choose a category" with a menu whose pick reopened the
form, to be submitted again (product71, tests/outsider/PLAN.md, its item 5). Now the pick saves
the kept draft in the category picked, at once: one answer, no form reopened."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.moderators import NO_LONGER_ALLOWED, STORAGE_DOWN
from bot.discord_app.cogs.terms import DRAFT_GONE, SAVED_ALREADY
from bot.discord_app.term_drafts import Drafts
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, selects
from tests.fake_discord.models import FakeUser
from tests.resilience.helpers import locked_by_another_process

from .conftest import Scene

ZORBLAX = {"title": "Zorblax", "definition": "The nightly batch job that re-ranks documents."}
JSON = dict[str, Any]


async def refused_for_category(scene: Scene, who: FakeUser) -> JSON:
    """`/term add` without its category, the form written and saved: the refusal, with its menu."""
    opened = await scene.fake.slash(who, "term add", {}, channel=scene.channel)
    assert (await opened.response())["type"] == 9  # the form
    refused = await (await scene.fake.submit_modal(who, opened, ZORBLAX)).final_message()
    assert "Category: choose a category" in refused["content"], refused
    return refused


async def pick(scene: Scene, who: FakeUser, refused: JSON, category: str) -> JSON:
    [menu] = selects(refused)
    picked = await scene.fake.select(who, refused, menu["custom_id"], [category])
    return await picked.final_message()


async def test_the_category_picked_saves_the_new_term_at_once(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: the pick answered with the form again (type 9), nothing saved."""
    refused = await refused_for_category(scene, scene.moderator)
    [menu] = selects(refused)
    assert [o["label"] for o in menu["options"]][:2] == ["Fundamentals", "Retrieval & Context"]
    assert menu["placeholder"] == "Choose its category to save it"
    saved = await pick(scene, scene.moderator, refused, "Retrieval & Context")
    assert saved["content"].startswith("Added **Zorblax** in this server's glossary"), saved
    assert saved["flags"] & 64, saved  # ephemeral
    [term] = await read_terms(store, scene.guild.id)
    assert (term.category, term.definition) == ("Retrieval & Context", ZORBLAX["definition"])

    # Picked again (or another category): the save's answer again, nothing written twice.
    again = await pick(scene, scene.moderator, refused, "Fundamentals")
    assert again["content"] == saved["content"], again
    assert [t.category for t in await read_terms(store, scene.guild.id)] == ["Retrieval & Context"]
    pressed = await scene.fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
    assert (await pressed.final_message())["content"] == SAVED_ALREADY

    # The command's option given up front: one step, as before.
    opened = await scene.fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": "Qxkalo", "definition": "Our own word."}
    added = await (await scene.fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert added["content"].startswith("Added **Qxkalo**"), added


async def test_a_pick_by_another_moderator_or_one_who_lost_the_role_saves_nothing(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    team = scene.guild.add_role("Term team", permissions=1 << 5)  # Manage Server
    helper = fake.add_user("hal")
    scene.guild.add_member(helper, roles=[team])
    refused = await refused_for_category(scene, helper)
    # The admin (who may use /term too) picks in the helper's menu: not theirs.
    forged = await pick(scene, scene.admin, refused, "Fundamentals")
    assert forged["content"] == "This form belongs to another moderator.", forged
    await fake.delete_role(team)
    lost = await pick(scene, helper, refused, "Fundamentals")
    assert lost["content"] == NO_LONGER_ALLOWED, lost
    assert await read_terms(store, scene.guild.id) == []


async def test_a_pick_after_the_term_was_added_meanwhile_is_refused_and_keeps_the_text(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    refused = await refused_for_category(scene, scene.moderator)
    opened = await scene.fake.slash(
        scene.admin, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    theirs = {"title": "Zorblax", "definition": "The admin's wording."}
    added = await (await scene.fake.submit_modal(scene.admin, opened, theirs)).final_message()
    assert added["content"].startswith("Added **Zorblax**"), added
    said = await pick(scene, scene.moderator, refused, "Retrieval & Context")
    assert said["content"].startswith("Nothing was saved:"), said
    assert "“Zorblax” is already a name of" in said["content"], said
    assert "Edit again" in buttons(said), said
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == "The admin's wording."


@pytest.mark.busy_timeout(0.5)  # the refusal is the point, not SQLite's 5 s wait
async def test_a_pick_the_database_cannot_save_claims_nothing_and_a_later_pick_saves(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    refused = await refused_for_category(scene, scene.moderator)
    async with locked_by_another_process(scene.db_path):
        said = await pick(scene, scene.moderator, refused, "Fundamentals")
    assert said["content"].startswith(STORAGE_DOWN), said
    assert "Your text is kept" in said["content"], said
    assert "Edit again" in buttons(said), said
    assert await read_terms(store, scene.guild.id) == []
    saved = await pick(scene, scene.moderator, refused, "Fundamentals")
    assert saved["content"].startswith("Added **Zorblax**"), saved
    [term] = await read_terms(store, scene.guild.id)
    assert term.category == "Fundamentals"


async def test_a_pick_days_later_reads_the_draft_from_the_database(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The menu has no timeout and its custom id names the draft: a pick after a restart (the
    bot's memory forgotten) saves the draft the database kept; one no longer kept anywhere is
    said so, nothing saved."""
    refused = await refused_for_category(scene, scene.moderator)
    bot.state.term_drafts = Drafts(lambda: None)  # kept nowhere
    gone = await pick(scene, scene.moderator, refused, "Fundamentals")
    assert gone["content"] == DRAFT_GONE, gone
    assert await read_terms(store, scene.guild.id) == []
    bot.state.term_drafts = Drafts(lambda: store)  # memory forgotten: the store answers
    saved = await pick(scene, scene.moderator, refused, "Fundamentals")
    assert saved["content"].startswith("Added **Zorblax**"), saved


async def test_two_picks_at_once_save_once_and_answer_both_alike(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A double pick (or two categories picked in a hurry): the first saves, the second gets
    its answer, whether it arrives while the first saves or after."""
    refused = await refused_for_category(scene, scene.moderator)
    [menu] = selects(refused)
    first = await scene.fake.select(scene.moderator, refused, menu["custom_id"], ["Fundamentals"])
    second = await scene.fake.select(
        scene.moderator, refused, menu["custom_id"], ["Agents & Interfaces"]
    )
    answers = [(await picked.final_message())["content"] for picked in (first, second)]
    assert answers[0].startswith("Added **Zorblax**"), answers
    assert answers[1] == answers[0], answers
    [term] = await read_terms(store, scene.guild.id)  # one term: whichever pick came first
    assert term.category in ("Fundamentals", "Agents & Interfaces"), term
