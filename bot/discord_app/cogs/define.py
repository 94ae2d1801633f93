"""Looking terms up: `/define term:<autocomplete> [private]` and mentions of the bot ("@Glossary
what is a KV cache?"). Both search the same way and send what `reply_for` makes of the result."""

from __future__ import annotations

import dataclasses
import logging
import re
import time
import unicodedata
import uuid
from collections import OrderedDict
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.cards.embed import card_title, in_a_line
from bot.discord_app import metrics as observe
from bot.discord_app.choices import fitted_choices
from bot.discord_app.cogs.explain import terms_listing
from bot.discord_app.cooldowns import lookup_limit
from bot.discord_app.errors import NO_MENTIONS, error_reply, log_servers_failing
from bot.discord_app.member_searches import turn_of
from bot.discord_app.replies import (
    Reply,
    count_sent,
    names_no_term,
    post_instead,
    reply_for,
    respond_in_time,
    send_counted,
)
from bot.discord_app.state import BotState
from bot.glossary.invisible import drop_invisible
from bot.search.asked import search_asked
from bot.search.index import MAX_QUERY
from bot.storage import DM_SCOPE

if TYPE_CHECKING:
    from bot.discord_app.app import GlossaryBot
    from bot.search.index import Aliases, SearchIndex
    from bot.search.results import SearchResult

    Interaction = discord.Interaction[GlossaryBot]

log = logging.getLogger(__name__)

SEARCHES_WAITING = "Too many searches are waiting in this server right now: try again in a moment."
# Each member's direct messages take a turn of their own (`turn_of`): told of no server.
SEARCHES_WAITING_DM = "Too many searches are waiting right now: try again in a moment."
MAX_LACKING_SAID = 1_000  # channels remembered as told about a permission the bot lacks there
# A permission given back and lost again is said again, but in one channel at most this often
# (seconds): one flipped all day (an admin's bot, a hostile admin) wrote a line a flip.
RESAID_AFTER = 3_600.0
ARCHIVED_THREAD = 50083  # Discord's code for a post in a thread archived (or locked) meanwhile
MISSING_ACCESS = 50001  # a channel the bot may not view, or in a server it is no longer in
REPLY_WITHOUT_HISTORY = 160002  # a reply where the bot may not read the channel's history
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)
POST_PERMISSION_NAMES = {
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
}

MENTION_HELP = (
    "Ask me about a term: mention me with it, e.g. “what is a KV cache?”, or use `/define`."
)
# In DMs every message is read: no mention needed.
DM_HELP = "Ask me about a term: write it here, e.g. “what is a KV cache?”, or use `/define`."
# `/define help`, `/define how to use this bot?`: only to the asker.
DEFINE_HELP = (
    "Ask me about a term: give `/define` its name, an acronym or a few words describing it, "
    "e.g. `/define KV cache` or `/define what is a KV cache?`."
)
# What the operator is told, once per channel, of a permission the bot lacks there.
LACKING_SAID = {
    "embed_links": "cannot show cards in channel %s: the bot lacks Embed Links there, so "
    "mentions (and /define answers posted there past Discord's deadline) are answered with a "
    "line of text",
    "read_message_history": "cannot reply to mentions in channel %s: the bot lacks Read Message "
    "History there, which Discord requires of a reply, so it answers them with a message of "
    "its own",
    "send_messages": "cannot answer mentions in channel %s: the bot lacks Send Messages there "
    "(/define still answers there)",
    "send_messages_in_threads": "cannot answer mentions in thread %s: the bot lacks Send Messages "
    "in Threads there (/define still answers there)",
}
# A mention in a reply to another's message ("@Glossary what does this mean?"): Discord shows a
# bot without the message content intent none of the replied-to text, but Explain terms reads it.
EXPLAIN_REPLIED = (
    "To see the terms in the message you replied to, use **Apps > Explain terms** on it: a "
    "mention shows me only your own words."
)
# ...and a mention that only points up ("@Glossary ^", 👆): the message above is not shown either.
EXPLAIN_ABOVE = (
    "To see the terms in a message above, use **Apps > Explain terms** on it: a mention shows me "
    "only your own words."
)
ROLE_MENTION_HELP = (
    "That mentioned my role, not me, so Discord showed me none of your message: mention me "
    "(after @, pick me rather than the role), or use `/define`."
)
NO_EMBEDS = (
    "**{title}** has a card, but I can't show cards in this channel: it needs the "
    "**Embed Links** permission for me here. `/define` shows it anywhere."
)
# Thanks and help in the languages besides English that members most often write to a bot in,
# said to it as its English words are (`/define gracias`, "@Glossary hilfe"): one row a language,
# its thanks and its help, as typed (any case; a trailing "!" or "?" is read as in English).
OTHER_LANGUAGES = (
    # (language, thanks, help)
    ("Spanish", ("gracias", "muchas gracias"), ("ayuda",)),
    ("French", ("merci", "merci beaucoup"), ("aide",)),
    ("German", ("danke", "danke schön", "dankeschön", "vielen dank"), ("hilfe",)),
    ("Portuguese", ("obrigado", "obrigada", "muito obrigado", "muito obrigada"), ("ajuda",)),
    ("Italian", ("grazie", "grazie mille"), ("aiuto",)),
    ("Dutch", ("dank je", "dank je wel", "dankjewel", "bedankt"), ("hulp",)),
    ("Nordic", ("tack", "takk", "tak", "kiitos"), ("hjälp", "hjelp", "hjælp", "apua")),
    ("Polish", ("dziękuję", "dzięki"), ("pomoc", "pomocy")),
    ("Russian", ("спасибо",), ("помощь", "помогите")),
    ("Turkish", ("teşekkürler", "teşekkür ederim", "sağol"), ("yardım",)),
    ("Japanese", ("ありがとう", "ありがとうございます"), ("ヘルプ", "助けて")),
    ("Chinese", ("谢谢", "謝謝", "多谢"), ("帮助", "幫助")),
    ("Korean", ("감사합니다", "고마워요"), ("도움말", "도와주세요")),
)


def _either(words: Collection[str]) -> str:
    return "|".join(re.escape(word) for word in words)


_THANKS_ELSEWHERE = _either([word for _, thanks, _ in OTHER_LANGUAGES for word in thanks])
_HELP_ELSEWHERE = _either([word for _, _, asked in OTHER_LANGUAGES for word in asked])
# What people say to a bot they talk to, in a DM above all ("hi", "thanks!" after a card, a
# laugh: "lol", "hahaha", "xD"): no term, so MENTION_HELP, and no missed search for the
# server's stats. A server's own name that reads like one ("OK" for a term) is searched first
# and opens its card.
_PLEASANTRY = re.compile(
    r"(?:[¡¿]?(?:hi|hello|hey|heya|hiya|yo|sup|gm|good (?:morning|afternoon|evening|night)|"
    r"thanks?(?: you)?(?: (?:so|very) much| a lot)?|thx|ty|tysm|cheers|ok(?:ay)?|cool|nice|"
    r"great|got it|perfect|awesome|lo+l(?:ol)*|lmf?a+o+|rofl|ha(?:ha)+h?|he(?:he)+|xd+|"
    rf"{_THANKS_ELSEWHERE})"
    r"(?: (?:there|all|bot|again|mate|man))?[\s!.,:;)(]*)+",
    re.IGNORECASE,
)
# What a new server's members ask the bot about itself ("help", "what can you do?"): no term,
# so the help line (a reply to another's message: Explain terms), no offers, no missed search.
# Searched first, as a pleasantry: a server's own name that reads like one opens its card.
_ASKS_ABOUT_ME = re.compile(
    r"(?:[/!?.]?help(?: me)?(?: pls| plz| please)?"
    r"|(?:(?:what are|list|show(?: me)?) )?(?:your |the |all )?commands"
    r"|how (?:do|does|can|should) (?:i|we|one|you|this bot|the bot|this|it)"
    r"(?: use (?:you|it|this|this bot|the bot))?(?: work)?"
    r"|how to use(?: you| it| this| this bot| the bot)?"
    r"|what (?:can|do) you do|what(?: are| is|'s|’s) (?:you|this bot)|who are you"
    rf"|[¡¿]?(?:{_HELP_ELSEWHERE}))[\s!?.,:;)(]*",
    re.IGNORECASE,
)


def said_to_me(text: str, result: SearchResult) -> str | None:
    """What words said to the bot rather than about a term are, for mentions and `/define`
    alike: "pleasantry" (`_PLEASANTRY`), "about me" (`_ASKS_ABOUT_ME`), or None. A card that a
    name opened (the server's term or alias "Help") wins; one only the meaning found ("how to
    use this bot?": System Prompt) is not the server's name reading like these words."""
    if result.entry is not None and result.strategy != "semantic":
        return None
    words = _as_typed_words(text)
    if _PLEASANTRY.fullmatch(words):
        return "pleasantry"
    if _ASKS_ABOUT_ME.fullmatch(words):
        return "about me"
    return None


def _as_typed_words(text: str) -> str:
    """`text` as the two patterns above read it: what shows nothing dropped (a zero-width space
    or a direction mark pasted with it; the miss is echoed without them), full-width forms
    as the plain ones (an input method's "ｈｅｌｐ？"), and emoji as spaces ("thanks 🙏",
    "hi 👋🏽": a pleasantry's, not a term's)."""
    typed = unicodedata.normalize("NFKC", drop_invisible(text))
    return "".join(" " if _emoji_part(char) else char for char in typed)


def _emoji_part(char: str) -> bool:
    """An emoji's symbol, skin tone, or the joiner or variation selector inside one."""
    return unicodedata.category(char) in ("So", "Sk") or char in "\u200d\ufe0e\ufe0f"


# Others named in a mention's text: a member (<@1>, <@!1>), a role (<@&2>), a channel (<#3>).
_OTHER = r"<(?:@[!&]?|#)\d+>"
# ...and the words that hand the answer to them ("rag for @bob", "cc @bob"), and custom emoji
# (<:name:4>, <a:name:5>, a picture): none of it is the term asked about.
_ASIDE = re.compile(rf"(?:\b(?:for|to|cc)\s+)?{_OTHER}|<a?:\w+:\d+>", re.IGNORECASE)
# What a member adds after the term about the question, not in it: a "pls", for whom ("rag
# for bob", "for my team", "asking for a friend"), who asked ("rag, bob asked", "asked by bob";
# after punctuation only: "rag bob asked" may be a name), thanks in another language as in
# English ("lora danke schön"). `search_mention` sets it aside.
AFTERWORDS_READ = 80  # characters at a text's end
_AFTERWORD = re.compile(
    r"(?:[\s,;:.!?()\-–—]+)(?:pls|plz|please|thx|thanks?(?: you)?|ty|tysm"
    rf"|{_THANKS_ELSEWHERE}"
    r"|(?:asking |asked )?for (?:a friend|(?:my |the |our )?\w+(?: and \w+)?)"
    r"|asked by (?:my |the |our )?\w+)[\s!.?)]*$"
    r"|[,;:.!?()\-–—]+\s*(?:\w+ ){0,2}\w+ (?:asked|asks|is asking|was asking|wants to know|"
    r"wanted to know|is wondering|was wondering|wonders)[\s!.?)]*$",
    re.IGNORECASE,
)
# ...and before it, set apart by punctuation: "for bob: rag", "asking for a friend - rag".
_FOREWORD = re.compile(
    r"(?:asking )?for (?:a friend|(?:my |the |our )?\w+(?: and \w+)?)\s*[,;:\-–—]+\s*",
    re.IGNORECASE,
)


# Marks that point at the message above ("^", 👆, ⬆️; skin tones and emoji forms with them),
# alone or with punctuation: the chat way of saying "explain that".
_POINTER = "\\^\u2191\u2b06\u2934\u261d\U0001f446\U0001f53c"
_POINTING = re.compile(rf"(?=.*[{_POINTER}])[{_POINTER}\ufe0f\U0001f3fb-\U0001f3ff\s?!.]+")

# Code (a `span`, a ``span``, a ```block```) shows text as typed: a mention in it is shown, not
# said ("type `@Glossary rag` to get a card" tells others how to ask).
# A backslash before a backtick shows it ("\\`"): it opens no code.
_CODE = re.compile(r"(?<!\\)(?:```.*?```|``.+?``|`[^`]+`)", re.DOTALL)
# A ``` block pasted with a question (a traceback, a REPL) is what is asked about: the words
# outside it are searched first.
_FENCED = re.compile(r"(?<!\\)```.*?```", re.DOTALL)
# Discord shows a backslash before any mark that is not a letter, digit or space as the mark
# alone ("\\`" a backtick, "\\*" a star), outside code, where it is as typed.
_ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])")
# Discord's quotes: a line from "> " (the space needed), or the rest of the message from ">>> ".
_QUOTE = re.compile(r" *> ")
_BLOCK_QUOTE = re.compile(r" *>>> ")
# Own words under a quote that ask about it (`asks_about_quote`): what the thing pointed back
# at is ("what's that", "what does it mean", "explain this", "is that the same as fine tuning?",
# "how does that work"). A word pointing back with any question is not enough: "is it down?",
# "anyone up for it?", "who set that up?" ask no meaning, and the quote's card would be wrong;
# nor does a "what ... it" going on to ask something else ("what does it cost?").
_BACK = r"(?:that|this|it|these|those|them|thats)"
_ASKS_MEANING = re.compile(
    rf"\bwhat(?:['\u2019]?s)?(?: (?:even|exactly|the heck|the hell|tf|is|are|was|were|does|do|did))*"
    rf" {_BACK}\b(?=\W*$| (?:mean|means|meant|exactly|even|again|called|about|lol|tho|tbh)\b)"
    rf"|\b(?:explain|eli5|define|wdym|meaning of)\b.*\b{_BACK}\b"
    rf"|\b{_BACK}\b.*\b(?:explain|eli5|define|wdym)\b"
    rf"|\b(?:does|do|did) {_BACK} mean\b"
    rf"|\b(?:is|are|isn['\u2019]?t) {_BACK}(?: \w+)? (?:the same(?: thing)? as|like|similar to|"
    rf"different from|a (?:kind|type) of|related to|short for)\b"
    rf"|\bhow (?:does|do|is|are) {_BACK} (?:work|differ|different|compare)\b",
    re.IGNORECASE,
)
# ...or an ask with no object at all ("explain pls", "huh?", "wdym").
_BARE_ASK = re.compile(
    r"(?:(?:explain|eli5|define|meaning|what|wdym|huh|again|pls|plz|please)[\s?!.,]*)+",
    re.IGNORECASE,
)


def as_shown(text: str) -> str:
    """`text` with its escapes as Discord shows them: a member who sees `kv cache` asks about
    kv cache, whatever it took to type it."""
    if "\\" not in text:
        return text
    out, at = [], 0
    for code in _CODE.finditer(text):
        out += [_ESCAPED.sub(r"\1", text[at : code.start()]), code.group()]
        at = code.end()
    return "".join([*out, _ESCAPED.sub(r"\1", text[at:])])


def said_outside_code(content: str, mention: str) -> bool:
    """Whether the pattern `mention` occurs in `content` outside code."""
    return re.search(mention, _CODE.sub(" ", content)) is not None


def split_quotes(content: str) -> tuple[str, str]:
    """`content`'s own lines and the words it quotes, as Discord shows a quote: a line from
    "> ", or all from a line's ">>> " on. A mention in a quote shows what someone said to the
    bot ("> @Glossary rag" and the member's own words): it asks nothing again."""
    own: list[str] = []
    quoted: list[str] = []
    lines = content.split("\n")
    in_code = False  # within a ``` block: its "> " and ">>> " are code as typed (a REPL)
    for at, line in enumerate(lines):
        if not in_code and (block := _BLOCK_QUOTE.match(line)) is not None:
            quoted += [line[block.end() :], *lines[at + 1 :]]
            break
        if not in_code and (quote := _QUOTE.match(line)) is not None:
            quoted.append(line[quote.end() :])
            continue
        own.append(line)
        if line.count("```") % 2:  # a block opens (where one closes below: Discord shows
            # an unclosed ``` as typed) or closes
            in_code = not in_code and any("```" in below for below in lines[at + 1 :])
    return "\n".join(own), "\n".join(quoted)


def asked_text(content: str, mine: str) -> tuple[str, str]:
    """What a message asks the bot (`mention_text`), its quotes set aside: the member's own
    words, or, where those ask nothing ("> what is rag" and "@Glossary", "@Glossary ?" or
    "@Glossary ^" under it), the quote's; and the quote the own words ask about, on one line
    ("" where there is none, or the quote is what is asked): `search_under_quote` reads it."""
    own, quoted = split_quotes(content)
    text = mention_text(own, mine)
    if quoted and (not re.search(r"\w", text) or _POINTING.fullmatch(text)):
        return as_shown(mention_text(quoted, mine)), ""
    text = as_shown(text)
    if not quoted or not asks_about_quote(text):
        return text, ""
    return text, " ".join(as_shown(mention_text(quoted, mine)).split())


def asks_about_quote(text: str) -> bool:
    """Whether the member's own words under a quote ask about it: words pointing back at it
    with a question ("what does that mean", "is that the same as fine tuning?") or an ask with
    no object ("explain", "huh?"). Other words (lunch, "lol", a thank-you, a question about
    something else) ask nothing of it: the search would read any reply naming nothing as about
    the quote's name (`QuestionRules._replied_to`), so the quote is not passed along for them."""
    if _PLEASANTRY.fullmatch(words := _as_typed_words(text)) or _ASKS_ABOUT_ME.fullmatch(words):
        return False
    if _BARE_ASK.fullmatch(text):
        return True
    return _ASKS_MEANING.search(" ".join(text.split())) is not None


def search_under_quote(
    index: SearchIndex,
    text: str,
    quote: str,
    aliases: Aliases,
    shown: Collection[str] = (),
    read_end: bool = True,
) -> SearchResult:
    """`text` searched (`search_mention`); where it opens no card and asks about a `quote`, the
    two in the shape the search reads as a thread reply ("> quote" and the reply on the next
    line: `query.quote_split`), whose card answers where it is the one entry the quote names
    (a quote naming two leaves "that" unknown; a link names none: "…/rag"). The own words'
    card wins; a miss or offers stay the own words'. A card titled as one `shown` (the bot's
    card the message replies to, quoting it; its title as the card fits it) is not posted
    again: it tells nothing new. `read_end`: as `search_mention` takes it."""
    own = search_mention(index, text, aliases, read_end)
    if own.entry is not None or not quote:
        return own
    replied = search_mention(index, f"> {quote}\n{text}", aliases, read_end)
    if replied.entry is None:
        return own
    named = {m.entry.id for m in index.find_named_terms(quote, aliases)}
    if named != {replied.entry.id} or card_title(replied.entry) in shown:
        return own
    return replied


def mention_text(content: str, mine: str) -> str:
    """What a message asks the bot, without the bot's own mentions (the pattern `mine`) nor
    what is said to others in it (`_ASIDE`): "@bob see @Glossary rag" says "@bob see" to Bob
    and "rag" to the bot, so where another is named before the bot's first mention, the words
    after it (if any) are the question. Punctuation alone after it ("@bob what's rag, @Glossary?")
    or a pleasantry ("@bob what's rag @Glossary thanks!") is no question: the words before it
    are, with it."""
    before, *after = re.split(mine, content)
    rest = " ".join(after)
    said = _ASIDE.sub(" ", rest).strip()
    asks = re.search(r"\w", said) is not None and not _PLEASANTRY.fullmatch(_as_typed_words(said))
    whole = _ASIDE.sub(" ", f"{before} {rest}").strip()
    # Past what the search reads (a long chat message ending "... anyway @Glossary what is a
    # kv cache"), the words after the mention are the question too: read whole, they are not.
    if asks and (re.search(_OTHER, before) or len(whole) > MAX_QUERY):
        return said
    return whole


def search_mention(
    index: SearchIndex, text: str, aliases: Aliases, read_end: bool = True
) -> SearchResult:
    """`text` searched, or, where it finds no card, the term without its afterwords and
    foreword (`_AFTERWORD`: "rag, bob asked", "rag for bob"; `_FOREWORD`: "for bob: rag") where
    that opens the card the whole offered first (or the whole offered nothing). "Embeddings for
    search" keeps its offers (Hybrid Search first): there the words after "for" are what is
    asked about. With `read_end`, a text longer than the search reads that opens no card is
    read at its end too (`_read_end`), where a long message's question often is: not for a
    reply that names the bot only by its ping, which asks nothing of it (a flood of long
    replies under a card costs one search each, not two; nor is a question asked outright past
    its start looked for in it: `SearchIndex.search`'s `start_only`). A miss echoes the whole.
    Links are set aside first (`search_asked`), and a ``` block pasted with words that open a
    card (`_FENCED`)."""
    words = " ".join(_FENCED.sub(" ", text).split())
    if words != " ".join(text.split()) and re.search(r"\w", words):
        asked = search_mention(index, words, aliases)
        if asked.entry is not None:
            return asked
    whole = search_asked(index, text, aliases, start_only=not read_end)
    if whole.entry is not None:
        return whole
    # The search read its start: a long message's question, and the bot's mention, often come
    # at its end ("..., what is a kv cache? @Glossary").
    if read_end and len(text) > MAX_QUERY:
        end = search_mention(index, _read_end(text), aliases)
        if end.entry is not None:
            return end
    term = text
    # Afterwords are short: only the end is read (a text of 4,000 spaces read whole by the
    # pattern takes seconds).
    while (aside := _AFTERWORD.search(term[-AFTERWORDS_READ:])) is not None:
        cut = len(term) - len(term[-AFTERWORDS_READ:]) + aside.start()
        if cut == 0:
            break
        term = term[:cut]
    if (foreword := _FOREWORD.match(term)) is not None:
        term = term[foreword.end() :]
    if term == text or not re.search(r"\w", term):
        return whole
    alone = index.search(term, aliases)
    offered = whole.suggestions[0].id if whole.suggestions else None
    if alone.entry is not None and offered in (None, alone.entry.id):
        return alone
    return whole


def _read_end(text: str) -> str:
    """The end of `text` the search reads (`MAX_QUERY` characters), from the first sentence
    that starts in it, else from a word's start."""
    end = text[-MAX_QUERY:]
    start = re.search(r"[.!?\n]\s+(?=\w)", end) or re.search(r"\s+", end)
    return end[start.end() :] if start is not None else end


async def term_choices(state: BotState, scope: int, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a glossary term, this server's aliases included (and its most looked
    up terms for an empty box)."""
    local = await state.servers.local(scope)
    popular = await state.popular(scope) if not current.strip() else []
    choices = local.index.autocomplete(current, local.aliases, popular=popular)
    return fitted_choices((c.name, c.value) for c in choices)


class DefineCog(commands.Cog):
    def __init__(self, bot: GlossaryBot, state: BotState) -> None:
        self.bot = bot
        self.state = state
        # Channels whose missing permission was logged (channel id and permission): when, and
        # whether a post showed it given back since; the most recent MAX_LACKING_SAID: a bot in
        # thousands of channels keeps no id for ever; one dropped may be said once more.
        self._lacking_said: OrderedDict[tuple[int, str], tuple[float, bool]] = OrderedDict()
        self.clock = time.monotonic  # for RESAID_AFTER (tests turn it by hand)

    @app_commands.command(
        name="define", description="Look up a term: definition, what it is not, related terms"
    )
    @app_commands.describe(
        term="The term, an acronym, or a short description",
        private="Only you see the answer (default: everyone in the channel)",
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=False)
    @lookup_limit
    async def define(
        self,
        interaction: Interaction,
        term: app_commands.Range[str, 1, limits.DEFINE_TERM],
        private: bool = False,
    ) -> None:
        started = self.bot.arrivals.sent_at(interaction)
        state = self.state
        scope = interaction.guild_id or DM_SCOPE
        # Acknowledged first where the answer may take a while: this server's aliases are not
        # cached yet (reading them may be slow), or the worker searching terms has others'
        # searches to run first (a defer gives 15 minutes, not 3 s), as Explain terms.
        deferred = not state.servers.knows(scope) or not state.term_searches.idle()
        missed = None  # Discord still takes an answer; else why it does not
        if deferred:
            missed = await respond_in_time(
                started, lambda: interaction.response.defer(ephemeral=private, thinking=True)
            )
        local = await state.servers.local(scope, patient=deferred)
        # Off the event loop, taking turns with other servers: a term of up to 100 characters
        # that names nothing costs search 30-130 ms, and 50 members sending such terms at once
        # held every server up for 3 s (bench/loop_lag_bench.py --kinds define).
        turn = turn_of(interaction.guild_id, interaction.user.id)
        result = await state.term_searches.run(turn, search_asked, local.index, term, local.aliases)
        # Past Discord's deadline a public answer goes to the channel as a message of its own,
        # where a card needs Embed Links; a private one is lost. What nobody sees counts
        # nothing: the answer is counted once it is sent, whichever way it went.
        if result is None:  # this server has too many searches waiting
            waiting = SEARCHES_WAITING if interaction.guild_id else SEARCHES_WAITING_DM
            reply = Reply(waiting, None, None, private=True)
        elif said_to_me(term, result) is not None:  # "help", "thanks": no term, no miss
            reply = Reply(DEFINE_HELP, None, None, private=True)
        else:
            reply = await reply_for(state, local, result, interaction.user.id, scope)
        ephemeral = private or reply.private
        kwargs = reply.send_kwargs()
        if not deferred:
            respond = interaction.response.send_message
            missed = await send_counted(
                state,
                scope,
                reply,
                respond_in_time(started, lambda: respond(ephemeral=ephemeral, **kwargs)),
            )
        sent = missed is None
        embeds_here = interaction.app_permissions.embed_links
        if missed is not None and reply.embed is not None and not embeds_here and not ephemeral:
            observe.outcome("refused")  # for a permission the bot lacks
            if interaction.channel_id is not None:
                self._say_lacking(interaction.channel_id, "embed_links")
            text = NO_EMBEDS.format(title=in_a_line(reply.embed.title or ""))
            no_card = Reply(text, None, None, private=False)
            await post_instead(interaction, no_card, ephemeral, missed)
        elif missed is not None:
            sent = await send_counted(
                state, scope, reply, post_instead(interaction, reply, ephemeral, missed)
            )
        elif deferred and ephemeral and not private:
            # Deferred in public, but a miss is only for the asker: swap for an ephemeral
            # follow-up.
            await interaction.delete_original_response()
            follow = interaction.followup.send(ephemeral=True, **kwargs)
            await send_counted(state, scope, reply, follow)
        elif deferred:
            follow = interaction.followup.send(ephemeral=private, **kwargs)
            await send_counted(state, scope, reply, follow)
        if sent:
            count_sent(state, scope, reply)

    @define.autocomplete("term")
    async def term_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await term_choices(self.state, interaction.guild_id or DM_SCOPE, current)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        me = self.bot.user
        if message.author.bot or me is None:
            return
        # Discord's list after "@" offers the bot's own role beside the bot: picked, the
        # message mentions the role, and Discord shows the bot none of its text (that takes a
        # mention of the bot itself, without the message content intent).
        role = message.guild.self_role if message.guild is not None else None
        role_id = role.id if role is not None and role in message.role_mentions else None
        named = any(u.id == me.id for u in message.mentions)
        if message.guild is not None and not named and role_id is None:
            return
        if message.guild is not None and _shown_only_in_code(message, me.id, role_id):
            return  # nobody asked: no answer, no lookup, no miss
        # Where Discord would refuse any post, try none and use none of the member's lookups:
        # the operator is told once which permission. Checked before Embed Links: in a thread
        # where the bot may not post, discord.py reports no Embed Links either.
        post = _post_permission(message.channel)
        if not _bot_may(message, post):
            self._say_lacking(message.channel.id, post)
            return
        # A reply to the bot pings it by default, so Discord lists it in `mentions` though the
        # text names nobody: talk in a thread under a card, answered only when it finds a card
        # (only that card is a lookup).
        only_pinged = (
            message.guild is not None and me.id not in message.raw_mentions and role_id is None
        )
        limit = self.state.replies if only_pinged else self.state.lookups
        if limit.take(message.author.id, time.monotonic()) is not None:  # now: it arrived
            return  # over the limit (a mention's is the one /define has too): nothing in public
        if not self.bot.admit(message):
            return
        try:
            await self._answer_mention(message, me.id, cards_only=only_pinged, role_id=role_id)
        except discord.Forbidden as exc:
            if message.guild is None:  # a DM has no permissions: the user's settings refuse it
                log.info(
                    "cannot answer a direct message from user %s: Discord refuses the bot's "
                    "messages to them (they share no server with it any more, closed their "
                    "DMs or blocked it; %s, error code %s)",
                    message.author.id,
                    exc.text or exc.status,
                    exc.code,
                )
                return
            if await self._removed_from(message.guild.id, exc):
                log.warning(
                    "cannot reply to a mention in channel %s: the bot is no longer in server %s "
                    "(removed before the reply went out; %s, error code %s)",
                    message.channel.id,
                    message.guild.id,
                    exc.text or exc.status,
                    exc.code,
                )
                return
            # The server's channel settings, not a bug; an error reply would be refused too.
            # Discord hides a channel the bot may not view (Missing Access): not one it sees.
            may_not, needs = "post in", _post_needs(message.channel)
            if exc.code == MISSING_ACCESS:
                may_not = "view"
            log.warning(
                "cannot reply to a mention: the bot may not %s channel %s (%s, error code %s); "
                "it needs View Channel and %s there",
                may_not,
                message.channel.id,
                exc.text or exc.status,
                exc.code,
                needs,
            )
        except discord.DiscordServerError as exc:
            log_servers_failing(f"cannot reply to a mention in channel {message.channel.id}", exc)
        except Exception as exc:
            if isinstance(exc, discord.HTTPException) and (gone := _reply_target_gone(exc)):
                # Gone before the answer went out: nobody is there to read it, or an error.
                log.warning(
                    "cannot reply to a mention in channel %s: %s (%s, error code %s)",
                    message.channel.id,
                    gone,
                    exc.text or exc.status,
                    exc.code,
                )
                return
            error_id = uuid.uuid4().hex[:8]
            observe.failed(error_id)
            log.exception("error %s answering message %s", error_id, message.id)
            try:
                await self._reply(message, content=error_reply(error_id))
            except discord.HTTPException as exc:
                log.warning("could not tell the author of message %s: %s", message.id, exc)

    async def _answer_mention(
        self,
        message: discord.Message,
        my_id: int,
        *,
        cards_only: bool = False,
        role_id: int | None = None,
    ) -> None:
        """Answer a message that mentions the bot, or its role (`role_id`)."""
        mine = rf"<@!?{my_id}>" + ("" if role_id is None else rf"|<@&{role_id}>")
        text, quote = asked_text(message.content, mine)
        if cards_only and not text:
            return
        if role_id is not None and not text and my_id not in message.raw_mentions:
            await self._reply(message, content=ROLE_MENTION_HELP)  # its text withheld
            return
        scope = message.guild.id if message.guild else DM_SCOPE
        shows_more = bool(message.message_snapshots) or message.poll is not None
        if not text and shows_more and _bot_may(message, "embed_links"):
            # A forward (a DM "what's this?") or a poll has no words of its own to look up:
            # the terms in what it shows, as Explain terms lists them.
            local = await self.state.servers.local(scope, patient=True)
            reply = await terms_listing(self.state, scope, local, message, message.author.id)
            if reply is not None:  # None: this server has too many messages waiting to be read
                await self._reply(message, **reply.send_kwargs())
            return
        replied = _replies_to_another(message, my_id)
        if not text:
            help_line = MENTION_HELP if message.guild else DM_HELP
            await self._reply(message, content=EXPLAIN_REPLIED if replied else help_line)
            return
        if message.guild is not None and not cards_only and _POINTING.fullmatch(text):
            # "@Glossary ^": the message above, which Discord does not show the bot. No miss.
            await self._reply(message, content=EXPLAIN_REPLIED if replied else EXPLAIN_ABOVE)
            return
        local = await self.state.servers.local(scope, patient=True)  # a reply has no deadline
        # Up to 4,000 characters: searched off the event loop, taking turns with other servers.
        result = await self.state.member_searches.run(
            turn_of(scope, message.author.id),
            search_under_quote,
            local.index,
            text,
            quote,
            local.aliases,
            _own_card_titles(message, my_id),
            not cards_only,  # a reply naming the bot only by its ping: its start alone
        )
        if result is None:
            return  # this server has too many messages waiting to be read: nothing in public
        if cards_only:
            if result.entry is None:
                return  # "thanks!", "ok we will try it": no help line, no offers, no miss
            if self.state.lookups.take(message.author.id, time.monotonic()) is not None:
                return  # a card, but over the limit /define has too: nothing in public
        said = said_to_me(text, result)
        if said is not None:  # a reply to another's message asking for help: Explain terms
            help_line = MENTION_HELP if message.guild else DM_HELP
            replied_help = EXPLAIN_REPLIED if replied and said == "about me" else help_line
            await self._reply(message, content=replied_help)
            return
        if (
            result.entry is None
            and message.guild is not None
            and names_no_term(text)
            and not split_quotes(message.content)[1]  # a quote is shown: `reply_for` says
        ):
            # "@Glossary what is this?": about a message the bot is not shown (the one replied
            # to, or above), as "@Glossary ^" is. No miss, no offers, no "Suggest it".
            await self._reply(message, content=EXPLAIN_REPLIED if replied else EXPLAIN_ABOVE)
            return
        can_embed = _bot_may(message, "embed_links")
        # A card nobody sees is no lookup: one where embeds show nothing, or whose reply Discord
        # refuses (a miss or an offer is text, shown as ever). It is counted once it is sent.
        reply = await reply_for(self.state, local, result, message.author.id, scope)
        if replied and reply.embed is None:  # no card: a miss, an offer, nothing asked
            reply = dataclasses.replace(reply, content=f"{reply.content}\n{EXPLAIN_REPLIED}")
        if reply.embed is not None and not can_embed:
            # Discord takes the card and shows nothing of it: an empty reply. Say it in text.
            observe.outcome("refused")  # for a permission the bot lacks
            self._say_lacking(message.channel.id, "embed_links")
            text = NO_EMBEDS.format(title=in_a_line(reply.embed.title or ""))
            await self._reply(message, content=text)
            return
        sent = await send_counted(
            self.state, scope, reply, self._reply(message, **reply.send_kwargs())
        )
        if reply.embed is not None and not sent.embeds:
            # Discord posted the card without it (Embed Links lacking where the bot could not
            # know: a thread it was never told about), its buttons under nothing: the line
            # saying so instead.
            observe.outcome("refused")
            self._say_lacking(message.channel.id, "embed_links")
            await sent.edit(
                content=NO_EMBEDS.format(title=in_a_line(reply.embed.title or "")), view=None
            )
            return
        if reply.embed is not None:
            self._regained(message.channel.id, "embed_links")
        count_sent(self.state, scope, reply)

    async def _reply(self, message: discord.Message, **kwargs: Any) -> discord.Message:
        """Answer `message` in its channel: as a reply to it, or, where the bot may not read
        the channel's history (Discord refuses a reply then: 403, 160002), as a message of its
        own, which needs Send Messages alone: where the bot knows it lacks the permission, or
        Discord refused the reply for it (taken since the bot was told its roles). Nobody is
        pinged either way."""
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        channel_id, post = message.channel.id, _post_permission(message.channel)
        if _bot_may(message, "read_message_history"):
            try:
                sent = await message.reply(mention_author=False, **kwargs)
            except discord.Forbidden as exc:
                if exc.code != REPLY_WITHOUT_HISTORY:
                    raise
            else:
                self._regained(channel_id, post, "read_message_history")
                return sent
        self._say_lacking(channel_id, "read_message_history")
        sent = await message.channel.send(**kwargs)
        self._regained(channel_id, post)
        return sent

    async def _removed_from(self, guild_id: int, refused: discord.Forbidden) -> bool:
        """Whether a reply was `refused` because the bot is no longer in the server (removed
        since the mention). Discord says Missing Access (50001) for that and for a channel the
        bot may not view alike; reading the server tells them apart: Unknown Guild (10004, a
        NotFound) for one the bot is not in (Missing Access before 2023)."""
        if refused.code != MISSING_ACCESS:
            return False
        if self.bot.get_guild(guild_id) is None:  # discord.py was told already (GUILD_DELETE)
            return True
        try:
            await self.bot.fetch_guild(guild_id)
        except (discord.NotFound, discord.Forbidden):
            return True
        # Discord failing, or the connection dropped (discord.py lets aiohttp's and the socket's
        # errors through): the permissions, as before.
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError):
            return False
        return False

    def _regained(self, channel_id: int, *permissions: str) -> None:
        """A post showed the bot has `permissions` in this channel (given back since it was
        told of their lack): losing them again is said again (`_say_lacking`). Once per
        channel for good, an operator who mended a channel was never told that a later change
        broke it again."""
        for permission in permissions:
            told = self._lacking_said.get((channel_id, permission))
            if told is not None:
                self._lacking_said[channel_id, permission] = (told[0], True)

    def _say_lacking(self, channel_id: int, permission: str) -> None:
        """Tell the operator what lacking `permission` in this channel changes: once, and again
        once it was given back (`_regained`), at most every RESAID_AFTER (a loss within it is
        said at the first mention after it, if the permission is still lacking then)."""
        key, now = (channel_id, permission), self.clock()
        told = self._lacking_said.get(key)
        if told is not None and not (told[1] and now - told[0] >= RESAID_AFTER):
            self._lacking_said.move_to_end(key)
            return
        self._lacking_said[key] = (now, False)
        self._lacking_said.move_to_end(key)
        if len(self._lacking_said) > MAX_LACKING_SAID:
            self._lacking_said.popitem(last=False)
        log.warning(LACKING_SAID[permission], channel_id)


def _reply_target_gone(exc: discord.HTTPException) -> str | None:
    """Why Discord refused a reply that nobody could read now, or None for another failure: its
    channel (404 Unknown Channel) or the message it replies to (a `message_reference` to an
    unknown message) was deleted meanwhile, or its thread was archived (400, 50083)."""
    if isinstance(exc, discord.NotFound) or (exc.code == 50035 and "message_reference" in exc.text):
        return "the channel or the message was deleted first"
    if exc.code == ARCHIVED_THREAD:
        return "the thread was archived first"
    return None


def _post_permission(channel: discord.abc.Messageable) -> str:
    """The permission (a `discord.Permissions` flag) a post in `channel` needs besides View
    Channel: a mention is answered without Embed Links or Read Message History."""
    threaded = getattr(channel, "type", None) in THREADS
    return "send_messages_in_threads" if threaded else "send_messages"


def _post_needs(channel: discord.abc.Messageable) -> str:
    """`_post_permission` as Discord names it. discord.py knows a thread it was never told
    about by its id alone, not as a thread: both are named then."""
    if getattr(channel, "type", None) is None:
        return "Send Messages (in a thread, Send Messages in Threads)"
    return POST_PERMISSION_NAMES[_post_permission(channel)]


def _shown_only_in_code(message: discord.Message, my_id: int, role_id: int | None) -> bool:
    """Whether the bot (or its role) is named in `message` only inside code or a quote (shown,
    not said), and the message is no reply to the bot (whose ping names it too)."""
    mine = rf"<@!?{my_id}>" + ("" if role_id is None else rf"|<@&{role_id}>")
    own, _ = split_quotes(message.content)
    if re.search(mine, message.content) is None or said_outside_code(own, mine):
        return False
    reference = message.reference
    replied = reference.resolved if reference is not None else None
    return not (isinstance(replied, discord.Message) and replied.author.id == my_id)


def _replies_to_another(message: discord.Message, my_id: int) -> bool:
    """Whether `message`, in a server, is a reply to someone else's message (not to the bot's
    own card). In DMs the bot reads every message, so none is hidden from it."""
    reference = message.reference
    replied = reference.resolved if reference is not None else None
    return (
        message.guild is not None
        and message.type is discord.MessageType.reply
        and isinstance(replied, discord.Message)
        and replied.author.id != my_id
    )


def _own_card_titles(message: discord.Message, my_id: int) -> frozenset[str]:
    """The titles of the bot's own post `message` replies to (its card), if it does, as shown
    (`card_title`: fitted)."""
    reference = message.reference
    replied = reference.resolved if reference is not None else None
    if not isinstance(replied, discord.Message) or replied.author.id != my_id:
        return frozenset()
    return frozenset(embed.title for embed in replied.embeds if embed.title)


def _bot_may(message: discord.Message, permission: str) -> bool:
    """Whether the bot has `permission` (a `discord.Permissions` flag: embeds shown, history
    read, a post) where `message` was posted; in a DM it has them all."""
    channel, guild = message.channel, message.guild
    # Not known here: take it as granted, as before this check. That includes a channel discord.py
    # knows only by its id (a thread it was never told about), whose `permissions_for` says
    # none, and a thread whose parent channel, where its permissions are, it has not cached.
    if (
        guild is None
        or guild.me is None
        or isinstance(channel, discord.PartialMessageable)
        or not hasattr(channel, "permissions_for")
        or (isinstance(channel, discord.Thread) and channel.parent is None)
    ):
        return True
    return bool(getattr(channel.permissions_for(guild.me), permission))
