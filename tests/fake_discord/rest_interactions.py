"""Interaction callbacks and the interaction webhook (follow-ups, @original edits).

Rules enforced, as Discord does: one initial response per interaction, sent within
``fake.ack_deadline`` seconds of Discord sending it (else 10062 Unknown interaction); the response type
must fit the interaction; follow-ups and edits only after that and for ``fake.followup_window``.
Every call is recorded on the interaction's handle with its timing.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .faults import API_PREFIX
from .handles import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    InteractionHandle,
)
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    focused_option,
)
from .messages import CHAT_INPUT_COMMAND, CONTEXT_MENU_COMMAND, DEFAULT, build_message, edited_copy
from .records import CallRecord
from .responses import (
    ALREADY_ACKNOWLEDGED,
    EMPTY_MESSAGE,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    json_response,
    known_error,
    no_content,
)
from .rest import ARRIVED, Refuse, read_body
from .validation import (
    EPHEMERAL,
    LOADING,
    FieldError,
    check_autocomplete_result,
    check_message,
    check_modal,
    is_empty_message,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")

_UPDATES = {DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE}
_ANSWERS = {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE}
# Which initial responses each interaction type accepts.
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: _ANSWERS | {MODAL},
    MESSAGE_COMPONENT: _ANSWERS | _UPDATES | {MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: _ANSWERS | _UPDATES,
}


def routes(fake: FakeDiscord) -> list[web.RouteDef]:
    refuse = Refuse(fake)

    async def callback(request: web.Request) -> web.Response:
        handle = fake.interactions.get(int(request.match_info["interaction_id"]))
        body, files = await read_body(request)
        if handle is None or handle.token != request.match_info["token"] or handle.sent_at is None:
            detail = "callback for an interaction the fake never sent"
            return refuse(request, "unknown_interaction", UNKNOWN_INTERACTION, detail, body)
        if handle.first_attempt is None:
            handle.first_attempt = body
        reply = await _initial_response(fake, refuse, handle, request, body, files)
        return _record(handle, "callback", request, body, reply)

    def usable_handle(request: web.Request, body: Any) -> InteractionHandle | web.Response:
        """The interaction behind /webhooks/{application_id}/{token}, if usable now."""
        token = request.match_info["token"]
        handle = next((h for h in fake.interactions.values() if h.token == token), None)
        if handle is None or int(request.match_info["application_id"]) != fake.application_id:
            return refuse(request, "unknown_webhook", UNKNOWN_WEBHOOK, "unknown token", body)
        if handle.callback is None:
            detail = "follow-up or edit before the interaction was acknowledged"
            reply = refuse(request, "unknown_webhook", UNKNOWN_WEBHOOK, detail, body)
            return _record(handle, "webhook", request, body, reply)
        if time.monotonic() - (handle.sent_at or 0.0) > fake.followup_window:
            detail = f"interaction token expired ({fake.followup_window}s)"
            reply = refuse(request, "unknown_webhook", INVALID_WEBHOOK_TOKEN, detail, body)
            return _record(handle, "webhook", request, body, reply)
        return handle

    def target_id(handle: InteractionHandle, request: web.Request) -> int | None:
        """``@original`` or a follow-up id, as a live message of this interaction."""
        raw = request.match_info["message_id"]
        if raw == "@original":
            message_id = handle.original_message_id
        else:
            ours = {*handle.followup_ids, handle.original_message_id}
            message_id = int(raw) if int(raw) in ours else None
        return message_id if message_id and fake.store.is_live(message_id) else None

    async def followup(request: web.Request) -> web.Response:
        body, files = await read_body(request)
        handle = usable_handle(request, body)
        if isinstance(handle, web.Response):
            return handle
        errors = check_message(body)
        if errors:
            reply = refuse.invalid(request, errors, body)
        elif is_empty_message(body, has_files=bool(files)):
            reply = refuse(request, "empty_message", EMPTY_MESSAGE, "empty follow-up", body)
        else:
            if files:
                body = {**body, "attachments": files}
            message = await _create_followup(fake, handle, request, body)
            wait = request.query.get("wait", "false").lower() in ("1", "true")
            reply = json_response(message) if wait else no_content()
        return _record(handle, "followup", request, body, reply)

    async def get_message(request: web.Request) -> web.Response:
        handle = usable_handle(request, None)
        if isinstance(handle, web.Response):
            return handle
        message_id = target_id(handle, request)
        if message_id is None:
            reply = known_error(UNKNOWN_MESSAGE)
        else:
            reply = json_response(fake.store.snapshot(message_id))
        return _record(handle, _kind("get", request), request, None, reply)

    async def edit_message(request: web.Request) -> web.Response:
        body, files = await read_body(request)
        handle = usable_handle(request, body)
        if isinstance(handle, web.Response):
            return handle
        message_id = target_id(handle, request)
        if files:
            body = {**body, "attachments": list(body.get("attachments") or []) + files}
        errors = check_message(body)
        if message_id is None:
            reply = refuse(request, "unknown_message", UNKNOWN_MESSAGE, "unknown message", body)
        elif errors:
            reply = refuse.invalid(request, errors, body)
        elif is_empty_message(edited_copy(fake.store.snapshot(message_id), body)):
            reply = refuse(request, "empty_message", EMPTY_MESSAGE, "edit empties it", body)
        else:
            edited = fake.store.edit(message_id, body)
            edited["flags"] = int(edited.get("flags") or 0) & ~LOADING  # the "thinking" ends
            fake.record_sent("edit", f"PATCH {request.path}", edited, body, creates=False)
            await fake.dispatch_message_event("MESSAGE_UPDATE", edited)
            reply = json_response(fake.store.snapshot(message_id))
        return _record(handle, _kind("edit", request), request, body, reply)

    async def delete_message(request: web.Request) -> web.Response:
        handle = usable_handle(request, None)
        if isinstance(handle, web.Response):
            return handle
        message_id = target_id(handle, request)
        if message_id is None:
            reply = known_error(UNKNOWN_MESSAGE)
        else:
            message = fake.store.snapshot(message_id)
            fake.store.delete(message_id)
            await fake.dispatch_message_event("MESSAGE_DELETE", message)
            reply = no_content()
        return _record(handle, _kind("delete", request), request, None, reply)

    webhook = API_PREFIX + "/webhooks/{application_id}/{token}"
    return [
        web.post(API_PREFIX + "/interactions/{interaction_id}/{token}/callback", callback),
        web.post(webhook, followup),
        web.get(webhook + "/messages/{message_id}", get_message),
        web.patch(webhook + "/messages/{message_id}", edit_message),
        web.delete(webhook + "/messages/{message_id}", delete_message),
    ]


def _kind(verb: str, request: web.Request) -> str:
    which = "original" if request.match_info["message_id"] == "@original" else "followup"
    return f"{verb}_{which}"


def _record(
    handle: InteractionHandle, kind: str, request: web.Request, body: Any, reply: web.Response
) -> web.Response:
    """Note the call on the handle: arrival time, seconds since delivery, outcome."""
    arrived = request[ARRIVED]
    sent_at = handle.sent_at if handle.sent_at is not None else arrived
    is_json = reply.content_type == "application/json" and reply.text is not None
    response_body = json.loads(reply.text) if is_json and reply.text else None
    record = CallRecord(
        kind,
        request.method,
        request.path,
        arrived,
        arrived - sent_at,
        reply.status,
        body,
        response_body,
    )
    handle.records.append(record)
    return reply


def _typed_into(fake: FakeDiscord, handle: InteractionHandle) -> JSON | None:
    """The registered option an autocomplete interaction types into, if it is still there."""
    data = handle.payload.get("data") or {}
    scope = int(data["guild_id"]) if "guild_id" in data else None
    command = fake.registry.get(scope, int(data.get("id", 0)))
    return None if command is None else focused_option(command, data)


async def _initial_response(
    fake: FakeDiscord,
    refuse: Refuse,
    handle: InteractionHandle,
    request: web.Request,
    body: JSON,
    files: list[JSON],
) -> web.Response:
    """Check an initial response against Discord's rules, then apply it."""
    if handle.acknowledged:
        detail = "second initial response"
        return refuse(request, "already_acknowledged", ALREADY_ACKNOWLEDGED, detail, body)
    # Discord's clock starts when it sends the interaction, not when the bot gets it.
    late = request[ARRIVED] - (handle.discord_sent_at or 0.0)
    if late > fake.ack_deadline:
        detail = f"initial response after {late:.3f}s (deadline {fake.ack_deadline}s)"
        return refuse(request, "unknown_interaction", UNKNOWN_INTERACTION, detail, body)
    kind = body.get("type")
    data = body.get("data") or {}
    if kind not in ALLOWED_CALLBACKS.get(handle.type, set()):
        reason = f"Callback type {kind} is invalid for interaction type {handle.type}"
        error = FieldError(("type",), "INTERACTION_CALLBACK_TYPE_INVALID", reason)
        return refuse.invalid(request, [error], body)
    if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        errors = check_message(data)
    elif kind == AUTOCOMPLETE_RESULT:
        errors = check_autocomplete_result(data, _typed_into(fake, handle))
    elif kind == MODAL:
        errors = check_modal(data)
    else:
        errors = []
    if errors:
        return refuse.invalid(request, errors, body)
    if kind == CHANNEL_MESSAGE and is_empty_message(data, has_files=bool(files)):
        return refuse(request, "empty_message", EMPTY_MESSAGE, "empty response", body)
    if files:
        data = {**data, "attachments": files}

    handle.callback = body
    message = await _apply_initial_response(fake, handle, kind, data, f"POST {request.path}")
    if message is not None:
        handle.original_message_id = int(message["id"])
    if request.query.get("with_response", "").lower() not in ("1", "true"):
        return no_content()
    return json_response(_callback_response(fake, handle, kind, message))


async def _apply_initial_response(
    fake: FakeDiscord, handle: InteractionHandle, kind: int, data: JSON, route: str
) -> JSON | None:
    """Create or update the message an accepted initial response stands for, if any."""
    if kind == CHANNEL_MESSAGE:
        message = _new_message(fake, handle, data, response=True)
        fake.store.add(message)
        fake.record_sent("interaction_response", route, message, data, creates=True)
        await fake.dispatch_message_event("MESSAGE_CREATE", message)
        return message
    if kind == DEFERRED_CHANNEL_MESSAGE:  # a "thinking..." message, ephemeral if asked
        flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
        message = _new_message(fake, handle, {"flags": flags}, response=True)
        fake.store.add(message)
        await fake.dispatch_message_event("MESSAGE_CREATE", message)
        return message
    if kind in _UPDATES:  # @original is now the message the component is on
        assert handle.target_message_id is not None
        if kind == UPDATE_MESSAGE:
            edited = fake.store.edit(handle.target_message_id, data)
            fake.record_sent("edit", route, edited, data, creates=False)
            await fake.dispatch_message_event("MESSAGE_UPDATE", edited)
        return fake.store.get(handle.target_message_id)
    return None  # autocomplete results and modals create no message


def _callback_response(
    fake: FakeDiscord, handle: InteractionHandle, kind: int, message: JSON | None
) -> JSON:
    """The InteractionCallbackResponse body discord.py reads (``?with_response=1``)."""
    flags = int((message or {}).get("flags") or 0)
    interaction: JSON = {
        "id": str(handle.id),
        "type": handle.type,
        "response_message_loading": bool(flags & LOADING),
        "response_message_ephemeral": bool(flags & EPHEMERAL),
    }
    reply: JSON = {"interaction": interaction}
    if message is not None:
        interaction["response_message_id"] = message["id"]
        reply["resource"] = {"type": kind, "message": fake.store.snapshot(int(message["id"]))}
    return reply


async def _create_followup(
    fake: FakeDiscord, handle: InteractionHandle, request: web.Request, body: JSON
) -> JSON:
    """A follow-up; after a deferred response the first one replaces the "thinking" message
    (unless the bot deleted that message: then it is a new message with its own flags)."""
    route = f"POST {request.path}"
    original_id = handle.original_message_id or 0
    original = fake.store.get(original_id) if fake.store.is_live(original_id) else None
    if original is not None and int(original.get("flags") or 0) & LOADING:
        # The defer already chose ephemerality; the follow-up's own flag cannot change it.
        kept = int(original["flags"]) & EPHEMERAL
        message = fake.store.edit(
            int(original["id"]), {k: v for k, v in body.items() if k != "flags"}
        )
        message["flags"] = kept | (int(body.get("flags") or 0) & ~EPHEMERAL & ~LOADING)
        # Replacing the "thinking" message does not notify anyone (it counts as an edit).
        fake.record_sent("followup", route, message, body, creates=False)
        await fake.dispatch_message_event("MESSAGE_UPDATE", message)
    else:
        message = _new_message(fake, handle, body, response=False)
        fake.store.add(message)
        fake.record_sent("followup", route, message, body, creates=True)
        await fake.dispatch_message_event("MESSAGE_CREATE", message)
    handle.followup_ids.append(int(message["id"]))
    return fake.store.snapshot(int(message["id"]))


def _new_message(
    fake: FakeDiscord, handle: InteractionHandle, body: JSON, *, response: bool
) -> JSON:
    """A message the bot sends through an interaction (initial response or follow-up)."""
    data = handle.payload["data"]
    message_type = DEFAULT
    if response and handle.type == APPLICATION_COMMAND:
        message_type = CHAT_INPUT_COMMAND if data.get("type", 1) == 1 else CONTEXT_MENU_COMMAND
    raw_user = handle.payload.get("member", {}).get("user") or handle.payload["user"]
    app_id = str(fake.application_id)
    extra: JSON = {
        "webhook_id": app_id,
        "application_id": app_id,
        "interaction_metadata": {
            "id": str(handle.id),
            "type": handle.type,
            "user": raw_user,
            "authorizing_integration_owners": handle.payload["authorizing_integration_owners"],
        },
    }
    if handle.type == APPLICATION_COMMAND:
        extra["interaction"] = {
            "id": str(handle.id),
            "type": handle.type,
            "name": data.get("name", ""),
            "user": raw_user,
        }
    channel = fake.world.channel(int(handle.payload["channel_id"]))
    assert channel is not None
    return build_message(
        body,
        channel=channel,
        author=fake.bot,
        message_type=message_type,
        users=fake.world.users,
        extra=extra,
    )
