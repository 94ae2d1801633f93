"""`python -m tests.fake_discord`: the fake Discord by hand, to try the bot without a Discord
application. It serves one server, Glossary Lab (#general; alice, a member; mo, a moderator
with Manage Server), prints the settings that point `glossary-bot run` at it, waits for the bot
to connect, then reads lines from standard input in #general, as alice or, after `mo:`, as mo.
Each answer is printed as text: a card's title, text, fields and footer, the buttons and menus
numbered, and who alone sees it. End of input (Ctrl-D) or Ctrl-C stops it. Needs aiohttp and
discord.py only (`make run`'s .venv), not the test tools."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sys
import threading
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import Any

from tests.fake_discord.handles import (
    MODAL,
    UPDATE_MESSAGE,
    InteractionHandle,
    InteractionRefused,
)
from tests.fake_discord.interactions import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)
from tests.fake_discord.models import FakeUser
from tests.fake_discord.server import FakeDiscord
from tests.fake_discord.validation import BUTTON, CHAT_INPUT, SELECT_TYPES, TEXT_INPUT
from tests.scenes import Server, moderated_server

CONNECT_WITHIN = 3600.0  # seconds to wait for the bot to connect: it is started by hand
ANSWER_WITHIN = 30.0  # seconds to wait for an answer before saying there was none
PROG = "python -m tests.fake_discord"


class PortRefused(Exception):
    """The port asked for could not be served on: said in one line, as argparse's errors."""


def port_number(text: str) -> int:
    """`--port`'s value: a TCP port, 0 for one the system picks."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text} is not a port (0 to 65535; 0: a free one)")
    return port


def shown(
    message: dict[str, Any], reader: str = "alice", names: dict[int, FakeUser] | None = None
) -> str:
    """A message of the bot's as plain text: its content, its card, its buttons and menus
    (numbered, as `!click N` and `!pick N` name them), and who alone sees it. A mention of one
    of `names` reads as Discord shows it, `@alice`."""
    lines = [message["content"]] if message.get("content") else []
    for embed in message.get("embeds") or []:
        lines += [f"[{embed['title']}]"] if embed.get("title") else []
        lines += [embed["description"]] if embed.get("description") else []
        lines += [f"{f['name']}: {f['value']}" for f in embed.get("fields") or []]
        # The card's category, sources and how the term was matched ("as a typo").
        lines += [embed["footer"]["text"]] if (embed.get("footer") or {}).get("text") else []
    lines += [
        f"file: {a['filename']} ({a['size']:,} bytes)" for a in message.get("attachments") or []
    ]
    buttons, menus = [], []
    for number, item in enumerate(_components(message), 1):
        if item["type"] == BUTTON:
            buttons.append(f"[{number}] {item.get('label') or item.get('custom_id', '')}")
        else:
            offered = " | ".join(o["label"] for o in item.get("options") or [])
            menus.append(f"menu [{number}] {item.get('placeholder') or 'pick'}: {offered}")
    lines += ["buttons: " + " ".join(buttons)] if buttons else []
    lines += menus
    if (message.get("flags") or 0) & 64:
        lines.append(f"(only {reader} sees this)")
    text = "\n".join(lines) or "(an empty message)"
    known = names or {}
    return _MENTION.sub(
        lambda m: f"@{_name(known[int(m[1])])}" if int(m[1]) in known else m[0], text
    )


_MENTION = re.compile(r"<@!?(\d+)>")


def _components(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The buttons and select menus of `message`, in the order Discord shows them."""
    found = []
    for row in message.get("components") or []:
        for item in row.get("components") or []:
            if item.get("type") == BUTTON or item.get("type") in SELECT_TYPES:
                found.append(item)
    return found


def _lines(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
    """Standard input's lines into `queue` (None at its end), from a thread of its own: a
    daemon, so that Ctrl-C does not wait on a read that never ends."""
    for line in sys.stdin:
        loop.call_soon_threadsafe(queue.put_nowait, line.rstrip("\n"))
    loop.call_soon_threadsafe(queue.put_nowait, None)


async def serve(port: int, shards: int = 1) -> None:
    # `shards`: the count `/gateway/bot` recommends, as Discord does for a bot past 2,500
    # servers a connection; the bot must then run them all (SHARD_COUNT unset does).
    fake = FakeDiscord(wait_timeout=ANSWER_WITHIN, shard_count=shards)
    lab = moderated_server(fake)
    try:
        await fake.start(port)
    except OSError as refused:  # in use, or one this user may not serve on (below 1024)
        await fake.stop()
        raise PortRefused(f"{refused.strerror}: give another --port, or 0 for a free one") from None
    try:
        print(
            f"fake Discord on {fake.base_url}. Start the bot against it (another terminal):\n\n"
            f"  DISCORD_TOKEN={fake.token} DISCORD_API_BASE_URL={fake.api_base} \\\n"
            f"  DISCORD_GATEWAY_URL={fake.gateway_url} .venv/bin/glossary-bot run\n",
            flush=True,
        )
        if shards > 1:
            on = fake.gateway.shard_of(lab.guild.id)
            print(
                f"Discord's recommended count here: {shards} shards (Glossary Lab on shard {on})",
                flush=True,
            )
        print("waiting for the bot to connect…", flush=True)

        def connected() -> bool:
            every = all(fake.gateway.shard_ready(shard) for shard in range(shards))
            return every and fake.registry.sync_counts.get(None, 0) > 0

        await fake.waiter.wait_for(connected, "bot connecting", within=CONNECT_WITHIN)
        print(
            "connected. Type as alice in #general (`mo:` first: as mo): `/define TERM` or any "
            "command, a message to the bot, !click N, !explain; --help tells all. Ctrl-D ends.",
            flush=True,
        )
        console = Console(fake, lab)
        following = asyncio.create_task(console.follow_ups())
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        threading.Thread(target=_lines, args=(loop, queue), daemon=True).start()
        while (line := await queue.get()) is not None:
            if said := await console.line(line):
                print(said, flush=True)
        following.cancel()
    finally:
        await fake.stop()


@dataclass
class Form:
    """A modal the bot opened, being filled in field by field."""

    person: FakeUser
    origin: InteractionHandle  # the interaction the bot answered with the modal
    fields: list[dict[str, Any]]  # its text inputs and menus, in order
    values: dict[str, str | list[str]] = dc_field(default_factory=dict)

    def prompt(self) -> str:
        item = self.fields[len(self.values)]
        kind = "menu, its options by label, comma-separated" if item["type"] in SELECT_TYPES else ""
        said = [kind] if kind else []
        said += ["required"] if item.get("required", True) else ["may be left empty"]
        if item.get("max_length"):
            said.append(f"up to {item['max_length']:,} characters")
        if item.get("style") == 2:
            said.append("\\n for a new line")
        held = f"; holds: {item['value']}".replace("\n", "\\n") if item.get("value") else ""
        return (
            f"{len(self.values) + 1}/{len(self.fields)} {item['label']} ({', '.join(said)}){held}"
        )


class Console:
    """Lines typed at the fake, sent to the bot as Discord's client sends them (the fake's
    own interaction building), and its answers as text."""

    def __init__(self, fake: FakeDiscord, lab: Server) -> None:
        self.fake, self.lab = fake, lab
        self.people = {"alice": lab.alice, "mo": lab.moderator}
        self.answer: tuple[int, str] | None = None  # the last answer's message id, its reader
        self.said: dict[str, Any] | None = None  # the last message a person posted
        self.form: Form | None = None
        self.speaker = "alice"  # who typed the line being sent
        # Interactions answered, each with who sees it: the follow-ups the bot sends after its
        # answer ("Removed …" after a removal's confirmation) are printed as they come.
        self.answered: list[tuple[InteractionHandle, str]] = []
        self.printed: set[int] = set()  # the ids of the messages printed

    async def follow_ups(self) -> None:
        """Print each follow-up to an answered interaction as it comes, until cancelled."""
        while True:
            with contextlib.suppress(TimeoutError):  # none for a long while: wait on
                come = await self.fake.waiter.wait_for(self._unprinted, "a follow-up", within=3600)
                for message_id, reader in come:
                    self.printed.add(message_id)
                    self.answer = (message_id, reader)
                    said = shown(self.fake.message(message_id), reader, self.fake.world.users)
                    print(said + "\n", flush=True)

    def _unprinted(self) -> list[tuple[int, str]] | None:
        come = [
            (message_id, reader)
            for handle, reader in self.answered
            for message_id in handle.followup_ids
            if message_id not in self.printed and self.fake.store.is_live(message_id)
        ]
        return come or None

    async def line(self, line: str) -> str:
        """What to print for one typed line."""
        try:
            if self.form is not None:
                said = await self._filled(line)
            elif not line.strip():
                return ""
            else:
                said = await self._do(line.strip())
        except (ValueError, LookupError, OSError) as refused:
            said = f"not sent: {refused}"  # what Discord's client would not let one send
        except InteractionRefused as refused:  # the client does not offer the command
            said = f"Discord would not let {self.speaker} use it: {refused}"
        except TimeoutError:
            said = f"(no answer within {ANSWER_WITHIN:.0f} s: is the bot still connected?)"
        broken = self.fake.pop_violations()  # what Discord itself would have refused
        return "\n".join([said, *(f"Discord would refuse this: {v}" for v in broken)]) + "\n"

    async def _do(self, line: str) -> str:
        person = self.lab.alice
        who, colon, rest = line.partition(":")
        if colon and who.strip() in self.people:
            person, line = self.people[who.strip()], rest.strip()
        self.speaker = _name(person)
        verb, _, rest = line.partition(" ")
        if line.startswith("/"):
            return await self._slash(person, line[1:])
        if verb == "!click":
            return await self._click(person, rest.strip())
        if verb == "!pick":
            number, _, labels = rest.strip().partition(" ")
            return await self._pick(person, number, labels)
        if verb == "!explain":
            if self.said is None:
                raise ValueError("no message posted yet: type one (or `!say TEXT`) first")
            handle = await self.fake.message_command(person, "Explain terms", self.said)
            return await self._answered(person, handle)
        if verb == "!say":
            channel = self.lab.channel
            self.said = await self.fake.user_message(person, channel, rest.strip())
            return f"({_name(person)} said it in #{channel.name}, not to the bot)"
        if verb.startswith("!"):
            raise ValueError(f"{verb} is none of !click, !pick, !explain, !say (see --help)")
        channel = self.lab.channel
        self.said = await self.fake.user_message(person, channel, f"{self.fake.bot.mention} {line}")
        message = await self.fake.wait_for_channel_message(channel)
        self.answer = (int(message["id"]), _name(person))
        return shown(message, _name(person), self.fake.world.users)

    async def _slash(self, person: FakeUser, typed: str) -> str:
        command, options = self._options(typed)
        handle = await self.fake.slash(person, command, options, channel=self.lab.channel)
        return await self._answered(person, handle)

    def _options(self, typed: str) -> tuple[str, dict[str, Any]]:
        """`/alias add term:rag alias:retrieval` as the command's path and its options' values
        by name, each made the type the command registered it as; text before any `name:` is
        the first option's (`/define kv cache`)."""
        name, _, rest = typed.partition(" ")
        registered = self.fake.registry.find(name, CHAT_INPUT, self.lab.guild.id)
        if registered is None:
            known = sorted(
                c["name"]
                for c in self.fake.commands() + self.fake.commands(self.lab.guild.id)
                if c["type"] == CHAT_INPUT
            )
            raise LookupError(f"no command /{name}; the bot registered /{', /'.join(known)}")
        path, schema = [name], registered.get("options") or []
        while (word := rest.split(" ", 1)[0]) and any(
            o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema
        ):
            path.append(word)
            schema = next(o for o in schema if o["name"] == word).get("options") or []
            rest = rest[len(word) :].strip()
        subs = [o["name"] for o in schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subs:
            raise ValueError(f"/{' '.join(path)} takes one of: {', '.join(subs)}")
        by_name = {o["name"]: o for o in schema}
        keys = re.compile(rf"(?:^|\s)({'|'.join(map(re.escape, by_name))}):")
        found = list(keys.finditer(rest)) if by_name else []
        given: dict[str, str] = {}
        lead = rest[: found[0].start() if found else len(rest)].strip()
        if lead:
            if not schema:
                raise ValueError(f"/{' '.join(path)} takes no options")
            given[schema[0]["name"]] = lead
        for at, key in enumerate(found):
            stop = found[at + 1].start() if at + 1 < len(found) else len(rest)
            given[key[1]] = rest[key.end() : stop].strip()
        return " ".join(path), {k: self._value(by_name[k], v) for k, v in given.items()}

    def _value(self, option: dict[str, Any], text: str) -> Any:
        """An option's typed text as the value Discord's client sends for its type."""
        kind = option["type"]
        for choice in option.get("choices") or []:  # picked by its name, as the client shows it
            if text.lower() == str(choice["name"]).lower():
                return choice["value"]
        try:
            if kind == INTEGER:
                return int(text)
            if kind == NUMBER:
                return float(text)
        except ValueError:
            raise ValueError(f"{option['name']}: {text!r} is not a number") from None
        if kind == BOOLEAN:
            if text.lower() not in ("true", "false"):
                raise ValueError(f"{option['name']}: true or false, not {text!r}")
            return text.lower() == "true"
        if kind in (USER, MENTIONABLE):
            members = {_name(m.user): m.user for m in self.lab.guild.members.values()}
            if text.lstrip("@") in members:
                return members[text.lstrip("@")]
        if kind in (ROLE, MENTIONABLE):
            for role in self.lab.guild.roles.values():
                if role.name == text.lstrip("@"):
                    return role
        if kind == CHANNEL and text.lstrip("#") == self.lab.channel.name:
            return self.lab.channel
        if kind == ATTACHMENT:  # a file on disk, given as Discord's client uploads it
            path = Path(text).expanduser()
            return self.fake.add_attachment(path.name, path.read_bytes())
        if kind in (USER, MENTIONABLE, ROLE, CHANNEL):
            raise ValueError(f"{option['name']}: no {text!r} here (alice, mo, owner, #general)")
        return text

    async def _click(self, person: FakeUser, which: str) -> str:
        message, item = self._component(which)
        handle = await self.fake.click(person, message, item["custom_id"])
        return await self._answered(person, handle)

    async def _pick(self, person: FakeUser, which: str, labels: str) -> str:
        message, item = self._component(which)
        options = {o["label"].lower(): o["value"] for o in item.get("options") or []}
        chosen = [options.get(label.strip().lower(), label.strip()) for label in labels.split(",")]
        handle = await self.fake.select(person, message, item["custom_id"], chosen)
        return await self._answered(person, handle)

    def _component(self, which: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The last answer, as it is now, and its button or menu numbered or labelled `which`."""
        if self.answer is None:
            raise ValueError("no answer yet to click on")
        message = self.fake.message(self.answer[0])
        items = _components(message)
        for number, item in enumerate(items, 1):
            if which == str(number) or which.lower() == str(item.get("label", "")).lower():
                return message, item
        raise ValueError(f"the last answer has no button or menu {which!r} ({len(items)} in all)")

    async def _answered(self, person: FakeUser, handle: InteractionHandle) -> str:
        """The bot's answer to `handle`: its message, or the form it opened."""
        body = await handle.response()
        if body.get("type") == MODAL:
            return self._opened(person, handle, body["data"])
        message = await handle.final_message()
        self.answer = (int(message["id"]), _name(person))
        self.printed.add(int(message["id"]))
        said = shown(message, _name(person), self.fake.world.users)
        if _acted_on(body):
            # The bot writes what was confirmed, then says so in a follow-up: the next line
            # waits for it, or a `/define` typed right after reached the bot before the write.
            [done, *_] = await handle.followups(1)
            self.answer = (int(done["id"]), _name(person))
            self.printed.add(int(done["id"]))
            said += "\n\n" + shown(done, _name(person), self.fake.world.users)
        self.answered.append((handle, _name(person)))  # its later follow-ups print as they come
        return said

    def _opened(self, person: FakeUser, handle: InteractionHandle, modal: dict[str, Any]) -> str:
        fields = list(_inputs(modal.get("components") or []))
        self.form = Form(person, handle, fields)
        return (
            f"form \u201c{modal.get('title', '')}\u201d: type each field on a line "
            "(an empty line keeps what it holds; !cancel closes the form)\n" + self.form.prompt()
        )

    async def _filled(self, line: str) -> str:
        form = self.form
        assert form is not None
        if line.strip() == "!cancel":
            self.form = None
            return "(form closed: nothing sent)"
        item = form.fields[len(form.values)]
        if item["type"] in SELECT_TYPES:
            offered = {o["label"].lower(): o["value"] for o in item.get("options") or []}
            picked = [p.strip().lower() for p in line.split(",") if p.strip()]
            form.values[item["custom_id"]] = [offered.get(p, p) for p in picked]
        else:
            typed = line.replace("\\n", "\n") if item.get("style") == 2 else line
            form.values[item["custom_id"]] = typed or item.get("value") or ""
        if len(form.values) < len(form.fields):
            return form.prompt()
        self.form = None  # sent, or refused as the client refuses it: open it again to retry
        handle = await self.fake.submit_modal(form.person, form.origin, form.values)
        return await self._answered(form.person, handle)


def _acted_on(body: dict[str, Any]) -> bool:
    """Is this a click answered by taking its message's buttons away, the rest as it was: a
    confirmation (`/term remove`'s Remove) the bot acts on and then tells the outcome of?"""
    data = body.get("data") or {}
    return (
        body.get("type") == UPDATE_MESSAGE
        and not data.get("components")
        and set(data) <= {"components", "attachments", "allowed_mentions", "tts"}
    )


def _inputs(components: list[dict[str, Any]], label: str = "") -> Any:
    """A modal's text inputs and menus, in order, each with the label it is shown under."""
    for item in components:
        named = item.get("label") or label
        if item.get("type") == TEXT_INPUT or item.get("type") in SELECT_TYPES:
            yield {**item, "label": named or item["custom_id"]}
        yield from _inputs(item.get("components") or [], named)
        if isinstance(item.get("component"), dict):
            yield from _inputs([item["component"]], named)


def _name(person: FakeUser) -> str:
    return person.username


TYPING = """what to type, once the bot has connected (as alice; `mo:` first: as mo):
  /define kv cache                       a slash command the bot registered, with its
  mo: /alias add term:rag alias:retr     subcommands and options as name:value (text before
  mo: /term remove term:Zorb Engine      any name: is the first option's); a user option
  mo: /stats                             takes alice, mo or owner, a channel #general
  mo: /term import file:terms.toml       a file option: a path on disk (from where the fake
                                         runs), sent as Discord's client uploads it
  what is rag?                           any other line: a message mentioning the bot
  !say we put rag behind the chat        a message that does not mention it
  !explain                               Explain terms on the last message typed or !said
  !click 2   /   !click LLM Inference    a button of the last answer, by number or label
  !pick 1 Fundamentals                   a menu's options (by label, comma-separated)
When the bot opens a form, each next line fills one field, as it prompts: an empty line keeps
what the field holds, \\n is a new line in a long field, !cancel closes the form unsent."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=__doc__,
        epilog=TYPING,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--port", type=port_number, default=0, help="the port to serve on (a free one)"
    )
    parser.add_argument(
        "--shards",
        type=int,
        default=1,
        choices=range(1, 17),
        metavar="N",
        help="the shard count Discord recommends (1 to 16; 1: the bot runs one connection)",
    )
    args = parser.parse_args(argv)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: stopped, as asked
            asyncio.run(serve(args.port, args.shards))
    except PortRefused as refused:
        print(f"{PROG}: error: {refused}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
