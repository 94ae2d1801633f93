"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME.

One session per shard (an unsharded bot is shard 0 of 1); see ``sharding`` for which guild's
events go to which shard and for the IDENTIFY rate limit. Every dispatched event is kept in its
session's log with its sequence number, so a client that RESUMEs after a dropped connection
gets what it missed (events sent while it was away are replayed, then RESUMED), as Discord does.

IDENTIFY is refused as Discord refuses it: a wrong token closes with 4004, a disallowed
privileged intent 4014, a second IDENTIFY on one connection 4005, a ``shard`` that is not
``[id, count]`` with ``0 <= id < count`` and ``count`` equal to the fake's ``shard_count`` 4010,
no ``shard`` while the fake requires sharding (``shard_count > 1``) 4011, and an IDENTIFY too
soon in its rate-limit bucket op 9 (when ``Sharding.enforce`` is set). Discord does not document
what it does when a second connection identifies as a shard that is still connected (bots run
twice are known to answer twice); the fake closes the newcomer with 4005 (Already
authenticated), so that two processes claiming one shard fail the test at once. Each of these
records a ``gateway`` violation.

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
from .sharding import Sharding, shard_of
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
ALREADY_AUTHENTICATED = 4005
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
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
    shard_id: int
    seq: int = 0
    log: list[_Event] = field(default_factory=list)
    ready_sent: bool = False  # READY and every GUILD_CREATE of the session went out
    conn: _Connection | None = None  # the connection serving it now, if any


class _Connection:
    def __init__(self, ws: web.WebSocketResponse, compression: str | None) -> None:
        self.ws = ws
        self.compression = compression
        self.live = False  # dispatches flow only after READY or RESUMED
        self.session: _Session | None = None  # set by IDENTIFY or RESUME
        self.heartbeats = 0
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
        sharding: Sharding,
        record_violation: Callable[[str, str], None],
    ) -> None:
        self.url = ""  # set once the server listens; also sent as resume_gateway_url
        self._world = world
        self._waiter = waiter
        self._token = token
        self._heartbeat_interval_ms = heartbeat_interval_ms
        self._allowed_privileged = allowed_privileged_intents
        self.sharding = sharding
        self._record = record_violation
        self._lock = asyncio.Lock()  # orders sends: the compression stream must stay in order
        self.sessions: dict[int, _Session] = {}  # shard id -> its current session
        self.identify_counts: dict[int, int] = {}  # shard id -> IDENTIFYs answered with READY
        self.resume_count = 0
        self.heartbeat_count = 0
        self.presence: JSON | None = None
        # Cleared, heartbeats go unanswered: a "zombie" connection, which a client must close
        # and RESUME on its own (Discord's docs: no HEARTBEAT_ACK between two heartbeats).
        self.ack_heartbeats = True
        # Guilds in an outage: listed unavailable in READY, no GUILD_CREATE until `end_outage`.
        self.outages: set[int] = set()
        self.received: list[JSON] = []  # every payload the client sent, for debugging
        self.connections: list[dict[str, str]] = []  # query of each connection (v, compress)
        self._open: set[_Connection] = set()
        # Set by `close` (the fake stopping), cleared by the server's start: a connection that
        # arrives while the fake stops (a bot reconnecting at once on the close) is closed too,
        # not served by a gateway whose server is going away.
        self.stopping = False
        # While cleared, a RESUME waits: tests use it to queue events for the replay.
        self.resume_gate = asyncio.Event()
        self.resume_gate.set()
        # While cleared, a new connection gets no HELLO: Discord out of reach, as the bot sees it.
        self.hello_gate = asyncio.Event()
        self.hello_gate.set()
        # While cleared, an IDENTIFY is taken but its READY waits (heartbeats still answered):
        # a session Discord is slow to start, the gateway open and the shard not ready.
        self.ready_gate = asyncio.Event()
        self.ready_gate.set()
        self.identifies_held = 0  # IDENTIFYs waiting at the ready gate now
        self._held: set[asyncio.Task[None]] = set()

    # --- state for tests -------------------------------------------------------------------

    def live_shards(self) -> set[int]:
        """Shards whose session has a live connection (READY or RESUMED sent)."""
        return {s for s, session in self.sessions.items() if _live(session)}

    def shard_ready(self, shard_id: int) -> bool:
        """The shard is connected and its READY and GUILD_CREATEs went out."""
        session = self.sessions.get(shard_id)
        return session is not None and session.ready_sent and _live(session)

    @property
    def connected(self) -> bool:
        """Some shard is connected (the only one, for an unsharded bot)."""
        return bool(self.live_shards())

    @property
    def ready_sent(self) -> bool:
        """Every current session got its READY and GUILD_CREATEs."""
        return bool(self.sessions) and all(s.ready_sent for s in self.sessions.values())

    @property
    def identify_count(self) -> int:
        return sum(self.identify_counts.values())

    @property
    def intents(self) -> int:
        session = self.sessions.get(0) or next(iter(self.sessions.values()), None)
        return 0 if session is None else session.intents

    def intents_of(self, guild_id: int | None) -> int:
        """The intents of the session that receives ``guild_id``'s events."""
        session = self.sessions.get(self.shard_of(guild_id))
        return 0 if session is None else session.intents

    def shard_of(self, guild_id: int | None) -> int:
        return shard_of(guild_id, self.sharding.shard_count)

    def has_session(self, guild_id: int | None) -> bool:
        """Whether the shard that ``guild_id``'s events go to has identified."""
        return self.shard_of(guild_id) in self.sessions

    # --- dispatch --------------------------------------------------------------------------

    async def dispatch(
        self,
        name: str,
        data: JSON,
        *,
        guild_id: int | None = None,
        intent: int | None = None,
        before_send: Callable[[], None] | None = None,
        shard_id: int | None = None,
    ) -> bool:
        """Send an event to the shard of ``guild_id`` (DMs: shard 0) now, or keep it for replay
        on RESUME if that shard's client is away.

        Returns False (and sends nothing) when the session lacks the ``intent`` it needs.
        ``before_send`` runs just before each delivery attempt (interactions stamp their clock).
        """
        shard = self.shard_of(guild_id) if shard_id is None else shard_id
        async with self._lock:
            session = self.sessions.get(shard)
            if session is None:
                raise RuntimeError(
                    f"fake Discord: no bot has identified as shard {shard} "
                    f"(of {self.sharding.shard_count}) on the gateway yet"
                )
            if intent is not None and not session.intents & intent:
                return False
            session.seq += 1
            event = _Event(session.seq, name, data, before_send)
            session.log.append(event)
            if session.conn is not None and session.conn.live:
                await self._deliver(session.conn, event)
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

    def _live_connection(self, shard_id: int | None) -> _Connection:
        if shard_id is None:
            live = sorted(self.live_shards())
            shard_id = live[0] if live else 0
        session = self.sessions.get(shard_id)
        if session is None or session.conn is None:
            raise RuntimeError(f"fake Discord: no gateway connection on shard {shard_id}")
        return session.conn

    async def drop(self, code: int = 4000, *, shard_id: int | None = None) -> None:
        """Close a shard's connection (the first live one by default) like a network failure;
        discord.py will RESUME."""
        async with self._lock:
            conn = self._live_connection(shard_id)
            conn.live = False
            if conn.session is not None:
                conn.session.conn = None
        await conn.ws.close(code=code, message=b"dropped by the test")
        await self._waiter.notify()

    async def ping(self) -> None:
        """Ask every connected client for a heartbeat (op 1) and wait for the answers.

        A client answers from its event loop, so when the answer arrives it has processed
        everything it received before the request.
        """
        async with self._lock:
            asked = {}
            for shard in self.live_shards():
                conn = self.sessions[shard].conn
                assert conn is not None
                asked[conn] = conn.heartbeats
                await conn.send({"op": HEARTBEAT, "d": None})
        await self._waiter.wait_for(
            lambda: all(c.heartbeats > n or not c.live for c, n in asked.items()),
            "heartbeat reply",
        )

    async def request_heartbeats(self, count: int) -> None:
        """Send `count` heartbeat requests (op 1) to every live client without waiting for the
        answers: each answer spends one of the client's gateway sends (discord.py allows 110 a
        minute, then holds every send until the minute is over)."""
        async with self._lock:
            for shard in self.live_shards():
                conn = self.sessions[shard].conn
                assert conn is not None
                for _ in range(count):
                    await conn.send({"op": HEARTBEAT, "d": None})

    async def request_reconnect(self, *, shard_id: int | None = None) -> None:
        """Send op 7 RECONNECT; the client closes and RESUMEs."""
        async with self._lock:
            await self._live_connection(shard_id).send({"op": RECONNECT, "d": None})

    async def end_outage(self, guild_id: int) -> None:
        """The guild is available again: its GUILD_CREATE goes out, as after an outage."""
        self.outages.discard(guild_id)
        guild = self._world.guilds[guild_id]
        session = self.sessions.get(self.shard_of(guild_id))
        members = session is not None and bool(session.intents & GUILD_MEMBERS)
        payload = guild.payload(include_all_members=members, bot_id=self._world.bot.id)
        await self.dispatch("GUILD_CREATE", payload, guild_id=guild_id, intent=GUILDS)

    async def invalidate_session(self, *, resumable: bool, shard_id: int | None = None) -> None:
        """Send op 9 INVALID_SESSION on a live session, as Discord does when it ends one
        (``d``: whether the client may RESUME it). Not resumable, the session is gone: a RESUME
        of it is refused and the client must IDENTIFY again, getting READY and GUILD_CREATEs."""
        async with self._lock:
            conn = self._live_connection(shard_id)
            if not resumable and conn.session is not None:
                del self.sessions[conn.session.shard_id]
                conn.session.conn = None
                conn.live = False
            await conn.send({"op": INVALID_SESSION, "d": resumable})

    async def close(self) -> None:
        self.stopping = True
        self.hello_gate.set()  # a connection held before its HELLO ends, without one
        for task in list(self._held):  # READYs held: their connections close unanswered
            task.cancel()
        for conn in list(self._open):
            conn.live = False
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
        self._open.add(conn)
        try:
            await self._waiter.notify()  # a test may wait for the connection held at the gate
            await self.hello_gate.wait()
            if self.stopping and not ws.closed:  # came while `close` ran, or after it
                await ws.close(code=1001, message=b"fake Discord stopping")
            if ws.closed:  # by `close` while held: Discord never said HELLO on it
                return ws
            async with self._lock:
                await conn.send(
                    {"op": HELLO, "d": {"heartbeat_interval": self._heartbeat_interval_ms}}
                )
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    payload = json.loads(msg.data)
                    self.received.append(payload)
                    await self._on_payload(conn, payload)
                    await self._waiter.notify()
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            self._open.discard(conn)
            conn.live = False
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            await self._waiter.notify()
        return ws

    async def _on_payload(self, conn: _Connection, payload: JSON) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            self.heartbeat_count += 1
            conn.heartbeats += 1
            if self.ack_heartbeats:
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

    async def _refuse(self, conn: _Connection, code: int, reason: str, detail: str) -> None:
        self._record("gateway", f"IDENTIFY refused with {code} {reason}: {detail}")
        await conn.ws.close(code=code, message=reason.encode())

    def _shard_of_identify(self, data: JSON) -> tuple[int, int] | str:
        """``(shard_id, shard_count)`` from an IDENTIFY, or why Discord would refuse it."""
        count = self.sharding.shard_count
        shard = data.get("shard")
        if shard is None:
            return (0, 1) if count == 1 else f"no shard, but the fake requires {count} shards"
        valid = (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
            and 0 <= shard[0] < shard[1]
        )
        if not valid:
            return f"shard {shard!r} is not [shard_id, shard_count] with shard_id < shard_count"
        if shard[1] != count:
            return f"shard_count {shard[1]} but the fake was told {count}"
        return shard[0], shard[1]

    async def _identify(self, conn: _Connection, data: JSON) -> None:
        if conn.session is not None:
            await self._refuse(conn, ALREADY_AUTHENTICATED, "Already authenticated.", "twice")
            return
        if data.get("token") != self._token():
            await conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self._allowed_privileged:
            await conn.ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
            return
        sharding = self.sharding
        now = sharding.clock()
        shard = self._shard_of_identify(data)
        if isinstance(shard, str):
            raw = data.get("shard")
            shard_id = raw[0] if isinstance(raw, list) and raw and isinstance(raw[0], int) else 0
            sharding.record(shard_id, sharding.shard_count, now, "invalid_shard")
            code = SHARDING_REQUIRED if data.get("shard") is None else INVALID_SHARD
            reason = "Sharding required." if code == SHARDING_REQUIRED else "Invalid shard."
            await self._refuse(conn, code, reason, shard)
            return
        shard_id, shard_count = shard
        current = self.sessions.get(shard_id)
        if current is not None and _live(current):
            sharding.record(shard_id, shard_count, now, "already_identified")
            detail = f"shard {shard_id} is already connected on another connection"
            await self._refuse(conn, ALREADY_AUTHENTICATED, "Already authenticated.", detail)
            return
        if sharding.enforce and sharding.too_soon(shard_id, now):
            sharding.record(shard_id, shard_count, now, "rate_limited")
            self._record(
                "gateway",
                f"IDENTIFY of shard {shard_id} within {sharding.identify_window}s of another in "
                f"bucket {sharding.bucket(shard_id)}: answered op 9 INVALID_SESSION",
            )
            async with self._lock:
                await conn.send({"op": INVALID_SESSION, "d": False})
            return
        if sharding.remaining <= 0:
            sharding.record(shard_id, shard_count, now, "session_start_limit")
            detail = "session_start_limit exhausted (Discord resets the token)"
            await self._refuse(conn, AUTHENTICATION_FAILED, "Authentication failed.", detail)
            return
        sharding.remaining -= 1
        sharding.record(shard_id, shard_count, now, "ready")
        if not self.ready_gate.is_set():  # off the connection's loop: its heartbeats go on
            task = asyncio.create_task(
                self._ready_when_open(conn, shard_id, shard_count, intents, "shard" in data)
            )
            self._held.add(task)
            task.add_done_callback(self._held.discard)
            return
        await self._start_session(conn, shard_id, shard_count, intents, with_shard="shard" in data)

    async def _ready_when_open(
        self, conn: _Connection, shard_id: int, shard_count: int, intents: int, with_shard: bool
    ) -> None:
        self.identifies_held += 1
        await self._waiter.notify()
        try:
            await self.ready_gate.wait()
        finally:
            self.identifies_held -= 1
        if not conn.ws.closed:
            await self._start_session(conn, shard_id, shard_count, intents, with_shard=with_shard)

    async def _start_session(
        self, conn: _Connection, shard_id: int, shard_count: int, intents: int, *, with_shard: bool
    ) -> None:
        session = _Session(secrets.token_hex(16), intents, shard_id, conn=conn)
        self.sessions[shard_id] = session
        conn.session = session
        conn.live = True
        self.identify_counts[shard_id] = self.identify_counts.get(shard_id, 0) + 1
        world = self._world
        guilds = [g for g in world.guilds.values() if self.shard_of(g.id) == shard_id]
        ready: JSON = {
            "v": 10,
            "user": {**world.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["fake-discord"],
        }
        if with_shard:
            ready["shard"] = [shard_id, shard_count]
        await self.dispatch("READY", ready, shard_id=shard_id)
        include_members = bool(intents & GUILD_MEMBERS)
        for guild in guilds:
            if guild.id in self.outages:  # in READY as unavailable; GUILD_CREATE when it ends
                continue
            payload = guild.payload(include_all_members=include_members, bot_id=world.bot.id)
            await self.dispatch("GUILD_CREATE", payload, intent=GUILDS, shard_id=shard_id)
        session.ready_sent = True
        await self._waiter.notify()

    async def _resume(self, conn: _Connection, data: JSON) -> None:
        if data.get("token") != self._token():
            await conn.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        wanted = data.get("session_id")
        session = next((s for s in self.sessions.values() if s.id == wanted), None)
        if session is None:
            async with self._lock:
                await conn.send({"op": INVALID_SESSION, "d": False})
            return
        await self.resume_gate.wait()
        last_seen = int(data.get("seq") or 0)
        async with self._lock:
            old = session.conn
            if old is not None and old is not conn:  # Discord ends the connection it replaces
                old.live = False
                await old.ws.close(code=4000, message=b"session resumed elsewhere")
            session.conn = conn
            conn.session = session
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
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk, guild_id=guild.id)


def _live(session: _Session) -> bool:
    return session.conn is not None and session.conn.live
