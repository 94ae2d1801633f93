"""`/term add|edit|remove`: each server's own glossary terms, written by its moderators.

`/term` has the default permission of `/alias` (Manage Server; servers only, refused at run
time anywhere else). Add and edit open a modal of the five fields a card leads with; its submit
is handled here, from its custom id (`gb:term:<owner>:<nonce>`), rather than by discord.py's
modal store, so that a second submit of the same modal (a double click) gets the first one's
answer instead of nothing, and a refused draft can be opened again with what was typed ("Edit
again"), or saved in a category picked from the refusal's menu when it lacked one. Drafts
are kept in memory and in the store (`term_drafts`): a submit after a restart still carries
the command's options (category, acronym, summary), the term edited and the suggestion
accepted.

Every write is one store transaction that reads the server's terms, checks the change against
them with the glossary's rules (`check_draft`, `check_caps`, `dangling_after_removal`), and
writes it or nothing. An edit carries the revision it was made against: a term that changed
underneath is said, and the moderator's text kept.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.aliases import alias_clashes
from bot.cards.embed import BRAND_COLOUR
from bot.discord_app.choices import fitted_choices
from bot.discord_app.cogs.moderators import (
    FORM_SERVER_ONLY,
    KEPT,
    NOT_YET_WRITE,
    SCHEMA_BEHIND,
    STORAGE_DOWN,
    ServerOnly,
    in_time,
    read_or_say,
    refuse,
    reply,
    still_allowed,
    storage_down,
    thinking,
    write_failed,
)
from bot.discord_app.cogs.suggestions import (
    close_namesakes,
    close_suggestion,
    decided_meanwhile,
)
from bot.discord_app.cogs.term_log import send_log
from bot.discord_app.cooldowns import CommandLimit, give_back_use
from bot.discord_app.errors import NO_MENTIONS, guarded, handle_form
from bot.discord_app.items import (
    ENTRY,
    NONCE,
    OWNER,
    Restorable,
    edit_again_button,
    inert,
    shown_as_typed,
    submitted_values,
    suggestion_refusal,
    typed_back,
)
from bot.discord_app.replies import (
    ECHO_LIMIT,
    TERMS_UNREAD,
    answering,
    bold_title,
    echo,
    echo_name,
    echo_names,
    echo_quoted,
    in_code,
    through_the_stop,
    wrote_through_the_stop,
)
from bot.discord_app.state import BotState
from bot.discord_app.term_drafts import Draft, DraftUnread, with_typed
from bot.glossary.interchange import export_bytes, import_cap, left_out_line
from bot.glossary.invisible import JOINERS, drop_invisible
from bot.glossary.letters import fit
from bot.glossary.models import CATEGORIES, Glossary
from bot.glossary.server_terms import (
    FIELD_LABELS,
    ServerTerm,
    TermDraft,
    TermProblem,
    check_caps,
    check_draft,
    dangling_after_removal,
    overlay_target,
)
from bot.search.query import only_framing, read_alone
from bot.storage import StorageError, Store, StoredDraft, Suggestion, SuggestionDecided
from bot.term_import import REPORT_LISTED, describe, import_terms, server_import_cap, too_big
from bot.term_storage import (
    Plan,
    TermChange,
    change_terms,
    orphaned_aliases,
    parse_terms,
)

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot

    Interaction = discord.Interaction[GlossaryBot]

log = logging.getLogger(__name__)

# A form's save that the stop's deadline cut short (a database that hung): its write commits
# whole or not at all, and which one is not known yet.
UNFINISHED_AT_STOP = (
    "The bot is stopping, and the database had not finished saving this form: the term is "
    "either saved whole or not at all. Check with `/define` once the bot is back."
)
# A refused form's Edit again pressed after the form was saved (through another Edit again):
# the command's one use paid for that save.
SAVED_ALREADY = (
    "That form was saved already, so it does not open again: `/term add` or `/term edit` "
    "starts a new one."
)
# An Edit again or category pick whose draft is forgotten (memory and store both bounded).
DRAFT_GONE = (
    "That draft is no longer kept (it is old). "
    "The text is in the message above: start again with `/term add` or `/term edit`."
)
MODAL_PREFIX = "gb:term:"
# The kind travels in the id too (a: add, e: edit): after a restart the draft is forgotten, and
# an edit must not then be saved as a new term.
FORM_ID = re.compile(rf"gb:term:{OWNER}:(?P<nonce>[0-9a-f]{{12}}):(?P<kind>[ae])")
_REVISION = r"(?P<revision>[0-9a-f]{16})"


def term_modal(title: str, custom_id: str, typed: TermDraft) -> discord.ui.Modal:
    modal = discord.ui.Modal(title=title, custom_id=custom_id, timeout=None)
    paragraph, short = discord.TextStyle.paragraph, discord.TextStyle.short
    fields: Sequence[tuple[str, str, discord.TextStyle, bool]] = (
        ("title", typed.title, short, True),
        ("definition", typed.definition, paragraph, True),
        ("boundary", typed.boundary, paragraph, False),
        ("other_names", typed.other_names, paragraph, False),
        ("related", typed.related, paragraph, False),
    )
    for key, value, style, required in fields:
        max_length = limits.TERM_FORM[key]  # what the save accepts: a term opens whole
        label = FIELD_LABELS["aliases" if key == "other_names" else key]
        if key in ("other_names", "related"):
            label += " (comma-separated)"
        modal.add_item(
            discord.ui.TextInput(
                label=label,
                custom_id=key,
                style=style,
                default=value[:max_length] or None,
                max_length=max_length,
                required=required,
            )
        )
    return modal


async def at_term_cap(interaction: Interaction, scope: int, after: str = "") -> bool:
    """True, and the moderator told, when the server already has as many terms as it may: a new
    term's form would only be refused at its save, once written (`/suggest` and `/alias add`
    say their caps at once too). The save checks again: another process may add one meanwhile."""
    local = await interaction.client.state.servers.local(scope)
    cap = interaction.client.state.term_caps[0]
    held = len(local.terms)
    if held < cap:
        return False
    if held > cap:  # past a cap lowered since: "remove some" would still leave it at the cap
        said = (
            f"This server has {held:,} terms, past its limit of {cap:,}: nothing can be "
            f"added. Remove {held - cap + 1:,} with `/term remove` first.{after}"
        )
    else:
        said = (
            f"This server has reached its limit of {cap:,} term{'' if cap == 1 else 's'}: "
            f"nothing can be added. Remove {'one' if cap == 1 else 'some'} with `/term remove` "
            f"first.{after}"
        )
    await refuse(interaction, said)
    return True


async def open_modal(interaction: Interaction, draft: Draft, nonce: str | None = None) -> None:
    """Show the term modal for `draft`, under a new nonce (its submit has no answer yet), or
    under `nonce` again: the form a refused save's Edit again reopens."""
    drafts = interaction.client.state.term_drafts
    if nonce is None:
        nonce = await drafts.open(draft)
    else:
        await drafts.reopen(nonce, draft)
    title = "Edit a term" if draft.editing else "Add a term"
    kind = "e" if draft.editing else "a"
    modal = term_modal(title, f"{MODAL_PREFIX}{draft.owner}:{nonce}:{kind}", draft.typed)
    await in_time(interaction, lambda: interaction.response.send_modal(modal), "form")
    modal.stop()  # its submit is handled by TermCog.on_interaction, not discord.py's store


def problems_text(problems: Sequence[TermProblem], head: str, tail: str = "") -> str:
    """`head` and the problems, cut to leave room for `tail` (the line that says what next)
    within one message."""
    lines = [head, *(f"• {echo_problem(p)}" for p in problems)]
    return fit("\n".join(lines), limits.MESSAGE_CONTENT - len(tail)) + tail


def echo_problem(problem: TermProblem) -> str:
    return shown_as_typed(str(problem))


class EditAgainButton(
    Restorable[discord.ui.Button[Any]], template=rf"gb:term-again:{OWNER}:{NONCE}"
):
    """Reopens a refused modal with what was typed."""

    def __init__(self, owner_id: int, nonce: str) -> None:
        super().__init__(edit_again_button(f"gb:term-again:{owner_id}:{nonce}"))
        self.owner_id, self.nonce = owner_id, nonce

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> EditAgainButton:
        return cls(int(match["owner"]), match["nonce"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        await reopen_modal(interaction, self.nonce)


class CategoryPick(Restorable[discord.ui.Select[Any]], template=rf"gb:term-cat:{OWNER}:{NONCE}"):
    """Saves a form refused for want of a category in the one picked, at once: the form has no
    field for it (Discord allows a form five, all taken; the command's option gives it), so the
    refusal asks. Like Edit again, the pick works as long as the draft is kept (days, a
    restart); a pick once the form is saved gets that save's answer."""

    def __init__(self, owner_id: int, nonce: str) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder="Choose its category to save it",
                options=[discord.SelectOption(label=category) for category in CATEGORIES],
                custom_id=f"gb:term-cat:{owner_id}:{nonce}",
            )
        )
        self.owner_id, self.nonce = owner_id, nonce

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> CategoryPick:
        return cls(int(match["owner"]), match["nonce"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        picked = [v for v in self.item.values if v in CATEGORIES]
        if interaction.guild_id is None:
            await reply(interaction, FORM_SERVER_ONLY)
        elif interaction.user.id != self.owner_id:
            await reply(interaction, "This form belongs to another moderator.")
        elif not picked:  # a forged value: Discord sends only the menu's
            await reply(interaction, "Choose one of the menu's categories.")
        else:
            await save_in(interaction, self.nonce, picked[0])


async def save_in(interaction: Interaction, nonce: str, category: str) -> None:
    """Save the refused form `nonce`'s kept draft in `category`, for a moderator who still may:
    one answer, as a form's submit gets (a second pick while it saves gets the same one)."""
    await thinking(interaction)
    if not await still_allowed(interaction):
        return
    draft = await _kept_draft(interaction, nonce)
    if draft is None:
        return
    if draft.written is not None:  # saved already (by this menu or an Edit again): its answer
        await reply(interaction, draft.written)
        return
    interaction.client.state.term_drafts.forget_answer(nonce)  # this pick saves anew
    draft = replace(draft, typed=replace(draft.typed, category=category))
    owner = interaction.user.id
    await answer_once(interaction, nonce, lambda: save_draft(interaction, owner, nonce, draft))


async def reopen_modal(interaction: Interaction, nonce: str) -> None:
    """Reopen the refused form `nonce` with what was typed, for a moderator who still may (one
    who lost the right is told before any form opens)."""
    if not await still_allowed(interaction, opening_form=True):
        return
    draft = await _kept_draft(interaction, nonce)
    if draft is None:
        return
    if draft.written is not None:  # saved through an earlier Edit again: done
        await reply(interaction, SAVED_ALREADY)
        return
    await open_modal(interaction, draft, nonce)


async def _kept_draft(interaction: Interaction, nonce: str) -> Draft | None:
    """This moderator's kept draft `nonce`, or None once they are told why there is none. Read
    back from the database after a restart: one that hangs must not hold the 3 s."""
    try:
        draft = await interaction.client.state.term_drafts.get(
            nonce, interaction.guild_id or 0, interaction.user.id
        )
    except DraftUnread as unread:
        await reply(interaction, unread.said)
        return None
    if draft is None:
        await reply(interaction, DRAFT_GONE)
    return draft


class RemoveButton(
    Restorable[discord.ui.Button[Any]],
    template=rf"gb:term-rm:{OWNER}:{_REVISION}:{ENTRY}",
):
    """Confirms `/term remove`, for the term as it was shown. A term's id (a slug of its title,
    up to 60 characters, or a bundled entry's) may not fit in the custom id beside the rest: it
    is cut to fit, and the term found by its revision (a hash of the whole term, id included)."""

    def __init__(self, owner_id: int, revision: str, term_id: str) -> None:
        head = f"gb:term-rm:{owner_id}:{revision}:"
        custom_id = (head + term_id)[: limits.CUSTOM_ID]
        super().__init__(
            discord.ui.Button(label="Remove", style=discord.ButtonStyle.danger, custom_id=custom_id)
        )
        self.owner_id, self.revision = owner_id, revision
        self.term_id = custom_id[len(head) :]
        self.id_cut = len(custom_id) == limits.CUSTOM_ID  # or just fits: its id is tried first

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> RemoveButton:
        return cls(int(match["owner"]), match["revision"], match["entry"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        if interaction.user.id != self.owner_id or interaction.guild_id is None:
            await reply(interaction, "Only the moderator who asked can confirm this removal.")
            return
        state = interaction.client.state
        bundled = state.glossary
        shown_id, revision, id_cut = self.term_id, self.revision, self.id_cut

        def plan(
            current: list[ServerTerm], aliases: Mapping[str, str]
        ) -> tuple[TermChange | None, str]:
            term = next((t for t in current if t.id == shown_id), None)
            if term is None and id_cut:
                # The term at the revision shown, else the one whose id begins so (changed).
                named = [t for t in current if t.id.startswith(shown_id)]
                found = [t for t in named if t.revision == revision] or named
                if len(found) > 1:
                    return None, (
                        "That term changed since you asked to remove it. "
                        "Run `/term remove` again to see it as it is now."
                    )
                term = found[0] if found else None
            if term is None:
                return None, "That term is already gone: nothing to remove."
            term_id = term.id
            if term.revision != revision:
                return None, (
                    f"{echo_quoted(term.title, name=True)} changed since you asked to remove it. "
                    "Run `/term remove` again to see it as it is now."
                )
            dangling = dangling_after_removal(current, term_id, bundled)
            if dangling:
                return None, still_pointed_at(term, dangling)
            kept = [term_id] if term_id in bundled else []
            dropped = orphaned_aliases(aliases, [term_id], kept)
            gone = f" and its {aliases_named(dropped)}" if dropped else ""
            done = f"Removed {echo_quoted(term.title, name=True)}{gone}."
            return TermChange(remove=(term_id,), drop_aliases=dropped), done

        # The removal's use, taken at its confirm (the command's question writes nothing):
        # "going a bit fast" leaves the question and its button for later.
        REMOVE_LIMIT.take(interaction)
        await in_time(
            interaction,
            lambda: interaction.response.edit_message(view=None),
            "removal (nothing was removed)",
        )
        if not await still_allowed(interaction):
            return
        text, removed = await wrote_through_the_stop(
            interaction.client,
            write_terms(interaction, plan),
            "removing this term",
            "with `/define`",
        )
        if not removed:  # already gone, changed, still related, the database away
            give_back_use(interaction)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)


class DecideButton(
    Restorable[discord.ui.Button[Any]],
    template=r"gb:sugg:(?P<verdict>ok|no):(?P<id>[0-9]{1,20}):(?P<category>[0-9]{0,2})",
):
    """Accept (opens the term modal filled with the suggestion, in the category `/term review`
    was given) or reject a suggestion."""

    def __init__(self, suggestion_id: int, *, accept: bool, category: str | None = None) -> None:
        index = str(CATEGORIES.index(category)) if category in CATEGORIES else ""
        super().__init__(
            discord.ui.Button(
                label="Accept…" if accept else "Reject",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=f"gb:sugg:{'ok' if accept else 'no'}:{suggestion_id}:{index}",
            )
        )
        self.suggestion_id, self.accept, self.category = suggestion_id, accept, category

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> DecideButton:
        index = int(match["category"]) if match["category"] else None
        category = CATEGORIES[index] if index is not None and index < len(CATEGORIES) else None
        return cls(int(match["id"]), accept=match["verdict"] == "ok", category=category)

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        state = interaction.client.state
        scope = interaction.guild_id
        if state.store is None or scope is None:
            await reply(interaction, storage_down(state))
            return
        if not self.accept:  # Accept opens the form: asked before it opens, and at its save
            await thinking(interaction)
            if not await still_allowed(interaction):
                return
            # A write of its own (the suggestion closed, its member told): its own limit.
            REJECT_LIMIT.take(interaction)
            # The decision and the next suggestion's read after it: one WRITE_WAIT in all (a
            # database that hangs held the answer a read's minute past the decision's bound).
            with answering(interaction.client):
                text, closed = await wrote_through_the_stop(
                    interaction.client,
                    close_suggestion(interaction, self.suggestion_id, accepted=False),
                    "rejecting this suggestion",
                    "with `/term log`",
                )
                if not closed:  # given back first: an answer Discord fails keeps no use
                    give_back_use(interaction)
                await _with_the_next(
                    interaction, text.strip() or "Rejected.", self.category, self.suggestion_id
                )
            return
        if not await still_allowed(interaction, opening_form=True):
            return
        # `/term add`'s form by another door: its use, taken as the form opens (as the
        # command's), given back where no form opens.
        ADD_LIMIT.take(interaction)
        await self._open_form(interaction, state.store, scope)

    async def _open_form(self, interaction: Interaction, store: Store, scope: int) -> None:
        """Open the term form filled with the suggestion, or refuse, saying why not."""
        state = interaction.client.state
        capped = False
        try:  # the database down (PostgreSQL stopped): said as every write says it
            found = await store.suggestion(scope, self.suggestion_id)
            if found is not None and found.status == "open":
                capped = await at_term_cap(interaction, scope, " The suggestion stays open.")
        except StorageError as exc:
            await refuse(interaction, await write_failed(state, exc))
            return
        if found is None or found.status != "open":
            how = found.status if found is not None else "decided"
            await refuse(
                interaction, f"That suggestion was already {how} (`/term log` says by whom)."
            )
            return
        if capped:
            return
        # The member's text as the review showed it: characters that show nothing (a direction
        # override) would make the save refuse what the moderator cannot see in the box.
        shown = drop_invisible(found.definition, keep=JOINERS)
        typed = TermDraft(found.title, shown, category=self.category)
        draft = Draft(interaction.user.id, scope, typed, suggestion=found.id)
        await open_modal(interaction, draft)


def _first_waiting(
    waiting: Sequence[Suggestion], category: str | None
) -> tuple[discord.Embed, discord.ui.View]:
    """The oldest waiting suggestion as `/term review` shows it, with Accept… and Reject."""
    first = waiting[0]
    # A member's free text: shown inert, like every text the bot repeats from a user.
    embed = discord.Embed(
        title=fit(echo_name(first.title), limits.EMBED_TITLE),
        description=fit(echo(first.definition, limits.EMBED_DESCRIPTION), limits.EMBED_DESCRIPTION),
        colour=BRAND_COLOUR,
    )
    embed.set_footer(
        text=f"Suggested by a member · {len(waiting):,} waiting"
        + (" (or more)" if len(waiting) >= 25 else "")
    )
    embed.add_field(name="From", value=f"<@{first.user_id}>", inline=False)
    # Queued before `/suggest` refused such names ("🔧"): the form would refuse it as titled.
    unnamable = suggestion_refusal(first.title)
    if unnamable is not None:
        embed.add_field(
            name="Its name",
            value=fit(
                f"{shown_as_typed(unnamable)} Accept… under another title (the member is told it), "
                "or Reject.",
                limits.EMBED_FIELD_VALUE,
            ),
            inline=False,
        )
    view = discord.ui.View(timeout=None)
    view.add_item(DecideButton(first.id, accept=True, category=category))
    # Reject carries the category too: the next suggestion its answer shows is accepted in it.
    view.add_item(DecideButton(first.id, accept=False, category=category))
    return embed, view


class _ShowNext:
    """A saved Accept… form's answer shows the next suggestion waiting (`_with_the_next`), in
    the category the review was given."""

    def __init__(self, category: str | None, decided: int) -> None:
        self.category, self.decided = category, decided


async def _with_the_next(
    interaction: Interaction, text: str, category: str | None, decided: int
) -> None:
    """Answer a decision on the suggestion `decided` with the next suggestion waiting, so a
    queue is gone through without running `/term review` again for each; the answer alone if
    the queue cannot be read, still holds `decided` (its decision failed: it is not the next),
    or the bot is stopping (its answers' time is short, and the decision may be unfinished)."""
    store = interaction.client.state.store
    if interaction.client.stop_deadline is not None:
        store = None
    scope = interaction.guild_id or 0
    try:
        waiting = await store.open_suggestions(scope) if store else None
        # Asked of the store, not looked for in the page read: it may be past the 25 oldest.
        failed = store is not None and await _still_open(store, scope, decided)
    except StorageError:
        waiting, failed = None, False
    if waiting is None or failed:
        await reply(interaction, text)
    elif not waiting:
        await reply(interaction, f"{text}\nNo more suggestions are waiting.")
    else:
        embed, view = _first_waiting(waiting, category)
        more = " or more" if len(waiting) >= 25 else ""
        await reply(
            interaction, f"{text}\nNext, {len(waiting):,}{more} waiting:", embed=embed, view=view
        )


async def _still_open(store: Store, scope: int, suggestion_id: int) -> bool:
    found = await store.suggestion(scope, suggestion_id)
    return found is not None and found.status == "open"


def _within(report: str, size: int) -> bytes:
    """`report` as a file of at most `size` bytes (Discord's upload size for the bot here: a
    bigger file fails the whole answer, 413), cut after a line, the lines left out counted."""
    data = report.encode("utf-8")
    if len(data) <= size:
        return data
    lines = report.split("\n")
    room = size - 100  # the last line, saying how many are left out
    kept = used = 0
    while kept < len(lines) and used + len(lines[kept].encode("utf-8")) + 1 <= room:
        used += len(lines[kept].encode("utf-8")) + 1
        kept += 1
    past = "the rest of the report is past Discord's upload size"
    rest = f"… and {len(lines) - kept:,} more ({past})."
    return "\n".join([*lines[:kept], rest]).encode("utf-8")


MAX_NAMED = 20  # names listed in one answer; the rest are counted
# Characters the names listed in one answer take at the most, shared among them: a message
# holds 2,000, and 20 names of 100 characters each were past it with the answer's own words
# (Discord refuses such a message: a term with 25 long aliases could not be removed).
NAMES_ROOM = 1_400
NAME_FLOOR = 24  # characters a name listed with others shows at the least, escapes aside


def _name_limit(count: int) -> int:
    """Characters each of `count` names listed together may show (4 more: quotes, a comma)."""
    return max(NAME_FLOOR, min(ECHO_LIMIT, NAMES_ROOM // max(count, 1) - 4))


def _names_in_room(names: Sequence[str]) -> list[str]:
    """`names` quoted and made safe (`echo_names`), in `NAMES_ROOM` as shown: the escapes
    count ("snake_case" shows "snake\\_case"), which could double a name's length and put a
    list of 20 past a message's 2,000. Each is cut shorter till they fit (at `NAME_FLOOR`,
    20 fit whatever their escapes)."""
    limit = _name_limit(len(names))
    while True:
        shown = echo_names(names, limit)
        over = sum(len(name) + 2 for name in shown) - NAMES_ROOM
        if over <= 0 or limit == NAME_FLOOR:
            return shown
        limit = max(NAME_FLOOR, limit - 1 - over // len(names))


def quoted_list(names: Sequence[str]) -> str:
    """“a”, “b” and 3 more: the first `MAX_NAMED` names, quoted and made safe to show (fitted
    together: two long titles alike at both ends stay apart)."""
    shown = names[:MAX_NAMED]
    return _listed(_names_in_room(shown), len(names))


def _listed(shown: Sequence[str], count: int) -> str:
    """“a”, “b” and 3 more, of `count` names whose first `shown` are quoted already."""
    more = f" and {count - len(shown):,} more" if count > len(shown) else ""
    return ", ".join(shown) + more


def aliases_named(keys: Sequence[str]) -> str:
    """“alias “a”” or “aliases “a”, “b”” (the first 20)."""
    return f"alias{'es' if len(keys) > 1 else ''} {quoted_list(keys)}"


def still_pointed_at(term: ServerTerm, dangling: Sequence[ServerTerm]) -> str:
    # The titles fitted together: two long ones alike at both ends would read as one.
    names = [term.title, *(t.title for t in dangling[:MAX_NAMED])]
    title, *others = _names_in_room(names)
    return (
        f"{title} is a related term of {_listed(others, len(dangling))}: take it out of "
        "their related terms first (`/term edit`), so no card points at nothing."
    )


async def write_terms(
    interaction: Interaction, plan: Plan[str], draft: Callable[[str], StoredDraft] | None = None
) -> tuple[str, bool]:
    """Run one checked write of this server's terms; the answer to give, and whether it wrote
    (never raises for a database that cannot be written: says so). `draft`: the form's draft,
    of the answer, kept in the same write (`term_storage.change_terms`)."""
    state = interaction.client.state
    scope = interaction.guild_id or 0
    if state.store is None:
        return storage_down(state), False
    planned: list[bool] = []  # the plan's last run (its write's), whether it changed anything

    def noted(
        current: list[ServerTerm], aliases: Mapping[str, str]
    ) -> tuple[TermChange | None, str]:
        change, answer = plan(current, aliases)
        planned[:] = [change is not None]
        return change, answer

    try:
        answer = await change_terms(state.store, scope, noted, interaction.user.id, draft=draft)
    except StorageError as exc:
        return await write_failed(state, exc), False
    await state.servers.reload(scope)
    return answer, planned == [True]


CATEGORY_CHOICES = [app_commands.Choice(name=c, value=c) for c in CATEGORIES]
# `/term add|edit`'s other senses: an option, not the form's, whose five inputs are all taken
# (Discord's most): what the term's name means elsewhere, which `/define` then gives no card.
SENSES_HELP = "What its name means elsewhere, ; between (e.g. an army tank; a fish tank)"
SENSES_EDIT_HELP = "New other senses, ; between (e.g. an army tank; a fish tank); - for none"
NO_SENSES = "-"  # `/term edit`'s other senses: none (an option left out keeps the term's)


def senses_given(option: str | None) -> str | None:
    """`/term add|edit`'s other senses as typed; "-" (`NO_SENSES`) for none."""
    return None if option is None or option.strip() == NO_SENSES else option


# Each command's limit (as `/alias`'s): a use refused, nothing written or exported (a file
# refused, no such term, at the cap, the database away), is given back. A form's own save
# takes none: the use that opened it pays for it, through every Edit again. `/term review`'s
# Reject has one of its own (its Accept… opens `/term add`'s form, on `/term add`'s).
ADD_LIMIT, EDIT_LIMIT, REMOVE_LIMIT = CommandLimit(), CommandLimit(), CommandLimit()
EXPORT_LIMIT, IMPORT_LIMIT, REJECT_LIMIT = CommandLimit(), CommandLimit(), CommandLimit()


@app_commands.default_permissions(manage_guild=True)
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class TermCog(
    ServerOnly,
    commands.GroupCog,
    group_name="term",
    group_description="This server's own glossary terms (moderators)",
):
    def __init__(self, bot: GlossaryBot, state: BotState) -> None:
        self.bot = bot
        self.state = state
        super().__init__()

    @app_commands.command(name="add", description="Add a term to this server's glossary")
    @app_commands.describe(
        category="The term's category (a term that words a bundled one takes its category)",
        acronym="Its acronym, if it has one (e.g. RAG)",
        summary="One line for lists and autocomplete",
        other_senses=SENSES_HELP,
    )
    @app_commands.choices(category=CATEGORY_CHOICES)
    @ADD_LIMIT.check()
    async def add(
        self,
        interaction: Interaction,
        category: str | None = None,
        acronym: app_commands.Range[str, 1, limits.TERM_ACRONYM_OPTION] | None = None,
        summary: app_commands.Range[str, 1, limits.TERM_SUMMARY_OPTION] | None = None,
        other_senses: app_commands.Range[str, 1, limits.TERM_SENSES_OPTION] | None = None,
    ) -> None:
        typed = TermDraft(
            "",
            "",
            category=category,
            acronym=acronym,
            summary=summary,
            other_senses=senses_given(other_senses) or "",
        )
        scope = interaction.guild_id or 0
        if await at_term_cap(interaction, scope):
            return
        await open_modal(interaction, Draft(interaction.user.id, scope, typed))

    @app_commands.command(name="edit", description="Edit one of this server's terms")
    @app_commands.describe(
        term="The term to edit",
        category="A new category",
        acronym="A new acronym",
        summary="A new one-line summary",
        other_senses=SENSES_EDIT_HELP,
    )
    @app_commands.choices(category=CATEGORY_CHOICES)
    @EDIT_LIMIT.check()
    async def edit(
        self,
        interaction: Interaction,
        term: app_commands.Range[str, 1, limits.TERM_NAME_OPTION],
        category: str | None = None,
        acronym: app_commands.Range[str, 1, limits.TERM_ACRONYM_OPTION] | None = None,
        summary: app_commands.Range[str, 1, limits.TERM_SUMMARY_OPTION] | None = None,
        other_senses: app_commands.Range[str, 1, limits.TERM_SENSES_OPTION] | None = None,
    ) -> None:
        scope = interaction.guild_id or 0
        local = await self.state.servers.local(scope)
        found = await picked_term(interaction, local.terms, term)
        if found is None:
            return
        typed = TermDraft.of(found, local.glossary)
        typed = replace(
            typed,
            category=category or typed.category,
            acronym=acronym or typed.acronym,
            summary=summary or typed.summary,
            other_senses=(
                typed.other_senses if other_senses is None else senses_given(other_senses) or ""
            ),
        )
        draft = Draft(interaction.user.id, scope, typed, editing=found.id, revision=found.revision)
        await open_modal(interaction, draft)

    @app_commands.command(name="remove", description="Remove one of this server's terms")
    @app_commands.describe(term="The term to remove")
    @REMOVE_LIMIT.check(taken=False)  # its confirm takes the use
    async def remove(
        self, interaction: Interaction, term: app_commands.Range[str, 1, limits.TERM_NAME_OPTION]
    ) -> None:
        scope = interaction.guild_id or 0
        local = await self.state.servers.local(scope)
        found = await picked_term(interaction, local.terms, term)
        if found is None:
            return
        dangling = dangling_after_removal(local.terms, found.id, self.state.glossary)
        if dangling:
            await refuse(interaction, still_pointed_at(found, dangling))
            return
        back = " The bundled card comes back." if found.id in self.state.glossary else ""
        if not back:
            dropped = orphaned_aliases(local.aliases.source, [found.id], [])
            verb = "goes" if len(dropped) == 1 else "go"
            back = f" Its {aliases_named(dropped)} {verb} with it." if dropped else ""
        view = discord.ui.View(timeout=None)
        view.add_item(RemoveButton(interaction.user.id, found.revision, found.id))
        await reply(
            interaction,
            f"Remove {echo_quoted(found.title, name=True)} from this server's glossary?{back}"
            f"{also_named(local.terms, term)}",
            view=view,
        )

    @app_commands.command(
        name="export", description="This server's terms as a file that /term import reads back"
    )
    @EXPORT_LIMIT.check()
    async def export(self, interaction: Interaction) -> None:
        scope = interaction.guild_id or 0
        read = await read_or_say(
            interaction, lambda store: asyncio.gather(store.terms(scope), store.aliases(scope))
        )
        if read is None:
            return
        rows, aliases = read
        if not rows:
            await refuse(interaction, "This server has no terms yet. Add one with `/term add`.")
            return
        glossary = (await self.state.servers.local(scope)).glossary

        def exported() -> tuple[int, bytes, str | None]:
            terms = parse_terms(rows)
            return (
                len(terms),
                export_bytes(terms, glossary),
                left_out_line(terms, glossary, name=echo),
            )

        # Parsed and written in a thread: a server's 2,000 terms at their caps took the event
        # loop ~8 ms to parse alone, every server's answers waiting (aliaslist73).
        count, data, left = await asyncio.to_thread(exported)
        file = discord.File(io.BytesIO(data), filename=f"terms-{scope}.toml")
        # Aliases are the server's, not its terms': a glossary moved with this file arrives
        # without them, so say so rather than let them be lost unnoticed.
        unheld = (
            f" The file does not hold this server's {len(aliases):,} alias"
            f"{'es' if len(aliases) != 1 else ''} (`/alias list` lists them): on another "
            "server, add them with `/alias add`."
            if aliases
            else ""
        )
        await interaction.followup.send(
            f"{count:,} term{'s' if count != 1 else ''} of this server, as curated TOML."
            + (f" {left[:1].upper()}{left[1:]}." if left else "")
            + unheld,
            file=file,
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(
        name="import", description="Replace this server's terms with a file's (all or nothing)"
    )
    @app_commands.describe(
        # No size: the cap follows the settings (twice the text cap: a server's own export fits).
        file="Curated TOML, the topics JSON or the Markdown glossary (such as /term export's file)",
        dry_run="Only show what would be added, changed and removed",
        category="The category of entries that give none (Markdown has none)",
    )
    @app_commands.choices(category=CATEGORY_CHOICES)
    @IMPORT_LIMIT.check()
    async def import_(
        self,
        interaction: Interaction,
        file: discord.Attachment,
        dry_run: bool = False,
        category: str | None = None,
    ) -> None:
        # Refused (its use given back): a file too big or refused, nothing to change, the
        # database away; not refused: the terms changed, or a dry run's report.
        state = self.state
        cap = import_cap(*state.term_caps)
        name = echo_quoted(file.filename)
        refusal = too_big(name, file.size, cap)
        if refusal and state.store is None:  # said before a byte is downloaded
            await refuse(interaction, f"{refusal}. Nothing was imported.")
            return
        if state.store is None:
            await refuse(interaction, storage_down(state))
            return
        await thinking(interaction)
        if refusal:  # past the caps' limit: a server past a lowered cap may take its own export
            try:
                with answering(interaction.client):  # a database that hangs: said in WRITE_WAIT
                    cap = await server_import_cap(
                        state.store, interaction.guild_id or 0, state.term_caps
                    )
            except StorageError as exc:
                await refuse(interaction, await write_failed(state, exc))
                return
            refusal = too_big(name, file.size, cap)
        if refusal:  # still said before a byte is downloaded
            await refuse(interaction, f"{refusal}. Nothing was imported.")
            return
        try:
            data = await file.read()
        except discord.HTTPException:
            await refuse(interaction, "I could not download that file. Nothing was imported.")
            return
        store = state.store
        report: list[str] = []  # the whole report, where the message cuts it

        async def imported() -> tuple[str, bool]:
            try:
                outcome = await import_terms(
                    store,
                    interaction.guild_id or 0,
                    data[: cap + 1],
                    file.filename,
                    state.glossary,
                    actor_id=interaction.user.id,
                    caps=state.term_caps,
                    dry_run=dry_run,
                    default_category=category,
                )
            except StorageError as exc:
                return await write_failed(state, exc), False
            accepted = ""
            if outcome.applied:
                await state.servers.reload(interaction.guild_id or 0)
                accepted = await close_namesakes(interaction, outcome.written, besides=False)
            text = discord.utils.escape_mentions(
                describe(outcome, name=inert, problem=echo_problem)
            )
            shown = fit(text, limits.MESSAGE_CONTENT - len(accepted))
            if shown != text or describe(outcome, limit=REPORT_LISTED) != describe(outcome):
                whole = describe(outcome, limit=REPORT_LISTED, one_a_line=True)
                report.append(whole + accepted)  # a file: nothing in it is rendered
            diff = outcome.diff  # None: the file refused
            worked = diff is not None and (
                dry_run or bool(diff.added or diff.changed or diff.removed)
            )
            return shown + accepted, worked

        said, worked = await wrote_through_the_stop(
            interaction.client, imported(), "importing this file", "with `/term export`"
        )
        answer = reply if worked else refuse
        if report:  # every problem (or name) the message could not hold, as `/alias list` does
            data = _within(report[0], interaction.filesize_limit)
            await answer(
                interaction, said, file=discord.File(io.BytesIO(data), "import-report.txt")
            )
        else:
            await answer(interaction, said)

    @app_commands.command(
        name="review", description="Members' suggestions of missing terms: accept or reject"
    )
    @app_commands.describe(category="The category a suggestion you accept goes in")
    @app_commands.choices(category=CATEGORY_CHOICES)
    async def review(self, interaction: Interaction, category: str | None = None) -> None:
        scope = interaction.guild_id or 0
        waiting = await read_or_say(interaction, lambda store: store.open_suggestions(scope))
        if waiting is None:
            return
        if not waiting:
            await reply(interaction, "No suggestions are waiting. 🎉")
            return
        embed, view = _first_waiting(waiting, category)
        await interaction.followup.send(
            embed=embed, view=view, ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    @app_commands.command(
        name="log", description="This server's recent term changes and decisions on suggestions"
    )
    async def log_(self, interaction: Interaction) -> None:
        await send_log(interaction)

    @edit.autocomplete("term")
    @remove.autocomplete("term")
    async def server_terms(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        local = await self.state.servers.local(interaction.guild_id or 0)
        return term_choices(local.terms, current)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        await handle_form(
            interaction,
            FORM_ID,
            lambda match, data: self._submitted(
                interaction, int(match["owner"]), match["nonce"], match["kind"] == "e", data
            ),
        )

    async def _submitted(
        self, interaction: Interaction, owner: int, nonce: str, edit: bool, data: dict[str, Any]
    ) -> None:
        if interaction.guild_id is None:
            await reply(interaction, FORM_SERVER_ONLY)
            return
        if interaction.user.id != owner:
            await reply(interaction, "This form belongs to another moderator.")
            return
        await thinking(interaction)
        if not await still_allowed(interaction):
            return
        await answer_once(
            interaction,
            nonce,
            lambda: self._save(interaction, owner, nonce, edit, submitted_values(data)),
        )

    async def _save(
        self, interaction: Interaction, owner: int, nonce: str, edit: bool, values: dict[str, str]
    ) -> tuple[str, discord.ui.View | _ShowNext | None]:
        scope = interaction.guild_id or 0
        try:
            known = await self.state.term_drafts.get(nonce, scope, owner)
        except DraftUnread as unread:  # its options, the term edited, the suggestion: not guessed
            self.state.term_drafts.keep_typed(nonce, scope, owner, values, edit=edit)
            head = (
                f"Nothing was saved: the database {unread.why}, so I could not read what this "
                "form was opened for. Your text is kept: press **Edit again** in a moment; "
                "what you typed:"
            )
            view = discord.ui.View(timeout=None)
            view.add_item(EditAgainButton(owner, nonce))
            return typed_back(head, values), view
        if known is None and edit:
            head = (
                "Nothing was saved: this form is too old (or the database could not keep it), "
                "and I no longer know which term it edits. Run `/term edit` again; what you typed:"
            )
            return typed_back(head, values), None
        if known is not None and known.written is not None:  # saved (before a restart)
            return known.written, None
        known = known or Draft(owner, scope, TermDraft("", ""))
        draft = replace(known, typed=with_typed(known.typed, values))
        return await save_draft(interaction, owner, nonce, draft)


async def answer_once(
    interaction: Interaction,
    nonce: str,
    save: Callable[[], Awaitable[tuple[str, discord.ui.View | _ShowNext | None]]],
) -> None:
    """Answer a form's save (`save`: its answer and what goes under it) once: a second submit
    or pick of form `nonce` while it saves, or after, gets the first one's answer."""
    future, first = interaction.client.state.term_drafts.answer(nonce)
    if not first:  # the same modal submitted again (a double click): the same answer
        text = await asyncio.shield(future)
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        return
    try:
        saved = await through_the_stop(interaction.client, save())
    except BaseException:
        future.cancel()
        raise
    text, view = saved if saved is not None else (UNFINISHED_AT_STOP, None)
    future.set_result(text)
    if isinstance(view, _ShowNext):
        await _with_the_next(interaction, text, view.category, view.decided)
        return
    kwargs: dict[str, Any] = {"view": view} if view else {}
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs)


async def save_draft(
    interaction: Interaction, owner: int, nonce: str, draft: Draft
) -> tuple[str, discord.ui.View | _ShowNext | None]:
    """Write form `nonce`'s `draft` (what was typed in it, with its options) as a term, or
    say why not, keeping it for Edit again (and the category menu)."""
    state = interaction.client.state
    # Decided by another moderator (or the command line) while this form was open: a term
    # now would contradict what the member was told, or be a second one for it. Asked
    # first (its answer beats a refusal of the text), and again by the term's write.
    if draft.suggestion is not None:
        decided = await decided_meanwhile(interaction, draft.suggestion)
        if decided is not None:
            return await _decided_meanwhile(interaction, owner, nonce, draft, decided)
    refusal = Refusal()
    bundled = state.glossary

    def plan(
        current: list[ServerTerm], aliases: Mapping[str, str]
    ) -> tuple[TermChange | None, str]:
        return plan_save(draft, bundled, current, aliases, refusal, state.term_caps)

    def saved(answer: str) -> StoredDraft:  # the form done, with its term or not at all
        return StoredDraft(nonce, owner, replace(draft, written=answer).to_json())

    try:
        text, _ = await write_terms(interaction, plan, saved)
    except SuggestionDecided as exc:  # in the moment between that read and this write
        how = await decided_meanwhile(interaction, exc.suggestion_id) or "decided"
        return await _decided_meanwhile(interaction, owner, nonce, draft, how)
    if refusal.problems and draft.suggestion is not None:
        # Two Accept… saves of one suggestion at once: the other's term, written in
        # between, refuses this one's name; the decision is what this moderator must hear.
        decided = await decided_meanwhile(interaction, draft.suggestion)
        if decided is not None:
            return await _decided_meanwhile(interaction, owner, nonce, draft, decided)
    if text in (
        STORAGE_DOWN,
        NOT_YET_WRITE,
        SCHEMA_BEHIND,
    ):  # perhaps past the plan, which had the term saved: it is not
        refusal.saved = None
    if refusal.saved is not None and draft.suggestion is not None:
        told, _ = await close_suggestion(
            interaction, draft.suggestion, accepted=True, term=refusal.saved, decided=True
        )
        text += told
    elif refusal.saved is not None:  # a term members were waiting for, written directly
        text += await close_namesakes(interaction, [refusal.saved], besides=False)
    if refusal.saved is None and not refusal.problems:
        # Nothing written, and nothing wrong with the text: the database failed (before
        # the checks or after), or the server could not be checked. What they typed is
        # kept, as a refused form's is.
        return text + KEPT, await _again(interaction, owner, nonce, draft)
    if not refusal.problems:
        # Saved: this form is done (its one use spent), whatever Edit again is pressed.
        await state.term_drafts.keep(nonce, replace(draft, written=text))
        # An accepted suggestion: on to the next, as a Reject goes.
        return text, (
            _ShowNext(draft.typed.category, draft.suggestion) if draft.suggestion else None
        )
    if refusal.revision_now:  # told it changed: saving again is deliberate
        draft = replace(draft, revision=refusal.revision_now)
    if refusal.removed:  # nothing left to edit: Edit again adds the text as a new term
        draft = replace(draft, editing=None, revision=None)
    needs_category = any(p.field == "category" for p in refusal.problems)
    return text, await _again(interaction, owner, nonce, draft, needs_category=needs_category)


async def _decided_meanwhile(
    interaction: Interaction, owner: int, nonce: str, draft: Draft, how: str
) -> tuple[str, discord.ui.View]:
    """An Accept… form's answer when its suggestion was decided elsewhere: nothing written,
    and Edit again adds the text as a term of its own."""
    text = (
        f"Nothing was saved: this suggestion was already {how} while you wrote "
        "(`/term log` says by whom), so no term is written for it.\nYour text is "
        "kept: press **Edit again** to add it as a term of its own."
    )
    return text, await _again(interaction, owner, nonce, replace(draft, suggestion=None))


async def _again(
    interaction: Interaction, owner: int, nonce: str, draft: Draft, *, needs_category: bool = False
) -> discord.ui.View:
    """Keep a refused form's `draft` for its Edit again button (the view returned), and
    its category menu when it was refused for want of one."""
    await interaction.client.state.term_drafts.keep(nonce, draft)
    view = discord.ui.View(timeout=None)
    view.add_item(EditAgainButton(owner, nonce))
    if needs_category:
        view.add_item(CategoryPick(owner, nonce))
    return view


@dataclass
class Refusal:
    """Why a save was refused, filled in by the plan (it may run more than once)."""

    problems: list[TermProblem] = field(default_factory=list)
    revision_now: str | None = None  # the term's revision, when it changed underneath
    removed: bool = False  # the term edited was removed underneath
    saved: ServerTerm | None = None  # the term written


def plan_save(
    draft: Draft,
    bundled: Glossary,
    current: list[ServerTerm],
    aliases: Mapping[str, str],
    refusal: Refusal,
    caps: tuple[int, int],
) -> tuple[TermChange | None, str]:
    """The write a submitted modal makes of the server's terms as they are now, or why not."""

    def refuse(problems: Sequence[TermProblem]) -> tuple[None, str]:
        refusal.problems[:] = problems
        refusal.saved = None
        return None, problems_text(problems, "Nothing was saved:", KEPT)

    editing = draft.editing
    before = next((t for t in current if t.id == editing), None) if editing else None
    refusal.removed = bool(editing) and before is None
    if refusal.removed:
        return refuse(
            [
                TermProblem(
                    "title",
                    "this term was removed while you edited it; Edit again adds your text as a "
                    "new term.",
                )
            ]
        )
    if before is not None and before.revision != draft.revision:
        refusal.revision_now = before.revision
        return refuse(
            [
                TermProblem(
                    "title",
                    "someone else changed this term while you edited it (`/term log` says "
                    "who), so your text was not saved over theirs. Check it with `/define`; "
                    "Edit again and save to replace it with yours.",
                )
            ]
        )
    checked = check_draft(
        draft.typed, bundled, current, editing=editing, read_as=read_alone, framing=only_framing
    )
    errors = [p for p in checked.problems if p.severity == "error"]
    if checked.term is None or errors:
        return refuse(errors)
    term = checked.term
    clashes = alias_clashes(term, aliases, bundled, current)
    if clashes:
        return refuse(clashes)
    if before is not None and term.id != before.id:
        dangling = dangling_after_removal(current, before.id, bundled)
        if dangling:
            return refuse([TermProblem("title", still_pointed_at(before, dangling))])
    after = [t for t in current if t.id not in (editing, term.id)] + [term]
    over = check_caps(after, max_terms=caps[0], max_text_bytes=caps[1], before=current)
    if over:
        return refuse(over)
    removed = (before.id,) if before is not None and before.id != term.id else ()
    refusal.problems.clear()
    refusal.saved = term
    warnings = [p for p in checked.problems if p.severity == "warning"]
    if before == term:  # saved as it opened: nothing to write, nor to log
        text = f"Nothing changed: {bold_title(term.title)} already reads as the form does."
        return None, problems_text(warnings, text + "\nNote:") if warnings else text
    verb = "Saved" if editing else "Added"
    target = overlay_target(term, bundled)
    # A new term's category is the moderator's choice (the option or the refusal's menu, which
    # the form never shows): say where it went. A wording of a bundled entry takes that one's.
    under = f", under **{term.category}**" if not editing and target is None else ""
    text = (
        f"{verb} {bold_title(term.title)} in this server's glossary{under}: "
        f"`/define {in_code(term.title)}`."
    )
    if target is not None:  # its card changes for every member: say so
        text += (
            f" It is this server's wording of {bold_title(target.title)}, whose "
            "card now leads "
            "with this text."
        )
    if warnings:
        text = problems_text(warnings, text + "\nNote:")
    # An Accept… form's suggestion is decided in the term's own write (undone if not open).
    return TermChange(put=(term,), remove=removed, accepts=draft.suggestion), text


async def picked_term(
    interaction: Interaction, terms: Sequence[ServerTerm], wanted: str
) -> ServerTerm | None:
    """The server's term a moderator picked; None, and they are told so, if there is none."""
    found = find_term(terms, wanted)
    if found is None and not interaction.client.state.servers.knows(interaction.guild_id or 0):
        await refuse(interaction, TERMS_UNREAD)
    elif found is None:
        await refuse(
            interaction, f"This server has no term {echo_quoted(wanted)}. Pick one from the list."
        )
    return found


def find_term(terms: Sequence[ServerTerm], wanted: str) -> ServerTerm | None:
    """A term by what a moderator sees: its title, then another of its names, as typed; then
    its id (an autocomplete pick). A renamed term keeps its id, which a later term may have as
    its title: typed "quuxnet" is the term titled Quuxnet, not Quux Mesh of id "quuxnet"
    (left76); `term_choices` sends such a term's title instead of its id. Two terms whose
    names differ only in case or accents (stored before such names were refused) are told
    apart by the name written exactly so first (product77)."""
    return next(iter(_TermNames(terms).named_by(wanted)), None)


class _TermNames:
    """A server's terms by each way `find_term` reads a name, in its order: a title as
    written, a title in any case, another name as written, in any case, then an id. Each
    keeps every term it names (more than one only where stored before such names were
    refused)."""

    def __init__(self, terms: Sequence[ServerTerm]) -> None:
        self.ways: tuple[dict[str, list[ServerTerm]], ...] = ({}, {}, {}, {}, {})
        exact, folded, name, folded_name, ids = self.ways
        for term in terms:
            exact.setdefault(term.title, []).append(term)
            folded.setdefault(term.title.casefold(), []).append(term)
            for other in term.names:
                name.setdefault(other, []).append(term)
                folded_name.setdefault(other.casefold(), []).append(term)
            ids.setdefault(term.id, []).append(term)

    def named_by(self, wanted: str) -> list[ServerTerm]:
        """Every term `wanted` names, the one `find_term` takes first."""
        stripped = wanted.strip()
        keys = (stripped, stripped.casefold(), stripped, stripped.casefold(), wanted)
        found: list[ServerTerm] = []
        for way, key in zip(self.ways, keys, strict=True):
            found += (t for t in way.get(key, ()) if all(t is not f for f in found))
        return found


def also_named(terms: Sequence[ServerTerm], wanted: str) -> str:
    """Said beside the term `wanted` found: the other terms it names too (a renamed term's id,
    a name in another case), and how to pick one of them; "" where it names one."""
    others = _TermNames(terms).named_by(wanted)[1:]
    if not others:
        return ""
    listed = ", ".join(bold_title(t.title) for t in others[:3])
    return (
        f" ({echo_quoted(wanted.strip())} also names {listed}: to mean "
        f"{'that one' if len(others) == 1 else 'another'}, pick it from the list.)"
    )


def term_choices(terms: Sequence[ServerTerm], current: str) -> list[app_commands.Choice[str]]:
    wanted = current.strip().casefold()
    hits = [t for t in terms if any(wanted in n.casefold() for n in t.names)]
    hits.sort(key=lambda t: (not t.title.casefold().startswith(wanted), t.title.casefold()))
    names = _TermNames(terms)

    def value(term: ServerTerm) -> str:
        # The first of its id and its title that `find_term` finds it by: an id another term
        # has as a name is sent as its title; a title another has in another case, as its id.
        for sent in (term.id, term.title):
            first = next(iter(names.named_by(sent)), None)
            if len(sent) <= limits.AUTOCOMPLETE_VALUE and first is term:
                return sent
        return term.id

    return fitted_choices((t.title, value(t)) for t in hits)
