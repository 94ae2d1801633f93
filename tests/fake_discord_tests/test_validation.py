"""The pure checks behind the fake's 400s, mention analysis and command visibility."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fake_discord.commands import refusal
from tests.fake_discord.mentions import is_silent, pings
from tests.fake_discord.models import ADMINISTRATOR, ALL_PERMISSIONS, MANAGE_GUILD, VIEW_CHANNEL
from tests.fake_discord.validation import (
    FieldError,
    check_autocomplete_result,
    check_command,
    check_commands,
    check_message,
    check_modal,
    form_errors,
    is_empty_message,
)
from tests.fake_discord.world import World

JSON = dict[str, Any]


def codes(errors: list[FieldError]) -> set[tuple[str, str]]:
    return {(".".join(map(str, e.path)), e.code) for e in errors}


def button(custom_id: str, label: str = "go", **extra: Any) -> JSON:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label, **extra}


def row(*components: JSON) -> JSON:
    return {"type": 1, "components": list(components)}


def select(custom_id: str, n_options: int, **extra: Any) -> JSON:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n_options)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


@pytest.mark.parametrize(
    ("embed", "where"),
    [
        ({"title": "t" * 257}, "embeds.0.title"),
        ({"description": "d" * 4097}, "embeds.0.description"),
        ({"footer": {"text": "f" * 2049}}, "embeds.0.footer.text"),
        ({"author": {"name": "a" * 257}}, "embeds.0.author.name"),
        ({"fields": [{"name": "n", "value": "v"}] * 26}, "embeds.0.fields"),
        ({"fields": [{"name": "n" * 257, "value": "v"}]}, "embeds.0.fields.0.name"),
        ({"fields": [{"name": "n", "value": "v" * 1025}]}, "embeds.0.fields.0.value"),
    ],
)
def test_embed_limits(embed: JSON, where: str) -> None:
    assert (where, "BASE_TYPE_MAX_LENGTH") in codes(check_message({"embeds": [embed]}))


def test_embed_limits_at_the_boundary_pass() -> None:
    embed = {
        "title": "t" * 256,
        "description": "d" * 1000,
        "fields": [{"name": "n" * 256, "value": "v" * 1024}] * 3,
        "footer": {"text": "f" * 100},
        "author": {"name": "a" * 256},
    }
    assert check_message({"content": "c" * 2000, "embeds": [embed]}) == []


def test_embed_total_and_count_and_content() -> None:
    two = [{"description": "d" * 3001}, {"description": "d" * 3000}]
    assert ("embeds", "MAX_EMBED_SIZE_EXCEEDED") in codes(check_message({"embeds": two}))
    assert ("embeds", "BASE_TYPE_MAX_LENGTH") in codes(check_message({"embeds": [{}] * 11}))
    assert ("content", "BASE_TYPE_MAX_LENGTH") in codes(check_message({"content": "x" * 2001}))
    assert ("embeds.0.fields.0.name", "BASE_TYPE_REQUIRED") in codes(
        check_message({"embeds": [{"fields": [{"name": "", "value": "v"}]}]})
    )


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("steam://rungameid/730", "URL_TYPE_INVALID_SCHEME"),
        ("", "URL_TYPE_INVALID_SCHEME"),
        ("https://example.org:abc/page", "URL_TYPE_INVALID_URL"),
        ("https://[oops/page", "URL_TYPE_INVALID_URL"),
        ("http://localhost:8080/page", "URL_TYPE_INVALID_URL"),
        ("https://example.org/a b", "URL_TYPE_INVALID_URL"),
        ("https://example.org/page", None),
        ("HTTPS://[::1]:8443/page", None),
        ("http://192.168.1.2/x?q=1#y", None),
        ("https://example.org/" + "a" * 2028, None),
        ("https://example.org/" + "a" * 2029, "BASE_TYPE_MAX_LENGTH"),
        # the spec's `format: uri`: ASCII only, an IRI's host in punycode, the rest %-encoded
        ("https://bücher.example/page", "URL_TYPE_INVALID_URL"),
        ("https://example.org/Übersetzung", "URL_TYPE_INVALID_URL"),
        ("https://xn--bcher-kva.example/%C3%9Cbersetzung", None),
    ],
)
def test_an_embeds_link(url: str, code: str | None) -> None:
    found = codes(check_message({"embeds": [{"title": "t", "url": url}]}))
    assert found == ({("embeds.0.url", code)} if code else set())


def test_empty_message() -> None:
    assert is_empty_message({"content": "", "embeds": []})
    assert not is_empty_message({"content": "x"})
    assert not is_empty_message({}, has_files=True)


@pytest.mark.parametrize(
    ("components", "where", "code"),
    [
        ([row(button("a"))] * 6, "components", "BASE_TYPE_MAX_LENGTH"),
        (
            [row(*[button(f"b{i}") for i in range(6)])],
            "components.0.components",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
        (
            [row(button("a"), select("s", 2))],
            "components.0.components",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
        ([row(button("c" * 101))], "components.0.components.0.custom_id", "BASE_TYPE_MAX_LENGTH"),
        ([row(button("a", "l" * 81))], "components.0.components.0.label", "BASE_TYPE_MAX_LENGTH"),
        ([row(select("s", 26))], "components.0.components.0.options", "BASE_TYPE_MAX_LENGTH"),
        (
            [row(button("a"), button("a"))],
            "components.0.components.1.custom_id",
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        (
            [row({"type": 2, "style": 5, "label": "docs", "custom_id": "x", "url": "https://x"})],
            "components.0.components.0.custom_id",
            "BUTTON_COMPONENT_CUSTOM_ID_INVALID",
        ),
        (
            [row({"type": 2, "style": 5, "label": "docs"})],
            "components.0.components.0.url",
            "BUTTON_COMPONENT_URL_REQUIRED",
        ),
        (
            [row({"type": 2, "style": 1, "label": "x"})],
            "components.0.components.0.custom_id",
            "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED",
        ),
    ],
)
def test_component_limits(components: list[JSON], where: str, code: str) -> None:
    assert (where, code) in codes(check_message({"components": components}))


def test_select_option_text_limits() -> None:
    menu = select("s", 1)
    menu["options"][0].update(label="l" * 101, value="v" * 101, description="d" * 101)
    found = codes(check_message({"components": [row(menu)]}))
    for field in ("label", "value", "description"):
        assert (f"components.0.components.0.options.0.{field}", "BASE_TYPE_MAX_LENGTH") in found


def test_a_full_valid_layout_passes() -> None:
    rows = [row(*[button(f"r{r}b{b}") for b in range(5)]) for r in range(4)]
    rows.append(row(select("s", 25)))
    assert check_message({"components": rows}) == []


def test_autocomplete_result_limits() -> None:
    many = [{"name": f"n{i}", "value": f"v{i}"} for i in range(26)]
    assert ("data.choices", "BASE_TYPE_MAX_LENGTH") in codes(
        check_autocomplete_result({"choices": many})
    )
    bad = [
        {"name": "", "value": "v"},
        {"name": "n" * 101, "value": "v"},
        {"name": "n", "value": "v" * 101},
    ]
    found = codes(check_autocomplete_result({"choices": bad}))
    assert {
        ("data.choices.0.name", "BASE_TYPE_BAD_LENGTH"),
        ("data.choices.1.name", "BASE_TYPE_BAD_LENGTH"),
        ("data.choices.2.value", "BASE_TYPE_MAX_LENGTH"),
    } <= found
    assert check_autocomplete_result({"choices": many[:25]}) == []


def text_input(custom_id: str = "note", **overrides: Any) -> JSON:
    return {"type": 4, "custom_id": custom_id, "label": "Note", "style": 1, **overrides}


def modal(*components: JSON, **overrides: Any) -> JSON:
    return {
        "title": "Add a term",
        "custom_id": "term:add",
        "components": list(components),
        **overrides,
    }


def bad_input(case: str, code: str, field: str | None = None, **overrides: Any) -> Any:
    """A modal whose one text input has ``overrides``; the error is on ``field`` (by default
    the one overridden) of that input."""
    where = field or next(iter(overrides))
    data = modal(row(text_input(**overrides)))
    return pytest.param(data, f"data.components.0.components.0.{where}", code, id=case)


def bad_modal(case: str, data: JSON, where: str, code: str) -> Any:
    return pytest.param(data, where, code, id=case)


LENGTH = "BASE_TYPE_BAD_LENGTH"
TOO_LONG = "BASE_TYPE_MAX_LENGTH"
OUT_OF_RANGE = "NUMBER_TYPE_MAX"
ONE_INPUT = row(text_input())

# Modal bodies Discord refuses: (data, error path, error code), with an id.
MODAL_CASES = [
    bad_modal("title-too-long", modal(ONE_INPUT, title="t" * 46), "data.title", LENGTH),
    bad_modal("title-empty", modal(ONE_INPUT, title=""), "data.title", LENGTH),
    bad_modal(
        "custom-id-too-long", modal(ONE_INPUT, custom_id="c" * 101), "data.custom_id", LENGTH
    ),
    bad_modal("no-components", modal(), "data.components", LENGTH),
    bad_modal(
        "six-inputs",
        modal(*[row(text_input(f"t{i}")) for i in range(6)]),
        "data.components",
        LENGTH,
    ),
    bad_modal(
        "two-inputs-in-a-row",
        modal(row(text_input("a"), text_input("b"))),
        "data.components.0.components",
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    ),
    bad_modal(
        "input-outside-a-row", modal(text_input()), "data.components.0.type", "UNION_TYPE_CHOICES"
    ),
    bad_modal(
        "label-missing",
        modal(row({"type": 4, "custom_id": "x", "style": 1})),
        "data.components.0.components.0.label",
        LENGTH,
    ),
    bad_modal(
        "duplicate-custom-id",
        modal(row(text_input("same")), row(text_input("same"))),
        "data.components.1.components.0.custom_id",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    bad_modal(
        "label-component-label-too-long",
        modal({"type": 18, "label": "l" * 46, "component": text_input()}),
        "data.components.0.label",
        LENGTH,
    ),
    bad_input("label-too-long", LENGTH, label="l" * 46),
    bad_input("style-3", "ENUM_TYPE_COERCE", style=3),
    bad_input("max-length-over-4000", OUT_OF_RANGE, max_length=4001),
    bad_input("max-length-0", OUT_OF_RANGE, max_length=0),
    bad_input("min-length-negative", OUT_OF_RANGE, min_length=-1),
    bad_input(
        "min-over-max", "TEXT_INPUT_MIN_LENGTH_INVALID", "min_length", min_length=10, max_length=5
    ),
    bad_input("value-over-4000", TOO_LONG, value="v" * 4001),
    bad_input("placeholder-over-100", TOO_LONG, placeholder="p" * 101),
    bad_input("required-not-bool", "BASE_TYPE_BAD_TYPE", required="yes"),
]


@pytest.mark.parametrize(("data", "where", "code"), MODAL_CASES)
def test_modal_limits(data: JSON, where: str, code: str) -> None:
    assert (where, code) in codes(check_modal(data))


def test_modals_at_the_limits_pass() -> None:
    five = [
        row(text_input(f"t{i}", label="l" * 45, style=2, min_length=0, max_length=4000))
        for i in range(5)
    ]
    assert check_modal(modal(*five, title="t" * 45, custom_id="c" * 100)) == []
    filled = text_input(value="v" * 4000, placeholder="p" * 100, required=False, min_length=4000)
    assert check_modal(modal(row(filled))) == []
    # In a Label (discord.py 2.6+ with TextInput inside discord.ui.Label) the label is the Label's.
    unlabelled = {"type": 4, "custom_id": "x", "style": 1}
    labelled = {"type": 18, "label": "Definition", "component": unlabelled}
    assert check_modal(modal(labelled, {"type": 10, "content": "Say what it is"})) == []


def command(**overrides: Any) -> JSON:
    return {"name": "define", "description": "Define a term", "type": 1, "options": [], **overrides}


def option(name: str, *, required: bool = False, **extra: Any) -> JSON:
    return {"type": 3, "name": name, "description": name, "required": required, **extra}


@pytest.mark.parametrize(
    ("cmd", "where", "code"),
    [
        (command(name="Define"), "name", "APPLICATION_COMMAND_INVALID_NAME"),
        (command(name="two words"), "name", "APPLICATION_COMMAND_INVALID_NAME"),
        (command(name="x" * 33), "name", "APPLICATION_COMMAND_INVALID_NAME"),
        (command(description=""), "description", "BASE_TYPE_BAD_LENGTH"),
        (command(description="d" * 101), "description", "BASE_TYPE_BAD_LENGTH"),
        (command(options=[option(f"o{i}") for i in range(26)]), "options", "BASE_TYPE_MAX_LENGTH"),
        (
            command(options=[option("a"), option("b", required=True)]),
            "options.1.required",
            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        ),
        (
            command(
                options=[
                    option("a", choices=[{"name": f"c{i}", "value": f"{i}"} for i in range(26)])
                ]
            ),
            "options.0.choices",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"name": "Define this", "description": "no", "type": 3},
            "description",
            "APPLICATION_COMMAND_DESCRIPTION_INVALID",
        ),
        # product72: a string option's declared lengths (the OpenAPI spec's bounds)
        (
            command(options=[option("a", max_length=6001)]),
            "options.0.max_length",
            "NUMBER_TYPE_MAX",
        ),
        (command(options=[option("a", max_length=0)]), "options.0.max_length", "NUMBER_TYPE_MAX"),
        (command(options=[option("a", min_length=-1)]), "options.0.min_length", "NUMBER_TYPE_MAX"),
        (
            command(options=[option("a", min_length=5, max_length=4)]),
            "options.0.min_length",
            "APPLICATION_COMMAND_OPTION_LENGTH_INVALID",
        ),
    ],
)
def test_command_registration_limits(cmd: JSON, where: str, code: str) -> None:
    assert (where, code) in codes(check_command(cmd))


def test_valid_commands_pass_and_duplicates_do_not() -> None:
    good = [
        command(name="kv-cache_2", options=[option("a", required=True), option("b")]),
        {"name": "Define this", "type": 3, "description": ""},
        command(name="café"),  # \\w is Unicode
    ]
    assert check_commands(good) == []
    assert ("1.name", "APPLICATION_COMMANDS_DUPLICATE_NAME") in codes(
        check_commands([command(), command()])
    )


def test_form_errors_nest_like_discord() -> None:
    errors = check_message({"embeds": [{"title": "t" * 300}]})
    assert form_errors(errors) == {
        "embeds": {
            "0": {
                "title": {
                    "_errors": [
                        {
                            "code": "BASE_TYPE_MAX_LENGTH",
                            "message": "Must be 256 or fewer in length.",
                        }
                    ]
                }
            }
        }
    }


def test_pings_follow_allowed_mentions() -> None:
    bot = 1
    assert pings({"content": "@everyone"}, replied_author_id=None, bot_id=bot) == ["@everyone"]
    assert (
        pings(
            {"content": "@here <@2> <@&3>", "allowed_mentions": {"parse": []}},
            replied_author_id=None,
            bot_id=bot,
        )
        == []
    )
    assert pings(
        {"content": "<@2> <@5>", "allowed_mentions": {"parse": [], "users": ["5"]}},
        replied_author_id=None,
        bot_id=bot,
    ) == ["user 5"]
    assert pings({"content": "hi"}, replied_author_id=7, bot_id=bot) == ["reply to user 7"]
    assert (
        pings({"content": "hi", "allowed_mentions": {"parse": []}}, replied_author_id=7, bot_id=bot)
        == []
    )
    assert is_silent({"parse": [], "replied_user": False})
    assert not is_silent(None)
    assert not is_silent({"parse": ["users"]})


def test_command_visibility() -> None:
    mod_only = {"default_member_permissions": str(MANAGE_GUILD), "dm_permission": False}
    assert refusal(mod_only, permissions=0) is not None
    assert refusal(mod_only, permissions=MANAGE_GUILD) is None
    assert refusal(mod_only, permissions=ALL_PERMISSIONS) is None  # admins and the owner
    assert refusal(mod_only, permissions=None) == "command is not allowed in DMs"
    admins = {"default_member_permissions": "0"}
    assert refusal(admins, permissions=MANAGE_GUILD) is not None
    assert refusal({"guild_id": "1"}, permissions=None) is not None
    assert refusal({}, permissions=0) is None


def test_member_permissions_come_from_roles() -> None:
    world = World(bot_name="bot")
    owner, plain, admin = (world.add_user(n) for n in ("owner", "plain", "admin"))
    guild = world.add_guild(owner=owner, everyone_permissions=VIEW_CHANNEL)
    guild.add_member(plain)
    guild.add_member(admin, roles=[guild.add_role("Admins", permissions=ADMINISTRATOR)])
    assert guild.permissions_of(plain.id) == VIEW_CHANNEL
    assert guild.permissions_of(admin.id) == ALL_PERMISSIONS
    assert guild.permissions_of(owner.id) == ALL_PERMISSIONS
