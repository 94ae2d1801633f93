"""Links in text people write: one home for what counts as one, for the cards that defang them
(`bot.cards.quote`), the answer to a link pasted where a term was asked, and "Explain terms",
which reads no term in a link's address."""

from __future__ import annotations

import re

# No word boundary before the scheme: Discord links "1https://x" and "_https://x" too. Tried
# only where a run of a scheme's characters begins (the look-behind; `lead`, the run's digits
# and signs before its first letter): tried from each letter, a run with no "://" (a word of
# 4,000 letters) was scanned to its end again from each, in time square in its length.
_WITH_SCHEME = r"(?<![a-z0-9+.-])(?P<lead>[0-9+.-]*)(?P<scheme>[a-z][a-z0-9+.-]*):/+(?P<rest>\S*)"
# A link written without its scheme, as people paste them: "www.x.org/y", "discord.gg/abc".
_SCHEMELESS = r"(?:\bwww\.|\bdiscord(?:app)?\.(?:gg|com)/)\S*"

URL = re.compile(_WITH_SCHEME, re.IGNORECASE)  # lead, scheme and rest, for `quote`'s defanging
SCHEMELESS = re.compile(_SCHEMELESS, re.IGNORECASE)
_LINK = re.compile(f"{_WITH_SCHEME}|{_SCHEMELESS}", re.IGNORECASE)


def only_links(text: str) -> bool:
    """`text` is one or more links and nothing else to read (no letter or digit outside them,
    "<https://x>" included): a link pasted where a term was asked, which names no term."""
    rest, links = URL.subn(lambda link: f"{link['lead']} ", text)
    rest, more = SCHEMELESS.subn(" ", rest)
    return links + more > 0 and not any(ch.isalnum() for ch in rest)


def without_links(text: str) -> str:
    """`text` with each link blanked out, space for character, so offsets stay true."""
    return _LINK.sub(_blanked, text)


def _blanked(link: re.Match[str]) -> str:
    """A link blanked for reading the words around it: from its scheme's last part ("RAG.https"
    and "RAG-https" are a space forgotten before "https", the term the writer's), and, in
    Discord's angle brackets, to the ">" that ends it ("<https://x>RAG")."""
    whole, start = link[0], 0
    if link["scheme"] is not None:
        scheme = link["scheme"]
        start = link.start("scheme") - link.start() + max(scheme.rfind("."), scheme.rfind("-")) + 1
    end = len(whole)
    if link.string[link.start() + start - 1 : link.start() + start] == "<" and ">" in whole[start:]:
        end = whole.index(">", start) + 1
    return whole[:start] + " " * (end - start) + whole[end:]
