"""A local fake Discord that the real discord.py client talks to, for end-to-end tests.

An aiohttp server on 127.0.0.1 (random port) serving the REST routes a bot uses (login,
command sync, interaction callbacks, webhook follow-ups and edits, channel messages) and the
gateway websocket (HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, zlib-stream).
It rejects what Discord rejects, with Discord-shaped errors, and records each such
*violation*; the ``fake_discord`` fixture fails the test at teardown if any were recorded.

Fixture (``pytest_plugins`` works only in the root conftest, so import it in yours)::

    from tests.fake_discord.fixtures import fake_discord  # noqa: F401

It yields a started ``FakeDiscord`` and points ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` at it (restored afterwards). A bot that
sets them itself should use ``fake.api_base`` and ``fake.gateway_url``.

A test::

    from tests.fake_discord import FakeDiscord, run_client

    async def test_define(fake_discord: FakeDiscord) -> None:
        guild = fake_discord.add_guild("Lab")           # configure the world first:
        channel = guild.add_text_channel("general")     # GUILD_CREATE goes out at IDENTIFY
        alice = fake_discord.add_user("alice")
        guild.add_member(alice)                         # roles: guild.add_role(name, permissions=)
        bot = make_bot(guild_ready_timeout=0.05)        # discord.py's default 2 s delays on_ready
        async with run_client(bot, fake_discord):       # login, IDENTIFY, command sync
            handle = await fake_discord.slash(alice, "define", {"term": "kv"}, channel=channel)
            body = await handle.response()              # {"type": 4, "data": {...}} as sent
            message = await handle.final_message()      # after a defer, once it is replaced
            assert message["embeds"][0]["title"] == "KV Cache"
            assert handle.response_latency < 3          # every call is in handle.records

``run_client(client, fake, guild_id=...)`` waits for that guild's sync instead of the global
one (``synced=False`` if the bot never syncs). Other interactions, each returning a handle:
``autocomplete(user, "define", {"term": "kv"}, focused="term", channel=)`` then
``await handle.choices()``; ``click(user, message, custom_id)``; ``select(user, message,
custom_id, values)``; ``message_command(user, "Explain terms", target_message)``;
``user_command(user, name, target_user, channel=)``; ``submit_modal(user, handle_that_opened_it,
{"input_custom_id": "text"})``. A command the member may not see (``default_member_permissions``)
gives a handle with ``refused`` set. ``handle.followups(n)`` waits for n follow-ups.
``raw_interaction(payload)`` sends a hand-built payload (``interactions.base_payload``) as it is,
for what Discord itself should never send.

Messages: ``said = await fake.user_message(user, channel, f"{fake.bot.mention} kv?")`` then
``await fake.wait_for_channel_message(channel)`` (the bot's next channel post). Everything the
bot sent or edited is in ``fake.sent_messages`` with its ``allowed_mentions`` and the ``pings``
it would cause; a ping is a violation. ``fake.message(id)`` is a message's current state.

Faults: ``fake.fail_next("POST", "/channels/{channel_id}/messages", status=429)`` (or 500),
``fake.delay(method, path, seconds)``; paths as in ``fake.routes()``. Gateway:
``await fake.drop_gateway()`` then ``await fake.wait_resumed()``. Deadlines:
``fake.ack_deadline`` (3 s) and ``fake.followup_window`` (15 min) may be shrunk.

Waiting never sleeps: waits wake on the fake's state changes; ``fake.wait_timeout`` (10 s) only
turns a hang into a failure. Before sending anything new to the bot the fake lets it finish with
earlier replies (``fake.settle()``: no REST reply in flight, then a gateway heartbeat round
trip), so e.g. a click right after a response finds the view discord.py registered for it.
The bot answers that heartbeat request through discord.py's gateway rate limiter (110 sends a
minute; past it its gateway reader stalls up to a minute), so a test sending more than ~100
actions a minute on one connection sets ``fake.settle_before_actions = False`` (a load test).
Tests that provoke violations on purpose take them with ``fake.pop_violations()``.
"""

from .faults import Faults
from .fixtures import fake_discord, run_client
from .handles import InteractionHandle, InteractionRefused
from .mentions import SILENT, is_silent
from .models import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser
from .records import CallRecord, SentMessage, Violation
from .server import FakeDiscord

__all__ = [
    "SILENT",
    "CallRecord",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "Faults",
    "InteractionHandle",
    "InteractionRefused",
    "SentMessage",
    "Violation",
    "fake_discord",
    "is_silent",
    "run_client",
]
