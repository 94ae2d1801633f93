"""A tiny discord.py bot exercising every flow the fake supports (and a few it must reject)."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

TERMS = ["attention", "autoencoder", "kv cache", "kv store", "tokenizer"]
QUIET = discord.AllowedMentions.none()


class TermView(discord.ui.View):
    """A button that updates the card in place and a select that answers with a new message."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Related: attention", custom_id="related:attention")
    async def related(
        self, interaction: discord.Interaction, button: discord.ui.Button[TermView]
    ) -> None:
        await interaction.response.edit_message(embed=discord.Embed(title="attention"), view=self)

    @discord.ui.button(label="Refresh", custom_id="refresh")
    async def refresh(
        self, interaction: discord.Interaction, button: discord.ui.Button[TermView]
    ) -> None:
        await interaction.response.defer()  # type 6 for a component: update later
        await interaction.edit_original_response(content="refreshed")

    @discord.ui.select(
        custom_id="pick",
        options=[discord.SelectOption(label=t, value=t) for t in TERMS[:3]],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[TermView]
    ) -> None:
        await interaction.response.send_message(f"picked {', '.join(select.values)}")


class WhoView(discord.ui.View):
    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="who")
    async def who(
        self, interaction: discord.Interaction, select: discord.ui.UserSelect[WhoView]
    ) -> None:
        await interaction.response.send_message(f"who: {select.values[0].name}")


class Feedback(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[Feedback] = discord.ui.TextInput(label="Your note", custom_id="note")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


class TermModal(discord.ui.Modal, title="Add a term"):
    """Five text inputs at Discord's limits: the shape of a glossary entry."""

    name: discord.ui.TextInput[TermModal] = discord.ui.TextInput(
        label="Term", custom_id="name", max_length=100, placeholder="e.g. KV cache"
    )
    definition: discord.ui.TextInput[TermModal] = discord.ui.TextInput(
        label="Definition",
        custom_id="definition",
        style=discord.TextStyle.paragraph,
        max_length=4000,
    )
    boundary: discord.ui.TextInput[TermModal] = discord.ui.TextInput(
        label="What it is not",
        custom_id="boundary",
        style=discord.TextStyle.paragraph,
        required=False,
        max_length=4000,
    )
    aliases: discord.ui.TextInput[TermModal] = discord.ui.TextInput(
        label="Other names", custom_id="aliases", required=False, default="kvc"
    )
    related: discord.ui.TextInput[TermModal] = discord.ui.TextInput(
        label="Related terms", custom_id="related", required=False, min_length=2
    )

    def __init__(self, submitted: asyncio.Queue[dict[str, str]]) -> None:
        super().__init__(custom_id="term:add")
        self.submitted = submitted

    async def on_submit(self, interaction: discord.Interaction) -> None:
        values = {
            item.custom_id: item.value
            for item in self.children
            if isinstance(item, discord.ui.TextInput)
        }
        self.submitted.put_nowait(values)
        await interaction.response.send_message(f"added {self.name.value}", ephemeral=True)


class ModalAgain(discord.ui.Modal, title="Again"):
    """Answers its own submit with another modal, which Discord refuses."""

    note: discord.ui.TextInput[ModalAgain] = discord.ui.TextInput(label="Note", custom_id="note")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())


class OpenFormView(discord.ui.View):
    """A button on a message that opens a modal (a MESSAGE_COMPONENT answered with type 9)."""

    def __init__(self, submitted: asyncio.Queue[dict[str, str]]) -> None:
        super().__init__(timeout=60)
        self.submitted = submitted

    @discord.ui.button(label="Suggest it", custom_id="suggest")
    async def suggest(
        self, interaction: discord.Interaction, button: discord.ui.Button[OpenFormView]
    ) -> None:
        await interaction.response.send_modal(TermModal(self.submitted))


class ConfirmView(discord.ui.View):
    """Buttons on an ephemeral follow-up; a click updates that follow-up in place."""

    @discord.ui.button(label="Remove", style=discord.ButtonStyle.danger, custom_id="confirm:yes")
    async def yes(
        self, interaction: discord.Interaction, button: discord.ui.Button[ConfirmView]
    ) -> None:
        await interaction.response.edit_message(content="removed", view=None)

    @discord.ui.select(
        custom_id="confirm:why",
        options=[discord.SelectOption(label=r, value=r) for r in ("duplicate", "wrong")],
    )
    async def why(
        self, interaction: discord.Interaction, select: discord.ui.Select[ConfirmView]
    ) -> None:
        await interaction.response.send_message(f"reason: {select.values[0]}", ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(
        self,
        *,
        message_content: bool = False,
        sync_guild: int | None = None,
        heartbeat_timeout: float = 60.0,  # discord.py's default
    ) -> None:
        intents = discord.Intents.default()
        intents.message_content = message_content
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=QUIET,
            guild_ready_timeout=0.05,  # the default waits 2 s for more guilds before on_ready
            heartbeat_timeout=heartbeat_timeout,
        )
        self.errors: asyncio.Queue[BaseException] = asyncio.Queue()
        self.sync_guild = sync_guild
        self.slow_release = asyncio.Event()
        self.submitted: asyncio.Queue[dict[str, str]] = asyncio.Queue()  # TermModal values
        self.files_read: asyncio.Queue[bytes] = asyncio.Queue()
        _add_commands(self)
        _add_modal_and_file_commands(self)

    async def setup_hook(self) -> None:
        if self.sync_guild is None:
            await self.tree.sync()
        else:  # the usual development setup: commands in one guild only
            guild = discord.Object(self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or self.user is None:
            return
        if self.user.mentioned_in(message):
            await message.reply(f"you said: {message.content}", allowed_mentions=QUIET)


def _add_commands(bot: TinyBot) -> None:
    tree = bot.tree

    @tree.error
    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        bot.errors.put_nowait(error.__cause__ or error)

    async def complete_term(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=t, value=t) for t in TERMS if t.startswith(current)]

    @tree.command(description="Define a term")
    @app_commands.autocomplete(term=complete_term)
    async def define(interaction: discord.Interaction, term: str) -> None:
        embed = discord.Embed(title=term, description=f"{term} is a term.")
        await interaction.response.send_message(embed=embed, view=TermView())

    @tree.command(description="Answers after thinking")
    async def slow(interaction: discord.Interaction, term: str) -> None:
        await interaction.response.defer(thinking=True)
        await bot.slow_release.wait()  # the test decides when the work is done
        await interaction.edit_original_response(content=f"slow {term}")
        await interaction.followup.send("and one more thing")

    @tree.command(description="Moderators only")
    @app_commands.default_permissions(manage_guild=True)
    async def mod(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("mod ok", ephemeral=True)

    alias = app_commands.Group(name="alias", description="Manage aliases")

    @alias.command(name="add", description="Add an alias")
    async def alias_add(
        interaction: discord.Interaction, alias: str, target: str, weight: int = 1
    ) -> None:
        await interaction.response.send_message(f"{alias} -> {target} ({weight})")

    tree.add_command(alias)

    @tree.command(description="Open a feedback form")
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    @tree.context_menu(name="Define this")
    async def define_this(interaction: discord.Interaction, message: discord.Message) -> None:
        await interaction.response.send_message(f"defining: {message.content}", ephemeral=True)

    @tree.command(description="Thinks in public, then answers privately")
    async def private_answer(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.delete_original_response()
        await interaction.followup.send("only for you", ephemeral=True)

    @tree.command(description="Fetches, edits and deletes its own messages")
    async def manage(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        original = await interaction.original_response()
        await original.edit(content=f"{original.content}, edited")
        note = await interaction.followup.send("note", ephemeral=True, wait=True)
        await note.edit(content="note, edited")
        await note.delete()

    @tree.command(description="Pick a member")
    async def pick_member(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick someone", view=WhoView())

    @tree.context_menu(name="Who is this")
    async def who_is(interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(f"that is {member.name}", ephemeral=True)

    # --- flows the fake must reject -------------------------------------------------------

    @tree.command(description="Sends an embed that is too long")
    async def overlong(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=discord.Embed(description="x" * 4097))

    async def too_many(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"choice {i}", value=str(i)) for i in range(26)]

    @tree.command(description="Autocompletes 26 choices")
    @app_commands.autocomplete(q=too_many)
    async def many(interaction: discord.Interaction, q: str) -> None:
        await interaction.response.send_message(q)

    async def too_long(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in ("short", "sixsix")]

    @tree.command(description="Autocompletes a value past its option's 5 characters")
    @app_commands.autocomplete(q=too_long)
    async def capped(interaction: discord.Interaction, q: app_commands.Range[str, 2, 5]) -> None:
        await interaction.response.send_message(q)

    @tree.command(description="Responds twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("once")
        # discord.py refuses a second response itself; go around it as a buggy bot might.
        adapter = discord.webhook.async_.async_context.get()
        params = discord.webhook.async_.interaction_response_params(4, {"content": "twice"})
        await adapter.create_interaction_response(
            interaction.id, interaction.token, session=interaction._session, params=params
        )

    @tree.command(description="Responds late")
    async def late(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)  # simulated slow work, longer than the test's shrunken deadline
        await interaction.response.send_message("too late")

    @tree.command(description="Posts in the channel")
    async def post(interaction: discord.Interaction, text: str, loud: bool = False) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        mentions = discord.AllowedMentions.all() if loud else QUIET
        await interaction.channel.send(text, allowed_mentions=mentions)


def _raw_callback(interaction: discord.Interaction, kind: int, data: dict[str, object]) -> Any:
    """An initial response sent past discord.py's own checks, as a buggy bot might."""
    adapter = discord.webhook.async_.async_context.get()
    params = discord.webhook.async_.interaction_response_params(kind, data)
    return adapter.create_interaction_response(
        interaction.id, interaction.token, session=interaction._session, params=params
    )


def _add_modal_and_file_commands(bot: TinyBot) -> None:
    tree = bot.tree

    @tree.command(description="Opens the five-field term form")
    async def term_add(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(TermModal(bot.submitted))

    @tree.command(description="A message whose button opens the term form")
    async def suggest(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("missing?", view=OpenFormView(bot.submitted))

    @tree.command(description="A modal whose submit opens another modal")
    async def modal_again(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(ModalAgain())

    @tree.command(description="Asks privately, with buttons")
    async def confirm(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("sure?", ephemeral=True, view=ConfirmView())
        await interaction.followup.send("second thoughts?", ephemeral=True, view=ConfirmView())

    @tree.command(description="Reads an attached file")
    async def read_file(interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        bot.files_read.put_nowait(data)
        await interaction.response.send_message(
            f"{file.filename}: {len(data)} bytes of {file.content_type}", ephemeral=True
        )

    @tree.command(description="Reads at most 1 KiB of an attached file")
    async def read_head(interaction: discord.Interaction, file: discord.Attachment) -> None:
        await interaction.response.defer(ephemeral=True)
        cap = 1024
        async with aiohttp.ClientSession() as session, session.get(file.url) as response:
            declared = int(response.headers["Content-Length"])
            head = await response.content.read(cap)
        bot.files_read.put_nowait(head)
        verdict = "too big" if declared > cap else "fits"
        await interaction.followup.send(f"{declared} bytes: {verdict}", ephemeral=True)

    # --- modal flows the fake must reject -------------------------------------------------

    @tree.command(description="A modal with a 46-character title")
    async def long_title(interaction: discord.Interaction) -> None:
        modal = Feedback()
        modal.title = "t" * 46  # discord.py does not check the length; Discord does
        await interaction.response.send_modal(modal)

    @tree.command(description="A modal with six text inputs")
    async def six_inputs(interaction: discord.Interaction) -> None:
        # discord.py refuses a sixth item itself (Modal.add_item), so build the body by hand.
        rows = [
            {
                "type": 1,
                "components": [
                    {"type": 4, "custom_id": f"f{i}", "label": f"Field {i}", "style": 1}
                ],
            }
            for i in range(6)
        ]
        await _raw_callback(
            interaction, 9, {"custom_id": "six", "title": "Six", "components": rows}
        )

    @tree.command(description="Defers, then tries to open a modal")
    async def defer_then_modal(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        # discord.py raises InteractionResponded itself; go around it as a buggy bot might.
        try:
            await _raw_callback(interaction, 9, Feedback().to_dict())
        except discord.HTTPException as error:
            bot.errors.put_nowait(error)

    async def modal_instead(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            await interaction.response.send_modal(Feedback())
        except discord.HTTPException as error:
            bot.errors.put_nowait(error)
        return []

    @tree.command(description="Answers autocomplete with a modal")
    @app_commands.autocomplete(q=modal_instead)
    async def modal_complete(interaction: discord.Interaction, q: str) -> None:
        await interaction.response.send_message(q)
