"""Would a message notify anyone? Discord's allowed_mentions rules, applied to a message body.

Without ``allowed_mentions`` Discord parses every mention in the content (users, roles,
@everyone/@here) and a reply pings the replied-to author. With it, only what ``parse``,
``users``, ``roles`` and ``replied_user`` permit will notify. Embeds never ping.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
EVERYONE = re.compile(r"@(everyone|here)\b")

SILENT: dict[str, Any] = {"parse": []}


def is_silent(allowed_mentions: Mapping[str, Any] | None) -> bool:
    """True if these allowed_mentions can never ping anyone (the bot's expected setting)."""
    if allowed_mentions is None:
        return False
    return (
        not allowed_mentions.get("parse")
        and not allowed_mentions.get("users")
        and not allowed_mentions.get("roles")
        and not allowed_mentions.get("replied_user")
    )


def pings(payload: Mapping[str, Any], *, replied_author_id: int | None, bot_id: int) -> list[str]:
    """Describe each notification this message would cause; empty if it is silent."""
    allowed = payload.get("allowed_mentions")
    parse = ["users", "roles", "everyone"] if allowed is None else list(allowed.get("parse") or [])
    users = set() if allowed is None else {str(u) for u in allowed.get("users") or []}
    roles = set() if allowed is None else {str(r) for r in allowed.get("roles") or []}
    content = str(payload.get("content") or "")
    found: list[str] = []
    for match in EVERYONE.finditer(content):
        if "everyone" in parse:
            found.append(f"@{match.group(1)}")
    for user_id in USER_MENTION.findall(content):
        if ("users" in parse or user_id in users) and int(user_id) != bot_id:
            found.append(f"user {user_id}")
    for role_id in ROLE_MENTION.findall(content):
        if "roles" in parse or role_id in roles:
            found.append(f"role {role_id}")
    replied_user = True if allowed is None else bool(allowed.get("replied_user"))
    if replied_author_id is not None and replied_author_id != bot_id and replied_user:
        found.append(f"reply to user {replied_author_id}")
    return found
