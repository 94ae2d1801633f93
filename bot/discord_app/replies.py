"""What the bot sends for a lookup: `reply_for` turns a search result into the message (content,
embed, buttons) in one pass. /define, mentions and every button or menu that opens a card call
it, send what it returns (`send_counted`), and count it once it is sent (`count_sent`).

Whoever ran the command navigates in place; anyone else who clicks gets the card for themselves,
ephemerally, and the original message stays as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot import limits
from bot.cards.embed import card_layout, render_card, render_sources
from bot.cards.quote import one_line, quote, quote_name
from bot.cards.text import LINK_ASKED, NOTHING_ASKED, how_matched
from bot.discord_app import metrics as observe
from bot.discord_app import written
from bot.discord_app.errors import NO_MENTIONS, described, guarded
from bot.discord_app.items import (
    ENTRY,
    OWNER,
    Restorable,
    carried,
    inert,
    options_of,
    suggest_button,
    suggested_name,
    suggestion_refusal,
)
from bot.discord_app.logs import UNKNOWN_INTERACTION
from bot.glossary import Entry, Glossary
from bot.glossary.keys import normalize
from bot.glossary.letters import fit, fit_names
from bot.glossary.links import only_links
from bot.glossary.name_rules import words_beside_markup
from bot.search.query import without_chat_markup
from bot.search.results import SearchResult, Suggestion
from bot.storage import DM_SCOPE

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot
    from bot.discord_app.state import BotState
    from bot.search.local import LocalGlossary

    Interaction = discord.Interaction[GlossaryBot]

log = logging.getLogger(__name__)

ECHO_LIMIT = 100  # how much of the user's own text we repeat back
ACK_DEADLINE = 3.0  # Discord takes an interaction's first response this long after sending it
ANSWER_SECONDS = 0.5  # kept before a stop's last deadline to send an answer waited for in it
# Past Discord's deadline, how long a first response whose request went out in time waits for
# Discord's answer (taken, or 10062) before it is taken as shown.
VERDICT_WAIT = ACK_DEADLINE
T = TypeVar("T")


# Words that ask about something pointed at, or only pad the asking: a text of these alone,
# one of them pointing or asking ("what is this?", "wdym by that", "huh, what does it even mean
# lol"), names no term, so no "Suggest it" for it, no offers read into it and no missed search.
_POINTING_OR_ASKING_WORDS = (
    "this that it these those them thats that's it's this's what what's whats wat wut wdym huh "
    "explain eli5 define meaning mean means"
)
_PADDING_WORDS = (
    "is are was were does do did meant of by pls plz please even exactly the heck hell tf lol "
    "lmao tho tbh about called stand stands for short here its can could would someone anyone "
    "somebody anybody you u me us i again word words term terms thing things stuff one a an "
    "so um uh hmm wait"
)
_POINTING_OR_ASKING = frozenset(_POINTING_OR_ASKING_WORDS.split())
_ASKING_ONLY = _POINTING_OR_ASKING | frozenset(_PADDING_WORDS.split())


def names_no_term(text: str) -> bool:
    """Whether `text` only asks about something pointed at ("what is this?"): its words (as
    `normalize` reads them: any case, full width, without the chat markup search leaves out,
    "# what is") all `_ASKING_ONLY`, one pointing or asking."""
    words = normalize(without_chat_markup(text)).split()
    return _ASKING_ONLY.issuperset(words) and not _POINTING_OR_ASKING.isdisjoint(words)


def echo(text: str, limit: int = ECHO_LIMIT, *, mid_line: bool = False) -> str:
    """User text safe to repeat: no pings, no markdown, no links, no invisible characters, one
    line, bounded length. Every "<" is escaped: Discord renders what follows one (timestamps,
    command links, custom emoji, channel and role mentions) unless it is. `mid_line`: after the
    bot's own words on the line ("~~…~~ → …", "(a.txt, b.txt)"), where a leading quote,
    heading or list mark opens nothing, so it takes no backslash (`inert`)."""
    return inert(quote(text, limit), mid_line=mid_line)


def echo_quoted(text: str, limit: int = ECHO_LIMIT, *, name: bool = False) -> str:
    """User text quoted “…” inside a sentence, as `echo` repeats it; after the “ a quote,
    heading or list mark ("> # rag") opens no line, so it takes no escape ("“\\> # rag”").
    `name`: a term's title, cut as `echo_name` cuts one. The one way a sentence quotes what a
    member or moderator typed."""
    return f"“{(echo_name if name else echo)(text, limit, mid_line=True)}”"


def echo_name(name: str, limit: int = ECHO_LIMIT, *, mid_line: bool = False) -> str:
    """A name (a term's title) as `echo` repeats text, cut keeping its start and its end: two
    long titles that differ only at the end stay apart. `mid_line` as for `echo` (a title in
    bold inside a sentence: "Saved **#define** …")."""
    return inert(quote_name(name, limit), mid_line=mid_line)


def bold_title(title: str) -> str:
    """A title in bold after the bot's own words on a line ("Added: “kvc” now opens **A\\*
    Search** …"), shown as typed (`echo_name`: no Markdown, mention or timestamp; a leading
    ">", "#" or "-" takes no backslash mid-line), whole (a title fits `EMBED_TITLE`). The one
    way the bot's sentences set a title in bold: `cards.embed.shown_name`'s escaping gives the
    same for every title a glossary or a server may hold (tests/discord_app/test_tidy76.py)."""
    return f"**{echo_name(title, limits.EMBED_TITLE, mid_line=True)}**"


def echo_names(names: Sequence[str], limit: int = ECHO_LIMIT) -> list[str]:
    """Names shown together (an answer naming several titles), each quoted “…” as
    `echo_quoted` quotes one, fitted together (`fit_names`): two long titles alike at both
    ends, cut each alone, read as one."""
    fitted = fit_names([one_line(name) for name in names], limit)
    return [f"“{inert(name, mid_line=True)}”" for name in fitted]


def in_code(text: str, limit: int = ECHO_LIMIT) -> str:
    """User text (a title) inside the bot's own code span ("`/define top_p`"): one plain line,
    bounded, not escaped (a code span shows a backslash as one, and renders nothing else), its
    backticks, which would end the span, as quotes."""
    return quote(text, limit).replace("`", "'")


@dataclass(frozen=True)
class Reply:
    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | None
    private: bool  # "no entry" answers only concern the person who asked
    quotes_user: bool = False  # repeats what the user typed: never unfurl anything in it
    missed: str | None = None  # a "no entry": the search (normalised) it is a miss of
    looked_up: str | None = None  # a card that counts: the entry it is a lookup of

    def send_kwargs(self) -> dict[str, Any]:
        """What to send, as keyword arguments for any of discord.py's send or reply calls."""
        parts: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
        if self.content is not None:
            parts["content"] = self.content
        if self.embed is not None:
            parts["embed"] = self.embed
        if self.view is not None:
            parts["view"] = self.view
        if self.quotes_user:
            parts["suppress_embeds"] = True
        return parts


async def reply_for(
    state: BotState,
    local: LocalGlossary,
    result: SearchResult,
    owner_id: int,
    scope: int,
    *,
    plain: bool = False,
    count: bool = True,
) -> Reply:
    """The message for a search result: a card (a lookup if it `count`s), an honest "no entry"
    (a miss) or an offer. `local` is the server's glossary the result came from (read again, a
    reload in between would mix two glossaries in one answer). `owner_id` is who may navigate
    the card in place; `plain` shows its plain-words side. Nothing is counted here: the caller
    counts the reply once it is sent (`count_sent`); a counting card's footer counts itself."""
    entry = result.entry
    if result.status == "match" and entry is not None:
        observe.outcome("card")
        lookups = await state.lookup_count(scope, entry.id)
        if count and lookups is not None:
            lookups += 1
        matched = how_matched(result)
        glossary = local.glossary
        embed = render_card(entry, glossary, matched=matched, lookups=lookups, plain=plain)
        buttons = card_view(glossary, entry, owner_id, plain=plain, first=result.other_side)
        return Reply(None, embed, buttons, private=False, looked_up=entry.id if count else None)
    if only_links(result.query):
        # A pasted link names no term, whatever words its address holds ("…/wiki/Retrieval-
        # augmented_generation"): no offers echoing it in public, no miss for /stats (nor a
        # private address shown to the moderators), no alias or suggestion (neither may hold
        # a link).
        return Reply(LINK_ASKED, None, None, private=True)
    if names_no_term(result.query):
        # "what is this?": the search's offers would be read into "this"; nothing to suggest.
        return Reply(NOTHING_ASKED, None, None, private=True)
    view = suggestions_view(result.suggestions, owner_id) if result.suggestions else None
    if result.status == "suggest" and result.suggestions:
        observe.outcome("suggestions")
        text = f"Did you mean one of these for {echo_quoted(result.query)}?"
        return Reply(text, None, view, private=False, quotes_user=True)
    if result.asked_nothing:
        return Reply(NOTHING_ASKED, None, None, private=True)
    observe.outcome("no_entry")
    text = f"No entry for {echo_quoted(result.query)}."
    # No suggestion may be named so (markup, a link, accents alone): no "Suggest it" that
    # `/suggest` would refuse, and no miss in /stats unless words beside it name something.
    unnamable = suggestion_refusal(suggested_name(result.query))
    gone = _alias_to_a_removed_entry(local, scope, result.query)
    if gone is not None:  # the moderators' alias outlived its entry: say so, not "add an alias"
        text += (
            f" It is this server's alias for {echo_quoted(gone)}, which is no longer in the glossary:"
            " a moderator can remove it with `/alias remove` and add it again for another term."
        )
    elif result.suggestions:
        text += " The closest terms are below."
    elif unnamable is not None:
        text += f" {unnamable}"
    elif scope == DM_SCOPE:  # no moderators here, and aliases belong to a server
        text += " Try another spelling; `/glossary about` says how to ask for a missing term."
    else:
        text += " Try another spelling, or ask a moderator to add it as an alias."
    if scope != DM_SCOPE and unnamable is None:  # suggestions go to a server's moderators
        view = view or discord.ui.View(timeout=None)
        view.add_item(suggest_button(result.query))
    named = unnamable is None or words_beside_markup(result.query)
    missed = result.normalized_query if named else None
    return Reply(text, None, view, private=True, quotes_user=True, missed=missed)


def count_sent(state: BotState, scope: int, reply: Reply) -> None:
    """Count a reply from `reply_for` once it is sent: a card is a lookup, a "no entry" a miss.
    One never sent (refused, or lost past Discord's deadline) counts nothing: the one rule for
    every path that answers."""
    if reply.looked_up is not None:
        state.record_lookup(scope, reply.looked_up)
    elif reply.missed is not None:
        state.record_miss(scope, reply.missed)


async def send_counted(state: BotState, scope: int, reply: Reply, send: Awaitable[T]) -> T:
    """`send`, the request that shows `reply`. A stop that cancels it at its deadline for
    answers after the request went out (Discord may have shown it; its answer had not come
    back) counts it then: a card shown is counted, at the cost of counting one Discord did not
    take in that moment; a request not yet out (waiting its rate limit) counts nothing. The
    caller counts a send that returns (`count_sent`), after its own checks."""
    with written.sending() as request:
        try:
            return await send
        except asyncio.CancelledError:
            if request.written:
                count_sent(state, scope, reply)
            raise


def _alias_to_a_removed_entry(local: LocalGlossary, scope: int, query: str) -> str | None:
    """The entry id a server alias typed as `query` names, when that entry is gone from the
    glossary (its maintainers removed or renamed it): the alias then opens nothing."""
    if scope == DM_SCOPE:
        return None
    entry_id = local.aliases.source.get(normalize(query))
    return entry_id if entry_id is not None and local.entry(entry_id) is None else None


async def respond_in_time(started: float, respond: Callable[[], Awaitable[object]]) -> str | None:
    """Send an interaction's first response (`respond`: a reply or a defer) by Discord's deadline,
    counted from `started` (time.monotonic() when Discord sent the interaction:
    `Arrivals.sent_at`). None once sent; else why it could not be, for `post_instead`'s line:
    the interaction reached the bot too late, or the bot was held up (nothing is sent), or,
    rate limited (a 429) past the deadline or Discord failing (5xx), discord.py would wait and
    send it late, only to be refused (10062) as the user sees "The application did not
    respond". A defer first would not help: it is the same request.
    A request under way at the deadline is Discord's to judge if it went out before it (the
    clock starts at Discord, and it judges on arrival): its answer, waited for `VERDICT_WAIT`
    more, says whether it was taken (10062: not), and with none by then it is taken as shown,
    as a stop counts it (`send_counted`); one not yet out (a 429's retry waiting) is cancelled.
    Given up at the deadline, a response Discord had taken was shown uncounted, and a public
    card was posted in the channel a second time."""
    loop = asyncio.get_running_loop()
    left = started + ACK_DEADLINE - time.monotonic()
    if left <= 0:  # nothing sent: it would only be refused
        late = ACK_DEADLINE - left
        return (
            f"the bot got to it {late:.1f} s after Discord sent it: it reached the bot late, "
            "or the bot was held up"
        )
    with written.sending() as request:
        try:
            async with asyncio.timeout(None) as window:

                def at_the_deadline() -> None:
                    if not request.written:
                        window.reschedule(loop.time())  # not out: cancelled now
                        return
                    log.info(
                        "a first response went out by Discord's deadline, its answer not back: "
                        "waiting up to %.0f s more for Discord's verdict",
                        VERDICT_WAIT,
                    )
                    window.reschedule(loop.time() + VERDICT_WAIT)

                deadline = loop.call_later(left, at_the_deadline)
                try:
                    await respond()
                finally:
                    deadline.cancel()
        except TimeoutError:
            if request.written:
                log.info(
                    "a first response that went out had no answer from Discord %.0f s past its "
                    "deadline: taken as shown (counted), as a stop takes one",
                    VERDICT_WAIT,
                )
                return None
            return _not_out(request.refused)
        except discord.NotFound as refused:
            if refused.code != UNKNOWN_INTERACTION:
                raise
            return "Discord refused it as too late, 10062"
    return None


def _not_out(status: int | None) -> str:
    """Why a first response's request was not out by Discord's deadline: `status`, the last
    refusal Discord gave it (discord.py waits out a 429 and tries a 5xx again), if any."""
    if status == 429:
        return "rate limited: its request waited out a 429"
    if status is not None and status >= 500:
        return f"Discord failing: its request answered {status}, to be tried again"
    return "its request was not out yet: the bot or its connection held up"


def answering(client: GlossaryBot) -> contextlib.AbstractContextManager[None]:
    """The block's reads and writes of the bot's store bounded by WRITE_WAIT from now
    (`Store.answering`): a moderator's reads around a change (a list, a cap, the next
    suggestion) are told `NotInTime` within it, as the change is; a bound already set (a
    command bounded as a whole) holds. Nothing without a store."""
    store = client.state.store
    return store.answering() if store is not None else contextlib.nullcontext()


async def through_the_stop(client: GlossaryBot, work: Awaitable[T]) -> T | None:
    """`work` (a write and the answer to give of it) to its end, though a stop cancels this task
    at its deadline for answers: the write is one transaction that commits on (shielded), so a
    member whose write ended after that deadline heard nothing, written or not. Every write
    whose answer follows it goes through here (a form, a confirm, an import). Cancelled by a
    stop, `work` is waited for until ANSWER_SECONDS before the stop's last deadline (`close`
    waits for this task until then, the connection still open); None if not done by then.
    Its reads and writes are bounded by WRITE_WAIT (`Store.answering`): a database that hangs
    is said in seconds, as nothing written (`NotInTime`), not after minutes."""
    with answering(client):
        task = asyncio.ensure_future(work)  # its own copy of the bound, from now (or the
        # command's, begun earlier: `answering`)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        deadline = client.stop_deadline
        if deadline is None:  # not a stop's: cancelled as asked
            task.cancel()
            raise
    current = asyncio.current_task()
    if current is not None:
        current.uncancel()  # taken: this task ends by the stop's deadline on its own
    left = deadline - ANSWER_SECONDS - asyncio.get_running_loop().time()
    try:
        done = await asyncio.wait_for(asyncio.shield(task), max(0.0, left))
    except TimeoutError:
        task.cancel()  # its transaction, if begun, runs on whole (shielded); nothing more is begun
        log.warning("stopping: a save under way had not ended by the stop's deadline (told so)")
        return None
    log.info("stopping: a save under way at the answers' deadline ended: answered after all")
    return done


async def wrote_through_the_stop(
    client: GlossaryBot, work: Awaitable[tuple[str, bool]], doing: str, check: str
) -> tuple[str, bool]:
    """What to answer of `work` (a write, its answer and whether it wrote: read by the command's
    limit, a use that wrote nothing is given back) run `through_the_stop`: its answer, or where
    the stop cut it short, `unfinished_at_stop(doing, check)` and not known to have written:
    given back too, at every door alike (the limits are the stopping process's; a use is never
    charged for a write not known to be made)."""
    done = await through_the_stop(client, work)
    return done if done is not None else (unfinished_at_stop(doing, check), False)


def unfinished_at_stop(doing: str, check: str) -> str:
    """The answer when `through_the_stop` gave None: the write (`doing`, "removing this alias")
    commits whole or not at all, and which one is not known yet; `check`: where to see it."""
    return (
        f"The bot is stopping, and the database had not finished {doing}: it is either done in "
        f"full or not at all. Check {check} once the bot is back."
    )


def _not_sent(interaction: Interaction, why: str) -> str:
    return (
        f"{described(interaction)}: no first response could be sent within Discord's "
        f"{ACK_DEADLINE:.0f} s ({why})"
    )


def lost(interaction: Interaction, why: str, what: str = "private answer") -> None:
    """The line for a first response (`what`) no one will see: Discord no longer takes one
    (`why`: `respond_in_time`'s reason) and it has nowhere else to go; counted as `late` in
    the metrics, whatever it would have been."""
    observe.outcome("late")
    log.warning(
        "%s; its %s is lost (Discord shows the user that the application did not respond)",
        _not_sent(interaction, why),
        what,
    )


async def post_instead(interaction: Interaction, reply: Reply, ephemeral: bool, why: str) -> bool:
    """The answer to an interaction Discord no longer takes one for (`why`: `respond_in_time`'s
    reason): a public answer goes to the channel as a message of its own (its own rate limit, no
    deadline); a private one has nowhere else to go. One line either way; True if the answer
    was posted. A lost one is counted in the metrics as `late`, whatever it would have been."""
    channel = interaction.channel
    if ephemeral or channel is None or not hasattr(channel, "send"):
        lost(
            interaction, why, "private answer" if ephemeral else "answer (no channel to post it in)"
        )
        return False
    what = _not_sent(interaction, why)
    try:
        await channel.send(**reply.send_kwargs())
    except discord.HTTPException as exc:
        observe.outcome("late")
        log.warning(
            "%s, and posting the answer in channel %s failed too (%s): it is lost",
            what,
            channel.id,
            exc.text or exc.status,
        )
        return False
    log.warning("%s; its answer was posted in channel %s instead", what, channel.id)
    return True


async def open_card(
    interaction: Interaction,
    entry_id: str,
    owner_id: int,
    *,
    plain: bool = False,
    count: bool = True,
    first: str | None = None,
) -> None:
    """A button or menu opened a card: the owner's message changes in place, anyone else
    gets the card for themselves. `first`: the entry its first button offers (as `card_view`)."""
    state = interaction.client.state
    scope = interaction.guild_id or DM_SCOPE
    local = await state.servers.local(scope)
    entry = entry_of(local, entry_id)
    if entry is None:
        await _gone(interaction, entry_id)
        return
    if first is not None:
        first = getattr(entry_of(local, first), "id", first)
    if plain and not entry.plain:  # a card sent before its term was edited to drop them
        await interaction.response.send_message(
            "This term has no plain-words version any more (it was edited since this card was "
            "sent): `/define` shows it as it is now.",
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
        return
    # A card post Discord kept without its card (Embed Links lacking where the bot could not
    # know) is being edited into the line saying so: a card put in it now would end up under
    # that line. Its presser gets the card privately.
    pressed = interaction.message
    stripped = pressed is not None and not pressed.embeds and not pressed.content
    mine = interaction.user.id == owner_id and not stripped
    reply = await reply_for(
        state,
        local,
        replace(SearchResult.opened(entry), other_side=first),
        owner_id if mine else interaction.user.id,
        scope,
        plain=plain,
        count=count,
    )
    if mine:
        send = interaction.response.edit_message(content=None, embed=reply.embed, view=reply.view)
    else:
        send = interaction.response.send_message(ephemeral=True, **reply.send_kwargs())
    await send_counted(state, scope, reply, send)
    count_sent(state, scope, reply)


def entry_of(local: LocalGlossary, entry_id: str) -> Entry | None:
    """The entry a button or menu names: by its id, or a long id's `carried` form. A server
    term's id on a card posted before an edit made it a bundled entry's wording opens that one
    card, as the term's aliases and `/define` do."""
    found = local.entry(entry_id)
    if found is None and "--" in entry_id:
        found = next((e for e in local.glossary if carried(e.id) == entry_id), None)
    return found


# A server's terms not read in time (a server let go is read again at its next request; a slow
# database): the bundled glossary that answers meanwhile says nothing of them.
TERMS_UNREAD = "I could not read this server's terms just now. Please try again in a moment."


async def gone_said(interaction: Interaction, entry_id: str) -> str:
    """What a button or menu says of the card `entry_id` it opens, gone (a card's buttons,
    Explain terms' menu, Other sources, `/alias list`'s **Download all**): one wording, where
    it is gone from (`BotState.gone_from`). A server read again (let go from memory, idle, a
    restart) answers with the bundled glossary until its terms are indexed: one of its own
    terms is not gone then, only not read yet."""
    state = interaction.client.state
    scope = interaction.guild_id or DM_SCOPE
    if not state.servers.knows(scope):
        return TERMS_UNREAD
    return f"That entry is no longer in {await state.gone_from(scope, entry_id)}."


async def _gone(interaction: Interaction, entry_id: str) -> None:
    text = await gone_said(interaction, entry_id)
    await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)


# -- the buttons and menus of a card -------------------------------------------------------------


_OPEN = rf"gb:open:{ENTRY}:{OWNER}"


class OpenButton(Restorable[discord.ui.Button[Any]], template=_OPEN):
    """Opens an entry's card. `label` fits a button already: the views fit their buttons'
    labels together (`fit_names`), a restored button keeps the one it was sent with."""

    def __init__(self, entry_id: str, owner_id: int, label: str, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:open:{carried(entry_id)}:{owner_id}",
            ),
            row=row,
        )
        self.entry_id, self.owner_id = entry_id, owner_id

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> OpenButton:
        label = getattr(item, "label", None) or match["entry"]
        return cls(match["entry"], int(match["owner"]), label)

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        await open_card(interaction, self.entry_id, self.owner_id)


class PlainButton(
    Restorable[discord.ui.Button[Any]], template=rf"gb:plain:{ENTRY}:{OWNER}:(?P<show>[01])"
):
    """Toggles between the plain-words version and the full definition."""

    def __init__(self, entry_id: str, owner_id: int, show_plain: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label="Plain words" if show_plain else "Full definition",
                emoji="💬" if show_plain else "📖",
                style=discord.ButtonStyle.primary,
                custom_id=f"gb:plain:{carried(entry_id)}:{owner_id}:{int(show_plain)}",
            ),
            row=3,
        )
        self.entry_id, self.owner_id, self.show_plain = entry_id, owner_id, show_plain

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> PlainButton:
        return cls(match["entry"], int(match["owner"]), match["show"] == "1")

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        # The same answer in other words: its buttons as they were (a comparison's other side
        # first, which the entry alone does not give).
        first = _first_offered(interaction.message)
        await open_card(
            interaction,
            self.entry_id,
            self.owner_id,
            plain=self.show_plain,
            count=False,
            first=first,
        )


def _first_offered(message: discord.Message | None) -> str | None:
    """The entry a card message's first button opens, if it has one."""
    for row in message.components if message else ():
        for child in getattr(row, "children", ()):
            opens = re.fullmatch(_OPEN, getattr(child, "custom_id", None) or "")
            if opens:
                return opens["entry"]
    return None


class SourcesButton(Restorable[discord.ui.Button[Any]], template=rf"gb:src:{ENTRY}"):
    """Every source's own wording, for entries whose other wordings are too long for the card."""

    def __init__(self, entry_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Other sources",
                emoji="📚",
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:src:{carried(entry_id)}",
            ),
            row=3,
        )
        self.entry_id = entry_id

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> SourcesButton:
        return cls(match["entry"])

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        scope = interaction.guild_id or DM_SCOPE
        local = await interaction.client.state.servers.local(scope)
        glossary, entry = local.glossary, entry_of(local, self.entry_id)
        if entry is None:
            await _gone(interaction, self.entry_id)
            return
        await interaction.response.send_message(
            embed=render_sources(entry, glossary), ephemeral=True, allowed_mentions=NO_MENTIONS
        )


class PickSelect(Restorable[discord.ui.Select[Any]], template=rf"gb:pick:{OWNER}"):
    """A menu of entries (related terms beyond the buttons, or the terms found in a message)."""

    def __init__(
        self, owner_id: int, options: list[discord.SelectOption], *, placeholder: str, row: int
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gb:pick:{owner_id}",
                placeholder=fit(placeholder, limits.SELECT_PLACEHOLDER),
                options=options[: limits.SELECT_OPTIONS] or [discord.SelectOption(label="-")],
            ),
            row=row,
        )
        self.owner_id = owner_id

    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> PickSelect:
        return cls(int(match["owner"]), options_of(item), placeholder="", row=0)

    @guarded
    async def callback(self, interaction: Interaction) -> None:
        values = self.item.values
        if not values:
            await interaction.response.defer()
            return
        await open_card(interaction, values[0], self.owner_id)


CARD_ITEMS = (OpenButton, PlainButton, SourcesButton, PickSelect)


def entry_options(entries: Sequence[Entry]) -> list[discord.SelectOption]:
    """A menu's options, one an entry; two long titles alike at both ends stay apart."""
    labels = fit_names([e.display_title for e in entries], limits.SELECT_OPTION_TEXT)
    return [
        discord.SelectOption(
            label=label,
            value=carried(entry.id),
            description=fit(entry.summary or entry.definition, limits.SELECT_OPTION_TEXT),
        )
        for entry, label in zip(entries, labels, strict=True)
    ]


def card_view(
    glossary: Glossary,
    entry: Entry,
    owner_id: int,
    *,
    plain: bool = False,
    first: str | None = None,
) -> discord.ui.View:
    """The card's buttons and menus; `first` is offered before the related terms."""
    layout = card_layout(entry, glossary, first=first)
    view = discord.ui.View(timeout=None)  # every item is dynamic: nothing is kept in memory
    labels = fit_names([r.title for r in layout.related_buttons], limits.BUTTON_LABEL)
    for n, (related, label) in enumerate(zip(layout.related_buttons, labels, strict=True)):
        view.add_item(OpenButton(related.id, owner_id, label, row=n // limits.BUTTONS_PER_ROW))
    if layout.related_select:
        options = entry_options(layout.related_select)
        view.add_item(PickSelect(owner_id, options, placeholder="More related terms…", row=2))
    if layout.has_plain:
        view.add_item(PlainButton(entry.id, owner_id, show_plain=not plain))
    if layout.sources_button:
        view.add_item(SourcesButton(entry.id))
    return view


def suggestions_view(suggestions: tuple[Suggestion, ...], owner_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    shown = suggestions[: limits.BUTTONS_PER_ROW]
    labels = fit_names([s.title for s in shown], limits.BUTTON_LABEL)
    for suggestion, label in zip(shown, labels, strict=True):
        view.add_item(OpenButton(suggestion.id, owner_id, label, row=0))
    return view
