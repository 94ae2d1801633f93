"""Messages: building Discord message objects from request bodies, and the store that keeps them."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .mentions import ROLE_MENTION, USER_MENTION
from .models import FakeChannel, FakeUser, iso_now, new_snowflake
from .validation import EPHEMERAL, SUPPRESS_EMBEDS

JSON = dict[str, Any]

# Message types (https://discord.com/developers/docs/resources/message#message-object-message-types)
DEFAULT, REPLY, CHAT_INPUT_COMMAND, CONTEXT_MENU_COMMAND = 0, 19, 20, 23

# Only these keys of a request body become (or change) message fields.
EDITABLE = ("content", "embeds", "components", "flags", "attachments", "poll")


def build_message(
    body: Mapping[str, Any],
    *,
    channel: FakeChannel,
    author: FakeUser,
    message_type: int = DEFAULT,
    users: Mapping[int, FakeUser] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> JSON:
    """A full message object for ``body``; ``users`` resolves ``<@id>`` into ``mentions``."""
    content = str(body.get("content") or "")
    message: JSON = {
        "id": str(new_snowflake()),
        "channel_id": str(channel.id),
        "author": author.payload(),
        "content": content,
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts")),
        "mention_everyone": False,
        "mentions": _mentioned_users(content, users or {}),
        "mention_roles": ROLE_MENTION.findall(content),
        "attachments": list(body.get("attachments") or []),
        "embeds": [_normalise_embed(e) for e in body.get("embeds") or []],
        "reactions": [],
        "pinned": False,
        "type": message_type,
        "flags": int(body.get("flags") or 0),
        "components": copy.deepcopy(list(body.get("components") or [])),
    }
    if channel.guild_id is not None:
        message["guild_id"] = str(channel.guild_id)
    if "nonce" in body:
        message["nonce"] = body["nonce"]
    message.update(extra or {})
    return message


def replied_copy(message: Mapping[str, Any]) -> JSON:
    """A stored message as a reply carries it (`referenced_message`): one level deep, as
    Discord sends it (the spec's BasicMessageResponse has no `referenced_message` of its own)."""
    return {k: copy.deepcopy(v) for k, v in message.items() if k != "referenced_message"}


def withhold_content(message: JSON) -> None:
    """Blank what the message content intent covers in ``message``, as Discord sends it to a
    bot without the intent: text, embeds, attachments, components, a poll, a forward's copy."""
    message.update(content="", embeds=[], attachments=[], components=[])
    for hidden in ("poll", "message_snapshots"):
        message.pop(hidden, None)


def withhold_replied_to(message: JSON, bot_id: int) -> None:
    """Blank the replied-to copy in ``message`` (``referenced_message``) where a bot without
    the intent may not read it: Discord's exceptions are a message's own, not its reply's, so
    only one of the bot's own or one that mentions it is shown (DMs are the caller's)."""
    replied = message.get("referenced_message")
    if not replied:
        return
    named = {int(user["id"]) for user in replied.get("mentions", [])}
    if int(replied["author"]["id"]) != bot_id and bot_id not in named:
        withhold_content(replied)


def apply_edit(message: JSON, body: Mapping[str, Any]) -> None:
    """Edit in place the way PATCH does: only the fields present change."""
    for key in EDITABLE:
        if key not in body:
            continue
        value = body[key]
        if key == "embeds":
            message["embeds"] = [_normalise_embed(e) for e in value or []]
        elif key == "flags":
            # Only SUPPRESS_EMBEDS may be toggled by an edit; EPHEMERAL etc. stay as they were.
            kept = int(message.get("flags") or 0) & ~SUPPRESS_EMBEDS
            message["flags"] = kept | (int(value or 0) & SUPPRESS_EMBEDS)
        elif key == "content":
            message["content"] = str(value or "")
        else:
            message[key] = copy.deepcopy(value) if value is not None else []
    message["edited_timestamp"] = iso_now()


def edited_copy(message: Mapping[str, Any], body: Mapping[str, Any]) -> JSON:
    """What ``message`` would become after this edit, leaving the original untouched."""
    preview = copy.deepcopy(dict(message))
    apply_edit(preview, body)
    return preview


def is_ephemeral(message: Mapping[str, Any]) -> bool:
    return bool(int(message.get("flags") or 0) & EPHEMERAL)


def _normalise_embed(embed: Mapping[str, Any]) -> JSON:
    out = {k: copy.deepcopy(v) for k, v in embed.items() if v is not None}
    out.setdefault("type", "rich")
    return out


def _mentioned_users(content: str, users: Mapping[int, FakeUser]) -> list[JSON]:
    found = []
    for raw in dict.fromkeys(USER_MENTION.findall(content)):
        user = users.get(int(raw))
        if user is not None:
            found.append(user.payload())
    return found


class MessageStore:
    """Every message the fake knows (the bot's and the users'), by id, plus edit counters."""

    def __init__(self) -> None:
        self._messages: dict[int, JSON] = {}
        self._edits: dict[int, int] = {}
        self.deleted: set[int] = set()
        self._bot_posts: dict[int, list[int]] = {}  # channel id -> ids the bot posted there
        self._consumed: dict[int, int] = {}  # channel id -> how many of those tests have read

    def add(self, message: JSON, *, posted_by_bot: bool = False) -> JSON:
        message_id = int(message["id"])
        self._messages[message_id] = message
        self._edits[message_id] = 0
        if posted_by_bot:
            self._bot_posts.setdefault(int(message["channel_id"]), []).append(message_id)
        return message

    def get(self, message_id: int) -> JSON | None:
        return self._messages.get(message_id)

    def snapshot(self, message_id: int) -> JSON:
        """A copy tests may keep: later edits do not change it."""
        return copy.deepcopy(self._messages[message_id])

    def edit(self, message_id: int, body: Mapping[str, Any]) -> JSON:
        message = self._messages[message_id]
        apply_edit(message, body)
        self._edits[message_id] += 1
        return message

    def edit_count(self, message_id: int) -> int:
        return self._edits.get(message_id, 0)

    def delete(self, message_id: int) -> None:
        self.deleted.add(message_id)

    def is_live(self, message_id: int) -> bool:
        return message_id in self._messages and message_id not in self.deleted

    def channel_messages(self, channel_id: int) -> list[JSON]:
        return [
            m
            for m in self._messages.values()
            if int(m["channel_id"]) == channel_id and int(m["id"]) not in self.deleted
        ]

    def next_bot_post(self, channel_id: int) -> JSON | None:
        """The oldest bot post in this channel that no test has taken yet (then marks it taken)."""
        posts = self._bot_posts.get(channel_id, [])
        taken = self._consumed.get(channel_id, 0)
        if taken >= len(posts):
            return None
        self._consumed[channel_id] = taken + 1
        return self.snapshot(posts[taken])
