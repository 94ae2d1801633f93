"""A local fake Discord that the real discord.py client talks to, for end-to-end tests.

An aiohttp server on 127.0.0.1 (random port; stopped mid-test, it keeps the port, refusing
connections, until its ``async with`` ends) serving the REST routes a bot uses (login,
command sync, interaction callbacks, webhook follow-ups and edits, channel messages) and the
gateway websocket (HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, zlib-stream).
Also modals, attachments, ephemeral follow-ups with components and shards (below). It rejects
what Discord rejects, with Discord-shaped errors, and records each such
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
        channel.overwrite(role_or_user, deny=SEND_MESSAGES)  # a channel's overwrite (before IDENTIFY)
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
An option's value is held to the lengths its command registered as discord.py sent them
(a string's ``min_length``/``max_length``, 0..6,000 without them: ValueError, as the client
will not send it), and a registration past the spec's bounds (``min_length`` 0..6,000,
``max_length`` 1..6,000, the least no more than the most) is refused; an autocomplete's choice
whose value falls outside the focused option's lengths is refused as an invalid form body (it
would be sent as that option's value). ``raw_interaction(payload)`` sends a hand-built payload (``interactions.base_payload``) as it is,
for what Discord itself should never send; ``redeliver(handle)`` sends an interaction already
delivered once more (the same payload, a new sequence number), as Discord replaying an event.

By hand: ``python -m tests.fake_discord [--port N] [--shards N]`` (``--shards``: the count
``/gateway/bot`` recommends, 1 by default) serves one server and prints the settings
for ``glossary-bot run``, then reads lines from its input as the member alice (``mo:`` first:
the moderator mo) and prints each answer: any registered command with ``name:value`` options
(a file option: a path on disk), a message to the bot, ``!click``/``!pick`` on the last
answer, ``!explain`` (Explain terms), and a form's fields line by line (``--help`` tells it
all). It builds each interaction with ``slash``/``click``/``select``/``message_command``/
``submit_modal`` below, as the tests do (``__main__.py``; it needs no pytest: ``fixtures`` is
imported when asked for).

Command permissions (``command_permissions.py``), what admins set in Server Settings >
Integrations: ``await fake.set_command_permissions(guild, "alias", [override(role, True),
override(user, False), override(channel, False)])`` replaces one top-level command's overrides
(``None`` instead of a name: the application-wide entry; ``override(all_channels(guild), False,
kind=CHANNEL)`` for every channel; ``guild.everyone`` for @everyone) and sends the bot
APPLICATION_COMMAND_PERMISSIONS_UPDATE. The fake serves ``GET .../guilds/{guild_id}/commands/
permissions`` and ``.../commands/{command_id}/permissions`` (404, code 10066, where none were
set) and applies them as Discord does before ``default_member_permissions``: a member they
refuse gets a handle with ``refused`` set, and the bot no interaction.

Messages: ``said = await fake.user_message(user, channel, f"{fake.bot.mention} kv?")`` then
``await fake.wait_for_channel_message(channel)`` (the bot's next channel post). Everything the
bot sent or edited is in ``fake.sent_messages`` with its ``allowed_mentions`` and the ``pings``
it would cause; a ping is a violation. ``fake.message(id)`` is a message's current state.

Faults: ``fake.fail_next("POST", "/channels/{channel_id}/messages", status=429)`` (or 500),
``fake.delay(method, path, seconds)`` (an answer still held when the fake stops ends
unanswered), ``fake.drop_next(method, path)`` (the connection closed unanswered); paths as in
``fake.routes()``. Rate limits (``ratelimits.py``):
``fake.rate_limit("POST", "/users/@me/channels", limit=5, per=1.0)`` keeps a bucket per route
and channel, guild or webhook, with Discord's ``X-RateLimit-*`` headers and its 429 past the
limit (``fake.rate_limits.refused``; ``.spent``: answers that said none remain); none by
default. Gateway:
``await fake.drop_gateway()`` then ``await fake.wait_resumed()``;
``await fake.gateway.invalidate_session(resumable=)`` sends op 9 on a live session (not
resumable: the session is gone, the bot IDENTIFYs anew); ``fake.gateway.ack_heartbeats = False``
leaves heartbeats unanswered (a zombie connection); a guild id in ``fake.gateway.outages`` is
listed unavailable in READY without its GUILD_CREATE until ``await fake.gateway.end_outage(id)``;
while ``fake.gateway.ready_gate`` is cleared an IDENTIFY is taken but its READY waits (heartbeats
still answered: a session slow to start), ``fake.gateway.identifies_held`` counting those waiting.
Channels: a thread with ``archived = True`` refuses posts (400, 50083), and a server the bot
is no longer a member of refuses them too (403, 50001), as does a channel the bot may not view
(403, 50001; one it views but may not send in: 403, 50013), and a reply (``message_reference``)
where the bot lacks Read Message History (403, 160002). A DM reaches only a user who shares a
server with the bot and has not closed DMs (``user.dms_closed = True``): else 403, 50007, as
Discord refuses it, listed in ``fake.refused_dms`` (no violation: the bot cannot know first).
``guild.add_channel(name, kind)`` makes announcement (5), voice (2) and stage (13) channels and
forums (15); ``add_thread(..., kind=PRIVATE_THREAD)`` a private thread; ``channel.nsfw = True``
an age-restricted one. A channel changed once the bot is connected (``channel.overwrite(...)``)
reaches it with ``await fake.update_channel(channel)`` (CHANNEL_UPDATE, as Discord sends it), a
role's (``role.permissions &= ~flag``) with ``await fake.update_role(role)``
(GUILD_ROLE_UPDATE; ``await fake.delete_role(role)`` deletes one: GUILD_ROLE_DELETE), the server's own (``guild.name = ...``) with ``await
fake.update_guild(guild)`` (GUILD_UPDATE). Deadlines:
``fake.ack_deadline`` (3 s) and ``fake.followup_window`` (15 min) may be shrunk; the first counts
from when Discord sent the interaction, ``held_up`` seconds before the bot gets it for
``fake.slash(..., held_up=...)`` and ``fake.message_command(..., held_up=...)``.

Modals (``interactions.modal_data``, ``validation.check_modal``): a MODAL response (type 9) is
checked at Discord's limits (title 1-45, custom_id 1-100, 1-5 top-level components: action rows
holding one text input, labels, text displays; text input label <= 45, style 1 or 2,
placeholder <= 100, value <= 4000, 0 <= min_length <= max_length, 1 <= max_length <= 4000,
required a boolean) and only accepted as the first answer to a command or a component (after a
defer: 40060; to autocomplete or a modal submit: 50035 INTERACTION_CALLBACK_TYPE_INVALID)::

    opened = await fake.slash(mod, "term add", channel=channel)     # or fake.click(...)
    assert (await opened.response())["type"] == 9
    submitted = await fake.submit_modal(mod, opened, {"title": "KV cache", "definition": "..."})
    reply = await submitted.final_message()

The MODAL_SUBMIT (type 5) is shaped as Discord sends it: ``data.custom_id`` and the modal's rows
and labels with numeric ``id``s, each text input as ``{type: 4, id, custom_id, value}``; an input
left out submits its prefilled value. What a user could not submit (a missing required input,
a value outside min/max_length, a newline in a short input) raises ValueError. Submitting twice
(a double click) gives two interactions.

Attachments (``attachments.py``): ``upload = fake.add_attachment("terms.toml", b"...")`` (or
``size=50 * 2**20`` for a big file made up as it is served; ``content_type=`` to override what
the name implies) is a user's file for an ATTACHMENT option: ``fake.slash(mod, "term import",
{"file": upload}, channel=channel)`` sends its id as the value and ``data.resolved.attachments``
with ``id, filename, size, url, proxy_url, content_type, ephemeral``. The fake serves it at
``upload.url`` with Content-Type and Content-Length, in 64 KiB chunks (``Attachment.read()`` and
aiohttp both work; a bot may stop reading early), counting ``upload.downloads`` and
``upload.bytes_served``. Files the bot uploads are kept too:
``fake.attachment_bytes(message["attachments"][0])`` returns what it sent (an export to import
elsewhere). With ``channel=``, ``add_attachment`` makes a file sent in a message there (no
``ephemeral``): ``fake.user_message(user, channel, "", attachments=[upload])`` (a long paste
Discord's client sends as ``message.txt``, ``text/plain; charset=utf-8``).

Ephemeral follow-ups: ``await handle.followups(n)`` returns them with their components;
``fake.click``/``fake.select`` use them like any message. On Discord only the user who invoked
the command sees them; the fake still lets a test click as someone else, to forge what Discord
would never deliver (tests/resilience does).

Shards (``sharding.py``): ``FakeDiscord(shard_count=4, max_concurrency=1, identify_window=5.0,
enforce_identify_limit=False)``; ``fake.sharding`` holds them and ``total``, ``remaining``,
``reset_after_ms`` for ``GET /gateway/bot`` (each accepted IDENTIFY spends one). Guilds go to
shard ``(guild_id >> 22) % shard_count``: ``fake.add_guild("Lab", shard=2)`` picks an id on
shard 2. READY, GUILD_CREATEs, interactions and message events reach only the connection of the
guild's shard; DMs go to shard 0. IDENTIFY must carry ``shard: [id, count]`` with
``id < count == shard_count`` (else close 4010; none while ``shard_count > 1``: 4011); a shard
identified while still connected elsewhere is closed with 4005. Every IDENTIFY is in
``fake.sharding.identifies`` (``IdentifyRecord(shard_id, shard_count, bucket, at, outcome)``);
``fake.sharding.times_by_bucket()`` and ``fake.sharding.too_close()`` (pairs in one
``shard_id % max_concurrency`` bucket under ``identify_window`` apart) let a test assert the
rate limit held. With ``enforce_identify_limit=True`` an IDENTIFY too soon gets op 9
INVALID_SESSION as on Discord (and a violation). ``run_client`` waits for every shard of the
client (``client_shards``: an AutoShardedClient's ``shard_ids``);
``fake.wait_until_ready(shards=[2, 3])`` does the same for a bot in another process. ``fake.gateway.live_shards()``,
``fake.drop_gateway(shard_id=1)``. Set a small ``identify_window`` and give the bot a
``before_identify_hook`` that waits that long (``tests/fake_discord_tests/shard_bot.py``), since
discord.py's default waits 5 s before every IDENTIFY but the first.

Discord's OpenAPI spec (``openapi.py``): ``spec_or_skip()`` then ``spec_errors(
"ModalInteractionCallbackRequest", body)`` checks a body against the published schema.

Waiting never sleeps: waits wake on the fake's state changes; ``fake.wait_timeout`` (10 s) only
turns a hang into a failure. Before sending anything new to the bot the fake lets it finish with
earlier replies (``fake.settle()``: no REST reply in flight, then a gateway heartbeat round
trip), so e.g. a click right after a response finds the view discord.py registered for it.
The bot answers that heartbeat request through discord.py's gateway rate limiter (110 sends a
minute; past it its gateway reader stalls up to a minute), so a test sending more than ~100
actions a minute on one connection sets ``fake.settle_before_actions = False`` (a load test).
Tests that provoke violations on purpose take them with ``fake.pop_violations()``.
"""

from .attachments import FakeAttachment
from .faults import Faults
from .handles import InteractionHandle, InteractionRefused
from .mentions import SILENT, is_silent
from .models import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser
from .records import CallRecord, SentMessage, Violation
from .server import FakeDiscord
from .sharding import IdentifyRecord, Sharding


def __getattr__(name: str) -> object:
    """The pytest glue (`fixtures`), imported when asked for: it needs pytest, which `make
    run`'s .venv lacks, and `python -m tests.fake_discord` runs there."""
    if name in {"client_shards", "fake_discord", "run_client"}:
        from . import fixtures

        return getattr(fixtures, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SILENT",
    "CallRecord",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "Faults",
    "IdentifyRecord",
    "InteractionHandle",
    "InteractionRefused",
    "SentMessage",
    "Sharding",
    "Violation",
    "client_shards",
    "fake_discord",
    "is_silent",
    "run_client",
]
