"""``FakeDiscord``: the aiohttp server (REST + gateway) and the API tests drive it with."""

from __future__ import annotations

import copy
import errno
import socket
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from types import TracebackType
from typing import Any

import discord
import yarl
from aiohttp import web

from . import rest, rest_channels, rest_interactions
from .actions import UserActions
from .attachments import UPLOAD_LIMIT, AttachmentStore, FakeAttachment
from .command_permissions import CommandPermissions
from .commands import CommandRegistry
from .faults import Faults, Hold
from .gateway import (
    DIRECT_MESSAGES,
    GUILD_MESSAGES,
    MESSAGE_CONTENT,
    PRIVILEGED_INTENTS,
    Gateway,
)
from .handles import InteractionHandle, Waiter
from .mentions import pings
from .messages import MessageStore, is_ephemeral, withhold_replied_to
from .models import FakeChannel, FakeGuild, FakeUser
from .ratelimits import RateLimits
from .records import SentMessage, Violation
from .sharding import Sharding, snowflake_on_shard
from .world import DEFAULT_BOT_PERMISSIONS, World

JSON = dict[str, Any]


def _refuse_if_taken(port: int) -> None:
    """Raise "address in use" if something serves or holds `port`. The listener binds with
    SO_REUSEPORT (for `_hold_port`), which would share the port with another fake's listener:
    two fakes started by hand on one port would each take some connections. A bind as
    asyncio's servers make (SO_REUSEADDR, no SO_REUSEPORT) fails there, as a fake's did."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as taken:
            said = "is in use" if taken.errno == errno.EADDRINUSE else "cannot be served on"
            raise OSError(taken.errno, f"port {port} {said} ({taken.strerror})") from None


class FakeDiscord(UserActions):
    """A local Discord for the real discord.py client. See the package docstring for usage."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "GlossaryBot",
        ack_deadline: float = 3.0,
        followup_window: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41_250,
        fail_on_ping: bool = True,
        allowed_privileged_intents: int = PRIVILEGED_INTENTS,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        wait_timeout: float = 10.0,
        shard_count: int = 1,
        max_concurrency: int = 1,
        identify_window: float = 5.0,
        enforce_identify_limit: bool = False,
    ) -> None:
        self.token = token
        self.ack_deadline = ack_deadline  # seconds from Discord sending it to the initial response
        self.followup_window = followup_window  # seconds an interaction token stays valid
        self.fail_on_ping = fail_on_ping
        self.world = World(bot_name=bot_name, bot_permissions=bot_permissions)
        self.waiter = Waiter(wait_timeout)
        self.store = MessageStore()
        self.registry = CommandRegistry(self.world.application_id)
        self.command_permissions = CommandPermissions(self.world.application_id)
        self.interactions: dict[int, InteractionHandle] = {}
        self.violations: list[Violation] = []
        self.unknown_routes: list[str] = []
        self.sent_messages: list[SentMessage] = []
        # DMs Discord refused (50007): the user's id and the body. No violation: a bot cannot
        # know a member's DM settings, or that they left, before it tries.
        self.refused_dms: list[tuple[int, Any]] = []
        self.requests: list[tuple[str, str]] = []  # (method, path) of every REST call
        # /gateway/bot's numbers and the IDENTIFY rate limit; tests may change any field.
        self.sharding = Sharding(
            shard_count=shard_count,
            max_concurrency=max_concurrency,
            identify_window=identify_window,
            enforce=enforce_identify_limit,
        )
        self.gateway = Gateway(
            self.world,
            self.waiter,
            token=lambda: self.token,
            heartbeat_interval_ms=heartbeat_interval_ms,
            allowed_privileged_intents=allowed_privileged_intents,
            sharding=self.sharding,
            record_violation=lambda kind, detail: self.record_violation(kind, "gateway", detail),
        )
        self.faults = Faults(self.routes)
        self.rate_limits = RateLimits(self.routes)
        # Files users attach to commands and files the bot uploads, served over HTTP.
        self.attachments = AttachmentStore(lambda: self.base_url, self.world.application_id)
        # settle() bounces a heartbeat request (op 1) off the bot, and discord.py answers it through
        # its gateway rate limiter: 110 sends a minute, past which its gateway reader stops for up
        # to a minute. A test that sends the bot more than ~100 actions a minute on one connection
        # (a load test) turns this off; actions then go out without waiting for earlier replies.
        self.settle_before_actions = True
        self._drops = 0
        self._in_flight = 0
        self._app = self._build_app()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._held: socket.socket | None = None  # `port`, bound and not listening: `_hold_port`

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self, port: int = 0) -> None:
        self.faults.started()
        self.gateway.stopping = False
        self._runner = web.AppRunner(self._app, handle_signals=False, access_log=None)
        await self._runner.setup()
        if port and not self._holds(port):
            _refuse_if_taken(port)
        # Port 0: the OS picks a free one. SO_REUSEPORT lets `_hold_port` bind it beside.
        site = web.TCPSite(self._runner, "127.0.0.1", port, reuse_port=True)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.gateway.url = self.gateway_url
        self._hold_port()

    def _hold_port(self) -> None:
        """Keep `port` bound, not listening, from now until this fake's `async with` ends, it
        serves on another port or it is collected: once stopped, a bot reconnecting is refused
        there (a Discord out of reach), never served by a fake another test (an xdist worker)
        started on the port the OS gives out again at once (to the next port-0 bind). Nothing
        connects to a socket that does not listen; without SO_REUSEADDR no other server binds
        the port, and the OS gives it to no port-0 bind (only another SO_REUSEPORT socket
        asking for it by number could share)."""
        if self._holds(self.port):
            return
        self._release_port()  # the port this fake served before
        held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)  # beside the listener
        held.bind(("127.0.0.1", self.port))
        self._held = held
        weakref.finalize(self, held.close)

    def _holds(self, port: int) -> bool:
        return self._held is not None and self._held.getsockname()[1] == port

    def _release_port(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None

    async def stop(self) -> None:
        self.faults.stopping()
        if self._runner is not None:
            # Listening ends before the gateway says "going away" (1001): a bot reconnects at
            # once on it, and a connection it made while the server was going away could be
            # taken and never answered (neither served nor closed), its RESUME waiting out
            # discord.py's 60 s connect timeout (test_readme35's flake, mend77). Now it can
            # only meet the port refusing.
            for site in list(self._runner.sites):
                await site.stop()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()
        self._release_port()  # the block's bots are gone: nothing is left to reconnect here

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` must be (as a yarl.URL)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @contextmanager
    def patch_discord_py(self) -> Iterator[None]:
        """Point discord.py's class-level URLs at this fake, restoring them afterwards."""
        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    def _build_app(self) -> web.Application:
        # Room past Discord's upload size, so that a file over it gets Discord's own refusal
        # (`read_body`), not aiohttp's 1 MiB default.
        app = web.Application(
            middlewares=[
                self._arrival_middleware,
                self.faults.middleware,
                self.rate_limits.middleware,
            ],
            client_max_size=4 * UPLOAD_LIMIT,
        )
        app[rest.ATTACHMENTS] = self.attachments
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_routes(self.attachments.routes())
        for module in (rest, rest_channels, rest_interactions):
            app.router.add_routes(module.routes(self))
        app.router.add_route("*", rest.API_PREFIX + "/{tail:.*}", self._unknown_route)
        return app

    def routes(self) -> set[tuple[str, str]]:
        """Every (method, path template) the fake serves below /api/v10."""
        found = set()
        for route in self._app.router.routes():
            canonical = route.resource.canonical if route.resource else ""
            if canonical.startswith(rest.API_PREFIX) and "{tail" not in canonical:
                found.add((route.method, canonical.removeprefix(rest.API_PREFIX)))
        return found

    @web.middleware
    async def _arrival_middleware(
        self, request: web.Request, handler: rest.Handler
    ) -> web.StreamResponse:
        if not request.path.startswith(rest.API_PREFIX):  # the websocket, file downloads
            return await handler(request)
        request[rest.ARRIVED] = time.monotonic()  # before any injected delay: the deadline clock
        self.requests.append((request.method, request.path))
        self._in_flight += 1
        try:
            response = await handler(request)
            if request.transport is None or request.transport.is_closing():
                return response  # a dropped connection, or one the stop ended: nothing to write
            # Finish writing the reply here, before waking tests, so that a test's next action
            # cannot reach the bot ahead of this reply (see settle()).
            await response.prepare(request)
            await response.write_eof()
            return response
        finally:
            self._in_flight -= 1
            await self.waiter.notify()

    async def settle(self) -> None:
        """Let the bot finish with every reply it was sent before it gets anything new.

        discord.py registers a view only after reading the callback reply; a click sent sooner
        would find no view. So: wait until no REST reply is being written, then bounce a
        heartbeat request (op 1) off the bot, which it answers from its event loop.
        Does nothing while ``settle_before_actions`` is False.
        """
        if not self.settle_before_actions:
            return
        await self.waiter.wait_for(lambda: self._in_flight == 0, "REST replies to finish")
        await self.gateway.ping()

    async def _unknown_route(self, request: web.Request) -> web.Response:
        route = f"{request.method} {request.path}"
        self.unknown_routes.append(route)
        self.record_violation("unknown_route", route, "the fake does not serve this route")
        return rest.error(rest.NOT_FOUND)

    # --- world configuration ---------------------------------------------------------------

    @property
    def wait_timeout(self) -> float:
        """How long any wait may take before it fails the test (a guard, not a sleep)."""
        return self.waiter.timeout

    @wait_timeout.setter
    def wait_timeout(self, seconds: float) -> None:
        self.waiter.timeout = seconds

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def add_user(self, username: str, *, global_name: str | None = None) -> FakeUser:
        return self.world.add_user(username, global_name=global_name)

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: FakeUser | None = None,
        shard: int | None = None,
        **kwargs: Any,
    ) -> FakeGuild:
        """A guild; ``shard`` picks an id whose events go to that shard of ``shard_count``."""
        if shard is not None:
            kwargs["guild_id"] = snowflake_on_shard(shard, self.sharding.shard_count)
        return self.world.add_guild(name, owner=owner, **kwargs)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        return self.world.dm_channel(user)

    def add_attachment(
        self,
        filename: str,
        content: bytes | str | None = None,
        *,
        size: int | None = None,
        content_type: str | None = None,
        channel: FakeChannel | None = None,
    ) -> FakeAttachment:
        """A file a user can give an ATTACHMENT option, served by the fake at its ``url``;
        with ``channel``, one sent in a message there (``user_message(attachments=...)``).

        ``size`` instead of ``content`` makes a large file without holding it in memory.
        ``content_type`` defaults to what Discord reports for the file name.
        """
        channel_id = None if channel is None else channel.id
        return self.attachments.add(
            filename, content, size=size, content_type=content_type, channel_id=channel_id
        )

    def attachment_bytes(self, ref: FakeAttachment | Mapping[str, Any] | int) -> bytes:
        """The bytes of a file the fake knows: one a test added, or one the bot uploaded (pass
        the attachment object from a message's ``attachments``)."""
        return self.attachments.find(ref).data()

    # --- readiness and commands ------------------------------------------------------------

    async def wait_until_ready(
        self,
        *,
        synced: bool = True,
        guild_id: int | None = None,
        shards: Iterable[int] | None = None,
    ) -> None:
        """Wait for IDENTIFY -> READY (+ GUILD_CREATE) and, if ``synced``, a command sync.

        ``guild_id`` picks which sync to wait for: that guild's commands, else the global ones.
        ``shards``: which shards must be connected (default: all ``shard_count`` of them).
        """
        wanted = list(range(self.sharding.shard_count) if shards is None else shards)

        def ready() -> bool:
            identified = all(self.gateway.shard_ready(s) for s in wanted)
            return identified and (not synced or self.registry.sync_counts.get(guild_id, 0) > 0)

        scope = "global" if guild_id is None else f"guild {guild_id}"
        what = f"IDENTIFY + {scope} command sync" if synced else "IDENTIFY"
        await self.waiter.wait_for(ready, f"{what} (synced=False if the bot does not sync)")

    def record_sent(
        self,
        kind: str,
        route: str,
        message: JSON,
        body: JSON,
        *,
        creates: bool,
        replied_author_id: int | None = None,
    ) -> None:
        """Keep a copy of what the bot sent; flag it if creating it would ping someone."""
        found = []
        if creates and not is_ephemeral(message):  # edits and ephemeral messages never notify
            found = pings(body, replied_author_id=replied_author_id, bot_id=self.bot.id)
        record = SentMessage(kind, route, copy.deepcopy(message), body, time.monotonic(), found)
        self.sent_messages.append(record)
        if found and self.fail_on_ping:
            self.record_violation("ping", route, f"message would notify: {', '.join(found)}", body)

    async def dispatch_message_event(self, name: str, message: JSON) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for the bot's own non-ephemeral messages, as Discord does."""
        guild_id = int(message["guild_id"]) if "guild_id" in message else None
        if is_ephemeral(message) or not self.gateway.has_session(guild_id):
            return
        intent = GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES
        data = copy.deepcopy(message)
        if name == "MESSAGE_DELETE":
            data = {k: message[k] for k in ("id", "channel_id", "guild_id") if k in message}
        elif guild_id is not None and not self.gateway.intents_of(guild_id) & MESSAGE_CONTENT:
            withhold_replied_to(data, self.bot.id)  # the bot's own text, not what it replied to
        await self.gateway.dispatch(name, data, guild_id=guild_id, intent=intent)

    # --- gateway control -------------------------------------------------------------------

    async def drop_gateway(self, code: int = 4000, *, shard_id: int | None = None) -> None:
        """Close the bot's gateway connection (``shard_id``'s, else the first live one) as a
        network failure would; it will RESUME."""
        self._drops += 1
        await self.gateway.drop(code, shard_id=shard_id)

    async def wait_resumed(self) -> None:
        """Wait until the bot has RESUMEd after every drop so far."""
        await self.waiter.wait_for(
            lambda: self.gateway.connected and self.gateway.resume_count >= self._drops,
            "gateway RESUME",
        )

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot closes the connection and RESUMEs (see wait_resumed)."""
        self._drops += 1
        await self.gateway.request_reconnect()

    # --- fault injection -------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        path: str,
        *,
        status: int = 429,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        code: int = 0,
    ) -> None:
        """The next ``times`` calls to the route answer ``status`` (429 with retry_after; other
        statuses with Discord's error ``code``, e.g. 10062 Unknown interaction).

        ``path`` is a template from ``routes()``, e.g. ``"/channels/{channel_id}/messages"``.
        """
        self.faults.fail_next(
            method,
            path,
            status=status,
            times=times,
            retry_after=retry_after,
            is_global=is_global,
            code=code,
        )

    def rate_limit(self, method: str, path: str, *, limit: int, per: float) -> None:
        """Limit the route to ``limit`` requests per ``per`` seconds for each channel, guild or
        webhook in its path, answered with Discord's headers and 429 (``ratelimits.py``)."""
        self.rate_limits.set(method, path, limit=limit, per=per)

    def drop_next(self, method: str, path: str, *, times: int = 1) -> None:
        """Close the connection of the next ``times`` calls to the route without an answer."""
        self.faults.drop_next(method, path, times=times)

    def delay(self, method: str, path: str, seconds: float, *, times: int | None = None) -> None:
        """Answer calls to the route ``seconds`` late (every call unless ``times`` is set)."""
        self.faults.delay(method, path, seconds, times=times)

    def hold_answer(self, method: str, path: str) -> Hold:
        """Take the next call to the route (recorded, shown) and hold its answer until the
        returned hold's `release()`: the bot's request is under way meanwhile."""
        return self.faults.hold_answer(method, path)

    # --- violations ------------------------------------------------------------------------

    def record_violation(self, kind: str, route: str, detail: str, body: Any = None) -> None:
        self.violations.append(Violation(kind, route, detail, body))

    def pop_violations(self) -> list[Violation]:
        """Take (and clear) the recorded violations: for tests that provoke them on purpose."""
        taken, self.violations = self.violations, []
        return taken

    def violation_report(self) -> str | None:
        """A readable list of the recorded violations, or None if there are none."""
        if not self.violations:
            return None
        lines = "\n  ".join(str(v) for v in self.violations)
        return f"fake Discord recorded {len(self.violations)} violation(s):\n  {lines}"

    def assert_clean(self) -> None:
        """Fail if the bot did anything real Discord would refuse."""
        report = self.violation_report()
        if report is not None:
            raise AssertionError(report)
