"""What a name typed by a moderator may not contain: one rule for aliases and server terms.

A name shows up on buttons, in autocomplete and in card fields, so it must not ping anyone, carry
Discord markup (timestamps, command links, custom emoji), link anywhere or hide characters. The
text is checked after NFKC, so fullwidth "＠everyone" is refused like "@everyone".
"""

from __future__ import annotations

import re
import unicodedata

from bot.glossary.invisible import INVISIBLE_CHARS, JOINERS
from bot.glossary.keys import normalize
from bot.glossary.markup import without_chat_markup

_MENTION = re.compile(r"<[@#][!&]?\d+>|@(everyone|here)\b", re.IGNORECASE)
# Names only (prose may link): compiled when a name is first checked, not when `check` loads.
_LINK = r"https?://|www\.|discord\.gg/|\b[a-z0-9-]+\.(com|org|net|io|gg|dev)\b"
# Anything Discord renders between angle brackets: mentions, timestamps <t:1:F>, slash command
# links </define:1>, custom emoji <:name:1> and <a:name:1>, guide links <id:customize>.
_DISCORD_MARKUP = re.compile(r"<(?:[@#/]|a?:|t:|id:)[^<>]*>", re.IGNORECASE)
# Besides the characters that show nothing (`invisible`): control, private-use, unassigned,
# surrogate and line/paragraph separator characters.
_UNSHOWN_CATEGORIES = frozenset({"Cc", "Co", "Cn", "Cs", "Zl", "Zp"})
# And blank-looking letters and symbols: Hangul fillers, the braille blank, the musical null
# notehead, the combining grapheme joiner, Khmer inherent vowels.
_HIDING = INVISIBLE_CHARS | frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0\U0001d159")


# Letters of other scripts (and Latin small capitals) that read as the Latin letter they map to:
# "@\u0435veryone" with a Cyrillic е shows as @everyone. Enough to catch mention look-alikes.
_LATIN_LOOK_ALIKES = str.maketrans(
    "аАвВеЕёЁһҺһіІїЇјЈкКмМнНоОрРсСтТуУүҮхХѕЅԁԛԝԜаɑαΑβΒεΕηΗιΙκΚμΜνΝοΟρΡτΤυΥχΧγζΖօոհսռԛıɩɡʏʀɴʜᴇᴠᴏᴡ",
    "aaBBeeeehhhiiiijjkKMMHHooppccTTyyyyxxssdqwWaaaABBeEnHiIkKMMvNooppTTuYxXyZZonhunqiigyrnhevow",
)
_LOOK_ALIKES = frozenset(map(chr, _LATIN_LOOK_ALIKES))
# Emoji write themselves with invisible helpers: a variation selector asking for the emoji (or
# text) look of the symbol before it, a zero-width joiner gluing emoji into one (👩‍💻, 🏳️‍🌈), and
# tag characters spelling a region after a black flag (🏴 England). Only there are they text.
_PRESENTATION = frozenset("\ufe0e\ufe0f")
_ZWJ = "\u200d"
_JOINERS = frozenset(JOINERS)
# Scripts whose words never need a joiner: one inside them only hides text ("zo\u200drb").
_UNJOINED_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC", "ARMENIAN")
_TAGS = range(0xE0020, 0xE0080)
_BLACK_FLAG = "\U0001f3f4"
_KEYCAP_BASES = frozenset("0123456789#*")


def _emoji_part(ch: str) -> bool:
    """A symbol an emoji sequence is built of (the emoji themselves, skin tones, ‼ and ⁉)."""
    return not ch.isascii() and (unicodedata.category(ch) in ("So", "Sk", "Sm") or ch in "‼⁉")


def _in_emoji(text: str, i: int) -> bool:
    """Is the invisible character at `text[i]` part of an emoji sequence?"""
    ch, before = text[i], text[:i]
    if ch in _PRESENTATION:
        return before[-1:] in _KEYCAP_BASES or _emoji_part(before[-1:])
    if ch in _JOINERS:
        return shaping_joiner(text, i)
    if ord(ch) in _TAGS:
        return before.rstrip("".join(map(chr, _TAGS))).endswith(_BLACK_FLAG)
    return False


def shaping_joiner(text: str, i: int) -> bool:
    """Does the joiner (non-joiner or joiner) at `text[i]` change what `text` shows: inside a
    word of a script written with joiners, or gluing two emoji into one? Anywhere else it only
    hides text. The rule for names, and for what is shown back of typed text (`quote`)."""
    if _in_a_joined_word(text[i - 1 : i], text[i + 1 : i + 2]):
        return True
    return text[i] == _ZWJ and _joins_emoji(text, i)


def _joins_emoji(text: str, i: int) -> bool:
    """Is the zero-width joiner at `text[i]` gluing two emoji into one (👩‍💻, 🏳️‍🌈)?"""
    glued = text[max(0, i - 2) : i].removesuffix("\ufe0f")[-1:]
    return _emoji_part(glued) and _emoji_part(text[i + 1 : i + 2])


def _in_a_joined_word(before: str, after: str) -> bool:
    """Between two letters of a script written with joiners (a Persian half-space, an Indic
    conjunct), where they change how the word is drawn."""
    return all(
        ch
        and not ch.isascii()
        and unicodedata.category(ch)[0] in "LM"
        and not unicodedata.name(ch, "").startswith(_UNJOINED_SCRIPTS)
        for ch in (before, after)
    )


def _in_latin_letters(text: str) -> str:
    """`text` with look-alike letters read as the Latin ones (most texts have none to read)."""
    if text.isascii() or _LOOK_ALIKES.isdisjoint(text):  # every look-alike is beyond ASCII
        return text
    return text.translate(_LATIN_LOOK_ALIKES)


def _hidden(text: str) -> bool:
    return _first_hidden(text) is not None


def _first_hidden(text: str) -> int | None:
    """Where in `text` the first character is that shows nothing or turns text around, or None.
    Printable text (in Python's sense: no character of a category C, Z but " ") has none of
    the unshown categories: without a hiding character (none is ASCII), passes in C settle it
    (nearly every text)."""
    if text.isprintable() and (text.isascii() or _HIDING.isdisjoint(text)):
        return None
    return next(
        (
            i
            for i, ch in enumerate(text)
            if (ch in _HIDING or unicodedata.category(ch) in _UNSHOWN_CATEGORIES)
            and not _in_emoji(text, i)
        ),
        None,
    )


def _which_hidden(text: str, i: int) -> str:
    """The hidden character at `text[i]` named, and after which word, for a person to find it:
    "U+200B ZERO WIDTH SPACE, after “in”". Only a word is quoted (letters and digits), so the
    words around it (a mention, markup) are never repeated."""
    ch = text[i]
    name = unicodedata.name(ch, "a control character")
    word = re.search(r"(\w+)\W*$", text[max(0, i - 40) : i])
    where = f"after “{word[1][-20:]}”" if word else "first" if not text[:i].strip() else ""
    return f"U+{ord(ch):04X} {name}" + (f", {where}" if where else "")


def name_refusal(text: str, subject: str = "A name") -> str | None:
    """Why `text` cannot be a name ("An alias cannot contain links."), or None if it can."""
    text = unicodedata.normalize("NFKC", text)
    if any(ch in "\t\n\r\v\f" for ch in text):  # controls, but seen as gaps: say which
        return f"{subject} cannot contain line breaks or tabs."
    if _hidden(text):
        return f"{subject} cannot contain control or invisible characters."
    if text.strip() and all(ch.isspace() or unicodedata.category(ch)[0] == "M" for ch in text):
        # Accents with no letter under them float over the text around them, or show nothing.
        return f"{subject} needs a letter, digit or symbol, not accents alone."
    if any(ch.isspace() and ch != " " for ch in text):
        return f"{subject} cannot contain line breaks or tabs."
    if _MENTION.search(text):
        return f"{subject} cannot contain mentions."
    if _MENTION.search(_in_latin_letters(text)):
        return f"{subject} cannot look like a mention (@everyone, @here) in other letters."
    if _DISCORD_MARKUP.search(text):
        return f"{subject} cannot contain Discord markup (emoji, timestamps, links)."
    if re.search(_LINK, text, re.IGNORECASE):
        return f"{subject} cannot contain links."
    if "`" in text:
        return f"{subject} cannot contain code blocks or backticks."
    return None


def words_beside_markup(text: str) -> bool:
    """Whether `text` holds a letter or digit outside Discord's markup: "qqblorp <t:1:F>" names
    something a moderator could add, "<t:1:F>" or accents alone nothing."""
    return any(ch.isalnum() for ch in _DISCORD_MARKUP.sub(" ", text))


def framing_refusal(text: str, as_what: str = "an alias") -> str:
    """Why a name that search reads as no term (its `only_framing`) is refused, as an alias or a
    server term's name. The rule said in the message: words that only ask ("what is", "explain",
    "eli5", "pls", "it", "the") are left out around the term asked, in any case ("IT" is the
    "it" of "what is it"), so such a name would answer any question; words said to the bot on
    their own ("thanks", "ok", "hi", "bot") may be names. Emoji and symbols alone are read as
    what is said around a term ("rag 🙏"): "what is 🔧" would never find such a name. So are the
    symbols `normalize` drops: "A*" is "a", which "what is A*" reads as a question's wording.
    It quotes `text` as search reads it: Discord's markup around it left out too ("# WHAT" is
    "what"), for every caller, the glossary layer's as search's."""
    if not any(ch.isalnum() for ch in text):
        return (
            f"“{text}” has no letter or digit: search reads emoji and symbols as said around "
            f"the term asked (“rag 🙏”), so as {as_what} it would be found typed alone but "
            f"never asked about (“what is {text}”). Use a name with a letter or digit."
        )
    # say how search reads it: capitals ("IT" is "it"), and markup symbols it drops ("A*" is "a")
    read = normalize(without_chat_markup(text))
    how = "in any case" if read == text.lower() else "without its symbols, in any case"
    cased = f", {how} (“{text}” reads as “{read}”)" if text != read else ""
    return (
        f"“{text}” is only the wording of a question (or filler), which search leaves out "
        f"around the term asked{cased}: as {as_what} it would answer “what is it”. Use a name "
        "of the term itself; words said to the bot on their own (“thanks”, “ok”, “hi”) may be "
        "names."
    )


def markup_read_away(name: str) -> str | None:
    """How search reads a name that starts with Discord markup it reads away (a heading,
    subtext or list mark: "# zorb" is "zorb"; `without_chat_markup`), or None where it reads
    the name as written (normalised). The one reading for aliases and server terms' names (a
    title, acronym or other name) at every door: /alias add, /term add and edit, imports, and
    `check --db` of those stored before."""
    written = normalize(name)
    read = normalize(without_chat_markup(name))
    return read if read != written else None


def markup_refusal(text: str, read: str, as_what: str = "an alias") -> str:
    """Why a name that starts with Discord markup search reads away (`markup_read_away`: "# zorb"
    is read as "zorb") is refused: as an alias, typed as added it would find nothing; as a
    server term's name (`as_what` "a name"), search reads it as another name than the one shown
    ("1. Blorp" typed as named was found only as a typo)."""
    said = (
        f"“{text}” starts with Discord markup that search reads away (“{text}” is read as “{read}”)"
    )
    if as_what == "an alias":
        return f"{said}, so typed as added it would find no alias. Add “{read}”."
    return f"{said}, so as {as_what} it would not be read as it is shown. Use “{read}”."


def text_refusal(text: str, subject: str = "The text") -> str | None:
    """Why `text` cannot be a term's prose (definition, boundary, summary...), or None: it shows
    on a card as written, so it may not hide or turn text around (controls, zero-width and
    direction characters; line breaks and tabs are fine), ping or look like a ping, or carry
    Discord markup. Links and Markdown are the writer's to use."""
    text = unicodedata.normalize("NFKC", text)
    hidden = _first_hidden(text.replace("\n", " ").replace("\t", " "))
    if hidden is not None:  # which, and where: a person cannot see it (outsider77)
        which = _which_hidden(text, hidden)
        return f"{subject} cannot contain control, invisible or direction characters ({which})."
    if "@" not in text and "<" not in text:  # what both patterns need (look-alikes are letters)
        return None
    latin = _in_latin_letters(text)
    if _MENTION.search(text) or (latin is not text and _MENTION.search(latin)):
        return f"{subject} cannot contain mentions (or look like @everyone, @here)."
    if _DISCORD_MARKUP.search(text):
        return f"{subject} cannot contain Discord markup (<t:…> timestamps, custom emoji)."
    return None
