"""The real image, run with podman, against the fake Discord on the host.

Run by smoke.sh (which builds the image from a clean clone and sets GLOSSARY_IMAGE); the
`container` marker keeps these out of the ordinary test run.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from tests.fake_discord import FakeDiscord
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)

pytestmark = pytest.mark.container
IMAGE = os.environ.get("GLOSSARY_IMAGE", "glossary-bot:smoke")
ENV_EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"
HEALTHY_WITHIN = 60.0  # seconds: the first heartbeat follows READY
# smoke.sh's run: each container and volume made here carries it, and smoke.sh removes them as it
# ends. A run stopped midway (CI stops the image's job when the suite fails) kills this process
# before its own clean-up, and a detached container (its volume too) outlives its client.
RUN_LABEL = os.environ.get("GLOSSARY_SMOKE_LABEL")


def labelled(args: tuple[str, ...]) -> tuple[str, ...]:
    """`podman run` and `podman volume create` with this run's label (`RUN_LABEL`)."""
    made = 2 if args[:2] == ("volume", "create") else 1 if args[:1] == ("run",) else 0
    if RUN_LABEL is None or not made:
        return args
    return (*args[:made], "--label", RUN_LABEL, *args[made:])


async def podman(*args: str, check: bool = True) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        "podman", *labelled(args), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await proc.communicate()
    code = proc.returncode or 0
    if check and code:
        raise AssertionError(f"podman {' '.join(args)} -> {code}\n{err.decode()}")
    return code, out.decode(), err.decode()


@pytest.fixture
async def volume() -> AsyncIterator[str]:
    name = f"glossary-smoke-{uuid.uuid4().hex[:8]}"
    await podman("volume", "create", name)
    yield name
    await podman("volume", "rm", "--force", name, check=False)


def env_file(fake: FakeDiscord, folder: Path) -> Path:
    """.env.example as the README says to use it: copied, with the token (and our URLs) filled in;
    every other line, empty ones such as `HEARTBEAT_PATH=` included, left as shipped."""
    mine = {
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE_URL": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
    }
    lines = []
    for line in ENV_EXAMPLE.read_text("utf-8").splitlines():
        name = line.partition("=")[0]
        lines.append(f"{name}={mine.pop(name)}" if name in mine else line)
    assert not mine, f".env.example lacks {sorted(mine)}"
    path = folder / "bot.env"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


async def start_bot(fake: FakeDiscord, volume: str, folder: Path, *options: str) -> str:
    name = f"glossary-smoke-{uuid.uuid4().hex[:8]}"
    await podman(
        "run", "--detach", "--name", name, "--network", "host",
        "--volume", f"{volume}:/data",
        "--env-file", str(env_file(fake, folder)),
        *options,
        IMAGE,
    )  # fmt: skip
    return name


async def until_healthy(name: str) -> None:
    """The health check turns healthy once the bot has written its first heartbeat."""
    deadline = asyncio.get_running_loop().time() + HEALTHY_WITHIN
    while (await podman("healthcheck", "run", name, check=False))[0] != 0:
        assert asyncio.get_running_loop().time() < deadline, "never became healthy"
        await asyncio.sleep(1)  # polling another process's state: there is no event to await


async def test_check_and_define_run_inside() -> None:
    _, out, _ = await podman("run", "--rm", IMAGE, "check")
    assert "0 error(s)" in out  # check's report, summary included, is on stdout
    _, out, _ = await podman("run", "--rm", IMAGE, "define", "kv cache")
    assert out.startswith("KV Cache\n")


async def test_runs_as_a_non_root_user() -> None:
    _, out, _ = await podman("run", "--rm", "--entrypoint", "id", IMAGE, "-u")
    assert out.strip() != "0"
    _, inspect, _ = await podman("image", "inspect", IMAGE)
    config = json.loads(inspect)[0]["Config"]
    assert config["User"] == "10001:10001"
    assert config["Entrypoint"] == ["glossary-bot"]
    assert "DISCORD_TOKEN" not in " ".join(config.get("Env", []))


async def test_answers_define_keeps_counts_across_stop_and_new_container_and_turns_healthy(
    fake_discord: FakeDiscord,  # noqa: F811
    volume: str,
    tmp_path: Path,
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Smoke")
    channel = guild.add_text_channel("general")
    alice = fake.add_user("alice")
    guild.add_member(alice)

    name = await start_bot(fake, volume, tmp_path)
    try:
        await fake.wait_until_ready()
        for _ in range(3):
            handle = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
            message = await handle.final_message()
            assert message["embeds"][0]["title"] == "KV Cache"

        await until_healthy(name)

        # SIGTERM right after the lookups: the buffered counts must be written before exit.
        await podman("stop", "--time", "20", name)
        _, state, _ = await podman("inspect", "--format", "{{.State.ExitCode}}", name)
        assert state.strip() == "0"
    finally:
        await podman("rm", "--force", name, check=False)

    # A new container on the same volume sees what the first one stored.
    _, out, _ = await podman(
        "run", "--rm", "--volume", f"{volume}:/data", IMAGE, "stats", "--guild", str(guild.id), "--json"
    )  # fmt: skip
    stats = json.loads(out)
    assert stats["total_lookups"] == 3, stats

    # The stats chart draws inside the image too (pygal, resvg and the font shipped with the bot
    # are there); the PNG comes back out to be read here, where the test tools are.
    script = (
        f"glossary-bot stats --guild {guild.id} --period day --chart /tmp/c.png >/dev/null && "
        "base64 /tmp/c.png"
    )
    _, out, _ = await podman(
        "run", "--rm", "--volume", f"{volume}:/data", "--entrypoint", "sh", IMAGE, "-c", script
    )  # fmt: skip
    chart = Image.open(io.BytesIO(base64.b64decode(out)))
    assert (chart.format, chart.size) == ("PNG", (960, 480))
    title = chart.convert("RGBA").crop((0, 0, 960, 50))
    assert title.getchannel("A").getextrema()[1] > 0  # the title is drawn: the font was found


async def test_a_second_container_on_the_volume_leaves_the_first_healthy_as_health_reads(
    fake_discord: FakeDiscord,  # noqa: F811
    volume: str,
    tmp_path: Path,
) -> None:
    """ops49 (review49's leftovers): the image's heartbeat was in /tmp, each container's own, so
    `health` run in another container of the volume found none; and with it on the volume, a
    second bot started there (refused: the SQLite file is the first's) read the first's
    heartbeat as its own (both "pid 1 on vm") and wrote "stopped ... on an error" over it. Now
    the heartbeat is beside the database, and the run id tells the two apart. The first runs
    with a read-only root and no tmpfs (Docker's `--read-only`): nothing is written outside the
    volume."""
    name = await start_bot(fake_discord, volume, tmp_path, "--read-only", "--read-only-tmpfs=false")
    try:
        await until_healthy(name)
        code, _, err = await podman(
            "run", "--rm", "--network", "host", "--volume", f"{volume}:/data",
            "--env-file", str(env_file(fake_discord, tmp_path)), IMAGE,
            check=False,
        )  # fmt: skip
        assert code == 2, err
        assert "another bot runs on this SQLite file" in err, err
        assert "is the heartbeat of another process that may still run" in err, err
        code, out, err = await podman(
            "run", "--rm", "--volume", f"{volume}:/data", IMAGE, "health", check=False
        )  # fmt: skip
        assert code == 0, out + err
        assert out.startswith("healthy: last heartbeat"), out
        assert (await podman("healthcheck", "run", name, check=False))[0] == 0
        await podman("stop", "--time", "20", name)
    finally:
        await podman("rm", "--force", name, check=False)
    code, _, err = await podman(
        "run", "--rm", "--volume", f"{volume}:/data", IMAGE, "health", check=False
    )  # fmt: skip
    assert code == 1
    assert "\nstopped: the bot stopped cleanly " in f"\n{err}", err
