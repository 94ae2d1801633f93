"""Discord-shaped HTTP replies. discord.py only parses bodies typed exactly application/json."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .validation import FieldError, form_errors


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # Set the header by hand: aiohttp's content_type= appends "; charset=utf-8", which
    # discord.py (comparing with == "application/json") would not parse as JSON.
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def no_content() -> web.Response:
    return web.Response(status=204)


def error_body(code: int, message: str, errors: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return body


def discord_error(
    status: int, code: int, message: str, errors: dict[str, Any] | None = None
) -> web.Response:
    return json_response(error_body(code, message, errors), status)


def invalid_form_body(errors: list[FieldError]) -> web.Response:
    return discord_error(400, 50035, "Invalid Form Body", form_errors(errors))


UNAUTHORIZED = (401, 0, "401: Unauthorized")
NOT_FOUND = (404, 0, "404: Not Found")
UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
UNKNOWN_GUILD = (404, 10004, "Unknown Guild")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
UNKNOWN_USER = (404, 10013, "Unknown User")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
UNKNOWN_COMMAND = (404, 10063, "Unknown application command")
EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")
MISSING_ACCESS = (403, 50001, "Missing Access")  # e.g. a guild the bot is no longer in
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
CANNOT_DM = (403, 50007, "Cannot send messages to this user")
ARCHIVED_THREAD = (400, 50083, "Thread is archived")
# A reply (message_reference) where the bot may not read message history: Discord refuses the
# post, not just the reference (its error codes table; seen by bots as 403, code 160002).
REPLY_WITHOUT_HISTORY = (403, 160002, "Cannot reply without permission to read message history")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")


def known_error(error: tuple[int, int, str]) -> web.Response:
    status, code, message = error
    return discord_error(status, code, message)
