"""User text made safe to show back: one line, bounded, no invisible or direction-changing
characters, and no link anyone could click or Discord could unfurl ("https://evil.example" is
shown as "https[:]//evil[.]example", "discord.gg/x" as "discord[.]gg/x")."""

from __future__ import annotations

import re
import unicodedata

from bot.cards.fit import fit

# Format (bidi overrides, zero-width), control, private-use, unassigned, separator characters.
_DROPPED = frozenset({"Cf", "Cc", "Co", "Cn", "Cs", "Zl", "Zp"})
# No word boundary before the scheme: Discord links "1https://x" and "_https://x" too.
_URL = re.compile(r"(?i)([a-z][a-z0-9+.-]*):/+(\S*)")
# Invites Discord recognises without a scheme ("discord.gg/abc").
_INVITE = re.compile(r"(?i)(discord(?:app)?)\.(gg|com)\b")


def _defang(found: re.Match[str]) -> str:
    return f"{found[1]}[:]//{found[2].replace('.', '[.]')}"


def quote(text: str, limit: int) -> str:
    """`text` as one plain line of at most `limit` characters, safe to repeat in public."""
    kept = "".join(
        " " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
        if unicodedata.category(ch) not in _DROPPED or ch in "\t\n\r\u2028\u2029"
    )
    defanged = _INVITE.sub(r"\1[.]\2", _URL.sub(_defang, " ".join(kept.split())))
    return fit(defanged, limit)
