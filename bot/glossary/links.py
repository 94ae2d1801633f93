"""Links in text people write: one home for what counts as one, for the cards that defang them
(`bot.cards.quote`), the answer to a link pasted where a term was asked, and "Explain terms",
which reads no term in a link's address."""

from __future__ import annotations

import re

# No word boundary before the scheme: Discord links "1https://x" and "_https://x" too.
_WITH_SCHEME = r"([a-z][a-z0-9+.-]*):/+(\S*)"
# A link written without its scheme, as people paste them: "www.x.org/y", "discord.gg/abc".
_SCHEMELESS = r"(?:\bwww\.|\bdiscord(?:app)?\.(?:gg|com)/)\S*"

URL = re.compile(_WITH_SCHEME, re.IGNORECASE)  # its scheme and the rest, for `quote`'s defanging
SCHEMELESS = re.compile(_SCHEMELESS, re.IGNORECASE)
_LINK = re.compile(f"{_WITH_SCHEME}|{_SCHEMELESS}", re.IGNORECASE)


def only_links(text: str) -> bool:
    """`text` is one or more links and nothing else to read (no letter or digit outside them,
    "<https://x>" included): a link pasted where a term was asked, which names no term."""
    rest, links = URL.subn(" ", text)
    rest, more = SCHEMELESS.subn(" ", rest)
    return links + more > 0 and not any(ch.isalnum() for ch in rest)


def without_links(text: str) -> str:
    """`text` with each link blanked out, space for character, so offsets stay true."""
    return _LINK.sub(lambda link: " " * len(link[0]), text)
