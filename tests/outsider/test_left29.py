"""Leftovers of round 24 and left28 (task left29, PLAN.md "Leftovers of round 24 (left29)"):
`glossary-bot check` on the command line, and the real bot (discord.py) against the fake
Discord on real SQLite files."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.discord_app import replies
from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, define, embed_of, selects
from tests.discord_app.term_commands import add_term
from tests.resilience.botproc import CLI_ENV, glossary_bot_waited
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_left28 import import_ironhold

ZORB_AND_BLAP = """
[[entries]]
id = "zorb"
title = "Zorb Engine"
category = "Fundamentals"
definition = "A made-up inference engine that batches prompts by colour."

[[entries]]
id = "blap"
title = "Blap Unit"
aliases = ["zorb engines"]
category = "Fundamentals"
definition = "A made-up accelerator card that hums in B flat."
"""


def test_check_warns_of_an_alias_search_reads_as_another_entrys_title(tmp_path: Path) -> None:
    """Round 24's C3: an alias that is the other number of another entry's title ("zorb
    engines" on Blap Unit beside Zorb Engine) passed `check` (case, hyphen and space are
    caught, the other number was not), then `define zorb engines` opened Blap Unit and `zorb
    engine` Zorb Engine. Now one warning names the file, line and entry of the alias, and the
    entry whose name search reads it as (search's own keys, `search_keys`)."""
    (tmp_path / "mine.toml").write_text(ZORB_AND_BLAP, encoding="utf-8")
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "mine.toml")
    assert status == 0, output  # a warning: the data loads
    warning = (
        "mine.toml:9 [blap]: warning: name 'zorb engines' is read by search as 'Zorb Engine', "
        "a name of 'zorb' (mine.toml): the two spellings open different entries; choose a name "
        "search does not read as another entry's"
    )
    assert output.splitlines()[0] == warning, output
    assert "0 error(s), 1 warning(s)" in output, output
    (tmp_path / "mine.toml").write_text(ZORB_AND_BLAP.replace("zorb engines", "blapper"))
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "mine.toml")
    assert "0 error(s), 0 warning(s)" in output, output


async def test_the_stats_menu_offers_no_alias_that_is_already_a_name(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Round 24's U18: a search missed ("zorblax") before a term took it as its title; `/stats`
    still lists the miss (it happened) but its menu offered "add as an alias of Zorblax", which
    picked could only be refused ("is already a name of **Zorblax**: nothing to add"). Now the
    menu offers only what `/alias add` would take; the typo beside it is still offered. Since
    outsider75 a miss that now opens a card by its own name is no longer listed at all (nothing
    else would ever clear it); the typo stays listed."""
    fake = scene.fake
    store.record_miss(scene.guild.id, "zorblax")
    store.record_miss(scene.guild.id, "zorblx")
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    message = await shown.final_message()
    misses = next(f for f in message["embeds"][0]["fields"] if f["name"].startswith("Searches"))
    assert "“zorblax”" not in misses["value"], misses  # answered by its own name now
    assert "“zorblx”: 1×" in misses["value"], misses  # the typo is still a miss
    [menu] = selects(message)
    assert [o["label"] for o in menu["options"]] == ["“zorblx” → Zorblax"], menu


async def test_a_server_term_titled_as_a_bundled_entry_shows_its_own_fields_only(
    scene: Scene, bot: GlossaryBot
) -> None:
    """left28's left: the guild's Checkpoint (a raid's save point, no plain words, boundary,
    importance or reference of its own) words the bundled Checkpoint (one card per concept), and
    its card showed the bundled entry's fields: a Plain words button ("a saved copy of the
    model"), What it is not, Why it matters and a PyTorch link under a raid's save point. Now the
    card's fields are the term's own; the bundled wording stays another source on the card, and
    the other server keeps the bundled card whole."""
    fake = scene.fake
    await import_ironhold(scene)
    _, card = await define(fake, scene.alice, "checkpoint", scene.channel)
    embed = embed_of(card)
    assert embed["title"] == "Checkpoint"
    assert "save point" in embed["description"], embed
    assert list(buttons(card)) == ["Obsidian Shard"], buttons(card)  # no Plain words
    shown = "\n".join(f"{f['name']}: {f['value']}" for f in embed.get("fields", []))
    assert "not by itself proof of model quality" not in shown, shown
    assert "inspect or compare earlier model states" not in shown, shown
    assert "pytorch" not in str(embed).casefold(), embed
    _, other = await define(fake, scene.alice, "checkpoint", scene.other_channel)
    assert "Plain words" in buttons(other), buttons(other)
    whole = str(embed_of(other))
    for bundled in ("not by itself proof of model quality", "pytorch"):
        assert bundled in whole.casefold(), whole  # what the server's card left out is the entry's


async def test_an_answer_the_bot_stops_waiting_for_is_no_alarm_that_discord_fails(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in test_process_faults' burst under load: a first answer whose request the bot gave
    up on (cancelled) was taken for Discord failing: "Discord's API is failing (CancelledError):
    answers are lost until it recovers" and `health` said so until the next answer. The bot
    stopping its own wait says nothing of Discord: no such line now. (product68: a request out
    by the deadline is given up only once Discord's verdict is `VERDICT_WAIT` late, and then
    counted as shown; it was given up at the deadline and posted in the channel a second time.)"""
    fake = scene.fake
    monkeypatch.setattr(replies, "VERDICT_WAIT", 0.2)  # seconds past the deadline, not 3
    held = fake.hold_answer("POST", "/interactions/{interaction_id}/{token}/callback")
    try:
        async with warned("taken as shown", level=logging.INFO) as records:
            asked = await fake.slash(
                scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
            )
    finally:
        held.release()
    assert embed_of(await asked.final_message())["title"] == "KV Cache"
    await fake.settle()
    assert not [m for m in fake.sent_messages if m.kind == "channel_message"]  # shown once
    said = [r.getMessage() for r in records]
    assert not [line for line in said if "API is failing" in line], said
    assert bot.rest.note() is None
