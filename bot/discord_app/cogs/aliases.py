"""`/alias add|remove|list`: this server's own names for glossary terms.

`/alias` is declared with default member permissions Manage Server: Discord hides and refuses it
for everyone else, and server admins can grant it to a moderator role in Server Settings >
Integrations, so the bot does not check again (that would undo such a grant). It is declared for
servers only, and refuses to run anywhere else.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.aliases import AliasRejected, check_alias, compiled_aliases, miss_answered
from bot.cards.embed import BRAND_COLOUR, shown_name
from bot.cards.fit import fit_lines
from bot.discord_app.alias_cache import IndexingFailed, MissAnswers
from bot.discord_app.cogs.define import term_choices
from bot.discord_app.cogs.moderators import (
    NOT_CHECKED,
    ServerOnly,
    read_or_say,
    refuse,
    reply,
    storage_down,
    stored_choices,
    thinking,
    write_failed,
)
from bot.discord_app.cogs.suggestions import Opens, accept_waiting
from bot.discord_app.cooldowns import CommandLimit
from bot.discord_app.errors import NO_MENTIONS, guarded
from bot.discord_app.items import ENTRY, OWNER, Restorable, carried, shown_as_typed
from bot.discord_app.replies import (
    TERMS_UNREAD,
    bold_title,
    echo_name,
    echo_quoted,
    entry_of,
    gone_said,
    wrote_through_the_stop,
)
from bot.discord_app.state import BotState
from bot.glossary.keys import compact, normalize
from bot.mismatches import title_taking
from bot.storage import (
    ALIAS_CAP,
    OPERATOR_ACTOR,
    AddAliasStatus,
    AliasImport,
    AliasRecord,
    Miss,
    StorageError,
    Store,
)
from bot.term_log import log_entry

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot
    from bot.glossary import Entry
    from bot.search.local import LocalGlossary

    Interaction = discord.Interaction[GlossaryBot]

# An alias whose entry the glossary's maintainers removed or renamed: it opens nothing now.
GONE = " (no longer in the glossary)"


def aliased_name(
    local: LocalGlossary, alias: str, entry_id: str, *, display: bool = True, known: bool = True
) -> str:
    """What a stored alias names, for a moderator: the card it opens, or that its entry is gone,
    or that a glossary title now takes it (it opens that entry instead). Not `known`: `local`
    stands in for a server read again, whose own terms it lacks (named by id, not gone)."""
    entry = local.entry(entry_id)
    if entry is None:
        return f"{entry_id}{GONE}" if known else entry_id
    name = entry.display_title if display else entry.title
    taker = title_taking(local, alias, entry_id)
    return name if taker is None else f"{name} (opens “{taker.title}” now: the glossary's title)"


async def add_alias(
    interaction: Interaction, text: str, entry_id: str, *, gone: str | None = None
) -> None:
    """Validate and store an alias, answering the moderator in every case (for /alias add and
    the missed-search menu of /stats): a refusal gives its use back. `gone`: the answer when
    `entry_id`, picked from a menu rather than typed, names no entry now (never searched for
    as typed words)."""
    state = interaction.client.state
    scope = interaction.guild_id
    if scope is None:
        await refuse(interaction, "Aliases belong to a server: add them there.")
        return
    local = await state.servers.local(scope)
    entry = None
    if gone is None:  # typed, or picked from /alias add's list: read as /define reads it
        # Names before ids (left76): a renamed term keeps its id, and typed "quuxnet" is the
        # term titled Quuxnet now; the list sends such a term's title, not its id.
        found = local.index.search(entry_id)
        entry = found.entry if found.status == "match" else None
    if entry is None:
        entry = local.glossary.get(entry_id)
    if entry is None and not state.servers.knows(scope):
        await refuse(interaction, TERMS_UNREAD)
        return
    if entry is None:
        await refuse(
            interaction,
            gone or f"I could not find the term {echo_quoted(entry_id)}. Pick one from the list.",
        )
        return
    await thinking(interaction)  # the check reads the server's aliases, perhaps after a wait
    said, stored = await wrote_through_the_stop(
        interaction.client,
        _added(interaction, local, entry, text),
        "adding this alias",
        "with `/alias list`",
    )
    await (reply if stored else refuse)(interaction, said)


async def _added(
    interaction: Interaction, local: LocalGlossary, entry: Entry, text: str
) -> tuple[str, bool]:
    """Check and store the alias `text` of `entry`: what to answer, and whether it was stored
    (read by the command's limit: what stores nothing gives its use back)."""
    state = interaction.client.state
    scope = interaction.guild_id or 0
    async with state.servers.changes(scope):
        try:
            # Read before the glossary checked against: a term written meanwhile by another
            # process (perhaps of this very name) moves it, and the write then refuses.
            terms_version = await state.store.terms_version(scope) if state.store else None
            current = await state.servers.current(scope)
            key, stored_text = check_alias(text, entry.id, current.index, current.aliases)
        except AliasRejected as exc:  # it quotes what was typed: shown so
            return shown_as_typed(str(exc)), False
        except StorageError as exc:
            return await write_failed(state, exc), False
        except IndexingFailed:  # logged, with its traceback, where it failed
            return NOT_CHECKED, False
        if state.store is None:
            return storage_down(state), False

        def still_free(_: AliasImport, stored: Mapping[str, str]) -> str | None:
            # Run inside the write: another process may have added a spelling of it since
            # `current` was read (this bot learns of that within a second or two).
            if stored == current.aliases.source:
                return None
            try:
                check_alias(text, entry.id, current.index, compiled_aliases(current, stored))
            except AliasRejected as exc:
                return str(exc)
            return None

        try:
            result = await state.store.add_alias(
                scope,
                key,
                stored_text,
                entry.id,
                interaction.user.id,
                check=still_free,
                own_term=entry.id not in state.glossary,  # a server's own term, not bundled
                terms_version=terms_version,
            )
        except StorageError as exc:
            return await write_failed(state, exc), False
        await state.servers.reload(scope)
    shown = echo_quoted(stored_text)  # as the moderator typed it, not as search folds it (`key`)
    if result.status is AddAliasStatus.REFUSED:
        return shown_as_typed(result.reason or "That alias clashes with another one."), False
    if result.status is AddAliasStatus.TERMS_CHANGED:
        return (
            "This server's terms changed a moment ago (another process wrote them), so "
            f"{shown} was not checked against them: nothing was added. Try again.",
            False,
        )
    if result.status is AddAliasStatus.TERM_GONE:
        return (
            f"{echo_quoted(entry.display_title, name=True)} was removed from this server's "
            "glossary a moment ago: nothing was added.",
            False,
        )
    if result.status is AddAliasStatus.ADDED:
        # Members who suggested this name are waiting for it: it now opens a card, so accept.
        opens = Opens(entry.id, entry.display_title, alias=True)
        accepted = await accept_waiting(interaction, {compact(stored_text): opens})
        return (
            f"Added: {shown} now opens {bold_title(entry.display_title)} in this server.{accepted}",
            True,
        )
    if result.status is AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY:
        return (
            f"{shown} already opens {bold_title(entry.display_title)}: nothing to change.",
            False,
        )
    if result.status is AddAliasStatus.CONFLICT:
        name = (
            shown_name(aliased_name(local, result.alias.text, result.alias.entry_id), mid_line=True)
            if result.alias
            else "another entry"
        )
        return (
            f"{shown} is already this server's alias for **{name}**. Remove it first to change it.",
            False,
        )
    return (
        f"This server has reached its limit of {ALIAS_CAP:,} aliases. Remove some with "
        "`/alias remove` first.",
        False,
    )


def _alias_line(record: AliasRecord, local: LocalGlossary, *, plain: bool) -> str:
    """One alias of `/alias list`: for the embed, quoted and escaped, its author mentioned; for the
    attached file (`plain`), as typed, its author by user id (a file shows no mentions)."""
    title = aliased_name(local, record.text, record.entry_id)  # a term's card id may differ
    if not plain:
        title = shown_name(title, mid_line=True)  # after "“alias” → "
    if record.added_by == OPERATOR_ACTOR:  # `glossary-bot aliases import`: no Discord user
        by = "imported"
    else:
        by = f"by user {record.added_by}" if plain else f"by <@{record.added_by}>"
    text = record.text if plain else echo_quoted(record.text)
    return f"{text} → {title} ({by})"


def _alias_file(records: Sequence[AliasRecord], local: LocalGlossary) -> bytes:
    """`/alias list`'s attached file: every alias, one a line, as `_alias_line` writes it plain."""
    return "".join(_alias_line(r, local, plain=True) + "\n" for r in records).encode()


async def _listed(
    interaction: Interaction, local: LocalGlossary, entry: Entry | None
) -> list[AliasRecord] | None:
    """The server's aliases for `/alias list` and its file (of `entry`'s card alone, if given),
    or None with the moderator told why not (the database, or the server's terms unread)."""
    scope = interaction.guild_id or 0
    records = await read_or_say(interaction, lambda store: store.list_aliases(scope, None))
    if records is None:
        return None
    # The server read again: the aliases of its own terms would read "no longer in the
    # glossary" against the bundled glossary answering meanwhile.
    if not interaction.client.state.servers.knows(scope) and any(
        local.entry(r.entry_id) is None for r in records
    ):
        await reply(interaction, TERMS_UNREAD)
        return None
    if entry is None:
        return records
    # a term's aliases: those opening its card, whichever id they name
    return [r for r in records if local.card_id(r.entry_id) == entry.id]


class AliasFileButton(
    Restorable[discord.ui.Button[Any]], template=rf"gb:alias-all:{OWNER}(?::{ENTRY})?"
):
    """`/alias list`'s **Download all**: every alias listed (of one card's `entry_id`, or the
    server's), one a line, as `_alias_line` writes it plain, in a text file. Made only when
    asked: made on every listing of a full server, its 1,000 lines and upload held the other
    servers' answers (bench/cross73_bench.py, p50 3-4x plain busy)."""

    def __init__(self, owner_id: int, entry_id: str | None) -> None:
        custom_id = f"gb:alias-all:{owner_id}" + (f":{carried(entry_id)}" if entry_id else "")
        super().__init__(
            discord.ui.Button(
                label="Download all", style=discord.ButtonStyle.secondary, custom_id=custom_id
            )
        )
        self.owner_id, self.entry_id = owner_id, entry_id

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> AliasFileButton:
        return cls(int(match["owner"]), match["entry"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        scope = interaction.guild_id
        if interaction.user.id != self.owner_id or scope is None:
            await reply(interaction, "Run `/alias list` to get this server's aliases.")
            return
        # A button carries no command permissions: asked as Discord would ask of `/alias` here.
        await thinking(interaction)
        if not await interaction.client.command_access.may_use(interaction, "alias"):
            await reply(interaction, "You can't list this server's aliases any more.")
            return
        local = await interaction.client.state.servers.local(scope)
        entry = entry_of(local, self.entry_id) if self.entry_id else None
        if self.entry_id and entry is None:  # or not read yet (a server read again)
            await reply(interaction, await gone_said(interaction, self.entry_id))
            return
        records = await _listed(interaction, local, entry)
        if records is None:
            return
        if not records:
            await reply(interaction, "There are no such aliases now.")
            return
        # Made in a thread: a full server's 1,000 lines, each naming its card, held every
        # server's answers on the event loop (bench/cross73_bench.py).
        every = await asyncio.to_thread(_alias_file, records, local)
        of = f" of {echo_name(entry.display_title, mid_line=True)}" if entry else " in this server"
        await interaction.followup.send(
            f"All {len(records):,} alias{'es' if len(records) != 1 else ''}{of}, one a line.",
            file=discord.File(io.BytesIO(every), filename=f"aliases-{scope}.txt"),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )


async def _no_such_alias(store: Store, scope: int, alias: str) -> str:
    """`/alias remove` of an alias this server does not have: why, where the audit log knows
    (removed with its term by `/term remove` or an import, or removed alone)."""
    text = f"This server has no alias {echo_quoted(alias)}"
    try:
        gone = await store.alias_removal(scope, normalize(alias))
    except StorageError:
        gone = None
    if gone is None:
        return f"{text}."
    when = f"<t:{int(gone.at.timestamp())}:R>"
    if gone.term is None:
        return f"{text}: it was removed {when}."
    title = log_entry(gone.term).title
    return (
        f"{text}: it was removed with its term {echo_quoted(title, name=True)} {when} "
        "(`/term log` says by whom)."
    )


# Each command's limit: a moderator's typo or look-alike, refused, costs them no write.
ADD_LIMIT, REMOVE_LIMIT = CommandLimit(), CommandLimit()


def _unanswered(misses: Sequence[Miss], local: LocalGlossary, answers: MissAnswers) -> list[Miss]:
    """The first of `misses` (up to a box's choices) that nothing in `local` answers now, as
    `/stats` lists them; a miss too long to pick whole is left out unsearched."""
    kept: list[Miss] = []
    for miss in misses:
        if len(kept) == limits.AUTOCOMPLETE_CHOICES:
            break
        if len(miss.query) > limits.AUTOCOMPLETE_VALUE:
            continue  # `fitted_choices` would leave it out: a value cut short picks another
        answered = answers.get(miss.query)
        if answered is None:
            answered = miss_answered(miss.query, local)
            answers.put(miss.query, answered)
        if not answered:
            kept.append(miss)
    return kept


@app_commands.default_permissions(manage_guild=True)
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class AliasCog(
    ServerOnly,
    commands.GroupCog,
    group_name="alias",
    group_description="This server's own names for glossary terms (moderators)",
):
    def __init__(self, state: BotState) -> None:
        self.state = state
        super().__init__()

    @app_commands.command(
        name="add", description="Make a word or phrase open a glossary term in this server"
    )
    @app_commands.describe(
        alias="What people type (missed searches are suggested)",
        term="The glossary term it should open",
    )
    @ADD_LIMIT.check()
    async def add(
        self,
        interaction: Interaction,
        alias: app_commands.Range[str, 1, limits.ALIAS_OPTION],
        term: app_commands.Range[str, 1, limits.TERM_NAME_OPTION],
    ) -> None:
        await add_alias(interaction, alias, term)

    @add.autocomplete("alias")
    async def missed_searches(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The alias box suggests this server's missed searches: a miss becomes an alias in one
        step. Only those nothing answers now, as `/stats` lists them (`miss_answered`): one
        that has since become a name (a term's, a bundled entry's) could only be refused."""
        wanted = current.strip().casefold()
        scope = interaction.guild_id or 0
        local = await self.state.servers.local(scope)
        answers = self.state.servers.miss_answers(scope, local)

        async def unanswered(store: Store, scope: int) -> list[Miss]:
            # Read past the box's 25: some of the most missed may be answered now.
            misses = await store.top_misses(
                scope, None, 2 * limits.AUTOCOMPLETE_CHOICES, containing=wanted or None
            )
            # A search each (a long question's ~0.1 s): in a thread, each answer kept for the
            # next keystrokes while the server's glossary stays (one not back in time: later).
            return await asyncio.to_thread(_unanswered, misses, local, answers)

        def choice(miss: Miss) -> tuple[str, str] | None:
            if wanted not in miss.query:
                return None
            return f"{miss.query} (missed {miss.count:,}×)", miss.query

        return await stored_choices(interaction, unanswered, choice)

    @add.autocomplete("term")
    async def add_term(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await term_choices(self.state, interaction.guild_id or 0, current)

    @app_commands.command(name="remove", description="Remove one of this server's aliases")
    @app_commands.describe(alias="The alias to remove")
    @REMOVE_LIMIT.check()
    async def remove(
        self, interaction: Interaction, alias: app_commands.Range[str, 1, limits.ALIAS_OPTION]
    ) -> None:
        state = self.state
        scope = interaction.guild_id or 0
        if state.store is None:
            await refuse(interaction, storage_down(state))
            return
        await thinking(interaction)
        store = state.store

        async def removal() -> tuple[str, bool]:
            try:
                removed = await store.remove_alias(scope, normalize(alias), interaction.user.id)
            except StorageError as exc:
                return await write_failed(state, exc), False
            await state.servers.reload(scope)
            if removed is None:
                return await _no_such_alias(store, scope, alias), False
            return f"Removed {echo_quoted(removed.text)}.", True

        said, removed = await wrote_through_the_stop(
            interaction.client, removal(), "removing this alias", "with `/alias list`"
        )
        await (reply if removed else refuse)(interaction, said)

    @remove.autocomplete("alias")
    async def server_aliases(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        # The server's glossary: an alias of one of its own terms names that term's card.
        local = await self.state.servers.local(interaction.guild_id or 0)
        known = self.state.servers.knows(interaction.guild_id or 0)
        wanted = current.strip().casefold()

        def choice(record: AliasRecord) -> tuple[str, str] | None:
            if wanted not in record.key:
                return None
            name = aliased_name(local, record.text, record.entry_id, display=False, known=known)
            return f"{record.text} → {name}", record.key

        def held() -> list[tuple[str, str]]:
            # The database away: the aliases /define still answers (keys, as typed ones are
            # not held), so the alias does not look gone; its removal then says why not.
            return [
                (f"{key} → {aliased_name(local, key, entry_id, display=False, known=known)}", key)
                for key, entry_id in sorted(local.aliases.source.items())
                if wanted in key
            ]

        return await stored_choices(
            interaction, lambda store, scope: store.list_aliases(scope), choice, held
        )

    @app_commands.command(name="list", description="This server's aliases, optionally for one term")
    @app_commands.describe(term="Only the aliases of this term")
    async def list_aliases(
        self,
        interaction: Interaction,
        term: app_commands.Range[str, 1, limits.TERM_NAME_OPTION] | None = None,
    ) -> None:
        scope = interaction.guild_id or 0
        local = await self.state.servers.local(scope)
        entry = None
        if term and term.strip():  # a term of spaces alone is none given, as an empty one
            entry = local.glossary.get(term)
            if entry is None:  # typed rather than picked
                found = local.index.search(term)
                entry = found.entry if found.status == "match" else None
            if entry is None:
                await reply(
                    interaction,
                    f"There is no term {echo_quoted(term)} in the glossary. Pick one from the list."
                    if self.state.servers.knows(scope)
                    else TERMS_UNREAD,
                )
                return
        records = await _listed(interaction, local, entry)
        if records is None:
            return
        if not records:
            empty = (
                f"{bold_title(entry.display_title)} has no aliases here"
                if entry
                else "No aliases yet"
            )
            await reply(interaction, f"{empty}. Add one with `/alias add`.")
            return
        # Only the lines the embed shows are made: quoting all of 1,000 aliases on the event
        # loop held every server's answers (bench/cross73_bench.py).
        shown = (_alias_line(r, local, plain=False) for r in records)
        description, listed = fit_lines(shown, limits.EMBED_DESCRIPTION - 100)
        counted = f"{len(records):,} alias{'es' if len(records) != 1 else ''}"
        embed = discord.Embed(
            # One term's aliases name it: "2 aliases in this server" read as the server's all.
            title=f"{counted} of {echo_name(entry.display_title, mid_line=True)}"
            if entry
            else f"{counted} in this server",
            description=description,
            colour=BRAND_COLOUR,
        )
        more: dict[str, Any] = {}
        if listed < len(records):
            # The rest would not fit in a message: a file of all of them, when asked for.
            embed.description = (
                f"{description}\n\n…and {len(records) - listed:,} more: **Download all** sends "
                f"all {len(records):,} as a text file."
            )
            button = AliasFileButton(interaction.user.id, entry.id if entry else None)
            more["view"] = discord.ui.View(timeout=None).add_item(button)
        await interaction.followup.send(
            embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS, **more
        )

    @list_aliases.autocomplete("term")
    async def list_term(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await term_choices(self.state, interaction.guild_id or 0, current)
