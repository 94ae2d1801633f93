"""left62 (PLAN.md, "Leftovers (left62)"): a fake stopped mid-test keeps its port, so the bot
it served meets a refused connection there, never another test's fake."""

from __future__ import annotations

import asyncio
import socket

import pytest

from tests.fake_discord import FakeDiscord
from tests.fake_discord.__main__ import main as fake_by_hand


async def test_a_stopped_fake_keeps_its_port_refusing_connections() -> None:
    """test_readme35's "Discord out of reach" test timed out once in CI waiting for the bot's
    second "Attempting a reconnect": the fake it stopped freed its port (port 0: the OS's
    pick), another xdist worker's new fake was given it, and the bot's reconnect reached that
    one (reproduced by starting a second fake on the freed port: the bot connected to it).
    Now a stopped fake keeps its port bound without listening: a connection is refused, and
    no other server binds it (asyncio's servers set SO_REUSEADDR, as here)."""
    fake = FakeDiscord()
    await fake.start()
    port = fake.port
    _, writer = await asyncio.open_connection("127.0.0.1", port)  # served while up
    writer.close()
    await writer.wait_closed()
    await fake.stop()

    with pytest.raises(ConnectionRefusedError):
        await asyncio.open_connection("127.0.0.1", port)
    other = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    with other, pytest.raises(OSError, match="in use"):
        other.bind(("127.0.0.1", port))

    await fake.start(port)  # the fake itself may serve there again
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.close()
    await writer.wait_closed()
    await fake.stop()


async def test_a_stopping_fake_refuses_connections_before_it_says_going_away() -> None:
    """mend77: test_readme35's reconnect test still flaked (6 in ~120 loaded runs): the bot's
    first "Attempting a reconnect" came 60 s after the stop, its cause a TimeoutError. The fake
    said "going away" (1001) while still listening; the bot, resuming at once on it, reached
    the port in that instant, and the connection was taken and never answered (no HELLO, no
    close) until discord.py's 60 s connect timeout. Now the port refuses before the gateway
    says anything: a bot told "going away" can only meet Discord out of reach."""
    fake = FakeDiscord()
    await fake.start()
    port = fake.port
    said_while: list[str] = []
    going_away = fake.gateway.close

    async def close_watched() -> None:  # the moment the fake says "going away"
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except ConnectionRefusedError:
            said_while.append("refusing")
        else:
            said_while.append("listening")
            writer.close()
        await going_away()

    fake.gateway.close = close_watched  # type: ignore[method-assign]
    await fake.stop()
    assert said_while == ["refusing"], said_while


async def test_a_fake_whose_block_ended_lets_its_port_go() -> None:
    """What `async with FakeDiscord()` (the fixture) started holds no port past its block: a
    worker runs hundreds of fakes, and their bots ended inside the block."""
    async with FakeDiscord() as fake:
        port = fake.port
    other = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    with other:
        other.bind(("127.0.0.1", port))


async def test_a_second_fake_on_a_taken_port_fails_as_address_in_use() -> None:
    """left63: a fake asked for a port another fake serves (two `python -m tests.fake_discord
    --port N` by hand) fails "address in use", as before left62's SO_REUSEPORT, instead of
    sharing the port with it silently (each connection going to one or the other)."""
    async with FakeDiscord() as first:
        second = FakeDiscord()
        with pytest.raises(OSError, match="in use"):
            await second.start(first.port)
        await second.stop()
        _, writer = await asyncio.open_connection("127.0.0.1", first.port)  # still served
        writer.close()
        await writer.wait_closed()


def test_the_fake_by_hand_on_a_taken_port_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """left64: `python -m tests.fake_discord --port N` on a port something serves ended in a
    traceback (left63's "address in use"); now one line naming the port and what to do, and a
    non-zero status, as `glossary-bot`'s own errors. A port no socket can have is argparse's
    usage error (status 2), before anything starts."""
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = fake_by_hand(["--port", str(port)])
    said = capsys.readouterr()
    assert status == 1
    assert said.out == ""
    assert said.err == (
        f"python -m tests.fake_discord: error: port {port} is in use (Address already in use): "
        "give another --port, or 0 for a free one\n"
    ), said.err
    for wrong in ("70000", "-1"):
        with pytest.raises(SystemExit) as usage:
            fake_by_hand(["--port", wrong])
        assert usage.value.code == 2
        assert capsys.readouterr().err.endswith(
            f"error: argument --port: {wrong} is not a port (0 to 65535; 0: a free one)\n"
        )
