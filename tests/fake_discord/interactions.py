"""INTERACTION_CREATE payloads, built the way Discord's client would fill them in.

Anything a real user could not do (an unknown option, a value outside the choices, a click on
a disabled button or on a component the message lacks) raises ``ValueError`` here, so a test
cannot accidentally exercise an impossible path.
"""

from __future__ import annotations

import copy
import itertools
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .attachments import UPLOAD_LIMIT, FakeAttachment
from .models import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, new_snowflake
from .validation import (
    BUTTON,
    LABEL,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    TEXT_INPUT_VALUE_MAX,
)
from .world import World

JSON = dict[str, Any]

# Interaction types
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# Option types
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 6, 7, 8, 9, 10, 11

OptionValue = (
    Any  # str, int, float, bool, FakeUser, FakeMember, FakeChannel, FakeRole, FakeAttachment
)


class Resolved:
    """The ``resolved`` map Discord attaches for users, members, roles, channels, messages."""

    def __init__(self, world: World, guild: FakeGuild | None) -> None:
        self._world = world
        self._guild = guild
        self.data: dict[str, dict[str, JSON]] = {}

    def _put(self, kind: str, key: int, value: JSON) -> None:
        self.data.setdefault(kind, {})[str(key)] = value

    def user(self, user: FakeUser) -> str:
        self._put("users", user.id, user.payload())
        if self._guild is not None and user.id in self._guild.members:
            member = self._guild.members[user.id]
            perms = self._guild.permissions_of(user.id)
            self._put("members", user.id, member.payload(with_user=False, permissions=perms))
        return str(user.id)

    def role(self, role: FakeRole) -> str:
        self._put("roles", role.id, role.payload())
        return str(role.id)

    def channel(self, channel: FakeChannel, permissions: int) -> str:
        payload = channel.payload()
        payload["permissions"] = str(permissions)
        self._put("channels", channel.id, payload)
        return str(channel.id)

    def message(self, message: JSON) -> str:
        self._put("messages", int(message["id"]), message)
        return str(message["id"])

    def attachment(self, attachment: FakeAttachment) -> str:
        self._put("attachments", attachment.id, attachment.payload())
        return str(attachment.id)


def base_payload(
    world: World,
    *,
    kind: int,
    data: JSON,
    user: FakeUser,
    channel: FakeChannel,
    message: JSON | None = None,
) -> JSON:
    """The envelope common to every interaction; ``member`` in guilds, ``user`` in DMs."""
    guild = world.guild_of(channel)
    payload: JSON = {
        "id": str(new_snowflake()),
        "application_id": str(world.application_id),
        "type": kind,
        "data": data,
        "token": f"fake-interaction-token-{secrets.token_urlsafe(24)}",
        "version": 1,
        "channel_id": str(channel.id),
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": UPLOAD_LIMIT,
    }
    if guild is not None:
        member = world.member(guild, user)
        perms = guild.permissions_in(channel, user.id)  # the member's in this channel
        channel_payload = channel.payload()
        channel_payload["permissions"] = str(perms)
        payload.update(
            guild_id=str(guild.id),
            guild_locale="en-US",
            guild={"id": str(guild.id), "locale": "en-US", "features": []},
            member=member.payload(permissions=perms),
            channel=channel_payload,
            app_permissions=str(guild.permissions_in(channel, world.bot.id)),
            authorizing_integration_owners={"0": str(guild.id)},
            context=0,
        )
    else:
        payload.update(
            user=user.payload(),
            channel=channel.payload(),
            app_permissions=str(world.bot_permissions),
            authorizing_integration_owners={"0": "0"},
            context=1,
        )
    if message is not None:
        payload["message"] = message
    return payload


# --- application commands -------------------------------------------------------------------


def command_data(
    command: JSON,
    path: Sequence[str],
    options: Mapping[str, OptionValue],
    resolved: Resolved,
    *,
    focused: str | None,
    permissions: int,
) -> JSON:
    """``data`` for a chat input command or its autocomplete, walking subcommand ``path``."""
    data: JSON = {"id": command["id"], "name": command["name"], "type": command["type"]}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    schema: list[JSON] = command.get("options") or []
    nested: list[JSON] = []
    top = nested
    for part in path:
        sub = next(
            (
                o
                for o in schema
                if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            raise ValueError(f"/{command['name']} has no subcommand {part!r}")
        entry: JSON = {"name": part, "type": sub["type"], "options": []}
        nested.append(entry)
        nested = entry["options"]
        schema = sub.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        names = [o["name"] for o in schema]
        raise ValueError(f"/{command['name']} {' '.join(path)}: pick a subcommand of {names}")
    nested.extend(_options(schema, options, resolved, focused=focused, permissions=permissions))
    data["options"] = top
    if resolved.data:
        data["resolved"] = resolved.data
    return data


def focused_option(command: JSON, data: JSON) -> JSON | None:
    """The option of registered ``command`` an autocomplete's ``data`` is typing into (through
    its subcommands), as registered; None if none is focused."""
    schema: list[JSON] = command.get("options") or []
    given: list[JSON] = data.get("options") or []
    while given:
        focused = next((o for o in given if o.get("focused")), None)
        if focused is not None:
            return next((o for o in schema if o["name"] == focused["name"]), None)
        sub = next((o for o in given if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
        if sub is None:
            return None
        schema = next((o.get("options") or [] for o in schema if o["name"] == sub["name"]), [])
        given = sub.get("options") or []
    return None


def _options(
    schema: Sequence[JSON],
    given: Mapping[str, OptionValue],
    resolved: Resolved,
    *,
    focused: str | None,
    permissions: int,
) -> list[JSON]:
    by_name = {o["name"]: o for o in schema}
    unknown = set(given) - set(by_name)
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)}; the command has {sorted(by_name)}")
    if focused is not None:
        option = by_name.get(focused)
        if option is None or not option.get("autocomplete"):
            raise ValueError(f"option {focused!r} does not have autocomplete")
    out = []
    for option in schema:
        name = option["name"]
        if name not in given:
            if option.get("required") and focused is None:
                raise ValueError(f"required option {name!r} is missing")
            continue
        if name == focused:
            # While typing, Discord sends the raw text of the focused option.
            out.append(
                {"name": name, "type": option["type"], "value": str(given[name]), "focused": True}
            )
            continue
        value = _convert(option, given[name], resolved, permissions)
        out.append({"name": name, "type": option["type"], "value": value})
    return out


def _convert(option: JSON, value: OptionValue, resolved: Resolved, permissions: int) -> Any:
    kind = option["type"]
    name = option["name"]
    converted: Any
    if kind == STRING:
        converted = str(value)
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(converted) <= high:
            raise ValueError(f"{name}: length must be within {low}..{high}")
    elif kind == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name}: an integer is required, got {value!r}")
        converted = value
    elif kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{name}: a number is required, got {value!r}")
        converted = value
    elif kind == BOOLEAN:
        converted = bool(value)
    elif kind in (USER, MENTIONABLE) and isinstance(value, FakeUser | FakeMember):
        return resolved.user(value.user if isinstance(value, FakeMember) else value)
    elif kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
        return resolved.role(value)
    elif kind == CHANNEL and isinstance(value, FakeChannel):
        return resolved.channel(value, permissions)
    elif kind == ATTACHMENT and isinstance(value, FakeAttachment):
        return resolved.attachment(value)
    else:
        raise ValueError(f"{name}: cannot use {value!r} for option type {kind}")
    if kind in (INTEGER, NUMBER):
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and converted < low) or (high is not None and converted > high):
            raise ValueError(f"{name}: {converted} is outside {low}..{high}")
    choices = option.get("choices")
    if choices and converted not in [c["value"] for c in choices]:
        raise ValueError(f"{name}: {converted!r} is not one of the choices {choices}")
    return converted


# --- components and modals ------------------------------------------------------------------


def find_component(message: JSON, custom_id: str) -> JSON:
    """The component with ``custom_id`` on ``message`` as it is now (any depth)."""
    seen: list[str] = []
    stack: list[JSON] = list(message.get("components") or [])
    while stack:
        item = stack.pop()
        if item.get("custom_id") == custom_id:
            return item
        if "custom_id" in item:
            seen.append(item["custom_id"])
        stack.extend(item.get("components") or [])
        for key in ("component", "accessory"):
            if isinstance(item.get(key), dict):
                stack.append(item[key])
    raise ValueError(
        f"message {message['id']} has no component {custom_id!r} now (it has {sorted(seen)}); "
        "users can only use what the message currently shows"
    )


SelectValue = str | FakeUser | FakeRole | FakeChannel
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8


def component_data(
    message: JSON, custom_id: str, values: Sequence[SelectValue] | None, resolved: Resolved
) -> JSON:
    """``data`` for a button press (``values`` None) or a selection.

    String selects take option values; user/role/mentionable/channel selects take the objects.
    """
    component = find_component(message, custom_id)
    if component.get("disabled"):
        raise ValueError(f"component {custom_id!r} is disabled; a user cannot use it")
    kind = component["type"]
    data: JSON = {"custom_id": custom_id, "component_type": kind}
    if kind == BUTTON:
        if values is not None:
            raise ValueError("a button takes no values")
        if component.get("style") == 5:
            raise ValueError("a link button opens a URL; it sends no interaction")
        return data
    if kind not in SELECT_TYPES:
        raise ValueError(f"component type {kind} cannot be used")
    chosen = list(values or [])
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(chosen) <= high:
        raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(chosen)}")
    if kind == STRING_SELECT:
        offered = [o["value"] for o in component.get("options", [])]
        stray = [v for v in chosen if v not in offered]
        if stray:
            raise ValueError(f"select {custom_id!r} does not offer {stray}; it offers {offered}")
        data["values"] = chosen
        return data
    data["values"] = [_select_value(kind, value, resolved) for value in chosen]
    data["resolved"] = resolved.data
    return data


def _select_value(kind: int, value: SelectValue, resolved: Resolved) -> str:
    if kind in (USER_SELECT, MENTIONABLE_SELECT) and isinstance(value, FakeUser):
        return resolved.user(value)
    if kind in (ROLE_SELECT, MENTIONABLE_SELECT) and isinstance(value, FakeRole):
        return resolved.role(value)
    if kind == CHANNEL_SELECT and isinstance(value, FakeChannel):
        return resolved.channel(value, permissions=0)
    raise ValueError(f"a select of type {kind} cannot take {value!r}")


def modal_data(modal: JSON, values: Mapping[str, str | Sequence[str]]) -> JSON:
    """``data`` of a MODAL_SUBMIT for the modal the bot sent (callback type 9 ``data``), shaped
    as Discord sends it: the modal's rows and labels, each with its numeric ``id`` (the bot's,
    or numbered 1, 2, ... in order as Discord fills them in), text inputs with their ``value``.
    A text input the user leaves alone submits its prefilled ``value`` (or "")."""
    unknown = set(values) - set(_modal_inputs(modal.get("components") or []))
    if unknown:
        raise ValueError(f"modal {modal['custom_id']!r} has no inputs {sorted(unknown)}")
    components = copy.deepcopy(modal.get("components") or [])
    _number(components, itertools.count(1))
    return {
        "custom_id": modal["custom_id"],
        "components": [_submitted(c, values) for c in components],
    }


def _number(components: Sequence[JSON], ids: Iterator[int]) -> None:
    """Give every component without an ``id`` the next number, depth first, as Discord does."""
    for item in components:
        if item.get("id") is None:
            item["id"] = next(ids)
        _number(item.get("components") or [], ids)
        if isinstance(item.get("component"), dict):
            _number([item["component"]], ids)


def _modal_inputs(components: Sequence[JSON]) -> list[str]:
    ids = []
    for item in components:
        if item.get("type") in (TEXT_INPUT, *SELECT_TYPES):
            ids.append(item["custom_id"])
        ids += _modal_inputs(item.get("components") or [])
        if isinstance(item.get("component"), dict):
            ids += _modal_inputs([item["component"]])
    return ids


def _submitted(item: JSON, values: Mapping[str, str | Sequence[str]]) -> JSON:
    kind = item.get("type")
    if kind == LABEL:
        return {"type": LABEL, "id": item["id"], "component": _submitted(item["component"], values)}
    if kind == TEXT_INPUT:
        custom_id = item["custom_id"]
        value = values.get(custom_id, item.get("value") or "")
        if not isinstance(value, str):
            raise ValueError(f"text input {custom_id!r} takes a string")
        low, high = item.get("min_length") or 0, item.get("max_length") or TEXT_INPUT_VALUE_MAX
        if item.get("required", True) and not value:
            raise ValueError(f"text input {custom_id!r} is required; a user must fill it in")
        if value and not low <= len(value) <= high:
            raise ValueError(
                f"text input {custom_id!r}: {len(value)} characters, the input takes {low}..{high}"
            )
        if item.get("style") == 1 and "\n" in value:
            raise ValueError(f"text input {custom_id!r} is single-line (style 1): no newlines")
        return {"type": TEXT_INPUT, "id": item["id"], "custom_id": custom_id, "value": value}
    if kind in SELECT_TYPES:
        chosen = values.get(item["custom_id"], [])
        return {
            "type": kind,
            "id": item["id"],
            "custom_id": item["custom_id"],
            "values": list(chosen),
        }
    if item.get("components"):
        return {
            "type": kind,
            "id": item["id"],
            "components": [_submitted(c, values) for c in item["components"]],
        }
    return {"type": kind, "id": item["id"]}
