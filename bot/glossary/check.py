"""Checks on the merged glossary: what `glossary-bot check` reports and loading refuses."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from urllib.parse import quote, urlparse, urlsplit, urlunsplit

from bot import limits
from bot.glossary.formats.raw import PROSE_FIELDS
from bot.glossary.keys import plural_variants
from bot.glossary.models import CATEGORIES, Entry
from bot.glossary.name_rules import text_refusal
from bot.glossary.names import NameIndex, entry_names
from bot.glossary.problems import Problem
from bot.glossary.slug import SLUG_PATTERN

# Fields shown in one embed field each; the definition goes in the description.
FIELD_LIMITS = {
    "summary": limits.EMBED_FIELD_VALUE,
    "boundary": limits.EMBED_FIELD_VALUE,
    "plain": limits.EMBED_FIELD_VALUE,
    "importance": limits.EMBED_FIELD_VALUE,
}


def check_entries(
    entries: list[Entry], files: dict[str, str], lines: dict[str, int | None]
) -> list[Problem]:
    """`files` names each source's file (by its key) as given; `lines` gives the line of each
    entry's leading record, where its format tells it. Related ids are checked as they merge."""
    problems: list[Problem] = []
    names = entry_names(entries)
    clashes = {(id(c.claimant), c.name): c.owner for c in names.clashes}
    other_numbers = _other_numbers(entries, names)

    for entry in entries:
        lead = entry.sources[0]
        file = files.get(lead.source, lead.source)

        def report(message: str, *, _file: str = file, _entry: Entry = entry) -> None:
            local_id = _entry.sources[0].local_id
            problems.append(Problem("error", _file, message, local_id, lines.get(_entry.id)))

        if not SLUG_PATTERN.fullmatch(entry.id):
            report(f"id {entry.id!r} is not a lowercase slug (like 'kv-cache')")
        for _field, message in entry_problems(entry):
            report(message)
        for name in entry.names:
            # A blank title is "empty title" above: one line for one slip.
            if not names.key(name) and not (name == entry.title and not name.strip()):
                report(f"empty name {name!r}")
            other = clashes.get((id(entry), name))
            if other is not None:
                report(
                    f"name {name!r} is claimed by two entries: {other.id!r} "
                    f"({files.get(other.sources[0].source)}) and {entry.id!r}"
                )
        for name, (other, its_name) in other_numbers.get(id(entry), {}).items():
            problems.append(
                Problem(
                    "warning",
                    file,
                    f"name {name!r} is read by search as {its_name!r}, a name of {other.id!r} "
                    f"({files.get(other.sources[0].source)}): the two spellings open different "
                    "entries; choose a name search does not read as another entry's",
                    entry.sources[0].local_id,
                    lines.get(entry.id),
                )
            )
        if len(entry.related) > CARD_RELATED:
            problems.append(
                Problem(
                    "warning",
                    file,
                    _unoffered(entry.related),
                    entry.sources[0].local_id,
                    lines.get(entry.id),
                )
            )
    return problems


# What a card offers of its related terms: ten buttons and a menu (`bot/cards/embed.py`).
CARD_RELATED = limits.RELATED_BUTTONS + limits.SELECT_OPTIONS


def _unoffered(related: tuple[str, ...]) -> str:
    left = related[CARD_RELATED:]
    named = ", ".join(repr(r) for r in left[:5]) + (
        f" and {len(left) - 5:,} more" if len(left) > 5 else ""
    )
    return (
        f"{len(related)} related ids: a card offers the first {CARD_RELATED} ("
        f"{limits.RELATED_BUTTONS} buttons and a menu of {limits.SELECT_OPTIONS}, Discord's most), "
        f"not {named}"
    )


def _other_numbers(
    entries: list[Entry], names: NameIndex[Entry]
) -> dict[int, dict[str, tuple[Entry, str]]]:
    """Names that are the other number of another entry's name ("zorb engines" beside "Zorb
    Engine"), which search reads alike (`plural_variants`, its rule) and a clash of keys does
    not catch: by entry (its `id()`), each such name -> (the other entry, its name). Each pair
    once, under the entry whose name is not its title where one is not (the alias is what a
    maintainer would change)."""
    pairs: dict[frozenset[str], tuple[Entry, str, Entry, str]] = {}
    for entry in entries:
        for name in entry.names:
            own = names.key(name)
            for key in plural_variants(own):
                other = names.owners.get(key)
                pair = frozenset((own, key))
                if other is None or other is entry or pair in pairs:
                    continue
                its_name = next(n for n in other.names if names.key(n) == key)
                if name == entry.title and its_name != other.title:
                    pairs[pair] = (other, its_name, entry, name)
                else:
                    pairs[pair] = (entry, name, other, its_name)
    found: dict[int, dict[str, tuple[Entry, str]]] = {}
    for entry, name, other, its_name in pairs.values():
        found.setdefault(id(entry), {}).setdefault(name, (other, its_name))
    return found


def entry_problems(entry: Entry, capped: Collection[str] = ()) -> list[tuple[str, str]]:
    """The checks one entry passes on its own, as (field, message), the field being the Entry
    field at fault: `check`'s rules, which server terms share. `capped`: fields whose length
    the caller checks against caps of its own, no larger (a server term's form)."""
    problems: list[tuple[str, str]] = []
    if not entry.title.strip():
        problems.append(("title", "empty title"))
    if not entry.definition.strip():
        problems.append(("definition", "empty definition"))
    if not entry.category:
        problems.append(
            ("category", "no category (give it one; for a verbatim file, in its curation overlay)")
        )
    elif entry.category not in CATEGORIES:
        problems.append(
            ("category", f"unknown category {entry.category!r} (one of: {', '.join(CATEGORIES)})")
        )
    shown = len(entry.display_title)
    if len(entry.title) > limits.EMBED_TITLE:
        if "title" not in capped:
            problems.append(
                (
                    "title",
                    f"title longer than {limits.EMBED_TITLE} characters ({len(entry.title):,})",
                )
            )
    elif shown > limits.EMBED_TITLE:  # the title fits its box; the acronym the card adds does not
        problems.append(
            (
                "title",
                f"the card's title, the title with its acronym (“{entry.title[:10]}… "
                f"({entry.acronym})”), would be {shown} characters; at most "
                f"{limits.EMBED_TITLE}: shorten the title or the acronym by "
                f"{shown - limits.EMBED_TITLE}",
            )
        )
    if len(entry.definition) > limits.EMBED_DESCRIPTION and "definition" not in capped:
        problems.append(
            (
                "definition",
                f"definition longer than {limits.EMBED_DESCRIPTION:,} characters "
                f"({len(entry.definition):,})",
            )
        )
    for field, limit in FIELD_LIMITS.items():
        value = getattr(entry, field)
        if value and len(value) > limit and field not in capped:
            problems.append((field, f"{field} longer than {limit:,} characters ({len(value):,})"))
    for field in PROSE_FIELDS:
        refusal = text_refusal(getattr(entry, field) or "", field)
        if refusal:
            problems.append((field, refusal))
    refused = reference_problem(entry.reference) if entry.reference else None
    if refused:
        problems.append(("reference", refused))
    return problems


def reference_problem(url: str) -> str | None:
    """What is wrong with a reference URL for a card's link, or None. Checked as the card
    sends it (`link_of`: a host in another script is linked in punycode)."""
    return _linked(url)[1]


def card_link(url: str) -> str | None:
    """The link a card's title takes for the reference `url` (`link_of` it), or None where it
    has a `reference_problem` (one stored before such were refused: Discord would refuse the
    whole card)."""
    link, problem = _linked(url)
    return None if problem else link


def _linked(url: str) -> tuple[str, str | None]:
    """(`url` as a card links it, what is wrong with that link or None): checked once."""
    if _unopenable(url):  # before `link_of` would percent-encode a space of another script
        return url, f"bad reference URL {url!r}: {_UNOPENABLE}"
    userinfo = _userinfo(url)
    if userinfo is not None:  # said by its shape, not quoted: it may hold a password
        return url, (
            f"reference URL has {_userinfo_said(userinfo)} before its host: a link whose shown "
            "start is not where it goes; give the address without it"
        )
    try:
        link = link_of(url)
    except ValueError:  # a host with no ASCII form ("bad..example", a label past 63 letters)
        return url, f"bad reference URL {url!r}: its host has no form a browser asks for"
    if len(link) > limits.EMBED_URL:  # said by its length, not its 2,000 characters
        grew = "" if link == url else " as the card links it, its letters percent-encoded"
        return link, (
            f"reference URL longer than {limits.EMBED_URL:,} characters ({len(link):,}{grew})"
        )
    why = _not_a_link(link)
    return link, None if why is None else f"bad reference URL {url!r}: {why}"


def link_of(url: str) -> str:
    """`url` as a card links it: a URI, as Discord's API spec takes an embed's url (`format:
    uri`, RFC 3986: ASCII only). A host in another script is written in punycode (IDNA:
    "bücher.example" is "xn--bcher-kva.example", the form a browser asks for and shows a
    look-alike host in) and any other letter outside ASCII percent-encoded as UTF-8
    ("Übersetzung" is "%C3%9Cbersetzung"); an ASCII address is itself. ValueError where the
    host has no such form."""
    if url.isascii():
        return url
    parts = urlsplit(url)  # ValueError: a netloc NFKC reads as holding "@", ":", "/", "?" or "#"
    host, colon, port = parts.netloc, "", ""
    if not host.endswith("]") and ":" in host:
        host, colon, port = host.rpartition(":")
    try:
        host = host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError as exc:
        raise ValueError(f"no ASCII form of the host {host!r}") from exc
    rest = urlunsplit(("", "", parts.path, parts.query, parts.fragment))
    return f"{parts.scheme}://{host}{colon}{_ascii(port)}{_ascii(rest)}"


def _ascii(text: str) -> str:
    """`text` with each run of letters outside ASCII percent-encoded as UTF-8."""
    return _NOT_ASCII.sub(lambda run: quote(run.group(), safe=""), text)


_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")


def _userinfo(url: str) -> str | None:
    """The userinfo of `url` ("user:pass" of "https://user:pass@host/"), or None: a browser goes
    to the host after the "@" ("https://docs.example.org@evil.example/" opens evil.example), a
    phishing shape."""
    try:
        authority = urlparse(url).netloc
    except ValueError:  # a bracket left open, "＠" (NFKC's "@"): the authority read as a browser
        authority = re.split(r"[/?#\\]", url.partition("//")[2], maxsplit=1)[0]
        authority = unicodedata.normalize("NFKC", authority)
    userinfo, at, _host = authority.rpartition("@")
    return userinfo if at else None


def _userinfo_said(userinfo: str) -> str:
    """What a reference's `userinfo` holds, by its shape, never its text (a user name may be a
    token, a password is one): "a user name (“name@”)", "a user name and a password
    (“name:password@”)", "a password (“:password@”)"."""
    name, colon, password = userinfo.partition(":")
    held = [what for what, there in (("a user name", name), ("a password", password)) if there]
    shape = ("name" if name else "") + (":" + ("password" if password else "") if colon else "")
    return f"{' and '.join(held) or 'an empty user name'} (“{shape}@”)"


def _unopenable(url: str) -> bool:
    """Whether `url` holds a space or control character: no browser opens an address holding
    them (a link's title goes there)."""
    return any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url)


_UNOPENABLE = "it holds a space or control character (a space is written %20)"


def _not_a_link(url: str) -> str | None:
    """Why a browser would not open `url` or Discord not take it as a link (http or https, a
    host, a port if any), in words that say the fix, or None: its length and userinfo aside
    (`reference_problem` says those first). outsider76: each was "bad reference URL" alone."""
    if _unopenable(url):
        return _UNOPENABLE
    try:
        parsed = urlparse(url)
        host = parsed.hostname or ""
    except ValueError:  # a bracket left open, a name in brackets: no address it reads
        return "its host is not an address a browser reads (a bracket left open?)"
    if not parsed.scheme and not parsed.netloc and "." in url.split("/", 1)[0]:
        return "it has no scheme: start it with https://"
    if parsed.scheme not in {"http", "https"}:
        return "a card links only http or https addresses: start it with https://"
    if not host:
        return "it names no host: write https://host.example/…"
    try:
        parsed.port  # noqa: B018 (raises: ":abc", ":99999")
    except ValueError:
        return "its port is not a number from 0 to 65535"
    # A host name with no dot ("localhost", an intranet's "wiki") a browser there may open, but
    # Discord refuses the whole card linking to it ("Not a well formed URL"); an IPv6 has ":".
    if not ("." in host.strip(".") or ":" in host):
        return f"its host {host!r} has no dot: Discord refuses a card linking to it"
    return None
