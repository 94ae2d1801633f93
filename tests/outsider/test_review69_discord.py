"""review69 (PLAN.md, "review69"): attacks on product68's promises, written from README and
PLAN.md before reading the code they test. Refusals (README, COOLDOWN_USES: "a use refused ...
gives its use back, and such refusals have a limit of their own, twice the uses in the same
window"; PLAN.md product68 1: given back before the answer, once); a first response out by the
3 s whose verdict never comes (README, Self-hosting: "waited for up to 3 s more ... with none by
then it is counted as shown, as a stop counts an answer it cuts after its request went out").
The in-process bot against the fake Discord, on a real SQLite file."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.test_term_meaning import put_terms
from tests.discord_app.test_terms import TERM
from tests.fake_discord import FakeUser, InteractionHandle
from tests.resilience.helpers import query, warned

from .conftest import Scene

SLOW = "You're going a bit fast"
NO_TERM = "This server has no term “no such term”"
HANG = 60.0  # a bound on a hang only
CALLBACK = ("POST", "/interactions/{interaction_id}/{token}/callback")
GIVEN_UP = "taken as shown (counted)"


def edit_of_no_term(scene: Scene, user: FakeUser) -> Any:
    return scene.fake.slash(user, "term edit", {"term": "no such term"}, channel=scene.channel)


async def said(handle: InteractionHandle) -> str:
    return str((await handle.final_message())["content"])


async def test_refusals_at_once_each_give_their_use_back_and_count_once(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Two refused `/term edit`s by one moderator and one by another, sent together, with 2
    uses a window (so 4 refusals): each is refused, none "going a bit fast"; then the same
    moderator's third and fourth refusals are answered (the two at once counted once each,
    their uses back), and the fifth is past the refusals' limit."""
    fake = scene.fake
    async with start_bot(store, cooldown=(2, 3600.0)):
        fake.settle_before_actions = False  # all three under way together
        try:
            handles = await asyncio.gather(
                edit_of_no_term(scene, scene.moderator),
                edit_of_no_term(scene, scene.moderator),
                edit_of_no_term(scene, scene.admin),
            )
            together = [await said(h) for h in handles]
        finally:
            fake.settle_before_actions = True
        then = [await said(await edit_of_no_term(scene, scene.moderator)) for _ in range(3)]
    assert all(text.startswith(NO_TERM) for text in together), together
    assert [text.startswith(NO_TERM) for text in then] == [True, True, False], then
    assert then[2].startswith(SLOW), then


# A 503 to an interaction's callback is tried again by discord.py (its webhook adapter: up to 5
# tries, 1 + 3 + 5 + 7 s apart), past Discord's 3 s: Discord (the fake) then refuses it, 10062.
@pytest.mark.parametrize(
    ("status", "code", "times"), [(503, 0, 5), (404, 10062, 1)], ids=["503", "10062"]
)
async def test_a_refusal_whose_answer_fails_gives_its_use_back_once_and_counts_once(
    scene: Scene, start_bot: StartBot, store: Store, status: int, code: int, times: int
) -> None:
    """1 use a window (so 2 refusals), the refusal's answer failing (Discord 503 to every try,
    or 10062: too late). One moderator retries: refused as the first (its use back: not "going a bit fast";
    counted once: not past the refusals' limit), and a third is past that limit (it was
    counted). Another, after the same failed refusal, has the use for a real edit (its form
    opens), and then not for a second (given back once only)."""
    fake = scene.fake
    term = ServerTerm(
        id="zorblax", title="Zorblax", definition=TERM["definition"], category="Fundamentals"
    )
    await put_terms(store, scene.guild.id, term)

    def edit(user: FakeUser) -> Any:
        return fake.slash(user, "term edit", {"term": "Zorblax"}, channel=scene.channel)

    async with start_bot(store, cooldown=(1, 3600.0)):
        for user in (scene.moderator, scene.admin):
            fake.fail_next(*CALLBACK, status=status, code=code, times=times)
            async with warned("Discord", HANG):
                await edit_of_no_term(scene, user)
        retry = await said(await edit_of_no_term(scene, scene.moderator))
        third = await said(await edit_of_no_term(scene, scene.moderator))
        opened = await (await edit(scene.admin)).response()
        spent = await said(await edit(scene.admin))
    # discord.py tries a 503'd first response again past Discord's 3 s: refused as too late
    late = {v.kind for v in fake.pop_violations()}
    assert late <= {"unknown_interaction"}, late
    assert retry.startswith(NO_TERM), retry
    assert third.startswith(SLOW), third
    assert opened["type"] == 9, opened  # the form
    assert spent.startswith(SLOW), spent


async def test_a_first_response_whose_verdict_never_comes_is_counted_once(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Two `/define`s sent 1 s before they reached the bot, both answers held by Discord (it
    took them: shown) and never released while the bot waits: after its 3 s more each is
    taken as shown, counted once, and not posted in the channel a second time."""
    fake = scene.fake
    async with start_bot(store):
        holds = [fake.hold_answer(*CALLBACK), fake.hold_answer(*CALLBACK)]
        try:
            async with warned(GIVEN_UP, HANG, logging.INFO) as lines:
                late = await asyncio.gather(
                    *(
                        fake.slash(
                            user, "define", {"term": "kv cache"}, channel=scene.channel, held_up=1.0
                        )
                        for user in (scene.alice, scene.bob)
                    )
                )
                for hold in holds:
                    await asyncio.wait_for(hold.taken.wait(), HANG)
                async with asyncio.timeout(HANG):  # both given up on, not just the first
                    while sum(GIVEN_UP in r.getMessage() for r in lines) < 2:
                        await asyncio.sleep(0.05)  # polls a condition; no timing asserted
        finally:
            for hold in holds:
                hold.release()
        shown = [await handle.final_message() for handle in late]
        await fake.settle()
    assert all(message["embeds"] for message in shown), shown
    assert not [m for m in fake.sent_messages if m.kind == "channel_message"]
    assert not [r for r in lines if r.levelno >= logging.ERROR], lines
    assert query(scene.db_path, "SELECT sum(count) FROM lookups") == [(2,)]


async def test_a_stop_while_waiting_for_the_verdict_counts_the_card_once(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot stops while it waits for Discord's verdict on a card that went out (its answer
    held): the card is counted once (a stop counts a request that went out), nothing is posted
    in the channel, no ERROR."""
    fake = scene.fake
    caplog.set_level(logging.INFO)
    hold = fake.hold_answer(*CALLBACK)
    try:
        async with start_bot(store):
            async with warned("waiting up to 3 s more for Discord's verdict", HANG, logging.INFO):
                await fake.slash(
                    scene.alice, "define", {"term": "kv cache"}, channel=scene.channel, held_up=1.0
                )
                await asyncio.wait_for(hold.taken.wait(), HANG)
            # the bot stops here, the verdict still held
    finally:
        hold.release()
    assert not [m for m in fake.sent_messages if m.kind == "channel_message"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert query(scene.db_path, "SELECT sum(count) FROM lookups") == [(1,)]
