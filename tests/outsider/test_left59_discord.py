"""left59 (PLAN.md, "Leftovers (left59)"): left58's and review64's leftovers through the fake
Discord, as members and moderators meet them; each test failing on main a1a8fcf4 first."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import AliasImport, Store
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.term_commands import TERM, add_term

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_left58_discord import _two_long_titled_terms
from .test_review64_discord import _middle_title


async def test_titles_alike_at_both_ends_read_apart_in_the_refusal_and_define_s_choices(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Two 256-character titles alike in their start and their end, different in the middle:
    `/term remove`'s refusal ("“X” is a related term of “Y”") cut each alone, to the same
    text, and so did `/define`'s autocomplete (one choice for two terms, as the fake keys
    them). Names shown together are fitted together, within Discord's limits."""
    alpha, omega = _middle_title("Alpha"), _middle_title("Omega")
    choices = await _two_long_titled_terms(scene, alpha, omega)
    [alpha_id] = [c["value"] for c in choices if "Alpha" in c["name"]]
    removing = await scene.fake.slash(
        scene.admin, "term remove", {"term": alpha_id}, channel=scene.channel
    )
    refusal = str((await removing.final_message())["content"])
    assert "is a related term of" in refusal, refusal
    named = re.findall(r"“([^”]*)”", refusal)
    assert len(named) >= 2, refusal
    assert len(set(named)) == len(named), refusal  # Zorbhub's too: each its own
    assert "Alpha" in named[0], refusal
    assert "Omega" in named[-1], refusal
    assert len(refusal) <= 2000, len(refusal)

    typing = await scene.fake.autocomplete(
        scene.alice, "define", {"term": "zorbledger"}, focused="term", channel=scene.channel
    )
    names = [c["name"] for c in await typing.choices()]
    long_ones = [name for name in names if name.startswith("Zorbledger")]
    assert len(long_ones) == 2, names
    assert len(set(long_ones)) == 2, long_ones
    assert all(len(name) <= 100 for name in names), names
    assert sorted("Alpha" in name for name in long_ones) == [False, True], long_ones


# Thanks and help said to the bot in other languages: written from general knowledge before
# reading the rule's table (one probe a word, some with their punctuation and case).
THANKS = (
    "gracias",
    "¡Gracias!",
    "muchas gracias",
    "Merci !",
    "merci beaucoup",
    "danke",
    "Danke schön",
    "vielen Dank",
    "obrigado",
    "obrigada",
    "grazie",
    "grazie mille",
    "bedankt",
    "tack",
    "kiitos",
    "спасибо",
    "ありがとう",
    "谢谢",
)
HELP = ("hilfe", "Hilfe!", "ayuda", "aide", "aiuto", "ajuda", "hulp", "помощь")


async def test_thanks_and_help_in_other_languages_are_answered_as_in_english(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/define gracias` (merci, danke, hilfe ...) was a public "No entry" and a missed search,
    and so was a mention of it; "thanks" and "help" are answered, privately, with how to ask.
    Now alike; a server's alias or term of that name still opens its card."""
    _, english = await define(scene.fake, scene.alice, "thanks", scene.channel)
    assert "`/define`" in english["content"], english
    for text in (*THANKS, *HELP):
        _, answer = await define(scene.fake, scene.alice, text, scene.channel)
        assert not answer["embeds"], (text, embed_of(answer)["title"])
        assert answer["content"] == english["content"], (text, answer["content"])
        assert is_ephemeral(answer), (text, answer)
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []

    fake = scene.fake
    said = {}
    for text in ("thanks", "merci", "help", "hilfe"):
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {text}")
        said[text] = (await fake.wait_for_channel_message(scene.channel))["content"]
    assert said["merci"] == said["thanks"], said
    assert said["hilfe"] == said["help"], said
    assert "No entry" not in said["merci"] + said["hilfe"], said

    added = await moderator_answer(scene, "alias add", {"alias": "merci", "term": "lora"})
    assert added.startswith("Added"), added
    values = {**TERM, "title": "Ayuda", "other_names": "", "related": ""}
    assert (await add_term(scene, values))["content"].startswith("Added"), values
    for text, title in (("merci", "LoRA"), ("Merci", "LoRA"), ("ayuda", "Ayuda")):
        _, answer = await define(scene.fake, scene.alice, text, scene.channel)
        assert answer["embeds"], (text, answer["content"])
        assert title in embed_of(answer)["title"], (text, embed_of(answer)["title"])


async def test_a_heartbeat_answered_at_once_is_timed_from_its_own_send(
    scene: Scene, bot: GlossaryBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """The interactive fake, idle, drew "Can't keep up, shard ID None websocket is 41.3s
    behind" from discord.py at every heartbeat, and the bot's latency read 41 s: discord.py's
    keep-alive thread notes a heartbeat's send once it sees it done, and the fake's ACK (sent
    at once, as Discord's gateway does) was read on the event loop before that thread woke, so
    timed from the heartbeat before. Here the heartbeat before was an interval ago, and this
    one is sent as the thread sends it, its ACK read before the thread could note the send."""
    ws = bot.ws
    keep_alive = ws._keep_alive
    assert keep_alive is not None
    acked = asyncio.Event()
    real_ack = keep_alive.ack

    def ack() -> None:
        real_ack()
        acked.set()

    keep_alive.ack = ack  # type: ignore[method-assign]
    interval = keep_alive.interval or 41.25
    keep_alive._last_send = time.perf_counter() - interval  # the heartbeat before
    before = scene.fake.gateway.heartbeat_count
    with caplog.at_level(logging.WARNING, logger="discord.gateway"):
        await ws.send_heartbeat(keep_alive.get_payload())  # as the thread has it run on the loop
        await asyncio.wait_for(acked.wait(), 30)
    assert scene.fake.gateway.heartbeat_count == before + 1
    assert bot.latency < interval / 2, bot.latency
    assert "keep up" not in caplog.text, caplog.text


async def test_a_term_with_many_long_aliases_can_be_removed(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/term remove` names the aliases going with the term: 25 of 100 characters made a
    prompt of 2,100+ characters, which Discord refuses, so the term could not be removed.
    The names share a message's room now."""
    names = [f"zorb alias {n} " + "x" * (88 - len(str(n))) for n in range(25)]
    assert {len(name) for name in names} == {100}
    # Imported (`aliases import`) for the term the moderator then adds: its add reads them.
    imported = [AliasImport(scene.guild.id, name, name, "zorblax") for name in names]
    added = await store.import_aliases(imported)
    assert all(str(a.status).lower().endswith("added") for a in added), added
    assert (await add_term(scene))["content"].startswith("Added"), "Zorblax"
    asked = await scene.fake.slash(
        scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await asked.final_message()
    assert "and 5 more" in prompt["content"], prompt["content"][-200:]
    assert len(prompt["content"]) <= 2000
    clicked = await scene.fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
    done = await clicked.followups(1)
    assert "Removed “Zorblax”" in str(done), done
