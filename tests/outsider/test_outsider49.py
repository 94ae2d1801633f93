"""outsider49: outsider round 32 (PLAN.md, "Outsider round 32 (outsider49)"). The real bot on
the fake Discord, as members and moderators of a server in its first months drive it."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import AsyncIterator, Callable

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import RESAID_AFTER, DefineCog
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of
from tests.discord_app.term_commands import add_term, open_edit, submit
from tests.fake_discord.models import EMBED_LINKS, SEND_MESSAGES, FakeUser
from tests.resilience.helpers import warned

from .conftest import Scene

SUGGESTED = {"definition": "What I think it is, in my words."}


async def test_a_second_suggest_of_a_name_the_server_has_names_its_card_first(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """O3: a member who suggested a term a moment ago runs `/suggest RAG`: they were told to
    wait 10 minutes, and after those, the form opened, they wrote what it means, and only then
    learned that RAG has a card. Now a name the server's glossary has is answered before the
    form opens, whatever the cooldown: the card's name, nothing queued. A name it lacks still
    meets the cooldown."""
    fake = scene.fake
    opened = await fake.slash(scene.alice, "suggest", {"term": "zorblax"}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    sent = await fake.submit_modal(scene.alice, opened, SUGGESTED)
    assert (await sent.final_message())["content"].startswith("Thanks! “zorblax”")
    for name, title in (("RAG", "Retrieval-Augmented Generation"), ("kv caches", "KV Cache")):
        asked = await fake.slash(scene.alice, "suggest", {"term": name}, channel=scene.channel)
        said = await asked.final_message()
        assert said["content"] == (
            f"“{name}” is already in the glossary: **{title}**, which `/define` "
            "opens. Nothing was queued."
        ), said
        assert said["flags"] & 64, said  # only to them
    alike = await fake.slash(scene.alice, "suggest", {"term": "R\u0410G"}, channel=scene.channel)
    assert "looks like “RAG”" in (await alike.final_message())["content"]  # a Cyrillic А
    again = await fake.slash(scene.alice, "suggest", {"term": "blorptex"}, channel=scene.channel)
    assert "one every 10 minutes" in (await again.final_message())["content"]
    # Without the cooldown, the name is said before any form opens, not after it is written.
    first = await fake.slash(scene.bob, "suggest", {"term": "RAG"}, channel=scene.channel)
    body = await first.response()
    assert body["type"] == 4, body
    assert body["data"]["content"].startswith("“RAG” is already in the glossary")
    # "Suggest it" under a miss, pressed after a moderator added the term: its card, no form.
    _, miss = await define(fake, scene.bob, "blorptex", scene.channel)
    await add_term(scene, _term("Blorptex"))
    pressed = await fake.click(scene.bob, miss, buttons(miss)["Suggest it"])
    said = await pressed.final_message()
    assert said["content"].startswith("“blorptex” is already in this server's glossary"), said
    assert [s.title for s in await store.open_suggestions(scene.guild.id)] == ["zorblax"]


async def test_a_permission_lost_again_after_it_was_given_back_is_said_again(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O5: a channel's Embed Links (or Send Messages) taken from the bot was logged once; the
    admin gave it back and cards showed there again; a later change of the channel took it
    again, and the operator was told nothing: once per channel meant once for good. Now a post
    that shows the bot has it again forgets the line, so the next loss is said again."""
    fake, channel = scene.fake, scene.channel
    cog = bot.get_cog("DefineCog")
    assert isinstance(cog, DefineCog)
    now = [0.0]
    cog.clock = lambda: now[0]  # review51: said again at most every RESAID_AFTER
    ask = f"{fake.bot.mention} what is rag"
    for deny, said in (
        (EMBED_LINKS, "cannot show cards"),
        (SEND_MESSAGES, "cannot answer mentions"),
    ):
        for _ in range(2):
            now[0] += RESAID_AFTER
            channel.overwrite(fake.bot, deny=deny)
            await fake.update_channel(channel)
            async with warned(f"{said} in channel {channel.id}"):
                await fake.user_message(scene.alice, channel, ask)
            if deny == EMBED_LINKS:
                line = await fake.wait_for_channel_message(channel)
                assert "needs the **Embed Links** permission" in line["content"], line
            channel.overwrite(fake.bot)  # given back
            await fake.update_channel(channel)
            await fake.user_message(scene.alice, channel, ask)
            card = await fake.wait_for_channel_message(channel)
            assert card["embeds"][0]["title"] == "Retrieval-Augmented Generation (RAG)", card


def _term(title: str, related: str = "") -> dict[str, str]:
    definition = f"The made-up {title.lower()} of this test server."
    return {
        "title": title,
        "definition": definition,
        "boundary": "",
        "other_names": "",
        "related": related,
    }


async def test_a_card_button_opens_a_term_edited_into_a_bundled_entrys_wording(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O4: members have Blorptex's card open, its button opening the server's term Zorbium. A
    moderator edits Zorbium to give it the other name "KV cache": it is now this server's
    wording of KV Cache, one card, which `/define Zorbium` opens. The button on the card already
    posted said "That entry is no longer in the glossary." (a card posted after the edit opened
    it). Now the old button opens the card the term words, for its owner and anyone else."""
    fake = scene.fake
    await add_term(scene, _term("Zorbium"))
    await add_term(scene, _term("Blorptex", related="Zorbium"))
    _, card = await define(fake, scene.alice, "Blorptex", scene.channel)
    opens = buttons(card)["Zorbium"]
    edit = await open_edit(scene, scene.moderator, "zorbium")
    saved = await submit(scene, scene.moderator, edit, {"other_names": "KV cache"})
    assert "this server's wording of **KV Cache**" in saved["content"], saved
    for member in (scene.bob, scene.alice):  # another member: privately; its owner: in place
        pressed = await fake.click(member, card, opens)
        shown = await pressed.final_message()
        assert shown["embeds"], shown
        assert embed_of(shown)["title"] == "Zorbium (KV)", shown
        assert "made-up zorbium" in embed_of(shown)["description"], shown


async def suggested(scene: Scene, member: FakeUser, name: str) -> None:
    """`member` suggests `name` through `/suggest` and its form, and is thanked: queued."""
    opened = await scene.fake.slash(member, "suggest", {"term": name}, channel=scene.channel)
    await opened.response()
    sent = await scene.fake.submit_modal(member, opened, SUGGESTED)
    assert (await sent.final_message())["content"].startswith("Thanks!")


@contextlib.asynccontextmanager
async def suggested_first(
    scene: Scene, start_bot: StartBot, name: str
) -> AsyncIterator[tuple[Store, Callable[[], None]]]:
    """The bot on a store whose clock moves only when told; Alice has suggested `name`. Yields
    the store and `later`, which moves the clock past her 10-minute cooldown."""
    now = [dt.datetime.now(dt.UTC)]
    store = await Store.open(scene.db_path, clock=lambda: now[0])

    def later() -> None:
        now[0] += dt.timedelta(minutes=11)

    async with start_bot(store):
        await suggested(scene, scene.alice, name)
        yield store, later


async def test_a_member_suggesting_their_waiting_name_again_is_told_it_waits(
    scene: Scene, start_bot: StartBot
) -> None:
    """O3: moderators slow to review, a member suggests "zorblax" again once the 10 minutes
    are up, and again: each was queued, the moderators' queue (50 places) filling with one
    member's copies, and the member told each time "Thanks!" as if it were new. Now a name
    they have waiting is said to be waiting, before the form (given to `/suggest`) and at its
    submit (typed in the form); another member's suggestion of it is queued as before (each
    is told when it is decided)."""
    fake = scene.fake
    waits = "You suggested “zorblax” already: it is waiting for this server's moderators."
    async with suggested_first(scene, start_bot, "zorblax") as (store, later):
        later()
        again = await fake.slash(
            scene.alice, "suggest", {"term": "Zorb-lax"}, channel=scene.channel
        )
        said = await again.final_message()
        assert said["content"].startswith(waits.replace("zorblax", "Zorb-lax")), said
        typed = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
        assert (await typed.response())["type"] == 9
        sent = await fake.submit_modal(scene.alice, typed, {"title": "zorblax", **SUGGESTED})
        assert (await sent.final_message())["content"].startswith(waits)
        await suggested(scene, scene.bob, "zorblax")
        waiting = await store.open_suggestions(scene.guild.id)
    assert [(s.user_id, s.title) for s in waiting] == [
        (scene.alice.id, "zorblax"),
        (scene.bob.id, "zorblax"),
    ]


async def rejected_after(scene: Scene, meanwhile: Callable[[], None]) -> str:
    """Bob suggests "zorblax", then `meanwhile` (what befalls his DM), then a moderator's
    `/term review` rejects it: what the moderator reads."""
    await suggested(scene, scene.bob, "zorblax")
    meanwhile()
    return await reject_next(scene)


async def reject_next(scene: Scene) -> str:
    """A moderator's `/term review` rejects the oldest waiting suggestion: what they read."""
    fake = scene.fake
    review = await fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    return str((await rejected.final_message())["content"])


async def test_a_member_who_left_is_said_to_have_left_not_to_have_closed_dms(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O2: Bob suggested "zorblax" and left the server before a moderator got to it. Discord
    refuses a DM to a member who left as to closed DMs, and the moderator read "the member
    could not be told (DMs closed)", a setting Bob never changed. Now the bot asks Discord
    whether he is still a member (only when the DM fails): "no longer in this server"."""

    def leave() -> None:
        del scene.guild.members[scene.bob.id]  # the bot, without the members intent, not told
        scene.fake.fail_next("POST", "/channels/{channel_id}/messages", status=403)  # refused

    said = await rejected_after(scene, leave)
    assert "Rejected the suggestion; the member could not be told (no longer in this server)." in (
        said
    ), said
