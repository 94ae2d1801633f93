"""Members suggest missing terms: `/suggest` (for everyone, unlike `/term`) and the "Suggest it"
button of a "no entry" answer open a modal; the suggestion queues for the server's moderators
(`/term review`). A member can't flood the queue: one suggestion per cooldown, and a cap on a
server's open suggestions (the store checks both in the write, and before the form opens, so
that nobody writes a suggestion in vain). Deciding one is here too: the
term cog's review, and whatever writes a term or alias of a waiting suggestion's name."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.discord_app.cogs.define import SEARCHES_WAITING
from bot.discord_app.cogs.moderators import (
    FORM_SERVER_ONLY,
    KEPT,
    ServerOnly,
    in_doubt,
    in_time,
    reply,
    storage_down,
    thinking,
    write_failed,
)
from bot.discord_app.errors import NO_MENTIONS, guarded, handle_form
from bot.discord_app.items import (
    NONCE,
    OWNER,
    SUGGEST_PREFIX,
    SUGGEST_QUERY,
    Restorable,
    edit_again_button,
    shown_as_typed,
    submitted_values,
    suggest_button,
    suggested_title,
    suggestion_refusal,
    typed_back,
)
from bot.discord_app.replies import (
    ACK_DEADLINE,
    bold_title,
    echo_quoted,
    in_code,
    through_the_stop,
    unfinished_at_stop,
)
from bot.discord_app.state import BotState
from bot.discord_app.term_drafts import Draft, DraftUnread
from bot.glossary.invisible import JOINERS, drop_invisible
from bot.glossary.keys import compact
from bot.glossary.lookalikes import glossary_name_alike, same_name
from bot.glossary.models import Entry
from bot.glossary.name_rules import text_refusal
from bot.glossary.server_terms import ServerTerm, TermDraft, home_of
from bot.search.local import LocalGlossary
from bot.search.query import read_alone
from bot.storage import (
    MAX_OPEN_SUGGESTIONS,
    SUGGEST_COOLDOWN,
    NotInTime,
    StorageError,
    Store,
    Suggestion,
    SuggestStatus,
)
from bot.term_storage import waiting_named

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot

    Interaction = discord.Interaction[GlossaryBot]

log = logging.getLogger(__name__)

FORM_PREFIX = "gb:suggestion:"
# Seconds of Discord's 3 s kept for sending the form, not spent checking first; and those the
# name's check before it may take (a stale read's wait, a quarter of the read timeout, and the
# search): a check that could not end in time is left to the submit.
FORM_SEND = 0.5
NAME_CHECK = 0.5
FORM_ID = re.compile(r"gb:suggestion:(?P<owner>[0-9]{1,20})")


def suggestion_modal(owner_id: int, title: str, definition: str = "") -> discord.ui.Modal:
    modal = discord.ui.Modal(
        title="Suggest a term", custom_id=f"{FORM_PREFIX}{owner_id}", timeout=None
    )
    modal.add_item(
        discord.ui.TextInput(
            label="Term",
            custom_id="title",
            default=title[: limits.SUGGESTION_TITLE] or None,
            max_length=limits.SUGGESTION_TITLE,
        )
    )
    modal.add_item(
        discord.ui.TextInput(
            label="What it means (your words)",
            custom_id="definition",
            style=discord.TextStyle.paragraph,
            default=definition[: limits.SUGGESTION_DEFINITION] or None,
            max_length=limits.SUGGESTION_DEFINITION,
            min_length=limits.SUGGESTION_DEFINITION_MIN,
        )
    )
    return modal


async def open_suggestion(interaction: Interaction, title: str, definition: str = "") -> None:
    if interaction.guild_id is None:
        await reply(interaction, "Suggestions go to a server's moderators: suggest it there.")
        return
    unnamable = name_refused(title) if title else None  # said of the name as typed
    if unnamable is not None:  # the form's submit would say so, after the member wrote it
        await reply(interaction, unnamable)
        return
    title = suggested_title(title)
    # The checks below leave the form its time: made only while they can be (an interaction
    # held up on its way, or a slow draft read, left them the form's last second); the
    # submit checks again either way.
    state = interaction.client.state
    deadline = interaction.client.arrivals.sent_at(interaction) + ACK_DEADLINE - FORM_SEND
    # A name the glossary has is said first: the member learns where its card is without the
    # cooldown's wait or writing a form that could only be turned down.
    named = None
    if title and deadline - time.monotonic() > NAME_CHECK:
        named = await _named_now(interaction, interaction.guild_id, title)
    if named is not None:
        await reply(interaction, named[: limits.MESSAGE_CONTENT])
        return
    spare = min(state.read_timeout, deadline - time.monotonic())
    refused = await _refused_now(interaction, interaction.guild_id, title, spare)
    if refused is not None:
        await reply(interaction, refused)
        return
    modal = suggestion_modal(interaction.user.id, title, definition)
    await in_time(interaction, lambda: interaction.response.send_modal(modal), "form")
    modal.stop()  # its submit is handled by SuggestCog.on_interaction


async def _named_now(interaction: Interaction, scope: int, title: str) -> str | None:
    """`named_already` before the form opens, which cannot be deferred: searched in the
    `/define` worker only when it is idle and the server's glossary is read, so the form's 3 s
    are never spent waiting; otherwise None (the submit checks the name as before)."""
    state = interaction.client.state
    if not state.term_searches.idle() or not state.servers.knows(scope):
        return None
    local = await state.servers.local(scope)
    if not state.term_searches.idle():  # others' searches queued while it was read (stale)
        return None
    said = await state.term_searches.run(scope, _said_or_empty, local, title)
    return said or None


def _said_or_empty(local: LocalGlossary, title: str) -> str:
    return named_already(local, title) or ""  # the worker's None means "not searched"


async def _refused_now(
    interaction: Interaction, scope: int, title: str, spare: float
) -> str | None:
    """Why the member may not suggest `title` (may be "") here now, asked before the form
    opens: it waits already, their cooldown, a full queue; None when they may, or when the
    database does not say within `spare` seconds (the form's submit checks again)."""
    state = interaction.client.state
    store, user_id = state.store, interaction.user.id
    if store is None and state.database_wait is not None:  # a moment's wait: said now
        return storage_down(state)
    if store is None or spare <= 0:
        return None

    async def refusal() -> str | None:
        waiting = await own_waiting(store, scope, user_id, title) if title else None
        if waiting is not None:
            return waiting
        status = await store.suggest_refusal(scope, user_id)
        return None if status is None else refusal_text(status)

    try:
        return await asyncio.wait_for(refusal(), spare)
    except (StorageError, TimeoutError):
        return None


async def own_waiting(store: Store, scope: int, user_id: int, title: str) -> str | None:
    """What to tell a member who suggests a name they have waiting already (as search meets
    names: "Zorb-lax", "zorblaxes" and "zоrblax" with a Cyrillic о are "zorblax":
    `same_name`), or None. Once the cooldown was over, each copy was queued: one member's
    copies filled the moderators' queue, each thanked as new."""
    for waiting in await store.open_suggestions(scope, limit=MAX_OPEN_SUGGESTIONS):
        if waiting.user_id == user_id and same_name(title, waiting.title):
            # Another spelling of it is theirs; another number or letters ("RMS" for a waiting
            # "RM") is named beside it, or the member reads of a suggestion they never made.
            said = (
                f"You suggested {echo_quoted(title, name=True)} already"
                if compact(title) == compact(waiting.title)
                else f"{echo_quoted(title, name=True)} is the same name here as "
                f"{echo_quoted(waiting.title, name=True)}, which you suggested already"
            )
            return (
                f"{said}: it is waiting for this server's moderators. I'll tell you privately "
                "what they decide, if your DMs are open. Nothing new was queued."
            )
    return None


def name_refused(title: str) -> str | None:
    """Why no term may be named `title` (a mention, a link, Discord markup), or None."""
    refusal = suggestion_refusal(title)
    return None if refusal is None else shown_as_typed(f"{refusal} Nothing was queued.")


def _unfit(title: str, definition: str) -> str | None:
    """What of a submitted suggestion its form's inputs would not take (their lengths), or None.
    The member's client keeps to them; the moderators review what was queued, so it is never
    cut to fit."""
    if len(title) > limits.SUGGESTION_TITLE:
        return f"The term takes at most {limits.SUGGESTION_TITLE:,} characters ({len(title):,})."
    if len(definition) > limits.SUGGESTION_DEFINITION:
        return (
            f"What it means takes at most {limits.SUGGESTION_DEFINITION:,} characters "
            f"({len(definition):,})."
        )
    if len(definition) < limits.SUGGESTION_DEFINITION_MIN:
        return f"What it means needs at least {limits.SUGGESTION_DEFINITION_MIN} characters."
    return None


def refusal_text(status: SuggestStatus) -> str:
    if status is SuggestStatus.COOLDOWN:
        return (
            f"You made a suggestion here a moment ago: one every {SUGGEST_COOLDOWN // 60} "
            "minutes, please. Nothing new was queued."
        )
    return (
        "This server's moderators have a full queue of suggestions to review. "
        "Please try again later. Nothing was queued."
    )


# A refused form's text as a file, for when the answer cannot hold it all: a definition at
# the form's cap (2,000) and its head pass a message's 2,000 once its Markdown is made inert.
GIVEN_BACK_FILE = "suggestion.txt"
_LABELS = {"title": "Term", "definition": "What it means"}


def given_back(head: str, values: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """A refused suggestion's answer: `head` and what was typed (`typed_back`), and `reply`'s
    keywords; what one message cannot hold comes whole, as typed, in an attached file."""
    if len(typed_back(head, values, limit=sys.maxsize)) <= limits.MESSAGE_CONTENT:
        return typed_back(head, values), {}
    text = "".join(
        f"{_LABELS.get(key, key)}:\n{value}\n\n" for key, value in values.items() if value.strip()
    )
    attached = discord.File(io.BytesIO(text.encode()), filename=GIVEN_BACK_FILE)
    return typed_back(
        f"{head} (too long for a message: all of it is in the attached file)", values
    ), {"file": attached}


async def _give_back(interaction: Interaction, head: str, values: dict[str, str]) -> None:
    """Refuse a suggestion form with `head` and what was typed (`given_back`)."""
    text, attached = given_back(head, values)
    await reply(interaction, text, **attached)


class SuggestButton(
    Restorable[discord.ui.Button[Any]],
    template=rf"{SUGGEST_PREFIX}(?P<query>.{{0,{SUGGEST_QUERY}}})",
):
    def __init__(self, query: str) -> None:
        super().__init__(suggest_button(query))
        self.query = query

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> SuggestButton:
        return cls(match["query"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        await open_suggestion(interaction, self.query)


class SuggestAgainButton(
    Restorable[discord.ui.Button[Any]], template=rf"gb:sugg-again:{OWNER}:{NONCE}"
):
    """Reopens a suggestion form the database could not queue, with what the member wrote (kept
    as a `/term` form's text is: `term_drafts`)."""

    def __init__(self, owner_id: int, nonce: str) -> None:
        super().__init__(edit_again_button(f"gb:sugg-again:{owner_id}:{nonce}"))
        self.nonce = nonce

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> SuggestAgainButton:
        return cls(int(match["owner"]), match["nonce"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        drafts = interaction.client.state.term_drafts
        try:  # read back from the database after a restart: one that hangs must not hold the 3 s
            draft = await drafts.get(self.nonce, interaction.guild_id or 0, interaction.user.id)
        except DraftUnread as unread:
            await reply(interaction, unread.said)
            return
        if draft is None:
            await reply(interaction, "That text is no longer kept (it is old): `/suggest` again.")
            return
        await open_suggestion(interaction, draft.typed.title, draft.typed.definition)


class SuggestCog(ServerOnly, commands.Cog):
    def __init__(self, bot: GlossaryBot, state: BotState) -> None:
        self.bot = bot
        self.state = state

    @app_commands.command(
        name="suggest", description="Suggest a term this server's glossary is missing"
    )
    @app_commands.describe(term="The term you looked for")
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def suggest(
        self,
        interaction: Interaction,
        term: app_commands.Range[str, 1, limits.SUGGESTION_TITLE] | None = None,
    ) -> None:
        await open_suggestion(interaction, term or "")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        await handle_form(
            interaction,
            FORM_ID,
            lambda match, data: self._submitted(interaction, int(match["owner"]), data),
        )

    async def _submitted(self, interaction: Interaction, owner: int, data: dict[str, Any]) -> None:
        scope = interaction.guild_id
        if scope is None:
            await reply(interaction, FORM_SERVER_ONLY)
            return
        if interaction.user.id != owner:
            await reply(interaction, "This form belongs to someone else.")
            return
        values = submitted_values(data)
        title = values.get("title", "").strip()
        definition = values.get("definition", "").strip()
        if not title or not definition:
            head = "A suggestion needs the term and what it means."
            if definition:  # a term of spaces passes the form's input: its words come back
                await _give_back(interaction, f"{head} What you typed:", values)
            else:
                await reply(interaction, head)
            return
        unfit = _unfit(title, definition)
        if unfit is not None:  # past the form's inputs (a hand-made client): refused, not cut
            await _give_back(interaction, f"{unfit} Nothing was queued; what you typed:", values)
            return
        refusal = name_refused(title)
        if refusal is not None:  # no moderator could accept it: say so now, not after review
            await reply(interaction, refusal)
            return
        # Nor save them as its definition: Accept…'s form is filled with them less what shows
        # nothing (as `/term review`'s Accept… drops it), and a mention or Discord markup there
        # would be refused on save, the moderator left to rewrite the member's words.
        refusal = text_refusal(drop_invisible(definition, keep=JOINERS), "What it means")
        if refusal is not None:
            await _give_back(interaction, f"{refusal} Nothing was queued; what you typed:", values)
            return
        title = suggested_title(title)  # "# Quux" is queued as "Quux"
        store = self.state.store
        if store is None:  # what was typed comes back: the form is gone
            await _give_back(interaction, f"{storage_down(self.state)} What you typed:", values)
            return
        await thinking(interaction)
        named = await self._named(scope, title)
        if named is None:  # not searched: this server's searches are at their cap (a raid?)
            head = f"{SEARCHES_WAITING} Nothing was queued; what you typed:"
            await _give_back(interaction, head, values)
            return
        if named:
            await reply(interaction, named[: limits.MESSAGE_CONTENT])
            return
        waiting = None
        with contextlib.suppress(StorageError):  # the write below says so, keeping the text
            waiting = await own_waiting(store, scope, owner, title)
        if waiting is not None:  # their words come back, as any refused form's do
            await _give_back(interaction, f"{waiting} What you typed:", values)
            return

        async def sent() -> tuple[str, dict[str, Any]]:
            try:
                status = await store.add_suggestion(scope, owner, title, definition)
            except StorageError:  # what the member wrote is kept for another try
                nonce = await self.state.term_drafts.open(
                    Draft(owner, scope, TermDraft(title, definition))
                )
                view = discord.ui.View(timeout=None)
                view.add_item(SuggestAgainButton(owner, nonce))
                return await write_failed(self.state) + KEPT, {"view": view}
            if status is SuggestStatus.ADDED:
                text = (
                    f"Thanks! {echo_quoted(title, name=True)} is with this server's moderators. "
                    "I'll tell you privately what they decide, if your DMs are open."
                )
                return text[: limits.MESSAGE_CONTENT], {}
            # a moment ago, or a full queue: their words come back for later
            return given_back(f"{refusal_text(status)} What you typed:", values)

        said = await through_the_stop(interaction.client, sent())
        unfinished = unfinished_at_stop("sending this suggestion", "with this server's moderators")
        text, attached = said if said is not None else (unfinished, {})
        await reply(interaction, text, **attached)

    async def _named(self, scope: int, title: str) -> str | None:
        """What to tell a member who suggests a name this server's glossary already has (a
        title, an acronym, an alias): its card is one `/define` away, and the moderators would
        only be asked to refuse a clash; "" when it has none; None when not searched (the
        server's searches at their cap, or stopping). Searched in `/define`'s worker, taking
        the server's turn: on the event loop (30-130 ms a name that names nothing, before the
        write checks the cooldown) a raid of forged submits held every server up."""
        local = await self.state.servers.local(scope, patient=True)
        return await self.state.term_searches.run(scope, _said_or_empty, local, title)


def named_already(local: LocalGlossary, title: str) -> str | None:
    """What to tell a member who suggests `title`, a name `local` already has or looks like, or
    None: a search and a look-alike check, off the event loop where time counts."""
    found = local.index.search(title, local.aliases)
    if found.entry is not None and found.strategy in _BY_NAME:
        return (
            f"{echo_quoted(title, name=True)} is already in {home_of(found.entry)}: "
            f"{bold_title(found.entry.title)}, which `/define` opens. "
            "Nothing was queued."
        )
    # A look-alike (`RАG` with a Cyrillic А) no moderator's save would take: the member is
    # shown the card it looks like, rather than the moderators a suggestion to reject.
    alike = _looks_like(local, title)
    if alike is None:
        return None
    held, entry = alike
    return (
        f"{echo_quoted(title, name=True)} looks like {echo_quoted(held, name=True)}, a name of "
        f"{bold_title(entry.display_title)}, which `/define` opens: members "
        "could not tell "
        "them apart, so no term may take it. Nothing was queued."
    )


def _looks_like(local: LocalGlossary, title: str) -> tuple[str, Entry] | None:
    """The name of this server's glossary (an entry's, the server's terms included, or an
    alias's) that `title` looks like but is not, and its card; the rules a term's names meet."""
    found = glossary_name_alike(local.index, local.index.entries, local.aliases.lookalikes, title)
    if found is None:
        return None
    held, owner = found
    # an alias's: the card it opens; none (its term gone): not said
    entry = local.entry(owner) if isinstance(owner, str) else owner
    return None if entry is None else (held, entry)


# A suggestion these find is a name the glossary has, not a near miss of one.
_BY_NAME = frozenset({"exact", "id", "server-alias", "alias", "acronym", "expansion", "plural"})


async def tell_member(
    client: discord.Client, user_id: int, text: str, guild: discord.Guild | None = None
) -> str | None:
    """A private message to a member about their suggestion; None once sent, else why Discord
    won't deliver it: tolerated, the moderator is told. Discord refuses a member who left the
    server as it refuses closed DMs; "DMs closed" sent the moderator looking for a setting.
    Discord failing (5xx, a dropped connection) is no refusal: said as such."""
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        await user.send(text, allowed_mentions=NO_MENTIONS)
    except (discord.Forbidden, discord.NotFound):  # DMs closed, the member left, or gone
        log.info("could not tell user %s about their suggestion", user_id)
    except DISCORD_UNREACHED as exc:  # no refusal: DMs may well be open
        log.info("could not tell user %s about their suggestion: %r", user_id, exc)
        # A 429 left after discord.py's retries (or Cloudflare's, without them) is an answer.
        limited = isinstance(exc, discord.HTTPException) and exc.status == 429
        return UNTOLD_RATE_LIMITED if limited else UNTOLD_UNANSWERED
    else:
        return None
    if guild is not None:
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            return UNTOLD_LEFT
        except DISCORD_UNREACHED:
            pass
    return UNTOLD_DMS


# What asking Discord may raise besides an answer: its refusals and a dropped connection
# (aiohttp's own, which discord.py lets through). After a decision is written, any of them
# once made the moderator's answer "Something went wrong".
DISCORD_UNREACHED = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)


UNTOLD_DMS = "DMs closed"
UNTOLD_LEFT = "no longer in this server"
UNTOLD_UNANSWERED = "Discord did not answer"
UNTOLD_RATE_LIMITED = "Discord rate-limited the bot"


@dataclass(frozen=True, slots=True)
class Opens:
    """What an accepted suggestion's name now opens: the term `id` titled `title`, written for
    it, or (`alias`) a term that was there, of which the name is now another name."""

    id: str
    title: str
    alias: bool = False

    @classmethod
    def term(cls, term: ServerTerm) -> Opens:
        return cls(term.id, term.title)


async def decided_meanwhile(interaction: Interaction, suggestion_id: int) -> str | None:
    """How a suggestion was decided ("accepted", "rejected") while a moderator's Accept… form was
    open; None while it is open (or cannot be read now: the save's own write says so)."""
    store = interaction.client.state.store
    if store is None:
        return None
    try:
        found = await store.suggestion(interaction.guild_id or 0, suggestion_id)
    except StorageError:
        return None
    return found.status if found is not None and found.status != "open" else None


async def close_suggestion(
    interaction: Interaction,
    suggestion_id: int,
    *,
    accepted: bool,
    term: ServerTerm | None = None,
    decided: bool = False,
) -> tuple[str, bool]:
    """Mark a suggestion decided (accepted as `term`), audited, and tell its member privately:
    what to add to the answer, and whether this closed it (read by Reject's limit). `decided`:
    the term's write accepted it already (`TermChange.accepts`), so only tell. Accepting also
    accepts the other open suggestions of a name the term now has (`close_namesakes`)."""
    state = interaction.client.state
    if state.store is None:
        return "", False
    opens = Opens.term(term) if term is not None else None
    try:
        found, untold = await _decide(
            interaction, suggestion_id, accepted=accepted, opens=opens, decided=decided
        )
    except StorageError as exc:
        if decided:
            return "\nAccepted the suggestion; the member could not be told (database).", True
        if isinstance(exc, NotInTime) and exc.written is None:  # its COMMIT sent, unanswered
            return "\n" + in_doubt(
                "the suggestion's decision", "`/term review`, `/term log`"
            ), False
        return (
            "\nThe suggestion could not be marked decided (database); it stays in the queue.",
            False,
        )
    if found is None and decided:  # the term's write did not commit after all
        return "", False
    if found is None:  # decided by another moderator or process, maybe a moment ago
        how = await decided_meanwhile(interaction, suggestion_id) or "decided"
        return f"\nThat suggestion was already {how} (`/term log` says by whom).", False
    verdict = "Accepted" if accepted else "Rejected"
    reached = "was told privately." if untold is None else f"could not be told ({untold})."
    text = f"\n{verdict} the suggestion; the member {reached}"
    if accepted and term is not None:
        text += await close_namesakes(interaction, [term])
    return text, True


async def _decide(
    interaction: Interaction,
    suggestion_id: int,
    *,
    accepted: bool,
    opens: Opens | None,
    decided: bool = False,
) -> tuple[Suggestion | None, str | None]:
    """Close one suggestion (`decided`: closed already, as accepted) and tell its member: the
    suggestion (None if this did not close it) and why the member could not be told (None:
    told, or not closed here)."""
    store = interaction.client.state.store
    assert store is not None
    scope = interaction.guild_id or 0
    if decided:
        found = await store.suggestion(scope, suggestion_id)
        found = found if found is not None and found.status == "accepted" else None
    else:
        found = await store.decide_suggestion(
            scope,
            suggestion_id,
            accepted=accepted,
            actor_id=interaction.user.id,
            term_id=opens.id if opens else None,
        )
    if found is None:
        return None, None
    # A server in an outage is known to discord.py by its id alone, with an empty name.
    server = (interaction.guild.name if interaction.guild else "") or "the server"
    outcome = "added to the glossary" if accepted else "not added to the glossary"
    look_up = ""
    if accepted and opens is not None and opens.alias:  # the name the member typed opens it
        outcome += f" as another name for {echo_quoted(opens.title, name=True)}"
        look_up = f" Look it up with `/define {in_code(found.title)}`."
    elif accepted and opens is not None:
        # The moderator may have saved it under another name: the member looks up that one.
        renamed = opens.title.casefold() != found.title.casefold()
        outcome += f" as {echo_quoted(opens.title, name=True)}" if renamed else ""
        look_up = f" Look it up with `/define {in_code(opens.title)}`."
    untold = await tell_member(
        interaction.client,
        found.user_id,
        f"Your suggestion {echo_quoted(found.title, name=True)} in "
        f"{discord.utils.escape_markdown(server)} was {outcome} by its moderators.{look_up}",
        interaction.guild,
    )
    return found, untold


async def close_namesakes(
    interaction: Interaction, terms: Sequence[ServerTerm], *, besides: bool = True
) -> str:
    """Accept the open suggestions whose name one of `terms` now has, each member told; what
    to add to the answer."""
    names = {compact(name): Opens.term(term) for term in terms for name in term.names}
    return await accept_waiting(interaction, names, besides=besides)


async def accept_waiting(
    interaction: Interaction, names: Mapping[str, Opens], *, besides: bool = False
) -> str:
    """Accept the open suggestions of these names (`compact`ed), each as what its name now
    opens and its member told (`waiting_named`); what to add to the answer. `besides`: the
    answer already told of one suggestion accepted."""
    state = interaction.client.state
    assert state.store is not None
    closed = told = 0
    named: set[str] = set()  # the names accepted: an import's may be many
    why: set[str] = set()  # why members could not be told
    try:
        waiting = await waiting_named(
            state.store, interaction.guild_id or 0, names, read_as=read_alone
        )
        for waiter, opens in waiting:
            decided, unreached = await _decide(interaction, waiter.id, accepted=True, opens=opens)
            closed += decided is not None
            if decided is not None:
                named.add(compact(waiter.title))
                told += unreached is None
                why.update([unreached] if unreached is not None else [])
    except StorageError:
        pass  # the rest stay in the queue, where a moderator still sees them
    if not closed:
        return ""
    untold = f"could not be told ({', or '.join(sorted(why))})."
    if closed == 1:
        noun, who = "suggestion", "its member " + ("was told privately." if told else untold)
    elif told == closed:
        noun, who = "suggestions", "their members were told privately."
    else:
        noun, who = "suggestions", f"{closed - told:,} of their members {untold}"
    other = "other " if besides else ""  # besides the suggestion this form accepted
    which = "that name" if len(named) <= 1 else "those names"
    return f"\nAlso accepted {closed:,} {other}{noun} of {which}; {who}"
