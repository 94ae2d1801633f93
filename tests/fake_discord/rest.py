"""REST routes for login and setup: gateway URL, users, the application, command sync, guilds.

Also the helpers every route module shares (auth, body parsing, error replies).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .attachments import UPLOAD_LIMIT, AttachmentStore
from .commands import Scope
from .faults import API_PREFIX
from .models import FakeUser, new_snowflake
from .responses import (
    NOT_FOUND,
    UNAUTHORIZED,
    UNKNOWN_CHANNEL,
    UNKNOWN_COMMAND,
    UNKNOWN_GUILD,
    UNKNOWN_USER,
    invalid_form_body,
    json_response,
    known_error,
    no_content,
)
from .validation import FieldError, check_command, check_commands

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = ["API_PREFIX", "NOT_FOUND", "Handler", "error", "routes"]

JSON = dict[str, Any]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
error = known_error
# When a request arrived (before injected delays): the clock for interaction deadlines.
ARRIVED = web.RequestKey("arrived", float)
# Where uploaded files are kept (and served from).
ATTACHMENTS = web.AppKey("attachments", AttachmentStore)
UNKNOWN_APPLICATION = (404, 10002, "Unknown Application")
UNKNOWN_COMMAND_PERMISSIONS = (404, 10066, "Unknown application command permissions")


def require_auth(fake: FakeDiscord, handler: Handler) -> Handler:
    """Bot routes answer 401 unless the request carries ``Authorization: Bot <token>``."""

    async def checked(request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization") != f"Bot {fake.token}":
            return known_error(UNAUTHORIZED)
        return await handler(request)

    return checked


class Refuse:
    """Answer the way Discord refuses a request, and record the violation for the test."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake

    def __call__(
        self,
        request: web.Request,
        kind: str,
        error: tuple[int, int, str],
        detail: str,
        body: Any = None,
    ) -> web.Response:
        self._fake.record_violation(kind, f"{request.method} {request.path}", detail, body)
        return known_error(error)

    def invalid(self, request: web.Request, errors: list[FieldError], body: Any) -> web.Response:
        """400 Invalid Form Body (code 50035) with Discord's nested ``errors``."""
        detail = "; ".join(map(str, errors))
        self._fake.record_violation(
            "invalid_form_body", f"{request.method} {request.path}", detail, body
        )
        return invalid_form_body(errors)


class _TooLarge(web.HTTPClientError):
    """Discord's 413 (code 40005) for a file over its upload size, a JSON error body as all."""

    status_code = 413


async def read_body(request: web.Request) -> tuple[JSON, list[JSON]]:
    """The JSON object body, or for multipart uploads ``payload_json`` plus attachment objects
    (each file kept in the fake's attachment store and served at its ``url``).

    A body that is not a JSON object reads as ``{}`` (validation then rejects it).
    """
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        body = json.loads(str(form.get("payload_json") or "{}"))
        files = []
        store = request.app[ATTACHMENTS]
        channel_id = int(request.match_info.get("channel_id", 0))
        for value in form.values():
            if isinstance(value, web.FileField):
                content = value.file.read()
                if len(content) > UPLOAD_LIMIT:  # Discord's upload size for a bot (10 MiB)
                    raise _TooLarge(
                        body=json.dumps({"code": 40005, "message": "Request entity too large"}),
                        headers={"Content-Type": "application/json"},  # as `json_response`
                    )
                kept = store.add(
                    value.filename,
                    content,
                    content_type=value.content_type,
                    channel_id=channel_id,
                )
                files.append({k: v for k, v in kept.payload().items() if k != "ephemeral"})
        return body, files
    if not request.can_read_body:
        return {}, []
    body = await request.json()
    return (body if isinstance(body, dict) else {}), []


def routes(fake: FakeDiscord) -> list[web.RouteDef]:
    """Bot-authenticated routes used at login and for command sync."""
    refuse = Refuse(fake)

    def auth(handler: Handler) -> Handler:
        return require_auth(fake, handler)

    async def get_gateway(request: web.Request) -> web.Response:
        return json_response({"url": fake.gateway_url})

    async def get_gateway_bot(request: web.Request) -> web.Response:
        return json_response(fake.sharding.gateway_bot(fake.gateway_url))

    async def get_me(request: web.Request) -> web.Response:
        me = {**fake.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        return json_response(me)

    async def get_user(request: web.Request) -> web.Response:
        user = fake.world.users.get(int(request.match_info["user_id"]))
        return error(UNKNOWN_USER) if user is None else json_response(user.payload())

    async def create_dm(request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = fake.world.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            return error(UNKNOWN_USER)
        return json_response(fake.dm_channel(user).payload())

    async def get_application(request: web.Request) -> web.Response:
        owner = FakeUser(new_snowflake(), "app_owner")
        return json_response(
            {
                "id": str(fake.application_id),
                "name": fake.bot.username,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": owner.payload(),
                "team": None,
                "flags": 0,
                "bot": fake.bot.payload(),
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(fake.world.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    # Application commands, global (scope None) or per guild.
    def scope_of(request: web.Request) -> Scope | web.Response:
        if int(request.match_info["application_id"]) != fake.application_id:
            return error(UNKNOWN_APPLICATION)
        if "guild_id" not in request.match_info:
            return None
        guild_id = int(request.match_info["guild_id"])
        return guild_id if guild_id in fake.world.guilds else error(UNKNOWN_GUILD)

    async def list_commands(request: web.Request) -> web.Response:
        scope = scope_of(request)
        if isinstance(scope, web.Response):
            return scope
        return json_response(fake.registry.listing(scope))

    async def overwrite_commands(request: web.Request) -> web.Response:
        scope = scope_of(request)
        if isinstance(scope, web.Response):
            return scope
        body = await request.json()  # a bulk overwrite is a JSON array
        if not isinstance(body, list):
            body = []
        errors = check_commands(body)
        if errors:
            return refuse.invalid(request, errors, body)
        return json_response(fake.registry.overwrite(scope, body))

    async def upsert_command(request: web.Request) -> web.Response:
        scope = scope_of(request)
        if isinstance(scope, web.Response):
            return scope
        body, _ = await read_body(request)
        errors = check_command(body)
        if errors:
            return refuse.invalid(request, errors, body)
        return json_response(fake.registry.upsert(scope, body), 201)

    async def get_command(request: web.Request) -> web.Response:
        scope = scope_of(request)
        if isinstance(scope, web.Response):
            return scope
        found = fake.registry.get(scope, int(request.match_info["command_id"]))
        return error(UNKNOWN_COMMAND) if found is None else json_response(found)

    async def edit_command(request: web.Request) -> web.Response:
        scope = scope_of(request)
        if isinstance(scope, web.Response):
            return scope
        found = fake.registry.get(scope, int(request.match_info["command_id"]))
        if found is None:
            return error(UNKNOWN_COMMAND)
        body, _ = await read_body(request)
        merged = {**found, **body}
        errors = check_command(merged)
        if errors:
            return refuse.invalid(request, errors, body)
        return json_response(fake.registry.upsert(scope, merged))

    async def delete_command(request: web.Request) -> web.Response:
        scope = scope_of(request)
        if isinstance(scope, web.Response):
            return scope
        deleted = fake.registry.delete(scope, int(request.match_info["command_id"]))
        return no_content() if deleted else error(UNKNOWN_COMMAND)

    # Command permission overrides (Integrations): a bot may read them, not write them (a PUT
    # needs a user's Bearer token, so the fake does not serve it).
    async def list_command_permissions(request: web.Request) -> web.Response:
        scope = scope_of(request)
        if isinstance(scope, web.Response):
            return scope
        assert scope is not None
        return json_response(fake.command_permissions.listing(scope))

    async def get_command_permissions(request: web.Request) -> web.Response:
        scope = scope_of(request)
        if isinstance(scope, web.Response):
            return scope
        assert scope is not None
        target = int(request.match_info["command_id"])
        known = target == fake.application_id or any(
            fake.registry.get(s, target) is not None for s in (scope, None)
        )
        if not known:
            return error(UNKNOWN_COMMAND)
        found = fake.command_permissions.get(scope, target)
        # Discord answers 404 for a command whose permissions were never changed.
        return error(UNKNOWN_COMMAND_PERMISSIONS) if found is None else json_response(found)

    # Guild reads a bot might make.
    async def get_guild(request: web.Request) -> web.Response:
        guild = fake.world.guilds.get(int(request.match_info["guild_id"]))
        # A server the bot is not in reads as unknown, as one that does not exist (Discord
        # since 2023, discord-api-docs #5840; 403, 50001 before).
        if guild is None or fake.bot.id not in guild.members:
            return error(UNKNOWN_GUILD)
        return json_response(guild.payload(include_all_members=False, bot_id=fake.bot.id))

    async def get_guild_channels(request: web.Request) -> web.Response:
        guild = fake.world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(UNKNOWN_GUILD)
        return json_response([c.payload() for c in guild.channels.values()])

    async def get_guild_roles(request: web.Request) -> web.Response:
        guild = fake.world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(UNKNOWN_GUILD)
        return json_response([r.payload() for r in guild.roles.values()])

    async def get_member(request: web.Request) -> web.Response:
        guild = fake.world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(UNKNOWN_GUILD)
        member = guild.members.get(int(request.match_info["user_id"]))
        return (
            error((404, 10007, "Unknown Member"))
            if member is None
            else json_response(member.payload())
        )

    async def get_channel(request: web.Request) -> web.Response:
        channel = fake.world.channel(int(request.match_info["channel_id"]))
        return error(UNKNOWN_CHANNEL) if channel is None else json_response(channel.payload())

    p = API_PREFIX
    commands = p + "/applications/{application_id}/commands"
    guild_commands = p + "/applications/{application_id}/guilds/{guild_id}/commands"
    table: list[web.RouteDef] = [
        web.get(p + "/gateway", get_gateway),
        web.get(p + "/gateway/bot", auth(get_gateway_bot)),
        web.get(p + "/users/@me", auth(get_me)),
        web.post(p + "/users/@me/channels", auth(create_dm)),
        web.get(p + "/users/{user_id}", auth(get_user)),
        web.get(p + "/oauth2/applications/@me", auth(get_application)),
        web.get(p + "/applications/@me", auth(get_application)),
        web.get(p + "/guilds/{guild_id}", auth(get_guild)),
        web.get(p + "/guilds/{guild_id}/channels", auth(get_guild_channels)),
        web.get(p + "/guilds/{guild_id}/roles", auth(get_guild_roles)),
        web.get(p + "/guilds/{guild_id}/members/{user_id}", auth(get_member)),
        web.get(p + "/channels/{channel_id}", auth(get_channel)),
    ]
    table += [
        web.get(guild_commands + "/permissions", auth(list_command_permissions)),
        web.get(guild_commands + "/{command_id}/permissions", auth(get_command_permissions)),
    ]
    for base in (commands, guild_commands):
        table += [
            web.get(base, auth(list_commands)),
            web.put(base, auth(overwrite_commands)),
            web.post(base, auth(upsert_command)),
            web.get(base + "/{command_id}", auth(get_command)),
            web.patch(base + "/{command_id}", auth(edit_command)),
            web.delete(base + "/{command_id}", auth(delete_command)),
        ]
    return table
