"""The Discord client: registers the commands, answers mentions, and keeps errors friendly."""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from typing import Any

import discord
from discord import app_commands

from bot.discord_app.about import glossary_group
from bot.discord_app.answers import answer_for
from bot.discord_app.components import DYNAMIC_ITEMS
from bot.discord_app.define import define
from bot.discord_app.errors import NO_MENTIONS, error_reply, report_error
from bot.discord_app.explain import explain_terms
from bot.discord_app.moderation import MissToAliasSelect, alias_group
from bot.discord_app.state import DM_SCOPE, BotState

log = logging.getLogger(__name__)

MENTION_HELP = (
    "Ask me about a term: mention me with it, e.g. “what is a KV cache?”, or use `/define`."
)
# On stopping, interactions already being answered get this long to finish.
DRAIN_SECONDS = 5.0
OUTDATED_COMPONENT = (
    "This button or menu no longer works (it is older than this version of the bot). "
    "Run `/define` again for a fresh card."
)


class GlossaryTree(app_commands.CommandTree["GlossaryBot"]):
    async def interaction_check(self, interaction: discord.Interaction[GlossaryBot]) -> bool:
        return self.client.admit()  # every command and autocomplete

    async def on_error(
        self, interaction: discord.Interaction[GlossaryBot], error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


class GlossaryBot(discord.Client):
    def __init__(
        self, state: BotState, *, dev_guild_id: int | None = None, guild_ready_timeout: float = 2.0
    ) -> None:
        super().__init__(
            intents=discord.Intents.default(),  # no privileged intents
            allowed_mentions=NO_MENTIONS,
            guild_ready_timeout=guild_ready_timeout,
        )
        self.state = state
        self.dev_guild_id = dev_guild_id
        self.tree = GlossaryTree(self)
        self.tree.add_command(define)
        self.tree.add_command(explain_terms)
        self.tree.add_command(alias_group)
        self.tree.add_command(glossary_group)  # /glossary about, and stats from moderation
        self._stopping = False
        self._busy: set[asyncio.Task[Any]] = set()

    def admit(self) -> bool:
        """Take on an interaction or a message (False once stopping), and remember the task
        answering it: stopping waits for those, so no answer is cut off half-way."""
        if self._stopping:
            return False
        task = asyncio.current_task()
        if task is not None:
            self._busy.add(task)
            task.add_done_callback(self._busy.discard)
        return True

    async def setup_hook(self) -> None:
        self.add_dynamic_items(*DYNAMIC_ITEMS, MissToAliasSelect)
        if self.dev_guild_id:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info(
            "connected as %s (%s); serving %d entries",
            self.user,
            self.user.id,
            len(self.state.glossary),
        )
        for guild in self.guilds:
            await self.state.overlay(guild.id)  # warm each server's alias cache

    async def on_interaction(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        """A button or menu that no handler knows gets an answer, not "This interaction failed".

        Every component the bot sends is a dynamic item, so one whose custom id fits none of
        their templates (from an older release, say) would otherwise go unanswered.
        """
        if interaction.type is not discord.InteractionType.component or self._stopping:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        for item in (*DYNAMIC_ITEMS, MissToAliasSelect):
            template: re.Pattern[str] = item.__discord_ui_compiled_template__
            if template.fullmatch(custom_id):
                return
        log.warning("no handler for component %r (interaction %s)", custom_id, interaction.id)
        await interaction.response.send_message(
            OUTDATED_COMPONENT, ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or self.user is None:
            return
        is_dm = message.guild is None
        if not is_dm and not any(u.id == self.user.id for u in message.mentions):
            return
        if not self.admit():
            return
        try:
            await self._answer_mention(message)
        except Exception:
            error_id = uuid.uuid4().hex[:8]
            log.exception("error %s answering message %s", error_id, message.id)
            await message.reply(
                error_reply(error_id), mention_author=False, allowed_mentions=NO_MENTIONS
            )

    async def _answer_mention(self, message: discord.Message) -> None:
        assert self.user is not None
        text = re.sub(rf"<@!?{self.user.id}>", " ", message.content).strip()
        if not text:
            await message.reply(MENTION_HELP, mention_author=False, allowed_mentions=NO_MENTIONS)
            return
        scope = message.guild.id if message.guild else DM_SCOPE
        overlay = await self.state.overlay(scope)
        result = self.state.index.search(text, overlay)
        answer = await answer_for(self.state, result, message.author.id, scope)
        await message.reply(mention_author=False, **answer.message_parts())

    async def close(self) -> None:
        # Take nothing new and let the answers under way finish; then disconnect (gateway and
        # HTTP); then write the counts. In that order every card shown is counted, and no
        # "thinking…" is left without its answer.
        self._stopping = True
        busy = {t for t in self._busy if t is not asyncio.current_task()}
        if busy:
            await asyncio.wait(busy, timeout=DRAIN_SECONDS)
        await super().close()
        if self.state.store is not None:
            store, self.state.store = self.state.store, None
            try:
                await store.close()  # flushes every buffered count
            except Exception:
                log.exception("could not close the database cleanly")
