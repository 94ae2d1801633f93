"""A sweep of every command (tests/outsider/PLAN.md, "A sweep of every command (sweep45)").

The command tree is read from what the running bot registered with the fake Discord (global and
server commands, subcommands, context menus), so a command added later is swept too. Each leaf
command is sent with each of its options set, one at a time, to hostile values, as a moderator
and as a member, in a server and in a DM, through the real discord.py client. What a user must
get, each time: an answer within Discord's 3 s (the fake refuses a later one), at most Discord's
lengths (the fake checks them), a private answer wherever it is not a card, no "Something went
wrong" error id, no traceback logged, no message that would ping (the fake flags it).

What a client can send: Discord's client keeps a string within its option's
``min_length``/``max_length`` (0..6,000 without them), a number within ``min_value``/
``max_value``, a value with ``choices`` among them; the fake refuses the rest as the client does
(``interactions._convert``). Those values (past a length, outside the choices) still come from a
client whose commands are out of date or a hand-made one, so they are sent raw
(``raw_interaction``) and held to the same answers. Autocomplete options take any text: a value
that names nothing (an autocomplete pick since removed) is an ordinary string.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import resource
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.cli import build_parser, main
from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.moderators import KEPT
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.term_commands import TERM, add_term, open_edit
from tests.fake_discord import FakeChannel, FakeUser, InteractionHandle
from tests.fake_discord.attachments import FakeAttachment
from tests.fake_discord.interactions import (
    ATTACHMENT,
    BOOLEAN,
    INTEGER,
    NUMBER,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    Resolved,
    base_payload,
)
from tests.fake_discord.models import GUILD_VOICE
from tests.fake_discord.validation import TEXT_INPUT

from .conftest import Scene

JSON = dict[str, Any]
ROOT = Path(__file__).resolve().parents[2]
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
APPLICATION_COMMAND, AUTOCOMPLETE = 2, 4
MODAL, AUTOCOMPLETE_RESULT, DEFERRED_UPDATE = 9, 8, 6
ERROR_ID = "error id"
STRING_MAX = 6000  # Discord's longest string option
# Seconds the sweep waits for an answer: a bound on a hang only, not a speed check. Discord's 3 s
# for the first response is the fake's to hold the bot to (a late one is refused and recorded);
# what follows a defer may take as long as the machine's load makes it (flake63: a 10 s wait
# here failed under other jobs' load).
HANG = 60


@dataclass
class Case:
    """One hostile value for one option of one command."""

    label: str
    value: Any
    raw: bool = False  # a value the client would not send: sent as a raw interaction


@dataclass
class Leaf:
    """A command as a user invokes it: its name words and its options' schema."""

    command: JSON
    path: list[str]
    options: list[JSON]

    @property
    def name(self) -> str:
        return " ".join([self.command["name"], *self.path])


@dataclass
class Findings:
    faults: list[str] = field(default_factory=list)
    sent: int = 0
    refused_by_discord: int = 0

    def fault(self, where: str, what: str) -> None:
        self.faults.append(f"{where}: {what}")


def leaves(command: JSON) -> Iterator[Leaf]:
    def walk(path: list[str], options: list[JSON]) -> Iterator[Leaf]:
        subs = [o for o in options if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if not subs:
            yield Leaf(command, path, options)
        for sub in subs:
            yield from walk([*path, sub["name"]], sub.get("options") or [])

    yield from walk([], command.get("options") or [])


def string_cases(option: JSON, scene: Scene) -> list[Case]:
    low = option.get("min_length", 0)
    high = option.get("max_length", STRING_MAX)
    mentions = (
        f"@everyone @here <@{scene.alice.id}> <@!{scene.bob.id}> "
        f"<@&{list(scene.guild.roles)[-1]}> <#{scene.channel.id}>"
    )
    texts = [
        ("empty", ""),
        ("whitespace", " \t \u3000 "),
        ("longest", ("kv cache " * STRING_MAX)[:high]),
        ("one past the longest", "x" * (high + 1)),
        ("zalgo", "k\u0338\u0322\u031bv\u0334\u0353 c\u0337a\u0338c\u0335h\u0336e\u0335" * 20),
        ("NUL and control characters", "kv\x00cache\x07\x1b[31m\x7f\r"),
        ("RTL override", "\u202ekv cache\u202c\u2067x\u2069"),
        ("mentions", mentions),
        ("Markdown", "**kv** `cache` [x](https://example.com) ||s|| # h\n> q\n```py\nx\n```"),
        ("a stale autocomplete value", "zorblax-removed-term"),
        ("lone surrogate-like", "kv \ufffd\ufeff\u200b\u2028cache"),
    ]
    cases = []
    for label, text in texts:
        raw = not low <= len(text) <= high or bool(option.get("choices"))
        cases.append(Case(label, text, raw=raw))
    if option.get("choices"):
        cases.append(Case("a value not among the choices", "Not A Choice", raw=True))
    return cases


def number_cases(option: JSON) -> list[Case]:
    cases = [Case("zero", 0), Case("negative", -1), Case("huge", 2**53)]
    for bound, step in (("min_value", -1), ("max_value", 1)):
        if option.get(bound) is not None:
            edge = option[bound]
            cases += [Case(f"{bound}", edge), Case(f"{bound} {step:+d}", edge + step, raw=True)]
    return [Case(c.label, c.value, raw=c.raw or bool(option.get("choices"))) for c in cases]


def attachment_cases(scene: Scene) -> list[Case]:
    fake = scene.fake
    files = [
        ("empty", fake.add_attachment("terms.toml", b"")),
        ("an image", fake.add_attachment("terms.png", b"\x89PNG\r\n\x1a\n" + bytes(2000))),
        ("binary named .toml", fake.add_attachment("terms.toml", bytes(range(256)) * 40)),
        ("25 MB", fake.add_attachment("terms.toml", size=25 * 1024 * 1024)),
        ("NUL in a TOML", fake.add_attachment("terms.toml", b'title = "a\x00b"\n')),
        ("a path for a name", fake.add_attachment("../../etc/terms.toml", b"[x]\n")),
        ("mentions in its name", fake.add_attachment("@everyone <@&1>.toml", b"[x]\n")),
        (
            "a name with control characters",
            fake.add_attachment("t\u202eerms\x07.toml", b"[x]\n"),
        ),
    ]
    return [Case(label, attachment) for label, attachment in files]


def cases_for(option: JSON, scene: Scene) -> list[Case]:
    kind = option["type"]
    if kind == STRING:
        return string_cases(option, scene)
    if kind in (INTEGER, NUMBER):
        return number_cases(option)
    if kind == BOOLEAN:
        return [Case("true", True), Case("false", False)]
    if kind == ATTACHMENT:
        return attachment_cases(scene)
    raise AssertionError(f"option type {kind} ({option['name']}) has no hostile values yet")


def sane_value(option: JSON, scene: Scene) -> Any:
    """A value a user would give a required option while another option is swept."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    kind = option["type"]
    if kind == STRING:
        return "kv cache"
    if kind in (INTEGER, NUMBER):
        return option.get("min_value") or 1
    if kind == BOOLEAN:
        return True
    if kind == ATTACHMENT:
        return scene.fake.add_attachment("terms.toml", b"")
    raise AssertionError(f"option type {kind} ({option['name']}) has no sane value yet")


def raw_data(leaf: Leaf, options: Mapping[str, Any], resolved: Resolved) -> JSON:
    """``data`` as a client past the fake's checks sends it (no length, range or choice check)."""
    given = []
    for option in leaf.options:
        if option["name"] not in options:
            continue
        value = options[option["name"]]
        if isinstance(value, FakeAttachment):
            value = resolved.attachment(value)
        given.append({"name": option["name"], "type": option["type"], "value": value})
    nested = given
    for part in reversed(leaf.path):
        nested = [{"name": part, "type": SUB_COMMAND, "options": nested}]
    data: JSON = {
        "id": leaf.command["id"],
        "name": leaf.command["name"],
        "type": CHAT_INPUT,
        "options": nested,
    }
    if "guild_id" in leaf.command:
        data["guild_id"] = leaf.command["guild_id"]
    if resolved.data:
        data["resolved"] = resolved.data
    return data


class Sweep:
    def __init__(self, scene: Scene, caplog: pytest.LogCaptureFixture) -> None:
        self.scene = scene
        self.fake = scene.fake
        self.caplog = caplog
        self.findings = Findings()
        self.forms_swept: set[str] = set()
        self.forms_sent = 0
        self.forms_opened: list[str] = []
        self.forms_cut: list[str] = []  # the form did not open again (a suggestion queued)
        self.refusals_sent: set[str] = set()
        # Every answer with buttons or menus, by message id: pressed once the commands are done.
        self.pressable: dict[int, tuple[str, JSON]] = {}
        self.presses = 0

    def tree(self) -> list[JSON]:
        fake = self.fake
        return fake.commands() + fake.commands(self.scene.guild.id)

    async def sweep(self, user: FakeUser, channel: FakeChannel) -> Findings:
        for command in self.tree():
            if command["type"] == CHAT_INPUT:
                for leaf in leaves(command):
                    await self.sweep_leaf(leaf, user, channel)
            elif command["type"] == MESSAGE_COMMAND:
                await self.sweep_message_command(command, user, channel)
            elif command["type"] == USER_COMMAND:
                for target in (user, self.scene.bob, self.fake.bot):
                    handle = await self.fake.user_command(
                        user, command["name"], target, channel=channel
                    )
                    await self.check(f"{command['name']} on {target.username}", handle)
        await self.press_everything(user, channel)
        # The terms the forms saved (hostile definitions, boundaries, names) as cards.
        for n in range(1, self.forms_sent + 1):
            handle = await self.fake.slash(
                user, "define", {"term": f"Sweepterm {n}"}, channel=channel
            )
            await self.check(f"/define Sweepterm {n} (saved by a form)", handle)
        return self.findings

    async def sweep_leaf(self, leaf: Leaf, user: FakeUser, channel: FakeChannel) -> None:
        baseline = {
            o["name"]: await self.picked(leaf, o, user, channel)
            for o in leaf.options
            if o.get("required") or o.get("choices")  # a user picks a category
        }
        # First as a user sends it with only what it requires: a form it opens is swept then.
        await self.send(leaf, baseline, Case("only what it requires", None), user, channel)
        for option in leaf.options:
            for case in cases_for(option, self.scene):
                options = {**baseline, option["name"]: case.value}
                if case.raw:  # one value past what a client sends at a time
                    options = {
                        **{k: v for k, v in baseline.items() if k != option["name"]},
                        option["name"]: case.value,
                    }
                await self.send(leaf, options, case, user, channel, swept=option["name"])
                if option.get("autocomplete") and isinstance(case.value, str):
                    await self.typed(leaf, option["name"], case, user, channel)

    def twin(self, user: FakeUser, channel: FakeChannel) -> FakeUser:
        guild = self.fake.world.guild_of(channel)
        if guild is None:
            return user
        twin = self.fake.add_user(f"{user.username}-{self.forms_sent}")
        roles = [guild.roles[r] for r in guild.members[user.id].role_ids]
        guild.add_member(twin, roles=roles)
        return twin

    async def picked(self, leaf: Leaf, option: JSON, user: FakeUser, channel: FakeChannel) -> Any:
        """A required option's value while another is swept: the first autocomplete choice for
        "zorb" (the server's term), else a plain value."""
        if option.get("autocomplete"):
            typed = await self.fake.autocomplete(
                user, leaf.name, {option["name"]: "zorb"}, focused=option["name"], channel=channel
            )
            if not typed.refused and (choices := await typed.choices()):
                return choices[0]["value"]
        return sane_value(option, self.scene)

    async def send(
        self,
        leaf: Leaf,
        options: Mapping[str, Any],
        case: Case,
        user: FakeUser,
        channel: FakeChannel,
        swept: str = "",
    ) -> None:
        where = f"/{leaf.name} {swept}={case.label}" + (" (raw)" if case.raw else "")
        if not case.raw:
            handle = await self.fake.slash(user, leaf.name, options, channel=channel)
            if handle.refused:
                self.findings.refused_by_discord += 1
                if leaf.name in self.refusals_sent:
                    return
                # Discord would not send it (permissions, a DM): sent raw once, as a client
                # whose commands are out of date might, for the bot's own refusal.
                self.refusals_sent.add(leaf.name)
                where += " (refused by Discord, sent raw)"
                case = Case(case.label, case.value, raw=True)
        if case.raw:
            guild = self.fake.world.guild_of(channel)
            resolved = Resolved(self.fake.world, guild)
            payload = base_payload(
                self.fake.world,
                kind=APPLICATION_COMMAND,
                data=raw_data(leaf, options, resolved),
                user=user,
                channel=channel,
            )
            handle = await self.fake.raw_interaction(payload)
        await self.check(where, handle)
        if handle.callback is not None and handle.callback.get("type") == MODAL:
            self.forms_opened.append(where)
            if not case.raw and leaf.name not in self.forms_swept:
                self.forms_swept.add(leaf.name)
                await self.sweep_form(where, leaf, options, user, channel, handle)

    async def sweep_form(
        self,
        where: str,
        leaf: Leaf,
        options: Mapping[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        opened: InteractionHandle,
    ) -> None:
        """The form the command opened, each text input in turn set to a hostile value (within
        the input's lengths: Discord's client keeps to them), the form opened anew each time."""
        assert opened.callback is not None
        inputs = text_inputs(opened.callback["data"])
        for text_input in inputs:
            low, high = text_input.get("min_length") or 0, text_input.get("max_length") or 4000
            for case in string_cases({"min_length": low, "max_length": high}, self.scene):
                if case.raw or (not case.value and text_input.get("required", True)):
                    continue
                value = case.value
                if text_input.get("style") == SHORT:
                    value = " ".join(value.splitlines())  # one line: the client takes no breaks
                self.forms_sent += 1
                values = {
                    other["custom_id"]: fill(other, self.forms_sent)
                    for other in inputs
                    if other is not text_input
                }
                values[text_input["custom_id"]] = value
                # Each form by a new member of the same roles: /suggest takes one a member
                # every 10 minutes, and a refusal of that would hide the value's answer.
                twin = self.twin(user, channel)
                again = await self.fake.slash(twin, leaf.name, options, channel=channel)
                if (await again.response())["type"] != MODAL:
                    await self.check(f"{where}, opened again", again)
                    self.forms_cut.append(f"{where}, {text_input['custom_id']}={case.label}")
                    return
                submitted = await self.fake.submit_modal(twin, again, values)
                await self.check(f"{where}, form {text_input['custom_id']}={case.label}", submitted)

    async def typed(
        self, leaf: Leaf, name: str, case: Case, user: FakeUser, channel: FakeChannel
    ) -> None:
        """The same text typed into an autocomplete option: choices within 3 s."""
        if len(case.value) > STRING_MAX:
            return  # the client stops the typing there
        handle = await self.fake.autocomplete(
            user, leaf.name, {name: case.value}, focused=name, channel=channel
        )
        if handle.refused:
            return
        await self.check(f"/{leaf.name} {name}={case.label} (typing)", handle)

    async def sweep_message_command(
        self, command: JSON, user: FakeUser, channel: FakeChannel
    ) -> None:
        scene = self.scene
        author = scene.bob if not channel.is_dm else user
        texts = [c for c in string_cases({"max_length": 2000}, scene) if not c.raw]
        for case in texts:
            if not case.value:
                continue  # a message without content: its embed case below
            message = await self.fake.user_message(author, channel, case.value)
            handle = await self.fake.message_command(user, command["name"], message)
            await self.check(f"{command['name']} on {case.label}", handle)
        embed_only = await self.fake.user_message(
            author, channel, "", embeds=[{"title": "@everyone", "description": "x" * 4096}]
        )
        handle = await self.fake.message_command(user, command["name"], embed_only)
        await self.check(f"{command['name']} on an embed only", handle)

    async def press_everything(self, user: FakeUser, channel: FakeChannel) -> None:
        """Each button and menu on the answers (the first time its custom id is seen), as the
        user it answered and, on a public message, as another member: what a press answers is
        held to the same rules. Pressed in the order the answers came, once: what a press
        answers is not pressed again."""
        pressed: set[str] = set()
        others = [] if channel.is_dm else [self.scene.bob]
        for where, message in list(self.pressable.values()):
            for component in pressables(message):
                custom_id = component["custom_id"]
                if custom_id in pressed:
                    continue
                pressed.add(custom_id)
                label = component.get("label") or custom_id
                for presser in [user, *([] if is_ephemeral(message) else others)]:
                    current = self.fake.store.snapshot(int(message["id"]))
                    if not any(c["custom_id"] == custom_id for c in pressables(current)):
                        break  # an earlier press changed the message: the control is gone
                    if component["type"] == STRING_SELECT_TYPE:
                        values = [component["options"][0]["value"]]
                        handle = await self.fake.select(presser, current, custom_id, values)
                    else:
                        handle = await self.fake.click(presser, current, custom_id)
                    self.presses += 1
                    await self.check(f"{where}: {label!r} pressed by {presser.username}", handle)

    async def check(self, where: str, handle: InteractionHandle) -> None:
        """What the user got for ``handle``, held to the sweep's rules."""
        found = self.findings
        found.sent += 1
        if handle.refused:
            found.refused_by_discord += 1
            return
        try:
            async with asyncio.timeout(HANG):
                body = await handle.response()
                if body["type"] not in (MODAL, AUTOCOMPLETE_RESULT, DEFERRED_UPDATE):
                    message = await handle.final_message()
                    self.check_message(where, message)
                    self.pressable.setdefault(int(message["id"]), (where, message))
        except TimeoutError:
            found.fault(where, f"no answer ({handle._state()})")
        for violation in self.fake.pop_violations():
            found.fault(where, f"the fake recorded {violation}")
        for record in self.caplog.records:
            if record.exc_info or record.levelno >= logging.ERROR:
                found.fault(where, f"logged {record.levelname}: {record.getMessage()[:300]}")
        self.caplog.clear()

    def check_message(self, where: str, message: JSON) -> None:
        texts = [str(message.get("content") or "")]
        for embed in message.get("embeds") or []:
            texts += [str(embed.get("title", "")), str(embed.get("description", ""))]
            texts += [str(f.get("value", "")) for f in embed.get("fields", [])]
        if any(ERROR_ID in text or "Something went wrong" in text for text in texts):
            self.findings.fault(where, f"answered {message.get('content')!r}")
        if (
            not is_ephemeral(message)
            and not message.get("embeds")
            and not message.get("components")
        ):
            # Public: a card, or /define's "Did you mean" (its choices' buttons); never a refusal.
            self.findings.fault(where, f"a public answer that is no card: {texts[0][:200]!r}")


SHORT = 1  # a single-line text input


def text_inputs(modal: JSON) -> list[JSON]:
    found: list[JSON] = []
    stack = list(reversed(modal.get("components") or []))
    while stack:
        item = stack.pop()
        if item.get("type") == TEXT_INPUT:
            found.append(item)
        children = list(item.get("components") or [])
        if isinstance(item.get("component"), dict):
            children.append(item["component"])
        stack.extend(reversed(children))
    return found


BUTTON_TYPE, STRING_SELECT_TYPE, LINK = 2, 3, 5


def pressables(message: JSON) -> list[JSON]:
    """The buttons (not links) and string menus a user can use on ``message``, at any depth."""
    found: list[JSON] = []
    stack = list(reversed(message.get("components") or []))
    while stack:
        item = stack.pop()
        usable = not item.get("disabled") and "custom_id" in item
        if (usable and item.get("type") == BUTTON_TYPE and item.get("style") != LINK) or (
            usable and item.get("type") == STRING_SELECT_TYPE and item.get("options")
        ):
            found.append(item)
        children = list(item.get("components") or [])
        for key in ("component", "accessory"):
            if isinstance(item.get(key), dict):
                children.append(item[key])
        stack.extend(reversed(children))
    return found


def fill(text_input: JSON, n: int) -> str:
    """What a user leaves in, or types into, an input not swept: its prefilled text, or a
    name of its own for each form (a title taken by an earlier form would refuse the rest)."""
    if text_input.get("value"):
        return str(text_input["value"])
    if not text_input.get("required", True):
        return ""
    return f"Sweepterm {n}"[: text_input.get("max_length") or 4000]


def summary(findings: Findings) -> str:
    lines = "\n  ".join(findings.faults)
    return f"{len(findings.faults)} fault(s) in {findings.sent} interactions:\n  {lines}"


@pytest.mark.parametrize("who", ["moderator", "member"])
@pytest.mark.parametrize("place", ["server", "DM", "thread", "voice chat"])
async def test_every_command_and_option_with_hostile_values(
    scene: Scene,
    bot: GlossaryBot,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    who: str,
    place: str,
) -> None:
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr(scene.fake, "wait_timeout", HANG)  # the fake's waits too: hangs only
    user = scene.moderator if who == "moderator" else scene.alice
    channel = {
        "server": lambda: scene.channel,
        "DM": lambda: scene.fake.dm_channel(user),
        # Made after the bot started: channels it never heard of, as on a busy server.
        "thread": lambda: scene.guild.add_thread(scene.channel, "new thread", scene.bob),
        "voice chat": lambda: scene.guild.add_channel("Lounge", GUILD_VOICE),
    }[place]()
    # Each settle spends one of the bot's gateway sends (discord.py allows 110 a minute); the
    # sweep waits for each answer before it sends the next instead.
    scene.fake.settle_before_actions = False
    await add_term(scene)  # Zorblax, for the commands that take a server term
    caplog.clear()
    sweep = Sweep(scene, caplog)
    found = await sweep.sweep(user, channel)
    # The forms of /term add, /term edit and /suggest, each input in turn.
    assert sweep.forms_swept >= ({"suggest"} if place != "DM" else set()), sweep.forms_swept
    assert not sweep.forms_cut, sweep.forms_cut
    assert sweep.presses > 0, "no answer had a button or menu to press"
    assert found.sent > 100, found  # the tree was read, its options swept
    assert not found.faults, summary(found)


# --- faults the sweep found, each with its own test ------------------------------------------


async def test_a_refused_form_with_a_long_related_name_is_answered_within_discords_length(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A related name of 4,000 characters (the input's longest) made the refusal's text, fitted
    to 2,000 characters, 2,000 plus the "Your text is kept" line: Discord refused it and the
    moderator got "Something went wrong"."""
    await add_term(scene)
    opened = await open_edit(scene, scene.moderator, "zorblax")
    submitted = await scene.fake.submit_modal(
        scene.moderator, opened, {"related": ("kv cache " * 500)[:4000]}
    )
    answer = await submitted.final_message()
    assert is_ephemeral(answer), answer
    content = answer["content"]
    assert len(content) <= 2000, len(content)
    assert content.startswith("Nothing was saved:\n• “Zorblax”, Related terms: no term"), content
    assert content.endswith(KEPT), content


# --- the command line -------------------------------------------------------------------------

NOT_SWEPT = {"run"}  # starts the bot: its settings are swept by the settings tests


def cli_leaves(parser: argparse.ArgumentParser, path: list[str]) -> Iterator[CliLeaf]:
    """Every `glossary-bot` command (and action of one) from the parser itself."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs and path:
        yield CliLeaf(path, [a for a in parser._actions if a.dest not in ("help", "version")])
    for sub in subs:
        for name, child in sub.choices.items():
            if name not in NOT_SWEPT:
                yield from cli_leaves(child, [*path, name])


@dataclass
class CliLeaf:
    path: list[str]
    arguments: list[argparse.Action]


@dataclass
class Files:
    """Bad files and folders a user may name: made once in the test's folder."""

    root: Path

    def __post_init__(self) -> None:
        (self.root / "a folder").mkdir()
        (self.root / "binary.bin").write_bytes(bytes(range(256)) * 64)
        (self.root / "empty.txt").write_bytes(b"")
        (self.root / "nul.toml").write_bytes(b'title = "a\x00b"\n')

    def values(self) -> list[tuple[str, str]]:
        return [
            ("a missing file", str(self.root / "missing" / "nothing.db")),
            ("a folder", str(self.root / "a folder")),
            ("a binary file", str(self.root / "binary.bin")),
            ("an empty file", str(self.root / "empty.txt")),
            ("a file with a NUL", str(self.root / "nul.toml")),
            ("an empty name", ""),
            ("a name past the system's length", "x" * 5000),
        ]


NUMBERS = [
    ("empty", ""),
    ("negative", "-1"),
    ("zero", "0"),
    ("huge", "9" * 40),
    ("past a float", "1e400"),
    ("nan", "nan"),
    ("not a number", "twelve"),
]
TEXTS = [
    ("empty", ""),
    ("zalgo", "k\u0338\u0322\u031bv\u0334\u0353 c\u0337a\u0338c\u0335h\u0336e\u0335" * 20),
    ("RTL override", "\u202ekv cache\u202c"),
    ("control characters", "kv\x07cache\x1b[31m"),
    ("a dash", "-"),
]
PATHLIKE = {"Path", "_file_name", "_output", "_database"}
PATH_DESTS = {"paths", "file", "backup", "path", "source", "target", "set", "data", "db", "chart"}
SANE_CLI = {
    "guild": "1",
    "older_than": "30",
    "source": "{root}/source.db",
    "target": "{root}/target.db",
    "term": "kv cache",
    "queries": "kv cache",
}


def cli_cases(action: argparse.Action, files: Files) -> list[tuple[str, str]]:
    kind = getattr(action.type, "__name__", None)
    if action.choices:
        return [("a value not among the choices", "year"), ("empty", "")]
    if kind in PATHLIKE or action.dest in PATH_DESTS:
        return files.values()
    if kind in ("parse", "_server_id", "_positive_float"):
        return NUMBERS
    return TEXTS


def cli_argv(leaf: CliLeaf, action: argparse.Action, value: str, root: Path) -> list[str]:
    argv = list(leaf.path)
    for other in leaf.arguments:
        if other is action or not other.required or other.nargs == 0:
            continue
        sane = SANE_CLI.get(other.dest, str(root / "empty.txt")).format(root=root)
        argv += [other.option_strings[0], sane] if other.option_strings else [sane]
    if action.option_strings:
        return [*argv, f"{action.option_strings[0]}={value}"]
    return [*argv, "--", value]


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def test_every_cli_command_with_bad_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each `glossary-bot` command (read from its parser), each value-taking argument in turn
    given a bad value (missing files, folders, binary and empty files, names too long, /dev/full,
    numbers past any range, values outside the choices, text no shell hides), and an unknown
    option: a refusal is a non-zero exit with one line on stderr; never a traceback."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "bot.db"))
    files = Files(tmp_path)
    faults: list[str] = []
    swept = 0
    for leaf in cli_leaves(build_parser(), []):
        cases = [
            (action, label, value)
            for action in leaf.arguments
            if action.nargs != 0
            for label, value in cli_cases(action, files)
        ]
        argv = [*leaf.path, "--bogus-option"]
        status, _, err = run_cli(argv, capsys)
        if status == 0 or len(err.strip().splitlines()) != 1:
            faults.append(f"{' '.join(argv)}: exit {status}, stderr {err!r}")
        for action, label, value in cases:
            argv = cli_argv(leaf, action, value, tmp_path)
            swept += 1
            where = f"glossary-bot {' '.join(leaf.path)} {action.dest}={label}"
            try:
                status, out, err = run_cli(argv, capsys)
            except BaseException as exc:
                faults.append(f"{where}: raised {exc!r}")
                continue
            if "Traceback" in out + err:
                faults.append(f"{where}: a traceback: {err[-300:]!r}")
            elif status != 0 and not (out + err).strip():
                faults.append(f"{where}: exit {status} and not a word why")
    assert swept > 100, swept
    assert not faults, f"{len(faults)} fault(s) in {swept} runs:\n  " + "\n  ".join(faults)


def test_an_empty_db_name_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`terms import --db= …` (an empty name, as `--db=$UNSET_VARIABLE` gives) raised
    "ValueError: PosixPath('.') has an empty name" past `main`: a traceback."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "terms.toml").write_text("")
    status, out, err = run_cli(["terms", "import", "--db=", "--guild", "1", "terms.toml"], capsys)
    assert (status, out) == (2, ""), (status, out, err)
    [line] = err.splitlines()
    assert line.startswith(
        "glossary-bot terms import: error: argument --db: expected a database file or a "
        "postgresql:// URL, not an empty name"
    ), line


@pytest.mark.parametrize(
    "argv",
    [
        ["stats", "--db=NAME"],
        ["check", "NAME"],
        ["restore", "NAME"],
    ],
)
def test_a_file_name_past_the_systems_length_is_one_line(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A name of 5,000 characters (a pasted text where a path goes): "OSError: [Errno 36] File
    name too long" past `main` from eleven commands. Now one line naming it, cut short."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    name = "x" * 5000
    status, out, err = run_cli([a.replace("NAME", name) for a in argv], capsys)
    assert status == 1, (status, out, err)
    [line] = err.splitlines()
    assert line.startswith("glossary-bot: error: cannot use xxxxxxxxxx"), line
    assert line.endswith("…: File name too long"), line
    assert len(line) < 200, line


def test_a_relevance_set_that_is_a_device_is_refused(tmp_path: Path) -> None:
    """`relevance --set=/dev/zero` read the device until memory ran out (MemoryError's
    traceback under a memory limit; without one, the machine's memory)."""
    status, output = _limited_cli(tmp_path, "relevance", "--set=/dev/zero")
    assert status == 1, output
    assert output == (
        "glossary-bot: cannot read the relevance set /dev/zero: a device, not a file\n"
    ), output


def _limited_cli(cwd: Path, *argv: str) -> tuple[int, str]:
    """`glossary-bot ARGV` in a process of its own, its memory held to 1 GiB (a device read
    without end fails there, not on the machine), its stderr and stdout together."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run(
        [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())", *argv],
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "GLOSSARY_PATHS": "", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
        check=False,
    )
    return done.returncode, done.stderr + done.stdout


# Each command in turn, as `glossary-bot` runs it (`sys.exit(main())`), its stdout and stderr
# together; what raises past `main` is printed as Python prints it, a traceback.
_EACH_COMMAND = """
import contextlib, io, json, sys, traceback
from bot.cli import main
said = []
for argv in json.loads(sys.argv[1]):
    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) or exc.code is None else 1
            if not isinstance(exc.code, int) and exc.code is not None:
                print(exc.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            status = 1
    said.append((status or 0, output.getvalue()))
    with open(sys.argv[2], "w") as done:
        json.dump(said, done)  # each as it ends: a hang or a kill leaves the ones before
"""


def _limited_clis(cwd: Path, argvs: list[list[str]]) -> list[tuple[int, str]]:
    """`glossary-bot ARGV` for each of `argvs`, one after another in one process of their own,
    its memory held to 1 GiB as `_limited_cli`'s: each one's exit status and output."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    results = cwd / "each-command.json"
    done = subprocess.run(
        [sys.executable, "-c", _EACH_COMMAND, json.dumps(argvs), str(results)],
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "GLOSSARY_PATHS": "", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120 * len(argvs),
        preexec_fn=limit,
        check=False,
    )
    said = json.loads(results.read_text()) if results.exists() else []
    assert (done.returncode, len(said)) == (0, len(argvs)), (done, said)
    return [(status, output) for status, output in said]


def test_every_cli_file_argument_given_a_device(tmp_path: Path) -> None:
    """Each file a `glossary-bot` command takes (read from its parser), given /dev/zero (a
    file that never ends), each command in turn in one process held to 1 GiB (a process each,
    20 of them, took 70 s on a loaded machine; `relevance --set=/dev/zero` above is in one of
    its own): one line, a non-zero exit (or, where /dev/zero is a fine place to write, a clean
    exit), no traceback."""
    Files(tmp_path)
    runs = []
    for leaf in cli_leaves(build_parser(), []):
        for action in leaf.arguments:
            kind = getattr(action.type, "__name__", None)
            if action.nargs != 0 and (kind in PATHLIKE or action.dest in PATH_DESTS):
                runs.append((leaf, action))
    assert len(runs) > 15, runs
    done = _limited_clis(
        tmp_path, [cli_argv(leaf, action, "/dev/zero", tmp_path) for leaf, action in runs]
    )
    faults = [
        f"glossary-bot {' '.join(leaf.path)} {action.dest}=/dev/zero: exit {status}: "
        f"{output[-300:]!r}"
        for (leaf, action), (status, output) in zip(runs, done, strict=True)
        if "Traceback" in output or (status != 0 and not output.strip())
    ]
    assert not faults, "\n".join(faults)


async def test_every_autocomplete_pick_after_its_term_is_removed(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """What each autocomplete option offered for "zorb" (the server's term, its alias), sent
    after a moderator removed the term, and the buttons of its card posted before: answered by
    the sweep's rules, and no card of a term that is gone."""
    fake = scene.fake
    fake.settle_before_actions = False
    caplog.set_level(logging.WARNING)
    await add_term(scene, {**TERM, "other_names": "zorbo"})
    added = await fake.slash(
        scene.moderator,
        "alias add",
        {"alias": "zorbalias", "term": "zorblax"},
        channel=scene.channel,
    )
    await added.final_message()
    card = await (
        await fake.slash(scene.alice, "define", {"term": "zorblax"}, channel=scene.channel)
    ).final_message()
    assert card["embeds"], card
    assert pressables(card), card
    sweep = Sweep(scene, caplog)
    picks: list[tuple[Leaf, JSON, str]] = []
    for command in sweep.tree():
        for leaf in leaves(command) if command["type"] == CHAT_INPUT else ():
            for option in leaf.options:
                if not option.get("autocomplete"):
                    continue
                typed = await fake.autocomplete(
                    scene.moderator,
                    leaf.name,
                    {option["name"]: "zorb"},
                    focused=option["name"],
                    channel=scene.channel,
                )
                picks += [(leaf, option, c["value"]) for c in await typed.choices()]
    assert len(picks) >= 4, picks  # /define, /alias add, /term edit, /term remove at least
    asked = await fake.slash(
        scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await asked.final_message()
    clicked = await fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
    await clicked.followups(1)
    caplog.clear()
    for leaf, option, value in picks:
        baseline = {
            o["name"]: sane_value(o, scene)
            for o in leaf.options
            if o.get("required") and o is not option
        }
        handle = await fake.slash(
            scene.moderator, leaf.name, {**baseline, option["name"]: value}, channel=scene.channel
        )
        await sweep.check(f"/{leaf.name} {option['name']}={value!r} (removed)", handle)
        if handle.callback and handle.callback.get("type") != MODAL:
            shown = await handle.final_message()
            titles = [str(e.get("title", "")) for e in shown.get("embeds") or []]
            if any("Zorblax" in t for t in titles):
                sweep.findings.fault(
                    f"/{leaf.name} {value!r}", f"a card of a removed term: {titles}"
                )
    sweep.pressable[int(card["id"])] = ("the card of Zorblax, posted before", card)
    await sweep.press_everything(scene.alice, scene.channel)
    assert sweep.presses > 0
    assert not sweep.findings.faults, summary(sweep.findings)
