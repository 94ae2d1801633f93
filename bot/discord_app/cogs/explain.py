"""The "Explain terms" message command: every glossary term in a message, one line each, and a
menu to open their cards."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.cards.embed import BRAND_COLOUR
from bot.discord_app import metrics as observe
from bot.discord_app.cooldowns import lookup_limit
from bot.discord_app.member_searches import turn_of
from bot.discord_app.replies import (
    ACK_DEADLINE,
    PickSelect,
    Reply,
    bold_title,
    echo,
    entry_options,
    post_instead,
    respond_in_time,
)
from bot.discord_app.state import BotState
from bot.glossary.invisible import JOINERS, drop_invisible
from bot.glossary.letters import fit
from bot.search.query import without_chat_markup
from bot.storage import DM_SCOPE

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot
    from bot.search.local import LocalGlossary

    Interaction = discord.Interaction[GlossaryBot]

MAX_LISTED = limits.SELECT_OPTIONS
# The most of a message read: as long as the longest text a member can send (with Nitro), the
# message's own text first, then its embeds' (a card's, another bot's).
MAX_READ = 2 * limits.MESSAGE_CONTENT
SUMMARY = 140  # characters of each term's summary
# Seconds after Discord sent the interaction that an answer not deferred may spend reading the
# message before it defers after all: half Discord's 3 s, the other half for the defer's round
# trip. A 2,000-character message repeating a long server name took 0.5 s of CPU to read, over
# 3 s on a loaded machine: the answer was lost.
READ_BEFORE_DEFER = ACK_DEADLINE / 2
BUSY = "Too many messages are waiting to be read in this server right now: try again in a moment."
# Each member's direct messages take a turn of their own (`turn_of`): told of no server.
BUSY_DM = "Too many messages are waiting to be read right now: try again in a moment."
FILE_NAME_ECHO = 40  # characters of an attached file's name repeated (Discord allows 10 files)


def readable_text(message: discord.Message) -> str:
    """The text a reader sees in `message`: its content, a poll's question and answers, then
    the text of a forwarded message (Discord sends a forward with no content of its own, the
    forwarded message in a snapshot), then each embed's title, description and field values,
    one per line, at most MAX_READ characters, without characters that show nothing, nor the
    markup Discord shows otherwise (a custom emoji is a picture, a masked link its text, a code
    block hides its language line)."""
    parts = [message.content or ""]
    if message.poll is not None:
        parts += [message.poll.question, *(answer.text for answer in message.poll.answers)]
    embeds = list(message.embeds)
    for snapshot in message.message_snapshots:
        parts.append(snapshot.content or "")
        embeds += snapshot.embeds
    read = sum(len(part) + 1 for part in parts)
    for embed in embeds:
        if read >= MAX_READ:
            break
        for text in (embed.title, embed.description, *(f.value for f in embed.fields)):
            if text:
                parts.append(text)
                read += len(text) + 1
    # Soft hyphens and zero-width spaces from a web page split no word, as in `/define`; the
    # joiners shape emoji and the words of some scripts: kept.
    text = "\n".join(part for part in parts if part)[:MAX_READ]
    return drop_invisible(without_chat_markup(text), keep=JOINERS)


def _none_found(message: discord.Message, read: str) -> str:
    """What to say when no term is found, true also of text in an attached file: Discord's
    client sends a paste past the message's length as `message.txt`, which the bot does not
    download (a download per click, of a file up to the server's upload size)."""
    attached = [
        *message.attachments,
        *(a for s in message.message_snapshots for a in s.attachments),
    ]
    files = [a.filename for a in attached if (a.content_type or "").startswith("text/")]
    if not files:
        return "I found no glossary terms in that message."
    named = ", ".join(echo(name, FILE_NAME_ECHO, mid_line=True) for name in files)
    file = "file" if len(files) == 1 else "files"
    if not read.strip():
        return (
            f"That message's text is in {'an ' if len(files) == 1 else ''}attached {file} "
            f"({named}), which I don't read: `/define` looks up a term from it."
        )
    return f"I found no glossary terms in that message (I don't read its attached {file}, {named})."


class ExplainCog(commands.Cog):
    def __init__(self, bot: GlossaryBot, state: BotState) -> None:
        self.bot = bot
        self.state = state
        # A cog cannot declare a context menu with a decorator: it is made here and added to
        # the tree when the cog loads.
        self.menu = app_commands.ContextMenu(
            name="Explain terms",
            callback=self.explain_terms,
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
        )
        lookup_limit(self.menu)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)

    async def explain_terms(self, interaction: Interaction, message: discord.Message) -> None:
        started = self.bot.arrivals.sent_at(interaction)
        state = self.state
        scope = interaction.guild_id or DM_SCOPE
        # The answer may take a while where the server's terms are not read yet (as /define), or
        # where the worker reading members' messages has others' to read first: a defer then,
        # which Discord gives 15 minutes, not 3 s.
        deferred = not state.servers.knows(scope) or not state.member_searches.idle()
        missed = None  # Discord takes an answer; else why it does not
        if deferred:
            missed = await respond_in_time(
                started, lambda: interaction.response.defer(ephemeral=True, thinking=True)
            )
        local = await state.servers.local(scope, patient=deferred)
        reading = asyncio.ensure_future(
            terms_listing(state, scope, local, message, interaction.user.id)
        )
        try:
            if not deferred:
                left = started + READ_BEFORE_DEFER - time.monotonic()
                await asyncio.wait({reading}, timeout=max(0.0, left))
            if not reading.done() and not deferred:  # a slow read: Discord is told to wait
                deferred = True
                missed = await respond_in_time(
                    started, lambda: interaction.response.defer(ephemeral=True, thinking=True)
                )
            reply = await reading
        finally:
            reading.cancel()  # done, or this answer was cancelled (a stop): nothing more to read
        if reply is None:
            reply = Reply(BUSY if interaction.guild_id else BUSY_DM, None, None, private=True)
        kwargs = reply.send_kwargs()
        if not deferred:
            missed = await respond_in_time(
                started, lambda: interaction.response.send_message(ephemeral=True, **kwargs)
            )
        if missed is not None:
            await post_instead(interaction, reply, ephemeral=True, why=missed)
        elif deferred:
            await interaction.followup.send(ephemeral=True, **kwargs)


async def terms_listing(
    state: BotState, scope: int, local: LocalGlossary, message: discord.Message, owner_id: int
) -> Reply | None:
    """The terms found in `message`, one line each, with a menu to open their cards (also the
    answer to a message forwarded to the bot), counted in the metrics as what it answered. The
    text is read off the event loop, taking turns with other servers; None where this server
    has too many messages waiting to be read (`MemberSearches`)."""
    read = readable_text(message)
    found = await state.member_searches.run(
        turn_of(scope, owner_id), local.index.find_named_terms, read, local.aliases
    )
    if found is None:
        return None
    entries = list(dict.fromkeys(m.entry.id for m in found))[:MAX_LISTED]
    if not entries:
        observe.outcome("no_entry")
        return Reply(_none_found(message, read), None, None, private=True)
    observe.outcome("listing")
    glossary = local.glossary
    lines = []
    for entry_id in entries:
        entry = glossary[entry_id]
        lines.append(
            f"{bold_title(entry.display_title)}: {fit(entry.summary or entry.definition, SUMMARY)}"
        )
    embed = discord.Embed(
        title=f"{len(entries):,} glossary term{'s' if len(entries) != 1 else ''} in this message",
        description=fit("\n".join(lines), limits.EMBED_DESCRIPTION),
        colour=BRAND_COLOUR,
    )
    embed.set_footer(text="Pick one to open its card.")
    view = discord.ui.View(timeout=None)
    options = entry_options([glossary[e] for e in entries])
    view.add_item(PickSelect(owner_id, options, placeholder="Open a card…", row=0))
    return Reply(None, embed, view, private=True)
