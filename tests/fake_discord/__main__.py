"""`python -m tests.fake_discord`: the fake Discord by hand, to try the bot without a Discord
application. It serves one server, Glossary Lab (#general; alice, a member; mo, a moderator),
prints the settings that point `glossary-bot run` at it, waits for the bot to connect, then reads
lines from standard input as alice in #general: `/define TERM` is the slash command, any other
line a message mentioning the bot. Each answer is printed as text. End of input (Ctrl-D) or
Ctrl-C stops it. Needs aiohttp and discord.py only (`make run`'s .venv), not the test tools."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import threading
from typing import Any

from tests.fake_discord.server import FakeDiscord
from tests.scenes import moderated_server

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


def shown(message: dict[str, Any]) -> str:
    """A message of the bot's as plain text: its content, its card, its buttons."""
    lines = [message["content"]] if message.get("content") else []
    for embed in message.get("embeds") or []:
        lines += [f"[{embed['title']}]"] if embed.get("title") else []
        lines += [embed["description"]] if embed.get("description") else []
        lines += [f"{f['name']}: {f['value']}" for f in embed.get("fields") or []]
        # The card's category, sources and how the term was matched ("as a typo").
        lines += [embed["footer"]["text"]] if (embed.get("footer") or {}).get("text") else []
    buttons = [
        c.get("label") or c.get("custom_id", "")
        for row in message.get("components") or []
        for c in row.get("components") or []
    ]
    if buttons:
        lines.append("buttons: " + " | ".join(str(b) for b in buttons if b))
    if (message.get("flags") or 0) & 64:
        lines.append("(only alice sees this)")
    return "\n".join(lines) or "(an empty message)"


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
            "connected. Type as alice in #general: `/define TERM`, or a message to the bot; "
            "Ctrl-D ends.",
            flush=True,
        )
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        threading.Thread(target=_lines, args=(loop, queue), daemon=True).start()
        while (line := await queue.get()) is not None:
            if line.strip():
                print(await _asked(fake, lab.alice, lab.channel, line.strip()), flush=True)
    finally:
        await fake.stop()


async def _asked(fake: FakeDiscord, alice: Any, channel: Any, line: str) -> str:
    try:
        if line.startswith("/define "):
            handle = await fake.slash(alice, "define", {"term": line[8:]}, channel=channel)
            answer = shown(await handle.final_message())
        elif line.startswith("/"):
            return "only `/define TERM` here (the tests drive the other commands)"
        else:
            await fake.user_message(alice, channel, f"{fake.bot.mention} {line}")
            answer = shown(await fake.wait_for_channel_message(channel))
    except TimeoutError:
        answer = f"(no answer within {ANSWER_WITHIN:.0f} s: is the bot still connected?)"
    refused = fake.pop_violations()  # what Discord itself would have refused
    return "\n".join([answer, *(f"Discord would refuse this: {v}" for v in refused)]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__)
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
