"""Links in text people write: one home for what counts as one, for the cards that defang them
(`bot.cards.quote`), the answer to a link pasted where a term was asked, and "Explain terms",
which reads no term in a link's address."""

from __future__ import annotations

import re

# No word boundary before the scheme: Discord links "1https://x" and "_https://x" too. Tried
# only where a run of a scheme's characters begins (the look-behind; `lead`, the run's digits
# and signs before its first letter): tried from each letter, a run with no "://" (a word of
# 4,000 letters) was scanned to its end again from each, in time square in its length.
_SCHEME = r"(?<![a-z0-9+.-])(?P<lead>[0-9+.-]*)(?P<scheme>[a-z][a-z0-9+.-]*):/+"
_WITH_SCHEME = _SCHEME + r"(?P<rest>\S*)"
# A link written without its scheme, as people paste them: "www.x.org/y", "discord.gg/abc".
_SCHEMELESS_START = r"(?:\bwww\.|\bdiscord(?:app)?\.(?:gg|com)/)"
_SCHEMELESS = _SCHEMELESS_START + r"\S*"

URL = re.compile(_WITH_SCHEME, re.IGNORECASE)  # lead, scheme and rest, for `quote`'s defanging
SCHEMELESS = re.compile(_SCHEMELESS, re.IGNORECASE)
# For reading around links: each up to a ">" (which may end it: `_blanked`), so that reading on
# from that ">" does not scan the rest of the run again for each link ("<https://x>" x 400).
_LINK = re.compile(f"{_SCHEME}[^\\s>]*|{_SCHEMELESS_START}[^\\s>]*", re.IGNORECASE)
_SPACE = re.compile(r"\s")


def only_links(text: str) -> bool:
    """`text` is one or more links and nothing else to read (no letter or digit outside them,
    "<https://x>" included): a link pasted where a term was asked, which names no term."""
    rest, links = URL.subn(lambda link: f"{link['lead']} ", text)
    rest, more = SCHEMELESS.subn(" ", rest)
    return links + more > 0 and not any(ch.isalnum() for ch in rest)


def without_links(text: str) -> str:
    """`text` with each link blanked out, space for character, so offsets stay true. Read on
    from where each link ends (`_blanked`), not from where its match did: what follows a ">"
    may be another link ("<https://a>https://b/rag")."""
    kept, at = [], 0
    while (link := _LINK.search(text, at)) is not None:
        start, end = _blanked(link)
        before = text[at:start]
        if (masked := _MASKED.search(before)) is not None:  # "[rag](https://…)" reads "rag"
            label = masked["label"]
            before = (
                before[: masked.start()] + f" {label}" + " " * (len(masked[0]) - len(label) - 1)
            )
            end += text[end : end + 1] == ")"  # the ")" of "[rag](<https://…>)"
        kept += [before, " " * (end - start)]
        at = end
    return "".join(kept) + text[at:]


# A masked link's label and the "](" before its address (Discord's `[label](address)`): the
# label is the writer's words, the marks around it none. Its ")" goes with the address.
_MASKED = re.compile(r"\[(?P<label>[^\[\]\n]*)\]\($")


def _blanked(link: re.Match[str]) -> tuple[int, int]:
    """Where a link to blank for reading the words around it starts and ends: from its scheme's
    last part ("RAG.https" and "RAG-https" are a space forgotten before "https", the term the
    writer's), and, in Discord's angle brackets, the brackets too ("<https://x>RAG"; a "<" left
    behind was read beside the term: "rag <" offered RAG, no card)."""
    start, end = link.span()
    if link["scheme"] is not None:
        scheme = link["scheme"]
        start = link.start("scheme") + max(scheme.rfind("."), scheme.rfind("-")) + 1
    text = link.string
    if text[end : end + 1] == ">":
        if text[start - 1 : start] == "<":  # in Discord's angle brackets: the ">" ends it
            return start - 1, end + 1
        space = _SPACE.search(text, end)  # otherwise it runs on to a space, ">" and all
        end = space.start() if space else len(text)
    return start, end
