"""Who can change what, what one server can see of another, where the token may appear (nowhere),
and the per-user cooldown. Command declarations (default member permissions, contexts) are in
tests/discord_app/test_sync.py; members refused /alias in test_aliases.py."""

from __future__ import annotations

import io
import logging
import signal
import time
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot.discord_app import runner
from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.stats import NOT_ALLOWED
from bot.discord_app.logs import REDACTED, RedactSecrets
from bot.settings import Settings
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, define, embed_of, fields, footer, is_ephemeral
from tests.fake_discord import FakeChannel, FakeUser
from tests.fake_discord import actions as fake_actions
from tests.fake_discord.interactions import base_payload

from .botproc import BotProcess
from .conftest import Scene, StartBot
from .helpers import DEFERRED, moderator_says, stored_aliases, stored_lookups

# Shaped like a real one: base64 of an id, a timestamp, an HMAC. Not a working token anywhere.
TOKEN = "MTE5ODI3NzIzNjAwMDAwMDAwMA.GhQx3k.Zt9d8W2uQmV1rYcK0pLs7eXoA4nJbHfG6iTyU"
SECRET_PARTS = TOKEN.split(".")[1:]


# -- data stays in its server ---------------------------------------------------------------------


async def choices(
    scene: Scene, user: FakeUser, command: str, option: str, text: str, channel: FakeChannel
) -> list[str]:
    handle = await scene.fake.autocomplete(
        user, command, {option: text}, focused=option, channel=channel
    )
    return [str(c["value"]) for c in await handle.choices()]


async def test_aliases_stats_and_misses_stay_in_their_server(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    here, there = scene.channel, scene.other_channel
    _, added = await moderator_says(scene, "alias add", {"alias": "kv stash", "term": "kv-cache"})
    assert added["content"].startswith("Added")
    for term in ("kv stash", "lora", "lora", "lora", "banana bread"):
        await define(fake, scene.alice, term, here)
    _, card_here = await define(fake, scene.alice, "lora", here)
    assert "looked up 4 times here" in footer(card_here)
    popular_here = await choices(scene, scene.alice, "define", "term", "", here)
    lora_id = popular_here[0]  # the most looked-up term comes first in an empty box here ...
    assert "lora" in lora_id

    other = scene.other_moderator
    # ... and not elsewhere.
    assert (await choices(scene, scene.alice, "define", "term", "", there))[:1] != [lora_id]
    assert (await choices(scene, scene.alice, "define", "term", "", fake.dm_channel(scene.alice)))[
        :1
    ] != [lora_id]
    _, card_there = await define(fake, scene.alice, "lora", there)
    assert "looked up 1 time here" in footer(card_there)

    # The other server's moderator sees none of this server's aliases, misses or counts.
    _, listing = await moderator_says(scene, "alias list", {}, user=other, channel=there)
    assert listing["content"] == "No aliases yet. Add one with `/alias add`."
    assert await choices(scene, other, "alias remove", "alias", "", there) == []
    assert await choices(scene, other, "alias add", "alias", "", there) == []  # misses
    _, removed = await moderator_says(
        scene, "alias remove", {"alias": "kv stash"}, user=other, channel=there
    )
    assert removed["content"] == "This server has no alias “kv stash”."
    _, stats = await moderator_says(scene, "stats", {"period": "all"}, user=other, channel=there)
    assert embed_of(stats)["description"] == "**1** lookup"  # the one lora just now
    shown = fields(stats)
    assert "LoRA" in shown["Most looked up"]
    assert shown["Searches that found nothing"] == "None. 🎉"

    # Nor does a DM.
    _, in_dm = await define(fake, scene.alice, "kv stash", fake.dm_channel(scene.alice))
    assert in_dm["content"].startswith("No entry for “kv stash”")

    # And this server's own view is whole.
    assert [a.key for a in await store.list_aliases(scene.guild.id)] == ["kv stash"]
    _, own = await moderator_says(scene, "stats", {"period": "all"})
    assert embed_of(own)["description"] == "**5** lookups"
    assert "“banana bread”: 1×" in fields(own)["Searches that found nothing"]


# -- moderator-only, beyond what Discord enforces ------------------------------------------------


async def test_moderator_commands_are_kept_from_members_by_default(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Discord hides a command from members without its default member permissions: /alias
    and /stats carry Manage Server, so Discord enforces it and admins can grant them through
    Integrations."""
    manage_server = str(discord.Permissions(manage_guild=True).value)
    declared = {c["name"]: c["default_member_permissions"] for c in scene.fake.commands()}
    assert declared == {
        "define": None,
        "Explain terms": None,
        "glossary": None,
        "suggest": None,
        "alias": manage_server,
        "term": manage_server,
        "stats": manage_server,
    }
    refused = await scene.fake.slash(scene.alice, "stats", {}, channel=scene.channel)
    assert refused.refused


@pytest.fixture
def forged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Interactions Discord would not send (a command where it is not offered), as a forged
    request could: the fake's offering check is switched off."""
    monkeypatch.setattr(fake_actions, "refusal", lambda *args, **kwargs: None)


@pytest.mark.usefixtures("forged")
async def test_server_commands_refuse_to_run_in_a_dm(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    await define(scene.fake, scene.alice, "lora", scene.channel)
    dm = scene.fake.dm_channel(scene.moderator)
    for command, options in (
        ("stats", {}),
        ("alias add", {"alias": "zorblax", "term": "kv-cache"}),
        ("alias remove", {"alias": "zorblax"}),
        ("alias list", {}),
        ("term add", {}),
        ("term edit", {"term": "kv-cache"}),
        ("term remove", {"term": "kv-cache"}),
        ("suggest", {"term": "zorblax"}),
    ):
        handle = await scene.fake.slash(scene.moderator, command, options, channel=dm)
        message = await handle.final_message()
        assert message["content"] == "This command works only in a server.", command
        assert not message["embeds"]
    assert await store.list_aliases(0) == []
    assert await read_terms(store, 0) == []


async def test_the_miss_to_alias_menu_refuses_a_member(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The stats message is the moderator's, and ephemeral; a forged selection by a member
    (Discord would not deliver one) changes nothing."""
    store.record_miss(scene.guild.id, "kv chache")
    _, stats = await moderator_says(scene, "stats", {})
    [menu] = [c for row in stats["components"] for c in row["components"] if c["type"] == 3]
    value = menu["options"][0]["value"]
    picked = await scene.fake.select(scene.alice, stats, menu["custom_id"], [value])
    answer = await picked.final_message()
    assert is_ephemeral(answer)
    assert answer["content"] == NOT_ALLOWED
    assert await store.list_aliases(scene.guild.id) == []


# -- the token ------------------------------------------------------------------------------------


def assert_no_token(text: str) -> None:
    assert TOKEN not in text
    for part in SECRET_PARTS:
        assert part not in text


async def test_the_token_is_in_no_log_line_even_at_debug(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    fake.token = TOKEN
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, LOG_LEVEL="DEBUG") as bot:
        _, card = await define(fake, scene.alice, "kv cache", scene.channel)
        click = await fake.click(scene.alice, card, buttons(card)["PagedAttention"])
        await click.final_message()
        await choices(scene, scene.alice, "define", "term", "kv", scene.channel)
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag?")
        await fake.wait_for_channel_message(scene.channel)
        await moderator_says(scene, "alias add", {"alias": "kv stash", "term": "kv-cache"})
        await fake.drop_gateway()  # RESUME sends the token again
        await fake.wait_resumed()
        _, again = await define(fake, scene.alice, "kv stash", scene.channel)
        assert embed_of(again)["title"] == "KV Cache"
        assert await bot.stop(signal.SIGTERM) == 0
    assert "DEBUG" in bot.output  # it did log at DEBUG, the gateway traffic included
    assert "IDENTIFY" in bot.output
    assert_no_token(bot.output)
    for sent in fake.sent_messages:
        assert_no_token(repr(sent.body))


async def test_the_token_is_not_in_errors_shown_to_users(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    def leaky(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"request with Authorization: Bot {TOKEN} failed")

    monkeypatch.setattr(bot.state.index, "search", leaky)
    _, message = await define(scene.fake, scene.alice, "kv cache", scene.channel)
    assert message["content"].startswith("Something went wrong on my side (error id")
    await scene.fake.user_message(scene.alice, scene.channel, f"{scene.fake.bot.mention} rag")
    reply = await scene.fake.wait_for_channel_message(scene.channel)
    assert reply["content"].startswith("Something went wrong on my side (error id")
    for sent in scene.fake.sent_messages:
        assert_no_token(repr(sent.body))


def test_start_up_failures_do_not_print_the_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no developer's .env
    redacted: list[list[str]] = []
    monkeypatch.setattr(
        runner, "configure_logging", lambda level, secrets, **_: redacted.append(secrets)
    )

    # Discord cannot be reached (nothing listens on port 9 here).
    unreachable = Settings(
        discord_token=TOKEN,
        discord_api_base_url="http://127.0.0.1:9/api/v10",
        database_path=tmp_path / "bot.db",
    )
    assert runner.run(unreachable) == runner.EXIT_ERROR
    assert "cannot reach Discord" in capsys.readouterr().err

    # A bad setting next to the token.
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("COOLDOWN_USES", "lots")
    assert runner.run() == runner.EXIT_CONFIG
    err = capsys.readouterr().err
    assert "bad setting" in err
    assert_no_token(err)
    assert redacted == [[TOKEN]]  # the log filter knew the secret from the first line on


def test_the_log_filter_redacts_arguments_and_tracebacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets([TOKEN]))
    logger = logging.getLogger("tests.resilience.redaction")
    logger.addHandler(handler)
    try:
        logger.warning("sending %s", {"Authorization": f"Bot {TOKEN}"})
        try:
            raise RuntimeError(f"rejected: {TOKEN}")
        except RuntimeError:
            logger.exception("request failed")
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert_no_token(text)
    assert text.count(REDACTED) == 2  # the argument, and the exception in the traceback


# -- cooldown -------------------------------------------------------------------------------------


async def test_alias_commands_have_a_per_user_cooldown(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    async with start_bot(store, cooldown=(2, 60.0)):
        for alias in ("kv stash", "kv stow"):
            _, added = await moderator_says(
                scene, "alias add", {"alias": alias, "term": "kv-cache"}
            )
            assert added["content"].startswith("Added")
        handle, slow = await moderator_says(
            scene, "alias add", {"alias": "kv heap", "term": "kv-cache"}
        )
        assert (await handle.response())["type"] != DEFERRED  # refused before any database work
        assert slow["content"].startswith("You're going a bit fast: try again in ")
        _, other = await moderator_says(
            scene, "alias add", {"alias": "kv heap", "term": "kv-cache"}, user=scene.admin
        )
        assert other["content"].startswith("Added")  # per user
    assert stored_aliases(scene.db_path) == [
        (scene.guild.id, "kv heap", "kv-cache"),
        (scene.guild.id, "kv stash", "kv-cache"),
        (scene.guild.id, "kv stow", "kv-cache"),
    ]


async def define_at(scene: Scene, when: datetime) -> dict[str, object]:
    """/define rag as if sent at ``when`` (its id, a snowflake, says so)."""
    fake = scene.fake
    registered = fake.registry.find("define", 1, None)
    assert registered is not None
    data = {
        "id": registered["id"],
        "name": "define",
        "type": 1,
        "options": [{"name": "term", "type": 3, "value": "rag"}],
    }
    payload = base_payload(fake.world, kind=2, data=data, user=scene.alice, channel=scene.channel)
    payload["id"] = str(discord.utils.time_snowflake(when))
    handle = await fake.raw_interaction(payload)
    return await handle.final_message()


async def test_the_cooldown_message_never_says_zero_seconds(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A use counts when it reached the bot (`Arrivals.arrived`, on the monotonic clock): the
    # bot's clock is set to each arrival, the ids stamped alike (none late).
    start, base = discord.utils.utcnow(), time.monotonic()
    clock = SimpleNamespace(monotonic=lambda: base)
    monkeypatch.setattr("bot.discord_app.lateness.time", clock)
    async with start_bot(store, cooldown=(1, 1.0)):
        for after, answered in ((0.0, True), (0.7, False), (1.1, True)):
            clock.monotonic = lambda after=after: base + after
            said = await define_at(scene, start + timedelta(seconds=after))
            if answered:
                assert embed_of(said)["title"].endswith("(RAG)")
            else:  # 0.3 s to go
                assert is_ephemeral(said)
                assert said["content"] == "You're going a bit fast: try again in 1 s."
    assert stored_lookups(scene.db_path, scene.guild.id) == 2  # the refused one is no lookup


async def test_each_command_has_its_own_cooldown(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Looking terms up does not use up a moderator's allowance for /alias, nor the reverse."""
    async with start_bot(store, cooldown=(1, 60.0)):
        _, added = await moderator_says(
            scene, "alias add", {"alias": "kv stash", "term": "kv-cache"}
        )
        assert added["content"].startswith("Added")
        define = await scene.fake.slash(
            scene.moderator, "define", {"term": "kv stash"}, channel=scene.channel
        )
        assert (await define.final_message())["embeds"][0]["title"] == "KV Cache"
        _, removed = await moderator_says(scene, "alias remove", {"alias": "kv stash"})
        assert removed["content"].startswith("Removed")
