"""Discord misbehaving: the gateway drops, REST answers 429 (rate limited) or 500. The bot
resumes and answers again, and retries without losing or doubling a reply Discord would accept.
"""

from __future__ import annotations

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, define, embed_of

from .conftest import Scene
from .helpers import DEFERRED, hung_database, warned

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "/webhooks/{application_id}/{token}"
CHANNEL_MESSAGES = "/channels/{channel_id}/messages"


async def card_title(scene: Scene, term: str = "kv cache") -> str:
    _, message = await define(
        scene.fake, scene.alice, term, scene.channel
    )  # in time: the fake checks
    return str(embed_of(message)["title"])


# -- the gateway --------------------------------------------------------------------------------


async def test_a_dropped_gateway_resumes_and_answers_again(scene: Scene, bot: GlossaryBot) -> None:
    fake = scene.fake
    assert await card_title(scene) == "KV Cache"
    for _ in range(2):
        await fake.drop_gateway()
        await fake.wait_resumed()
        assert await card_title(scene) == "KV Cache"
    await fake.request_reconnect()  # Discord's "reconnect, please" (op 7)
    await fake.wait_resumed()
    assert await card_title(scene, "rag") == "Retrieval-Augmented Generation (RAG)"
    assert (fake.gateway.identify_count, fake.gateway.resume_count) == (1, 3)


async def test_what_happens_while_the_gateway_is_down_is_answered_after_resume(
    scene: Scene, bot: GlossaryBot
) -> None:
    fake = scene.fake
    fake.gateway.resume_gate.clear()  # hold the RESUME until the interactions are queued
    await fake.drop_gateway()
    asked = await fake.slash(scene.alice, "define", {"term": "lora"}, channel=scene.channel)
    typed = await fake.autocomplete(
        scene.bob, "define", {"term": "kv"}, focused="term", channel=scene.channel
    )
    assert asked.sent_at is None  # kept for the replay, as Discord does
    fake.gateway.resume_gate.set()
    await fake.wait_resumed()
    assert embed_of(await asked.final_message())["title"].startswith("LoRA")
    assert await typed.choices()


async def test_a_reply_in_progress_survives_a_gateway_drop(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Replies go over REST: a drop while the bot works on an answer loses nothing."""
    fake = scene.fake
    with hung_database(store) as gate:
        handle = await fake.slash(
            scene.moderator,
            "alias add",
            {"alias": "kv stash", "term": "kv-cache"},
            channel=scene.channel,
        )
        assert (await handle.response())["type"] == DEFERRED
        fake.gateway.resume_gate.clear()
        await fake.drop_gateway()
        gate.set()  # the database answers while the bot is disconnected
        answer = await handle.final_message()
    assert answer["content"] == "Added: “kv stash” now opens **KV Cache** in this server."
    fake.gateway.resume_gate.set()
    await fake.wait_resumed()
    assert await card_title(scene, "kv stash") == "KV Cache"


# -- REST: rate limits and server errors ----------------------------------------------------------


def served(scene: Scene) -> list[tuple[str, int | None]]:
    return [(s.path, s.status) for s in scene.fake.faults.served]


@pytest.mark.parametrize(("status", "retry_after"), [(429, 1.0), (500, 0.0)])
async def test_a_refused_response_is_retried_in_time(
    scene: Scene, bot: GlossaryBot, status: int, retry_after: float
) -> None:
    """One 429 (wait 1 s) or one 500 (discord.py waits 1 s) still leaves time to answer."""
    fake = scene.fake
    fake.fail_next("POST", CALLBACK, status=status, retry_after=retry_after)
    handle, card = await define(fake, scene.alice, "kv cache", scene.channel)
    assert embed_of(card)["title"] == "KV Cache"
    assert served(scene) == [(CALLBACK, status)]
    assert [r.status < 300 for r in handle.records] == [True]  # one answer, accepted
    assert handle.response_latency is not None
    assert handle.response_latency >= 1.0  # it did wait; Discord's 3 s the fake enforces


async def test_rate_limited_autocomplete_and_clicks_are_retried(
    scene: Scene, bot: GlossaryBot
) -> None:
    fake = scene.fake
    _, card = await define(fake, scene.alice, "kv cache", scene.channel)
    fake.fail_next("POST", CALLBACK, status=429, retry_after=0.2, times=2)
    typed = await fake.autocomplete(
        scene.alice, "define", {"term": "kv"}, focused="term", channel=scene.channel
    )
    assert await typed.choices()
    click = await fake.click(scene.alice, card, buttons(card)["PagedAttention"])
    assert embed_of(await click.final_message())["title"] == "PagedAttention"
    assert served(scene) == [(CALLBACK, 429), (CALLBACK, 429)]


@pytest.mark.parametrize("status", [429, 500])
async def test_a_refused_follow_up_is_retried(
    scene: Scene, bot: GlossaryBot, store: Store, status: int
) -> None:
    """After "thinking…" the answer is a follow-up; a 429 or 500 there is retried once."""
    fake = scene.fake
    bot.state.servers.forget(scene.guild.id)  # /define reads the aliases, so it defers
    fake.fail_next("POST", FOLLOWUP, status=status, retry_after=0.2)
    handle, card = await define(fake, scene.alice, "kv cache", scene.channel)
    assert (await handle.response())["type"] == DEFERRED
    assert embed_of(card)["title"] == "KV Cache"
    assert [r.kind for r in handle.records] == ["callback", "followup"]
    assert served(scene) == [(FOLLOWUP, status)]


@pytest.mark.parametrize(("status", "is_global"), [(429, False), (429, True), (500, False)])
async def test_a_refused_mention_reply_is_sent_once(
    scene: Scene, bot: GlossaryBot, status: int, is_global: bool
) -> None:
    fake = scene.fake
    fake.fail_next("POST", CHANNEL_MESSAGES, status=status, retry_after=0.2, is_global=is_global)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} kv cache")
    reply = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(reply)["title"] == "KV Cache"
    assert served(scene) == [(CHANNEL_MESSAGES, status)]
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
    second = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(second)["title"].endswith("(RAG)")  # the next reply, not a duplicate
    posts = [m for m in fake.sent_messages if m.kind == "channel_message"]
    assert len(posts) == 2


async def test_a_mention_reply_lost_to_failing_discord_servers_is_one_warning(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A 503 to a mention's reply (discord.py does not retry it there): one WARNING saying
    Discord's servers are failing, in the words an interaction's lost answer gets, and no
    error reply posted to the same failing Discord."""
    fake = scene.fake
    fake.fail_next("POST", CHANNEL_MESSAGES, status=503, times=5)
    async with warned(f"mention in channel {scene.channel.id}") as records:
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag")
    fake.faults.clear()
    # Besides the lost reply, the REST watch says once that Discord's API is failing (health).
    lost = [r for r in records if not r.name.endswith("rest_watch")]
    assert [r.getMessage() for r in lost] == [
        f"cannot reply to a mention in channel {scene.channel.id}: Discord answered 503 "
        "Service Unavailable: its servers are failing"
    ]
    assert [r.exc_info for r in records] == [None] * len(records)
    assert len(records) - len(lost) <= 1
    assert served(scene) == [(CHANNEL_MESSAGES, 503)]  # no "Something went wrong" after it
    assert await card_title(scene, "rag") == "Retrieval-Augmented Generation (RAG)"


async def test_a_card_rate_limited_past_the_deadline_is_posted_in_the_channel(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Rate limited past Discord's 3 s (retry after 3.2 s), the card cannot be the interaction's
    answer: discord.py waited and sent it late, refused (10062), and the answer was lost. A defer
    would not help (the same request). The bot stops waiting at the deadline and posts the
    public card in the channel instead, with one line; nothing is sent late."""
    fake = scene.fake
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("posted in channel") as records:
        handle = await fake.slash(
            scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
        )
        posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "KV Cache"
    assert buttons(posted)  # its buttons work as on any card
    assert handle.callback is None  # Discord showed "The application did not respond"
    assert [r.getMessage() for r in records if r.name.startswith("bot.")] == [
        f"interaction {handle.id} (define) by {scene.alice.id}: no first response could be sent "
        "within Discord's 3 s (rate limited: its request waited out a 429); its answer "
        f"was posted in channel {scene.channel.id} instead"
    ]
    assert served(scene) == [(CALLBACK, 429)]
    assert await card_title(scene, "rag") == "Retrieval-Augmented Generation (RAG)"
    assert [r.status for r in handle.records] == []  # nothing sent late, nothing refused
    assert len(fake.pop_violations()) == 0


async def test_a_private_answer_rate_limited_past_the_deadline_is_one_line(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A private answer has nowhere else to go: one line says it is lost, nothing is sent late
    or posted for others to see."""
    fake = scene.fake
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("private answer is lost") as records:
        handle = await fake.slash(
            scene.alice, "define", {"term": "kv cache", "private": True}, channel=scene.channel
        )
    assert [r.getMessage() for r in records if r.name.startswith("bot.")] == [
        f"interaction {handle.id} (define) by {scene.alice.id}: no first response could be sent "
        "within Discord's 3 s (rate limited: its request waited out a 429); its private "
        "answer is lost (Discord shows the user that the application did not respond)"
    ]
    assert await card_title(scene, "rag") == "Retrieval-Augmented Generation (RAG)"
    assert [m for m in fake.sent_messages if m.kind == "channel_message"] == []
    assert handle.records == []
    assert len(fake.pop_violations()) == 0


async def test_a_defer_rate_limited_past_the_deadline_posts_the_card_in_the_channel(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The server's aliases not read yet, /define defers first; that defer rate limited past
    the deadline: no follow-up to a response Discord never took (10015), the card in the
    channel instead."""
    fake = scene.fake
    bot.state.servers.forget(scene.guild.id)  # /define reads the aliases, so it defers
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("posted in channel"):
        handle = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)
        posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "Retrieval-Augmented Generation (RAG)"
    assert handle.records == []
    assert len(fake.pop_violations()) == 0


@pytest.mark.parametrize("read_first", [False, True])
async def test_explain_terms_rate_limited_past_the_deadline_is_one_line(
    scene: Scene, bot: GlossaryBot, read_first: bool
) -> None:
    """ "Explain terms" answers privately, as a reply or (the server's terms not read yet)
    after a defer. Rate limited past Discord's 3 s, discord.py sent that first response late,
    to be refused (10062). As for /define's private answer: one line says it is lost, nothing
    is sent late or posted for others to see."""
    fake = scene.fake
    said = await fake.user_message(scene.bob, scene.channel, "is a kv cache part of rag?")
    if read_first:
        bot.state.servers.forget(scene.guild.id)  # Explain terms reads them, so it defers
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("private answer is lost") as records:
        handle = await fake.message_command(scene.alice, "Explain terms", said)
    assert [r.getMessage() for r in records if r.name.startswith("bot.")] == [
        f"interaction {handle.id} (Explain terms) by {scene.alice.id}: no first response could "
        "be sent within Discord's 3 s (rate limited: its request waited out a 429); its private "
        "answer is lost (Discord shows the user that the application did not respond)"
    ]
    assert served(scene) == [(CALLBACK, 429)]
    assert await card_title(scene, "rag") == "Retrieval-Augmented Generation (RAG)"
    assert [m for m in fake.sent_messages if m.kind == "channel_message"] == []
    assert handle.records == []
    assert len(fake.pop_violations()) == 0
