"""Discord's own words: a bot that lives on Discord is asked Discord questions in its channels.

"how do i send embeds with my discord bot" asks about Discord's message embeds, yet "embeds" is a
form of "embedding" (`query.derived_forms`), and the meaning agrees with the name at 0.40: the
Embeddings card. Discord's nouns are written out here (the encoder cannot tell a Discord embed
from a vector embedding), as `other_fields.txt` writes another field's names; the rule that reads
them is `SearchIndex._platform_noun_offered` (task discord75).
"""

from __future__ import annotations

import re

# Discord's nouns, as a bot's channel writes them ("send an embed", "a webhook's intents"),
# each in both numbers. Only those whose form a glossary name also has can move a card (today
# "embed"/"embeds": Embeddings); the rest are listed so that a new entry ("Intent Detection",
# "Sharding") is not carded by Discord's word. Left out on purpose: "token", "bot", "server",
# "channel", "thread", "role", "permission", "model": the field uses them too ("a bot's token
# limit", "a model server", "the system role"), so they say nothing by themselves.
PLATFORM_NOUNS = frozenset(
    [
        "embed",
        "embeds",
        "webhook",
        "webhooks",
        "intent",
        "intents",
        "shard",
        "shards",
        "guild",
        "guilds",
        "sticker",
        "stickers",
        "emote",
        "emotes",
        "emoji",
        "emojis",
        "cog",
        "cogs",
        "interaction",
        "interactions",
        "nitro",
    ]
)
# The words that place a text on Discord (in a normalised text: "discord.py" is "discord py").
PLATFORM_PLACE = re.compile(r"\b(?:discord|webhooks?|guilds?|slash commands?|nitro)\b")


def on_platform(normalized: str) -> bool:
    """Does the normalised text place itself on Discord ("... in discord", "a webhook")?"""
    return PLATFORM_PLACE.search(normalized) is not None


# The words before a noun that say it is one ("an embed", "my webhook"): Discord's "embed" and
# the field's verb "embed" are written alike, and "how do i embed text" is the field's.
DETERMINERS = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "your",
        "our",
        "their",
        "his",
        "her",
        "its",
        "this",
        "that",
        "each",
        "every",
        "one",
    ]
)


def platform_nouns(normalized: str) -> list[str]:
    """The words of the normalised text that are Discord's nouns written as nouns, in order:
    in the plural ("embeds") or after a determiner ("an embed"), not a verb ("to embed")."""
    words = normalized.split()
    return [
        word
        for at, word in enumerate(words)
        if word in PLATFORM_NOUNS
        and (word.endswith("s") or (at > 0 and words[at - 1] in DETERMINERS))
    ]
