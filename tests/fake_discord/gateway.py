"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME.

One session at a time. Every dispatched event is kept in the session log with its sequence
number, so a client that RESUMEs after a dropped connection gets what it missed (events sent
while it was away are replayed, then RESUMED), as Discord does.

Transport compression: ``zlib-stream`` (one zlib context per connection, each payload ending
in a Z_SYNC_FLUSH) and, if the ``zstandard`` module is importable, ``zstd-stream``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .handles import Waiter
from .world import World

try:  # discord.py asks for zstd-stream whenever zstandard is importable
    import zstandard  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - depends on the environment
    zstandard = None

JSON = dict[str, Any]

# Opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE, RESUME, RECONNECT = 0, 1, 2, 3, 6, 7
REQUEST_GUILD_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11

# Intents
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# Close codes
AUTHENTICATION_FAILED = 4004
DISALLOWED_INTENTS = 4014


@dataclass
class _Event:
    seq: int
    name: str
    data: JSON
    before_send: Callable[[], None] | None
    sent: bool = False


@dataclass
class _Session:
    id: str
    intents: int
    seq: int = 0
    log: list[_Event] = field(default_factory=list)


class _Connection:
    def __init__(self, ws: web.WebSocketResponse, compression: str | None) -> None:
        self.ws = ws
        self.compression = compression
        self.live = False  # dispatches flow only after READY or RESUMED
        self._zlib = zlib.compressobj() if compression == "zlib-stream" else None
        self._zstd = (
            zstandard.ZstdCompressor().compressobj()
            if compression == "zstd-stream" and zstandard is not None
            else None
        )

    async def send(self, payload: JSON) -> None:
        raw = json.dumps(payload).encode()
        if self._zlib is not None:
            await self.ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
        elif self._zstd is not None:  # untested here: this environment has no zstandard
            chunk = self._zstd.compress(raw)
            await self.ws.send_bytes(chunk + self._zstd.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK))
        else:
            await self.ws.send_str(raw.decode())


class Gateway:
    def __init__(
        self,
        world: World,
        waiter: Waiter,
        *,
        token: Callable[[], str],
        heartbeat_interval_ms: int,
        allowed_privileged_intents: int,
        record_violation: Callable[[str, str], None],
    ) -> None:
        self.url = ""  # set once the server listens; also sent as resume_gateway_url
        self._world = world
        self._waiter = waiter
        self._token = token
        self._heartbeat_interval_ms = heartbeat_interval_ms
        self._allowed_privileged = allowed_privileged_intents
        self._record = record_violation
        self._lock = asyncio.Lock()  # orders sends: the compression stream must stay in order
        self._conn: _Connection | None = None
        self.session: _Session | None = None
        self.ready_sent = False  # READY and every GUILD_CREATE of the session went out
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeat_count = 0
        self.presence: JSON | None = None
        self.received: list[JSON] = []  # every payload the client sent, for debugging
        self.connections: list[dict[str, str]] = []  # query of each connection (v, compress)
        # While cleared, a RESUME waits: tests use it to queue events for the replay.
        self.resume_gate = asyncio.Event()
        self.resume_gate.set()

    # --- state for tests -------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._conn is not None and self._conn.live

    @property
    def intents(self) -> int:
        return 0 if self.session is None else self.session.intents

    # --- dispatch --------------------------------------------------------------------------

    async def dispatch(
        self,
        name: str,
        data: JSON,
        *,
        intent: int | None = None,
        before_send: Callable[[], None] | None = None,
    ) -> bool:
        """Send an event now, or keep it for replay on RESUME if the client is away.

        Returns False (and sends nothing) when the session lacks the ``intent`` it needs.
        ``before_send`` runs just before each delivery attempt (interactions stamp their clock).
        """
        async with self._lock:
            session = self.session
            if session is None:
                raise RuntimeError("fake Discord: the bot has not identified on the gateway yet")
            if intent is not None and not session.intents & intent:
                return False
            session.seq += 1
            event = _Event(session.seq, name, data, before_send)
            session.log.append(event)
            if self._conn is not None and self._conn.live:
                await self._deliver(self._conn, event)
        await self._waiter.notify()
        return True

    async def _deliver(self, conn: _Connection, event: _Event) -> None:
        # Stamp before sending: a fast bot may answer before send() returns to us.
        if not event.sent and event.before_send is not None:
            event.before_send()
        try:
            await conn.send({"op": DISPATCH, "t": event.name, "s": event.seq, "d": event.data})
        except (ConnectionError, RuntimeError):
            return  # stays unsent; a RESUME replays it
        event.sent = True

    # --- test controls ---------------------------------------------------------------------

    async def drop(self, code: int = 4000) -> None:
        """Close the connection like a network failure; discord.py will RESUME."""
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is None:
                raise RuntimeError("fake Discord: no gateway connection to drop")
            conn.live = False
        await conn.ws.close(code=code, message=b"dropped by the test")
        await self._waiter.notify()

    async def ping(self) -> None:
        """Ask the client for a heartbeat (op 1) and wait for it; a no-op when disconnected.

        The client answers from its event loop, so when the answer arrives it has processed
        everything it received before the request.
        """
        before = self.heartbeat_count
        async with self._lock:
            conn = self._conn
            if conn is None or not conn.live:
                return
            await conn.send({"op": HEARTBEAT, "d": None})
        await self._waiter.wait_for(
            lambda: self.heartbeat_count > before or not self.connected, "heartbeat reply"
        )

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the client closes and RESUMEs."""
        async with self._lock:
            if self._conn is not None:
                await self._conn.send({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.ws.close(code=1001, message=b"fake Discord stopping")

    # --- the websocket ---------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, timeout=5.0)
        await ws.prepare(request)
        compression = request.query.get("compress")
        self.connections.append(dict(request.query))
        if compression == "zstd-stream" and zstandard is None:
            self._record("gateway", "client asked for zstd-stream but zstandard is missing")
            await ws.close(code=4000, message=b"zstd-stream unavailable")
            return ws
        conn = _Connection(ws, compression)
        old, self._conn = self._conn, conn
        if old is not None:
            old.live = False
            await old.ws.close(code=4000, message=b"replaced by a new connection")
        async with self._lock:
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self._heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    payload = json.loads(msg.data)
                    self.received.append(payload)
                    await self._on_payload(conn, payload)
                    await self._waiter.notify()
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            conn.live = False
            if self._conn is conn:
                self._conn = None
            await self._waiter.notify()
        return ws

    async def _on_payload(self, conn: _Connection, payload: JSON) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            self.heartbeat_count += 1
            async with self._lock:
                await conn.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == PRESENCE_UPDATE:
            self.presence = data
        elif op == REQUEST_GUILD_MEMBERS:
            await self._send_member_chunk(data or {})
        else:
            self._record("gateway", f"unexpected opcode {op}: {payload}")

    async def _identify(self, conn: _Connection, data: JSON) -> None:
        if data.get("token") != self._token():
            await conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self._allowed_privileged:
            await conn.ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
            return
        self.session = _Session(secrets.token_hex(16), intents)
        self.ready_sent = False
        self.identify_count += 1
        conn.live = True
        world = self._world
        ready: JSON = {
            "v": 10,
            "user": {**world.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
            "session_id": self.session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["fake-discord"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self.dispatch("READY", ready)
        include_members = bool(intents & GUILD_MEMBERS)
        for guild in world.guilds.values():
            payload = guild.payload(include_all_members=include_members, bot_id=world.bot.id)
            await self.dispatch("GUILD_CREATE", payload, intent=GUILDS)
        self.ready_sent = True
        await self._waiter.notify()

    async def _resume(self, conn: _Connection, data: JSON) -> None:
        session = self.session
        if data.get("token") != self._token():
            await conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        if session is None or data.get("session_id") != session.id:
            async with self._lock:
                await conn.send({"op": INVALID_SESSION, "d": False})
            return
        await self.resume_gate.wait()
        last_seen = int(data.get("seq") or 0)
        async with self._lock:
            for event in session.log:
                if event.seq > last_seen:
                    await self._deliver(conn, event)
            session.seq += 1
            await conn.send({"op": DISPATCH, "t": "RESUMED", "s": session.seq, "d": {}})
            conn.live = True
            self.resume_count += 1
        await self._waiter.notify()

    async def _send_member_chunk(self, data: JSON) -> None:
        guild = self._world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [
            m.payload()
            for m in guild.members.values()
            if (not wanted or m.user.id in wanted) and m.user.username.lower().startswith(query)
        ]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)
