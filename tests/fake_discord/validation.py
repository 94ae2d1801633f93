"""Discord's documented limits as pure checks, each returning the field errors it finds.

A check never raises: it returns ``FieldError``s, which ``form_errors`` folds into the nested
``errors`` object of Discord's ``{"code": 50035, "message": "Invalid Form Body"}`` reply, e.g.
``{"embeds": {"0": {"title": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", ...}]}}}}``.
Limits: https://discord.com/developers/docs/resources/message and .../interactions/*.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

JSON = dict[str, Any]
Path = tuple[str | int, ...]

# Messages
CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_URL_MAX = 2048  # openapi.json's RichEmbed.url maxLength
# Components
ACTION_ROWS_MAX = 5
ROW_WIDTH = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
V2_COMPONENTS_MAX = 40
# Autocomplete and commands
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
STRING_OPTION_LENGTH_MAX = 6000  # a string option's min_length (0..) and max_length (1..)
CHAT_INPUT_COMMANDS_MAX = 100
CONTEXT_MENU_COMMANDS_MAX = 15  # per type (USER, MESSAGE)
# Modals
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000

EPHEMERAL = 1 << 6
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
LOADING = 1 << 7
SENDABLE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
TEXT_DISPLAY, LABEL = 10, 18
TEXT_INPUT_SHORT, TEXT_INPUT_PARAGRAPH = 1, 2
LINK_STYLE, PREMIUM_STYLE = 5, 6

CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
# Unicode \w, as the brief's ^[-_\w]{1,32}$ (Discord's own regex also admits some scripts).
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


@dataclass(frozen=True)
class FieldError:
    path: Path
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{where}: {self.code} ({self.message})"


def form_errors(errors: Iterable[FieldError]) -> JSON:
    """Nest errors the way Discord does: one dict level per path part, ``_errors`` at the leaf."""
    root: JSON = {}
    for error in errors:
        node = root
        for part in error.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return root


class _Errors(list[FieldError]):
    """A list of errors with the few recurring checks as helpers."""

    def add(self, path: Path, code: str, message: str) -> None:
        self.append(FieldError(path, code, message))

    def max_len(self, path: Path, value: object, limit: int) -> None:
        if isinstance(value, str | list) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: Path, value: object, low: int, high: int) -> None:
        if not isinstance(value, str) or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required_str(self, path: Path, value: object, limit: int) -> None:
        if not isinstance(value, str) or not value:
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        else:
            self.max_len(path, value, limit)


# --- messages -------------------------------------------------------------------------------


def check_message(payload: Mapping[str, Any]) -> list[FieldError]:
    """Limits on a message body (create or edit; absent fields are not checked)."""
    errors = _Errors()
    content = payload.get("content")
    if content is not None:
        errors.max_len(("content",), content, CONTENT_MAX)
    embeds = payload.get("embeds") or []
    errors.max_len(("embeds",), embeds, EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(errors, ("embeds", i), embed)
    if total > EMBED_TOTAL_MAX:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
        )
    flags = int(payload.get("flags") or 0)
    if flags & ~SENDABLE_FLAGS:
        errors.add(
            ("flags",), "MESSAGE_FLAGS_INVALID", f"Cannot set flags {flags & ~SENDABLE_FLAGS}"
        )
    components = payload.get("components")
    if components:
        errors.extend(check_components(components, v2=bool(flags & IS_COMPONENTS_V2)))
    errors.extend(check_allowed_mentions(payload.get("allowed_mentions")))
    return errors


def is_empty_message(payload: Mapping[str, Any], *, has_files: bool = False) -> bool:
    """Discord answers 50006 "Cannot send an empty message" to a message with nothing in it."""
    keys = ("content", "embeds", "components", "sticker_ids", "poll", "attachments")
    return not has_files and not any(payload.get(k) for k in keys)


def _check_embed(errors: _Errors, path: Path, embed: Mapping[str, Any]) -> int:
    """Checks one embed and returns the characters it counts towards the 6000 total."""
    counted = 0

    def text(sub: Path, value: object, limit: int) -> None:
        nonlocal counted
        if isinstance(value, str):
            counted += len(value)
            errors.max_len(path + sub, value, limit)

    text(("title",), embed.get("title"), EMBED_TITLE_MAX)
    if embed.get("url") is not None:
        _check_link(errors, (*path, "url"), embed["url"])
    text(("description",), embed.get("description"), EMBED_DESCRIPTION_MAX)
    text(("footer", "text"), (embed.get("footer") or {}).get("text"), EMBED_FOOTER_MAX)
    text(("author", "name"), (embed.get("author") or {}).get("name"), EMBED_AUTHOR_MAX)
    fields = embed.get("fields") or []
    errors.max_len((*path, "fields"), fields, EMBED_FIELDS_MAX)
    for i, item in enumerate(fields):
        for key, limit in (("name", EMBED_FIELD_NAME_MAX), ("value", EMBED_FIELD_VALUE_MAX)):
            value = item.get(key)
            errors.required_str((*path, "fields", i, key), value, limit)
            if isinstance(value, str):
                counted += len(value)
    return counted


def _check_link(errors: _Errors, path: Path, url: object) -> None:
    """An embed's link (its title's): Discord takes http(s) only ("Scheme ... is not
    supported", documented) and refuses an address it does not read as one, "Not a well formed
    URL": no host, a port that is none, spaces, and a host name with no dot ("localhost",
    "wiki": the reports in bugsink#280, grafana#65270, gitea#14379, alertmanager-discord#19);
    and one longer than 2,048 characters (the OpenAPI spec's maxLength). A letter outside ASCII
    too: the spec's `format: uri` is RFC 3986's URI, ASCII only (an IRI, "https://bücher.example/",
    is sent in punycode and percent-encoded). Whether Discord itself refuses an IRI is not
    documented; the fake holds the bot to the spec."""
    text = url if isinstance(url, str) else ""
    scheme = text.partition(":")[0] if ":" in text else ""
    if scheme.lower() not in ("http", "https"):
        supported = "Scheme must be one of ('http', 'https')."
        errors.add(
            path, "URL_TYPE_INVALID_SCHEME", f'Scheme "{scheme}" is not supported. {supported}'
        )
        return
    try:
        parts = urlsplit(text)
        host, _port = parts.hostname or "", parts.port
    except ValueError:  # a bracket left open, a port that is no number or past 65535
        host = ""
    named = "." in host or ":" in host  # a domain with its top level, an IPv4 or IPv6 address
    if not named or any(ch.isspace() or ord(ch) < 0x20 or ord(ch) >= 0x7F for ch in text):
        errors.add(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")
    errors.max_len(path, text, EMBED_URL_MAX)


def check_allowed_mentions(allowed: object) -> list[FieldError]:
    errors = _Errors()
    if allowed is None:
        return errors
    if not isinstance(allowed, Mapping):
        errors.add(("allowed_mentions",), "MODEL_TYPE_CONVERT", "Only dictionaries may be used")
        return errors
    parse = allowed.get("parse") or []
    for i, kind in enumerate(parse):
        if kind not in ("users", "roles", "everyone"):
            errors.add(("allowed_mentions", "parse", i), "ENUM_TYPE_COERCE", f"{kind!r} invalid")
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            errors.add(
                ("allowed_mentions", "parse"),
                "SET_TYPE_ALREADY_CONTAINS_VALUE",
                f"parse:[{kind}] and {kind}: [ids] are mutually exclusive.",
            )
        errors.max_len(("allowed_mentions", kind), allowed.get(kind) or [], 100)
    return errors


# --- components -----------------------------------------------------------------------------


def check_components(components: Sequence[Mapping[str, Any]], *, v2: bool) -> list[FieldError]:
    """Layout rules for message components; V2 layouts only get the per-item checks."""
    errors = _Errors()
    seen_ids: set[str] = set()
    if v2:
        count = 0
        for path, item in _walk(components, ("components",)):
            count += 1
            _check_interactive(errors, path, item, seen_ids)
        if count > V2_COMPONENTS_MAX:
            errors.add(("components",), "BASE_TYPE_MAX_LENGTH", "Too many components.")
        return errors

    errors.max_len(("components",), list(components), ACTION_ROWS_MAX)
    for r, row in enumerate(components):
        row_path: Path = ("components", r)
        if row.get("type") != ACTION_ROW:
            errors.add((*row_path, "type"), "UNION_TYPE_CHOICES", "Top level must be action rows")
            continue
        children = row.get("components") or []
        if not children:
            errors.add((*row_path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more.")
        has_select = any(c.get("type") in SELECT_TYPES for c in children)
        if len(children) > ROW_WIDTH or (has_select and len(children) > 1):
            errors.add(
                (*row_path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for c, child in enumerate(children):
            path = (*row_path, "components", c)
            if child.get("type") not in SELECT_TYPES | {BUTTON}:
                errors.add((*path, "type"), "COMPONENT_TYPE_INVALID", "Not allowed in a message")
            _check_interactive(errors, path, child, seen_ids)
    return errors


def _walk(
    items: Sequence[Mapping[str, Any]], path: Path
) -> Iterable[tuple[Path, Mapping[str, Any]]]:
    for i, item in enumerate(items):
        here = (*path, i)
        yield here, item
        if item.get("components"):
            yield from _walk(item["components"], (*here, "components"))
        if isinstance(item.get("component"), Mapping):
            yield from _walk([item["component"]], (*here, "component"))
        if isinstance(item.get("accessory"), Mapping):
            yield from _walk([item["accessory"]], (*here, "accessory"))


def _check_interactive(
    errors: _Errors, path: Path, item: Mapping[str, Any], seen_ids: set[str]
) -> None:
    kind = item.get("type")
    custom_id = item.get("custom_id")
    if isinstance(custom_id, str):
        errors.max_len((*path, "custom_id"), custom_id, CUSTOM_ID_MAX)
        if custom_id in seen_ids:
            errors.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen_ids.add(custom_id)
    if kind == BUTTON:
        _check_button(errors, path, item)
    elif kind in SELECT_TYPES:
        _check_select(errors, path, item)


def _check_button(errors: _Errors, path: Path, button: Mapping[str, Any]) -> None:
    style = button.get("style")
    errors.max_len((*path, "label"), button.get("label"), BUTTON_LABEL_MAX)
    if style == LINK_STYLE:
        if not button.get("url"):
            errors.add((*path, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required")
        if button.get("custom_id"):
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_INVALID",
                "A custom id cannot be specified with a link button",
            )
    elif style == PREMIUM_STYLE:
        if not button.get("sku_id"):
            errors.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
    elif style in (1, 2, 3, 4):
        if not button.get("custom_id"):
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
                "A custom id is required",
            )
        if button.get("url"):
            errors.add((*path, "url"), "BUTTON_COMPONENT_URL_INVALID", "Only link buttons have url")
    else:
        errors.add((*path, "style"), "BUTTON_COMPONENT_STYLE_INVALID", f"Invalid style {style!r}")
    if style != PREMIUM_STYLE and not button.get("label") and not button.get("emoji"):
        errors.add(
            (*path, "label"),
            "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
            "A label or an emoji is required",
        )


def _check_select(errors: _Errors, path: Path, select: Mapping[str, Any]) -> None:
    if not select.get("custom_id"):
        errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    errors.max_len((*path, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_MAX)
    low = select.get("min_values", 1)
    high = select.get("max_values", 1)
    if not 0 <= low <= SELECT_OPTIONS_MAX:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
    if not 1 <= high <= SELECT_OPTIONS_MAX or high < low:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not options:
        errors.add((*path, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    errors.max_len((*path, "options"), options, SELECT_OPTIONS_MAX)
    if high > len(options) and options:
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_INVALID",
            "max_values must not exceed the number of options",
        )
    values: set[str] = set()
    for i, option in enumerate(options):
        here = (*path, "options", i)
        errors.required_str((*here, "label"), option.get("label"), SELECT_OPTION_TEXT_MAX)
        errors.required_str((*here, "value"), option.get("value"), SELECT_OPTION_TEXT_MAX)
        errors.max_len((*here, "description"), option.get("description"), SELECT_OPTION_TEXT_MAX)
        if option.get("value") in values:
            errors.add((*here, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Duplicate")
        values.add(option.get("value", ""))


# --- interaction callbacks ------------------------------------------------------------------


def check_autocomplete_result(
    data: Mapping[str, Any] | None, option: Mapping[str, Any] | None = None
) -> list[FieldError]:
    """An AUTOCOMPLETE_RESULT's choices; for the focused string `option` (as registered), each
    value within its min_length..max_length too: a choice picked is sent as the option's value,
    which Discord refuses past them (the client would not let it be typed)."""
    errors = _Errors()
    choices = (data or {}).get("choices")
    if not isinstance(choices, list):
        errors.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        return errors
    errors.extend(_check_choices(("data", "choices"), choices))
    if option is not None and option.get("type") == 3:  # STRING
        low = option.get("min_length") or 0
        high = option.get("max_length") or STRING_OPTION_LENGTH_MAX
        for i, choice in enumerate(choices):
            value = choice.get("value")
            if isinstance(value, str) and not low <= len(value) <= high:
                errors.length_between(("data", "choices", i, "value"), value, low, high)
    return errors


def _check_choices(path: Path, choices: Sequence[Mapping[str, Any]]) -> list[FieldError]:
    errors = _Errors()
    errors.max_len(path, list(choices), CHOICES_MAX)
    for i, choice in enumerate(choices):
        errors.length_between((*path, i, "name"), choice.get("name"), 1, CHOICE_NAME_MAX)
        value = choice.get("value")
        if isinstance(value, str):
            errors.max_len((*path, i, "value"), value, CHOICE_VALUE_MAX)
        elif not isinstance(value, int | float) or isinstance(value, bool):
            errors.add((*path, i, "value"), "BASE_TYPE_REQUIRED", "A string or number is required")
    return errors


def check_modal(data: Mapping[str, Any] | None) -> list[FieldError]:
    """A MODAL callback's ``data``: title, custom_id, 1-5 top-level components (action rows of
    one text input, labels, text displays) and each text input's limits.

    Discord's OpenAPI spec allows up to 40 top-level components; its documentation and
    discord.py (``Modal.add_item``) say 5, which is what the fake enforces.
    """
    errors = _Errors()
    data = data or {}
    errors.length_between(("data", "title"), data.get("title"), 1, MODAL_TITLE_MAX)
    errors.length_between(("data", "custom_id"), data.get("custom_id"), 1, CUSTOM_ID_MAX)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        errors.add(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5.")
    for i, item in enumerate(components):
        if item.get("type") not in (ACTION_ROW, LABEL, TEXT_DISPLAY):
            errors.add(
                ("data", "components", i, "type"),
                "UNION_TYPE_CHOICES",
                "Top level must be action rows, labels or text displays",
            )
        elif item.get("type") == ACTION_ROW and len(item.get("components") or []) != 1:
            errors.add(
                ("data", "components", i, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "An action row in a modal holds exactly one text input",
            )
    seen_ids: set[str] = set()
    for path, item in _walk(components, ("data", "components")):
        kind = item.get("type")
        if isinstance(item.get("custom_id"), str):
            if item["custom_id"] in seen_ids:
                errors.add(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen_ids.add(item["custom_id"])
        if kind == LABEL:
            errors.length_between((*path, "label"), item.get("label"), 1, TEXT_INPUT_LABEL_MAX)
            errors.max_len((*path, "description"), item.get("description"), 100)
        elif kind == TEXT_INPUT:
            in_label = len(path) >= 2 and path[-2] == "component"  # see _walk
            _check_text_input(errors, path, item, label_required=not in_label)
        elif kind in SELECT_TYPES:
            _check_select(errors, path, item)
    return errors


def _check_text_input(
    errors: _Errors, path: Path, item: Mapping[str, Any], *, label_required: bool
) -> None:
    """A text input's limits; its label lives on the Label around it, or on itself in a row."""
    if label_required or "label" in item:
        errors.length_between((*path, "label"), item.get("label"), 1, TEXT_INPUT_LABEL_MAX)
    errors.length_between((*path, "custom_id"), item.get("custom_id"), 1, CUSTOM_ID_MAX)
    if item.get("style") not in (TEXT_INPUT_SHORT, TEXT_INPUT_PARAGRAPH):
        errors.add((*path, "style"), "ENUM_TYPE_COERCE", f"{item.get('style')!r} is not 1 or 2")
    errors.max_len((*path, "placeholder"), item.get("placeholder"), 100)
    errors.max_len((*path, "value"), item.get("value"), TEXT_INPUT_VALUE_MAX)
    low, high = item.get("min_length"), item.get("max_length")
    if low is not None and (not _is_int(low) or not 0 <= low <= TEXT_INPUT_VALUE_MAX):
        errors.add((*path, "min_length"), "NUMBER_TYPE_MAX", "Must be between 0 and 4000.")
    if high is not None and (not _is_int(high) or not 1 <= high <= TEXT_INPUT_VALUE_MAX):
        errors.add((*path, "max_length"), "NUMBER_TYPE_MAX", "Must be between 1 and 4000.")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        errors.add(
            (*path, "min_length"),
            "TEXT_INPUT_MIN_LENGTH_INVALID",
            "min_length must be less than or equal to max_length",
        )
    required = item.get("required")
    if required is not None and not isinstance(required, bool):
        errors.add((*path, "required"), "BASE_TYPE_BAD_TYPE", "Must be a boolean.")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- application commands -------------------------------------------------------------------


def check_commands(commands: Sequence[Mapping[str, Any]]) -> list[FieldError]:
    """A bulk overwrite (PUT): every command, plus per-type counts and unique names."""
    errors = _Errors()
    seen: set[tuple[int, str]] = set()
    counts = {CHAT_INPUT: 0, USER_COMMAND: 0, MESSAGE_COMMAND: 0}
    for i, command in enumerate(commands):
        errors.extend(check_command(command, (i,)))
        kind = int(command.get("type", CHAT_INPUT))
        counts[kind] = counts.get(kind, 0) + 1
        key = (kind, str(command.get("name")))
        if key in seen:
            errors.add(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique ({key[1]!r})",
            )
        seen.add(key)
    if counts[CHAT_INPUT] > CHAT_INPUT_COMMANDS_MAX:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Too many chat input commands.")
    for kind in (USER_COMMAND, MESSAGE_COMMAND):
        if counts[kind] > CONTEXT_MENU_COMMANDS_MAX:
            errors.add((), "BASE_TYPE_MAX_LENGTH", "Too many context menu commands.")
    return errors


def check_command(command: Mapping[str, Any], path: Path = ()) -> list[FieldError]:
    errors = _Errors()
    kind = int(command.get("type", CHAT_INPUT))
    name = command.get("name")
    description = command.get("description")
    if kind == CHAT_INPUT:
        _check_option_name(errors, (*path, "name"), name)
        errors.length_between((*path, "description"), description, 1, COMMAND_DESCRIPTION_MAX)
        errors.extend(_check_options((*path, "options"), command.get("options") or [], depth=0))
    elif kind in (USER_COMMAND, MESSAGE_COMMAND):
        errors.length_between((*path, "name"), name, 1, 32)
        if description:
            errors.add(
                (*path, "description"),
                "APPLICATION_COMMAND_DESCRIPTION_INVALID",
                "Context menu commands cannot have a description",
            )
        if command.get("options"):
            errors.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID", "Not allowed")
    else:
        errors.add((*path, "type"), "ENUM_TYPE_COERCE", f"{kind!r} is not a command type")
    permissions = command.get("default_member_permissions")
    if permissions is not None and not str(permissions).isdigit():
        errors.add((*path, "default_member_permissions"), "NUMBER_TYPE_COERCE", "Not a bitfield")
    return errors


def _check_string_lengths(errors: _Errors, path: Path, option: Mapping[str, Any]) -> None:
    """A string option's declared lengths, as the OpenAPI spec bounds them (min_length 0..6000,
    max_length 1..6000), the least no more than the most."""
    low, high = option.get("min_length"), option.get("max_length")
    if low is not None and not (isinstance(low, int) and 0 <= low <= STRING_OPTION_LENGTH_MAX):
        errors.add((*path, "min_length"), "NUMBER_TYPE_MAX", "Must be between 0 and 6000.")
    if high is not None and not (isinstance(high, int) and 1 <= high <= STRING_OPTION_LENGTH_MAX):
        errors.add((*path, "max_length"), "NUMBER_TYPE_MAX", "Must be between 1 and 6000.")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        errors.add(
            (*path, "min_length"),
            "APPLICATION_COMMAND_OPTION_LENGTH_INVALID",
            "min_length must be less than or equal to max_length",
        )


def _check_option_name(errors: _Errors, path: Path, name: object) -> None:
    if not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower():
        errors.add(
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            f"Command name is invalid ({name!r}: 1-32 lowercase letters, digits, - or _)",
        )


def _check_options(
    path: Path, options: Sequence[Mapping[str, Any]], depth: int
) -> list[FieldError]:
    errors = _Errors()
    errors.max_len(path, list(options), COMMAND_OPTIONS_MAX)
    names: set[str] = set()
    optional_seen = False
    kinds = {int(o.get("type", 0)) for o in options}
    if kinds & {SUB_COMMAND, SUB_COMMAND_GROUP} and kinds - {SUB_COMMAND, SUB_COMMAND_GROUP}:
        errors.add(
            path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Cannot mix subcommands and options"
        )
    for i, option in enumerate(options):
        here = (*path, i)
        kind = int(option.get("type", 0))
        name = option.get("name")
        _check_option_name(errors, (*here, "name"), name)
        errors.length_between(
            (*here, "description"), option.get("description"), 1, COMMAND_DESCRIPTION_MAX
        )
        if name in names:
            errors.add((*here, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Dup")
        names.add(str(name))
        if not 1 <= kind <= 11:
            errors.add((*here, "type"), "ENUM_TYPE_COERCE", f"{kind!r} is not an option type")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            too_deep = depth >= 2 or (kind == SUB_COMMAND_GROUP and depth >= 1)
            if too_deep:
                errors.add((*here, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Nesting")
            errors.extend(
                _check_options((*here, "options"), option.get("options") or [], depth + 1)
            )
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(
                    (*here, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        _check_string_lengths(errors, here, option)
        choices = option.get("choices") or []
        errors.extend(_check_choices((*here, "choices"), choices))
        if choices and option.get("autocomplete"):
            errors.add(
                (*here, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID",
                "Autocomplete cannot be set with choices",
            )
    return errors
