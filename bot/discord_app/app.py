"""The Discord bot: loads the command cogs, takes on work until stopping, keeps errors friendly.

A `commands.Bot` for its cogs (one per command family, see `bot.discord_app.cogs`); it has no
prefix commands: people talk to it through application commands and mentions.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import collector
from bot.discord_app import compat, replays
from bot.discord_app import metrics as observe
from bot.discord_app.cogs import DYNAMIC_ITEMS, FORM_IDS, add_cogs
from bot.discord_app.command_permissions import CommandAccess
from bot.discord_app.errors import NO_MENTIONS, report_error
from bot.discord_app.identify import IdentifyGate
from bot.discord_app.items import submitted_values, typed_back
from bot.discord_app.lateness import Arrivals
from bot.discord_app.replies import ACK_DEADLINE
from bot.discord_app.rest_watch import RestWatch
from bot.discord_app.state import BotState
from bot.storage import StorageError

log = logging.getLogger(__name__)

# A stop ends within this many seconds of its signal, whatever the database does: the process
# exits well inside a container's grace (`docker stop` sends SIGKILL 10 s after SIGTERM).
# Interactions being answered may take all but the last STORE_SHARE s, kept for the counts.
STOP_SECONDS = 7.0
STORE_SHARE = 3.0
OUTDATED_COMPONENT = (
    "This button or menu no longer works (it is older than this version of the bot). "
    "Run `/define` again for a fresh card."
)
OUTDATED_FORM = (
    "This form no longer works (it is older than this version of the bot), so nothing was "
    "saved. What you typed:"
)


class GlossaryTree(app_commands.CommandTree["GlossaryBot"]):
    def _from_interaction(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        # discord.py calls this as it reads the interaction, and answers it in a task of its
        # own: a request typed on from is known by the time the older one's task runs.
        if interaction.type is discord.InteractionType.autocomplete:
            self.client.arrivals.typed(interaction)
        super()._from_interaction(interaction)

    async def interaction_check(self, interaction: discord.Interaction[GlossaryBot]) -> bool:
        if not self.client.admit(interaction):  # every command and autocomplete
            return False
        late = self.client.arrivals.lateness(interaction)
        if interaction.type is discord.InteractionType.autocomplete and (
            late >= ACK_DEADLINE or self.client.arrivals.typed_on(interaction)
        ):
            # Its answer would be refused, or not shown (a newer one is): no search.
            log.debug("skipped autocomplete %s: %.1f s late or typed on", interaction.id, late)
            observe.outcome("late")
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[GlossaryBot], error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


class GlossaryBot(commands.Bot):
    tree: GlossaryTree

    def __init__(
        self,
        state: BotState,
        *,
        dev_guild_id: int | None = None,
        guild_ready_timeout: float = 2.0,
        identify_window: float = 5.0,
        **options: Any,  # shard_count and shard_ids, for ShardedGlossaryBot
    ) -> None:
        # Whether Discord's REST API answers (for `health`, told when that turns).
        self.rest = RestWatch(turned=state.health_changed.set)
        self.arrivals = Arrivals()  # how late interactions come, to skip stale autocompletes
        super().__init__(
            command_prefix=(),  # no prefix commands
            help_command=None,
            tree_cls=GlossaryTree,
            intents=discord.Intents.default(),  # no privileged intents
            allowed_mentions=NO_MENTIONS,
            guild_ready_timeout=guild_ready_timeout,
            http_trace=self.rest.trace(),
            **options,
        )
        replays.read_once(self._connection.parsers)
        compat.skip_unreadable_events(self._connection.parsers)  # read_once's faults included
        self.state = state
        self.dev_guild_id = dev_guild_id
        self.identify_window = identify_window
        self._identify: IdentifyGate | None = None
        self._stopping = False
        # When, on the loop's clock, the stop under way must have ended (see STOP_SECONDS).
        self.stop_deadline: float | None = None
        self._busy: set[asyncio.Task[Any]] = set()
        self._alias_watch: asyncio.Task[None] | None = None
        self._set_aside = False  # what the bot built at start is out of full collections
        # Who may use which command (Integrations overrides), for menus that act like one.
        self.command_access = CommandAccess(self._command_permissions)
        # Shards (0: the one connection) whose connection ended and whose new one has had no
        # READY or RESUMED yet: an open gateway answers heartbeats before its session starts,
        # and `health` read that as connected (discord.py's `is_ready` stays set meanwhile).
        self.between_sessions: set[int] = set()

    def admit(self, work: discord.Interaction[Any] | discord.Message) -> bool:
        """Take on an interaction or a message (False once stopping), and remember the task
        answering it: stopping waits for those, so no answer is cut off half-way. Metrics and
        the log lines time and tag the work from here."""
        if self._stopping:
            return False
        observe.begin(work)
        task = asyncio.current_task()
        if task is not None:
            self._busy.add(task)
            task.add_done_callback(self._busy.discard)
        return True

    async def setup_hook(self) -> None:
        self.rest.watching = True  # logged in: Discord answered
        await add_cogs(self)
        self._alias_watch = asyncio.create_task(self.state.servers.watch())
        if self.dev_guild_id:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        self.command_access.know(self.application_id or 0, synced)

    async def _command_permissions(self, guild_id: int) -> list[Any]:
        return await self.http.get_guild_application_command_permissions(
            self.application_id or 0, guild_id
        )

    async def on_raw_app_command_permissions_update(
        self, event: discord.RawAppCommandPermissionsUpdateEvent
    ) -> None:
        self.command_access.forget(event.guild.id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        # Its members' messages: nobody to answer. (`/define`'s searches run on: an interaction
        # taken is answered, and a term's search is short.)
        self.state.member_searches.forget(guild.id)
        # Its compiled glossary (some 10 MB at the caps), and the embedding of its terms, which
        # stops at its batch: read again if the bot is added back and asked.
        self.state.servers.left(guild.id)

    # Every GUILD_CREATE is one of these two (added back, or again after a new session).
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.state.servers.joined(guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.state.servers.joined(guild.id)

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info(
            "connected as %s (%s)%s; serving %s entries",
            self.user,
            self.user.id,
            self.shards_served(),
            f"{len(self.state.glossary):,}",
        )
        if not self._set_aside:  # once: what a reconnect leaves behind may die in cycles
            self._set_aside = True
            collector.set_aside()  # before the servers' caches, which go when idle
        await self.state.servers.warm(guild.id for guild in self.guilds)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Take turns with the bot's other processes when they share a PostgreSQL database,
        and among this process's shards when it runs several (`IdentifyGate`: by Discord's
        buckets); unsharded and alone, discord.py's default (5 s between two IDENTIFYs)."""
        store = self.state.store
        shared = store is not None and store.shared
        if not shared and (self.shard_count or 1) <= 1:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        try:
            if self._identify is None:
                _, _, limits = await self.http.get_bot_gateway()
                self._identify = IdentifyGate(
                    store if shared else None,
                    window=self.identify_window,
                    max_concurrency=int(limits.get("max_concurrency", 1)),
                )
            await self._identify.wait_turn(shard_id or 0)
        except (StorageError, discord.HTTPException, discord.GatewayNotFound) as exc:
            # Said in full: a database or Discord refusing, no fault of the bot's to trace.
            log.warning(
                "cannot take turns to identify shard %s (%s); waiting %g s instead",
                shard_id,
                exc,
                self.identify_window,
            )
            await asyncio.sleep(self.identify_window)  # the rate limit, uncoordinated

    # `connect` is dispatched on READY, as `resumed` on RESUMED; `disconnect` as a connection
    # ends. A process of several shards hears the plain events too: it goes by the shards'.
    # Each tells the heartbeat, which says it at once (`health.keep_heartbeat`'s `changed`).
    async def on_disconnect(self) -> None:
        if not isinstance(self, discord.AutoShardedClient):
            self.between_sessions.add(0)
        self.state.health_changed.set()

    async def on_connect(self) -> None:
        if not isinstance(self, discord.AutoShardedClient):
            self.between_sessions.discard(0)
        self.state.health_changed.set()

    async def on_resumed(self) -> None:
        await self.on_connect()

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.between_sessions.add(shard_id)
        self.state.health_changed.set()

    async def on_shard_connect(self, shard_id: int) -> None:
        self.between_sessions.discard(shard_id)
        self.state.health_changed.set()

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.between_sessions.discard(shard_id)
        self.state.health_changed.set()

    async def on_shard_ready(self, shard_id: int) -> None:
        count = sum(1 for guild in self.guilds if guild.shard_id == shard_id)
        log.info("shard %d ready: %s server%s", shard_id, f"{count:,}", "" if count == 1 else "s")

    def shards_served(self) -> str:
        return ""  # one connection, unsharded

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: mentions are answered by the define cog's listener."""

    async def on_interaction(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        """A button or menu that no handler knows gets an answer, not "This interaction failed".

        Every component the bot sends is a dynamic item, so one whose custom id fits none of
        their templates (from an older release, say) would otherwise go unanswered.
        """
        if self._stopping:
            return
        if interaction.type is discord.InteractionType.modal_submit:
            await self._unknown_form(interaction)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        for item in DYNAMIC_ITEMS:
            template: re.Pattern[str] = item.__discord_ui_compiled_template__
            if template.fullmatch(custom_id):
                return
        log.warning("no handler for component %r (interaction %s)", custom_id, interaction.id)
        await interaction.response.send_message(
            OUTDATED_COMPONENT, ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    async def _unknown_form(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        """A form no cog opened (an older release's, or a hand-made client's) gets an answer
        with what was typed in it: unanswered, Discord says "This interaction failed" and the
        text is gone. discord.py's own store holds no forms: each cog handles its forms' ids."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if any(form.fullmatch(custom_id) for form in FORM_IDS):
            return
        log.warning("no handler for form %r (interaction %s)", custom_id, interaction.id)
        await interaction.response.send_message(
            typed_back(OUTDATED_FORM, submitted_values(data)),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    async def close(self) -> None:
        # Take nothing new and let the answers under way finish; then disconnect (gateway and
        # HTTP); then write the counts. In that order every card shown is counted, and no
        # "thinking…" is left without its answer. Every step keeps to one deadline.
        loop = asyncio.get_running_loop()
        if self.stop_deadline is None:
            self.stop_deadline = loop.time() + STOP_SECONDS
        deadline = self.stop_deadline
        if self.state.store is not None:  # database waits, from now on, end by the deadline
            self.state.store.give_up_at(deadline)
        self._stopping = True
        # Members' messages waiting their turn are not read; `/define`'s are (`term_searches`):
        # an interaction the bot took is answered before it stops, as the stop promises.
        self.state.member_searches.stop()
        busy = {t for t in self._busy if t is not asyncio.current_task()}
        if busy:
            _, late = await asyncio.wait(
                busy, timeout=max(0.0, deadline - STORE_SHARE - loop.time())
            )
            if late:
                # Left running, each would send into the session closed below (an error each,
                # after the stop was said done): cancelled here. A save under way takes the
                # cancel and is answered within the rest of the stop (`through_the_stop`).
                log.info(
                    "stopping: %s answer%s still under way at the stop's time for answers: "
                    "cancelled (a save under way is waited for)",
                    f"{len(late):,}",
                    "" if len(late) == 1 else "s",
                )
                for task in late:
                    task.cancel()
                await asyncio.wait(late, timeout=max(0.0, deadline - loop.time()))
                # Counted once they end: one that took the cancel and answered is not dropped.
                dropped = sum(1 for task in late if not task.done() or task.cancelled())
                if dropped:  # one line, before the connection closes
                    log.warning(
                        "stopping: %s answer%s not sent by the stop's deadline %s dropped, not "
                        "sent into the closed connection",
                        f"{dropped:,}",
                        "" if dropped == 1 else "s",
                        "is" if dropped == 1 else "are",
                    )
        self._forget_pending_ready()
        await super().close()
        # Again: a READY read while the connection closed schedules its `ready` anew, which
        # fired on the closed client (a traceback) once a stop outlasted `guild_ready_timeout`.
        self._forget_pending_ready()
        if self._identify is not None:
            self._identify.close()
        if self._alias_watch is not None:
            self._alias_watch.cancel()
        self.state.servers.close()
        if self._set_aside:
            collector.take_back()
        if self.state.store is not None:
            store, self.state.store = self.state.store, None
            try:
                await store.close(deadline=deadline)  # flushes every buffered count
            except Exception:
                log.exception("could not close the database cleanly")

    def _forget_pending_ready(self) -> None:
        """discord.py dispatches `ready` up to `guild_ready_timeout` after connecting; a stop
        within that time would have it dispatched on the closed client (a traceback)."""
        state: Any = self._connection  # its pending `ready` tasks are not public
        pending = [state._ready_task, *getattr(state, "_ready_tasks", {}).values()]
        for task in pending:
            if task is not None:
                task.cancel()


def shard_label(shard_ids: Sequence[int]) -> str:
    return ",".join(str(shard) for shard in shard_ids)


class ShardedGlossaryBot(GlossaryBot, commands.AutoShardedBot):
    """The same bot over several gateway connections: `SHARD_COUNT` shards in all, of which
    this process runs `SHARD_IDS` (all of them when unset)."""

    def shards_served(self) -> str:
        shard_ids = self.shard_ids or range(self.shard_count or 1)
        return f" on shards {shard_label(shard_ids)} of {self.shard_count}"
