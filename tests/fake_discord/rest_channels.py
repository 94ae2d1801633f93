"""Channel message routes: the bot posting (e.g. replying to a mention), editing, deleting."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .faults import API_PREFIX
from .messages import DEFAULT, REPLY, build_message, edited_copy, replied_copy
from .models import (
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeChannel,
)
from .responses import (
    ARCHIVED_THREAD,
    CANNOT_DM,
    EMPTY_MESSAGE,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    REPLY_WITHOUT_HISTORY,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    json_response,
    known_error,
    no_content,
)
from .rest import Handler, Refuse, read_body, require_auth
from .validation import FieldError, check_message, is_empty_message

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
CANNOT_EDIT_OTHERS = (403, 50005, "Cannot edit a message authored by another user")
UNKNOWN_REFERENCE = FieldError(
    ("message_reference",), "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
)


def routes(fake: FakeDiscord) -> list[web.RouteDef]:
    refuse = Refuse(fake)

    def auth(handler: Handler) -> Handler:
        return require_auth(fake, handler)

    def channel_of(request: web.Request) -> FakeChannel | None:
        return fake.world.channel(int(request.match_info["channel_id"]))

    def has(channel: FakeChannel, needed: int) -> bool:
        guild = fake.world.guild_of(channel)
        return guild is None or guild.permissions_in(channel, fake.bot.id) & needed == needed

    def without_embeds_unless_allowed(channel: FakeChannel, body: JSON) -> JSON:
        """Discord posts a bot's channel message without its embeds where the bot lacks Embed
        Links (no error), and refuses one left empty (50006; discord-api-docs issues 2601 and
        5648). Interaction responses (webhooks) keep theirs: they are not checked here."""
        if body.get("embeds") and not has(channel, EMBED_LINKS):
            return {**body, "embeds": []}
        return body

    def message_in_channel(request: web.Request) -> JSON | None:
        message_id = int(request.match_info["message_id"])
        message = fake.store.get(message_id)
        if message is None or not fake.store.is_live(message_id):
            return None
        return message if message["channel_id"] == request.match_info["channel_id"] else None

    async def create_message(request: web.Request) -> web.Response:
        channel = channel_of(request)
        if channel is None:
            return known_error(UNKNOWN_CHANNEL)
        body, files = await read_body(request)
        if channel.recipient is not None and not fake.world.may_dm(channel.recipient):
            fake.refused_dms.append((channel.recipient.id, body))
            return known_error(CANNOT_DM)
        guild = fake.world.guild_of(channel)
        if guild is not None and fake.bot.id not in guild.members:
            detail = f"the bot is not in the server of #{channel.name}"
            return refuse(request, "missing_access", MISSING_ACCESS, detail, body)
        if channel.archived:
            detail = f"#{channel.name} is archived and locked"
            return refuse(request, "archived_thread", ARCHIVED_THREAD, detail, body)
        # Discord hides a channel the bot may not view: Missing Access, as for a server it is
        # not in; one it sees but may not post in is Missing Permissions.
        if not has(channel, VIEW_CHANNEL):
            detail = f"bot lacks VIEW_CHANNEL in #{channel.name}"
            return refuse(request, "missing_access", MISSING_ACCESS, detail, body)
        send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if not has(channel, send):
            name = "SEND_MESSAGES_IN_THREADS" if channel.is_thread else "SEND_MESSAGES"
            detail = f"bot lacks {name} in #{channel.name}"
            return refuse(request, "missing_permissions", MISSING_PERMISSIONS, detail, body)
        if body.get("message_reference") and not has(channel, READ_MESSAGE_HISTORY):
            detail = f"a reply in #{channel.name}, where the bot lacks READ_MESSAGE_HISTORY"
            return refuse(request, "missing_permissions", REPLY_WITHOUT_HISTORY, detail, body)
        errors = check_message(body)
        if errors:
            return refuse.invalid(request, errors, body)
        body = without_embeds_unless_allowed(channel, body)
        if is_empty_message(body, has_files=bool(files)):
            return refuse(request, "empty_message", EMPTY_MESSAGE, "empty message", body)
        extra: JSON = {}
        replied_author_id = None
        reference = body.get("message_reference")
        if reference:
            referenced = fake.store.get(int(reference.get("message_id", 0)))
            if referenced is not None and fake.store.is_live(int(referenced["id"])):
                replied_author_id = int(referenced["author"]["id"])
                extra["message_reference"] = {
                    "type": 0,
                    "message_id": referenced["id"],
                    "channel_id": referenced["channel_id"],
                    "guild_id": referenced.get("guild_id"),
                }
                extra["referenced_message"] = replied_copy(referenced)
            elif reference.get("fail_if_not_exists", True):
                return refuse.invalid(request, [UNKNOWN_REFERENCE], body)
        if files:
            body = {**body, "attachments": files}
        message = build_message(
            body,
            channel=channel,
            author=fake.bot,
            message_type=REPLY if extra else DEFAULT,
            users=fake.world.users,
            extra=extra,
        )
        fake.store.add(message, posted_by_bot=True)
        route = f"POST {request.path}"
        fake.record_sent(
            "channel_message",
            route,
            message,
            body,
            creates=True,
            replied_author_id=replied_author_id,
        )
        await fake.dispatch_message_event("MESSAGE_CREATE", message)
        return json_response(message)

    async def get_message(request: web.Request) -> web.Response:
        message = message_in_channel(request)
        return known_error(UNKNOWN_MESSAGE) if message is None else json_response(message)

    async def list_messages(request: web.Request) -> web.Response:
        channel = channel_of(request)
        if channel is None:
            return known_error(UNKNOWN_CHANNEL)
        limit = int(request.query.get("limit", 50))
        messages = fake.store.channel_messages(channel.id)
        newest_first = sorted(messages, key=lambda m: int(m["id"]), reverse=True)
        return json_response(newest_first[:limit])

    async def edit_message(request: web.Request) -> web.Response:
        message = message_in_channel(request)
        if message is None:
            return known_error(UNKNOWN_MESSAGE)
        body, files = await read_body(request)
        if int(message["author"]["id"]) != fake.bot.id:
            detail = "edit of another user's message"
            return refuse(request, "missing_permissions", CANNOT_EDIT_OTHERS, detail, body)
        errors = check_message(body)
        if errors:
            return refuse.invalid(request, errors, body)
        channel = channel_of(request)
        if channel is not None:
            body = without_embeds_unless_allowed(channel, body)
        if files:
            body = {**body, "attachments": list(body.get("attachments") or []) + files}
        if is_empty_message(edited_copy(message, body)):
            return refuse(request, "empty_message", EMPTY_MESSAGE, "edit empties it", body)
        edited = fake.store.edit(int(message["id"]), body)
        fake.record_sent("edit", f"PATCH {request.path}", edited, body, creates=False)
        await fake.dispatch_message_event("MESSAGE_UPDATE", edited)
        return json_response(edited)

    async def delete_message(request: web.Request) -> web.Response:
        message = message_in_channel(request)
        if message is None:
            return known_error(UNKNOWN_MESSAGE)
        fake.store.delete(int(message["id"]))
        await fake.dispatch_message_event("MESSAGE_DELETE", message)
        return no_content()

    async def typing(request: web.Request) -> web.Response:
        return no_content() if channel_of(request) else known_error(UNKNOWN_CHANNEL)

    async def react(request: web.Request) -> web.Response:
        return no_content() if message_in_channel(request) else known_error(UNKNOWN_MESSAGE)

    base = API_PREFIX + "/channels/{channel_id}"
    one = base + "/messages/{message_id}"
    return [
        web.post(base + "/messages", auth(create_message)),
        web.get(base + "/messages", auth(list_messages)),
        web.get(one, auth(get_message)),
        web.patch(one, auth(edit_message)),
        web.delete(one, auth(delete_message)),
        web.post(base + "/typing", auth(typing)),
        web.put(one + "/reactions/{emoji}/@me", auth(react)),
        web.delete(one + "/reactions/{emoji}/@me", auth(react)),
    ]
