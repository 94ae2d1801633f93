"""The bot's side of the metrics (see `bot.metrics`): each interaction or mention is timed from
the moment the bot takes it on until its task ends, and counted with how it ended; reconnects are
counted per shard; the live values are read from the client and the state when scraped.

`begin` is called where work is taken on, `outcome` where the answer is decided; the count and
the time are recorded when the task ends, whatever way it ends. Each interaction runs in a task
of its own, so the work under way lives in a context variable.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import metrics
from bot.discord_app.logs import log_context
from bot.settings import Settings
from bot.storage import Store

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.discord_app.state import BotState

log = logging.getLogger(__name__)

WRITABLE_TIMEOUT = 2.0  # seconds a scrape waits for the database's answer


@dataclass
class _Work:
    kind: str
    started: float
    outcome: str = "ok"

    def finish(self, _task: object = None) -> None:
        metrics.INTERACTIONS.labels(kind=self.kind, outcome=self.outcome).inc()
        metrics.HANDLER_SECONDS.labels(kind=self.kind).observe(time.perf_counter() - self.started)


_CURRENT: contextvars.ContextVar[_Work | None] = contextvars.ContextVar("work", default=None)


def kind_of(work: discord.Interaction[Any] | discord.Message) -> str:
    """A command's name ("define", "alias add"), or "autocomplete", "component", "modal",
    "mention"."""
    if isinstance(work, discord.Message):
        return "mention"
    if work.type is discord.InteractionType.autocomplete:
        return "autocomplete"
    if work.type is discord.InteractionType.component:
        return "component"
    if work.type is discord.InteractionType.modal_submit:
        return "modal"
    command = work.command
    return command.qualified_name if command is not None else "unknown"


def begin(work: discord.Interaction[Any] | discord.Message) -> None:
    """The current task takes on an interaction or a mention: time it, tag its log lines."""
    if isinstance(work, discord.Message):
        start(kind_of(work), work.guild.id if work.guild else None)
    else:
        start(kind_of(work), work.guild_id)


def start(kind: str, guild_id: int | None) -> None:
    if _CURRENT.get() is not None:
        return  # already under way in this task (a check that runs twice)
    record = _Work(kind, time.perf_counter())
    _CURRENT.set(record)
    log_context(guild=guild_id, command=kind)
    task = asyncio.current_task()
    if task is not None:
        task.add_done_callback(record.finish)


def outcome(name: str) -> None:
    """How the work under way ends (one of metrics.OUTCOMES); an error stands."""
    record = _CURRENT.get()
    if record is not None and record.outcome != "error":
        record.outcome = name


def failed(error_id: str) -> None:
    """The work under way ended in an error the user was told about under `error_id`."""
    outcome("error")
    log_context(error_id=error_id)


def watch_gateway(bot: commands.Bot) -> None:
    """Count every gateway connection after the first, and every resume, per shard. A
    process of several shards hears `connect` once per shard, so it counts by shard events."""
    connected: set[int] = set()

    def connect(shard: int) -> None:
        if shard in connected:
            metrics.GATEWAY_RECONNECTS.labels(shard=str(shard)).inc()
        connected.add(shard)

    def resumed(shard: int) -> None:
        metrics.GATEWAY_RECONNECTS.labels(shard=str(shard)).inc()

    if isinstance(bot, discord.AutoShardedClient):

        async def on_shard_connect(shard_id: int) -> None:
            connect(shard_id)

        async def on_shard_resumed(shard_id: int) -> None:
            resumed(shard_id)

        bot.add_listener(on_shard_connect)
        bot.add_listener(on_shard_resumed)
        return

    async def on_connect() -> None:
        connect(bot.shard_id or 0)

    async def on_resumed() -> None:
        resumed(bot.shard_id or 0)

    bot.add_listener(on_connect)
    bot.add_listener(on_resumed)


def latencies(bot: commands.Bot) -> list[tuple[int | None, float]]:
    """Each shard's heartbeat latency; a process of several shards has one per shard (its
    `latency` is their average)."""
    if isinstance(bot, discord.AutoShardedClient):
        return list(bot.latencies)
    return [(bot.shard_id, bot.latency)]


def serve_metrics(
    settings: Settings, bot: commands.Bot, state: BotState
) -> metrics.MetricsServer | None:
    """Start the metrics server if METRICS_PORT is set (None if not, or if it cannot listen:
    metrics never keep the bot from answering)."""
    if settings.metrics_port is None:
        return None
    loop = asyncio.get_running_loop()

    def writable() -> bool:  # in the server's thread: ask the event loop, briefly
        store = state.store
        if store is None or loop.is_closed():
            return False
        try:
            future = asyncio.run_coroutine_threadsafe(store.can_write(), loop)
            return bool(future.result(WRITABLE_TIMEOUT))
        except Exception:
            return False

    def definitions() -> dict[str, int]:
        return {s.key: n for s, n in state.glossary.definitions_per_source()}

    live = metrics.LiveValues(
        lambda: latencies(bot), writable, definitions, entries=lambda: len(state.glossary)
    )
    try:
        server = metrics.serve(settings.metrics_host, settings.metrics_port, live)
    except (OSError, UnicodeError) as exc:
        # UnicodeError: the IDNA codec refusing a name with an empty or over-long part between
        # its dots (`127.0.0..1`), before any lookup.
        why = exc if isinstance(exc, OSError) else f"not a host name or address ({exc})"
        log.error(
            "cannot serve metrics on %s:%s (METRICS_HOST, METRICS_PORT): %s; running without",
            settings.metrics_host,
            settings.metrics_port,
            why,
        )
        return None
    watch_gateway(bot)
    Store.observer = metrics.StoreMetrics()  # every store of this process: there is one
    log.info("metrics on %s", metrics_url(settings.metrics_host, server.port))
    return server


def metrics_url(host: str, port: int) -> str:
    """Where Prometheus scrapes; an IPv6 address goes in brackets, as URLs write it."""
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/metrics"
