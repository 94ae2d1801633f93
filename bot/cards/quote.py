"""User text made safe to show back: one line, bounded, no invisible or direction-changing
characters, and no link anyone could click or Discord could unfurl ("https://evil.example" is
shown as "https[:]//evil[.]example", "discord.gg/x" as "discord[.]gg/x")."""

from __future__ import annotations

import re
import unicodedata

from bot.glossary.invisible import JOINERS, VARIATION_SELECTORS, drop_invisible
from bot.glossary.letters import fit, fit_name
from bot.glossary.links import URL
from bot.glossary.name_rules import shaping_joiner

# Besides what shows nothing (`invisible`): control, private-use, unassigned and surrogate
# characters, and line and paragraph separators, which would break the one line.
_DROPPED = frozenset({"Cc", "Co", "Cn", "Cs", "Zl", "Zp"})
_SPACED = "\t\n\r\u2028\u2029"  # kept as the space between words they stand for
# Invites Discord recognises without a scheme ("discord.gg/abc").
_INVITE = re.compile(r"(?i)(discord(?:app)?)\.(gg|com)\b")


def _defang(found: re.Match[str]) -> str:
    return f"{found['lead']}{found['scheme']}[:]//{defanged_rest(found['rest'])}"


def defanged_rest(rest: str) -> str:
    """A link's run after its scheme: its dots, and any ":/" in it, since a second link may start
    there ("https://a/https://2130706433", after the ">" of "<https://a>https://…"), whose
    host need have no dot."""
    return rest.replace(".", "[.]").replace(":/", "[:]/")


def quote(text: str, limit: int) -> str:
    """`text` as one plain line of at most `limit` characters, safe to repeat in public; cut at
    its end."""
    return fit(one_line(text), limit)


def quote_name(name: str, limit: int) -> str:
    """A name (a title) as `quote` makes text safe, cut keeping its start and its end
    (`fit_name`): two long titles that differ only at the end stay apart."""
    return fit_name(one_line(name), limit)


def one_line(text: str) -> str:
    """`text` as one plain line safe to repeat in public, not cut (`quote`, `quote_name`; names
    shown side by side are cut together, `fit_names`)."""
    # Bidi overrides and zero-width characters go; the emoji look its writer chose stays, and
    # so does a joiner where it changes what is drawn (a family, a rainbow flag, a Persian
    # half-space, an Indic conjunct), as in names.
    visible = drop_invisible(text, keep=VARIATION_SELECTORS + JOINERS)
    if any(joiner in visible for joiner in JOINERS):
        visible = "".join(
            ch for i, ch in enumerate(visible) if ch not in JOINERS or shaping_joiner(visible, i)
        )
    kept = "".join(
        " " if ch in _SPACED else ch
        for ch in visible
        if ch in _SPACED or unicodedata.category(ch) not in _DROPPED
    )
    return _INVITE.sub(r"\1[.]\2", URL.sub(_defang, " ".join(kept.split())))
