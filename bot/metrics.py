"""Prometheus metrics (prometheus-client), in one registry of the bot's own.

The metrics are module-level objects, so the Discord layer counts with one call and no plumbing
(the state its reloads); the store, which imports no Prometheus, reports its counting and
flushing through `Store.observer` (`StoreMetrics`). Counting costs a lock and an addition,
whether or not a server exposes them. `serve` starts that server when `METRICS_PORT` is set. Values that
are cheaper to read than to keep up to date (gateway latency, database writable, entries per
source) are read when Prometheus scrapes, through `LiveValues`.
"""

from __future__ import annotations

import contextlib
import io
import math
import queue
import selectors
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, cast
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    make_wsgi_app,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry()

# What an interaction (or a mention) ended as. "listing" is the terms found in a message
# (Explain terms, a forward to the bot); "late" an answer nobody saw: an autocomplete left
# unanswered (it came past Discord's deadline, or the member typed on), or an answer lost past
# Discord's deadline (a private one, or one the channel refused); "ok" any other answer (about,
# aliases, stats).
OUTCOMES = ("card", "suggestions", "listing", "no_entry", "refused", "error", "late", "ok")

INTERACTIONS = Counter(
    "glossary_interactions",
    "Interactions and mentions answered, by kind (the command, autocomplete, component or "
    "mention) and outcome (card, suggestions, listing, no_entry, refused, error, late, ok)",
    ["kind", "outcome"],
    registry=REGISTRY,
)
HANDLER_SECONDS = Histogram(
    "glossary_handler_seconds",
    "Seconds from taking on an interaction or mention to finishing its answer, by kind",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
GATEWAY_RECONNECTS = Counter(
    "glossary_gateway_reconnects",
    "Gateway connections after the first (new sessions and resumes), by shard",
    ["shard"],
    registry=REGISTRY,
)
LOOKUPS_BUFFERED = Counter(
    "glossary_lookups_buffered",
    "Lookups counted in memory (written to the database by the next flush)",
    registry=REGISTRY,
)
LOOKUPS_FLUSHED = Counter(
    "glossary_lookups_flushed",
    "Lookups written to the database",
    registry=REGISTRY,
)
FLUSH_SECONDS = Histogram(
    "glossary_flush_seconds",
    "Seconds a flush of buffered counts took (successful or not)",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0),
    registry=REGISTRY,
)
FLUSH_FAILURES = Counter(
    "glossary_flush_failures",
    "Flushes that failed (their counts stay in memory and are written by a later flush)",
    registry=REGISTRY,
)
RELOADS = Counter(
    "glossary_reloads",
    "Glossary reloads (SIGHUP), by result: ok, or refused (the old glossary kept serving)",
    ["result"],
    registry=REGISTRY,
)


class LastReload(Collector):
    """The last reload's result and time, absent before the first: a label-less Gauge would
    export 0 from the start, which reads as "refused" to an alert on the result."""

    def __init__(self) -> None:
        self.last: tuple[bool, float] | None = None  # one assignment: read whole by a scrape

    def describe(self) -> Iterable[Metric]:
        return self._families(False, 0.0)

    def collect(self) -> Iterable[Metric]:
        last = self.last
        return [] if last is None else self._families(*last)

    @staticmethod
    def _families(ok: bool, when: float) -> list[Metric]:
        return [
            GaugeMetricFamily(
                "glossary_last_reload_ok",
                "1 if the last glossary reload succeeded, 0 if it was refused "
                "(absent before any reload)",
                value=1.0 if ok else 0.0,
            ),
            GaugeMetricFamily(
                "glossary_last_reload_timestamp_seconds",
                "When the last glossary reload finished (Unix time; absent before any reload)",
                value=when,
            ),
        ]


LAST_RELOAD = LastReload()
REGISTRY.register(LAST_RELOAD)
# Read at scrape time by LiveValues: named here so that the dashboard test knows them too.
LIVE_METRICS = (
    "glossary_gateway_latency_seconds",
    "glossary_database_writable",
    "glossary_entries",
    "glossary_definitions",
)


class StoreMetrics:
    """The store's counting and flushing as metrics (it is told through Store.observer)."""

    def lookup_counted(self, lookups: int = 1) -> None:
        LOOKUPS_BUFFERED.inc(lookups)

    def flushed(self, seconds: float, lookups: int, ok: bool) -> None:
        FLUSH_SECONDS.observe(seconds)
        if ok:
            LOOKUPS_FLUSHED.inc(lookups)
        else:
            FLUSH_FAILURES.inc()


def reloaded(ok: bool) -> None:
    RELOADS.labels(result="ok" if ok else "refused").inc()
    LAST_RELOAD.last = (ok, time.time())


class LiveValues(Collector):
    """Gauges read from the running bot when Prometheus scrapes (in the server's thread)."""

    def __init__(
        self,
        latencies: Callable[[], Iterable[tuple[int | None, float]]],
        writable: Callable[[], bool],
        definitions_per_source: Callable[[], Mapping[str, int]],
        *,
        entries: Callable[[], int],
    ) -> None:
        self.latencies = latencies
        self.writable = writable
        self.definitions_per_source = definitions_per_source
        # The entries served (the log's "serving N entries"): fewer than the definitions, an
        # entry two sources define counting once.
        self.entries = entries

    def collect(self) -> Iterable[Metric]:
        latency = GaugeMetricFamily(
            LIVE_METRICS[0],
            "Gateway heartbeat latency by shard (absent while not connected)",
            labels=["shard"],
        )
        for shard, seconds in self.latencies():
            if math.isfinite(seconds):
                latency.add_metric([str(shard or 0)], seconds)
        yield latency
        yield GaugeMetricFamily(
            LIVE_METRICS[1],
            "1 if the database takes writes now, 0 if not (or there is none)",
            value=1.0 if self.writable() else 0.0,
        )
        yield GaugeMetricFamily(
            LIVE_METRICS[2],
            "Entries the glossary serves (terms, each one card)",
            value=self.entries(),
        )
        definitions = GaugeMetricFamily(
            LIVE_METRICS[3],
            "Definitions in the glossary, by source (an entry may have one from each)",
            labels=["source"],
        )
        for source, count in self.definitions_per_source().items():
            definitions.add_metric([source], count)
        yield definitions


# Seconds a stop waits for the scrapes under way to be answered: one waits for the database's
# state up to 2 s (the bot's WRITABLE_TIMEOUT); the rest take milliseconds.
ANSWER_SECONDS = 2.5


class MetricsServer:
    """The HTTP server of `serve`: `/metrics` in Prometheus's text format, until `stop`."""

    def __init__(self, server: _Server, thread: threading.Thread, live: LiveValues) -> None:
        self._server, self._thread, self._live = server, thread, live
        self.port: int = server.server_port

    def stop(self, within: float = ANSWER_SECONDS) -> None:
        """No more scrapes; those under way answered (up to `within` seconds): their threads
        are daemons, which the process's exit cut, and Prometheus saw the connection reset."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        self._server.answer_all(within)
        REGISTRY.unregister(self._live)


# Seconds a scrape's connection may stay silent: a client that sends nothing (a slow client, a
# port scanner) is let go then, before and after its request line alike.
IDLE_SECONDS = 10.0
# Scrapes answered at once, each in a thread of a pool: a request is handed to one only once
# it has arrived whole (its headers), so idle connections hold no thread (3,000 of them held
# ~1,000 threads and 60 MB); one waiting for the database's state takes up to 2 s.
ANSWERING = 8
# Connections held while their request arrives: past this many, the oldest is closed (a flood
# of idle connections never keeps a new scrape out), each a socket and its bytes so far.
MAX_WAITING = 512
# The most of a request held before it is handed on whole or not (prometheus sends ~200 bytes).
HEAD_BYTES = 16 * 1024


class _Handler(WSGIRequestHandler):
    """prometheus-client's handler (no log line per request), with a deadline for silence
    (`timeout`, set by `serve`), reading first what the waiting room read of the request."""

    server: _Server

    def setup(self) -> None:
        super().setup()
        head = self.server.take_head(self.request)
        if head:
            self.rfile = io.BufferedReader(_Prefixed(head, self.connection))

    def handle(self) -> None:
        try:
            super().handle()
        except OSError:  # timed out, or the client went away: nothing to answer, nor to log
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Prefixed(io.RawIOBase):
    """A socket's bytes with those already read of it first."""

    def __init__(self, head: bytes, sock: socket.socket) -> None:
        self._head, self._sock = head, sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        return self._sock.recv_into(buffer)


class _Server(WSGIServer):
    # The listen backlog (socketserver's default is 5): a burst of scrapes beyond it waited for
    # a SYN retry (1 s, then 3 s...) while the accept loop caught up. The kernel caps it at
    # net.core.somaxconn.
    request_queue_size = 128
    idle_seconds = IDLE_SECONDS  # set by `serve`

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._answering: set[Future[None]] = set()  # the scrapes under way
        self._answering_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(ANSWERING, thread_name_prefix="metrics-scrape")
        self._heads: dict[socket.socket, bytes] = {}  # requests read whole, for their handler
        # The waiting room: one thread and a selector for every connection whose request has
        # not arrived whole; `process_request` (the accept loop's thread) queues new ones.
        self._arrived: queue.SimpleQueue[tuple[socket.socket, Any]] = queue.SimpleQueue()
        self._wake_reader, self._wake_writer = socket.socketpair()
        self._wake_reader.setblocking(False)
        self._closing = False
        self._room = threading.Thread(target=self._wait_room, name="metrics-wait", daemon=True)
        self._room.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        self._arrived.put((request, client_address))
        with contextlib.suppress(OSError):
            self._wake_writer.send(b"\0")

    def take_head(self, request: socket.socket) -> bytes:
        with self._answering_lock:
            return self._heads.pop(request, b"")

    def _hand_on(self, request: socket.socket, client_address: Any, head: bytes) -> None:
        request.setblocking(True)
        with self._answering_lock:
            self._heads[request] = head
            try:
                future = self._pool.submit(self._answer, request, client_address)
            except RuntimeError:  # the pool shut down: stopping
                self._heads.pop(request, None)
                self.shutdown_request(request)
                return
            self._answering.add(future)
        future.add_done_callback(self._answered)

    def _answered(self, future: Future[None]) -> None:
        with self._answering_lock:
            self._answering.discard(future)

    def _answer(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)

    def _wait_room(self) -> None:
        """Read each connection's request until its headers end (or HEAD_BYTES), then hand it
        to the pool; close one silent for `idle_seconds`, and the oldest past MAX_WAITING."""
        waiting: OrderedDict[socket.socket, tuple[Any, float, bytearray]] = OrderedDict()
        with selectors.DefaultSelector() as selector:
            selector.register(self._wake_reader, selectors.EVENT_READ)
            while not self._closing:
                now = time.monotonic()
                while waiting:  # the oldest first: silent for too long?
                    sock, (_, since, _) = next(iter(waiting.items()))
                    if now - since < self.idle_seconds:
                        break
                    self._let_go(selector, waiting, sock)
                left = None
                if waiting:
                    oldest = next(iter(waiting.values()))[1]
                    left = max(0.0, oldest + self.idle_seconds - now)
                for key, _ in selector.select(left):
                    sock = cast(socket.socket, key.fileobj)
                    if sock is self._wake_reader:
                        with contextlib.suppress(OSError):
                            while sock.recv(4096):
                                pass
                        self._take_arrivals(selector, waiting)
                        continue
                    self._read_some(selector, waiting, sock)
            for sock in list(waiting):
                self._let_go(selector, waiting, sock)

    def _take_arrivals(
        self,
        selector: selectors.BaseSelector,
        waiting: OrderedDict[socket.socket, tuple[Any, float, bytearray]],
    ) -> None:
        while True:
            try:
                sock, address = self._arrived.get_nowait()
            except queue.Empty:
                return
            if self._closing:
                self.shutdown_request(sock)
                continue
            sock.setblocking(False)
            waiting[sock] = (address, time.monotonic(), bytearray())
            selector.register(sock, selectors.EVENT_READ)
            while len(waiting) > MAX_WAITING:
                self._let_go(selector, waiting, next(iter(waiting)))

    def _read_some(
        self,
        selector: selectors.BaseSelector,
        waiting: OrderedDict[socket.socket, tuple[Any, float, bytearray]],
        sock: socket.socket,
    ) -> None:
        address, _, head = waiting[sock]
        try:
            data = sock.recv(HEAD_BYTES - len(head))
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the client went away
            self._let_go(selector, waiting, sock)
            return
        head += data
        if b"\r\n\r\n" in head or b"\n\n" in head or len(head) >= HEAD_BYTES:
            selector.unregister(sock)
            del waiting[sock]
            self._hand_on(sock, address, bytes(head))

    def _let_go(
        self,
        selector: selectors.BaseSelector,
        waiting: OrderedDict[socket.socket, tuple[Any, float, bytearray]],
        sock: socket.socket,
    ) -> None:
        selector.unregister(sock)
        del waiting[sock]
        self.shutdown_request(sock)

    def server_close(self) -> None:
        super().server_close()
        if not hasattr(self, "_room"):  # the bind failed, in `__init__`: nothing started
            return
        self._closing = True
        with contextlib.suppress(OSError):
            self._wake_writer.send(b"\0")
        self._room.join(timeout=5)
        self._wake_reader.close()
        self._wake_writer.close()

    def answer_all(self, within: float) -> None:
        """Wait up to `within` seconds in all for the scrapes under way."""
        with self._answering_lock:
            under_way = list(self._answering)
        wait(under_way, timeout=within)
        self._pool.shutdown(wait=False, cancel_futures=True)

    def waiting_and_answering(self) -> tuple[int, int]:
        """For tests: connections in the waiting room (queued or held), scrapes under way."""
        with self._answering_lock:
            return self._arrived.qsize(), len(self._answering)


def _head_as_get(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """`app`, answering HEAD as GET without the body (the same status and headers, the length
    of the body it would send): uptime checkers ask with HEAD, which prometheus-client refuses
    (405)."""

    def answer(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "HEAD":
            return app(environ, start_response)
        started: list[tuple[str, list[tuple[str, str]]]] = []
        body = b"".join(app({**environ, "REQUEST_METHOD": "GET"}, lambda *a: started.append(a)))
        status, headers = started[0][:2]
        if not any(name.lower() == "content-length" for name, _ in headers):
            headers = [*headers, ("Content-Length", str(len(body)))]
        start_response(status, headers)
        return []

    return answer


def serve(host: str, port: int, live: LiveValues) -> MetricsServer:
    """Serve the metrics on host:port (port 0: any free one) in a thread of their own (as
    prometheus-client's `start_http_server`, with the handler above)."""
    REGISTRY.register(live)
    try:
        family = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)[0][0]
        server_class = type(
            "_Server", (_Server,), {"address_family": family, "idle_seconds": IDLE_SECONDS}
        )
        handler = type("_Handler", (_Handler,), {"timeout": IDLE_SECONDS})
        app = _head_as_get(make_wsgi_app(REGISTRY))
        server = cast(_Server, make_server(host, port, app, server_class, handler_class=handler))
    except BaseException:
        REGISTRY.unregister(live)
        raise
    thread = threading.Thread(target=server.serve_forever, name="metrics", daemon=True)
    thread.start()
    return MetricsServer(server, thread, live)
