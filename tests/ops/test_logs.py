"""LOG_FORMAT: readable text by default, one JSON object per line with `json`; the bot token and
interaction tokens are redacted in both."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from collections.abc import Iterator

import discord
import pytest

from bot.discord_app import logs
from bot.discord_app.logs import REDACTED, configure_logging, log_context

from .conftest import Lab

TOKEN = "MTAxNTU1.fake-bot-token.abcdefghijklmnopqrstuvwxyz"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmZha2U6dG9rZW4"


@pytest.fixture
def stderr() -> Iterator[io.StringIO]:
    """Where configure_logging's handler writes; the root logger is restored afterwards."""
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield stream
    root.handlers[:] = handlers
    root.setLevel(level)


def log_some_lines() -> None:
    log = logging.getLogger("bot.test")
    log.info("plain line")
    log.debug(
        "POST http://x/api/v10/interactions/123456789/%s/callback with %s",
        INTERACTION_TOKEN,
        {"token": INTERACTION_TOKEN, "auth": f"Bot {TOKEN}"},
    )

    async def answering() -> None:  # a task of its own, as each interaction is
        log_context(guild=42, command="define")
        log.warning("slow answer")
        try:
            raise RuntimeError(f"rejected {TOKEN}")
        except RuntimeError:
            log.exception("error %s in define", "ab12cd34", extra={"error_id": "ab12cd34"})

    asyncio.run(answering())
    log.info("after the interaction")  # its context stayed in its own task


def test_json_lines_carry_the_fields_and_no_secret(stderr: io.StringIO) -> None:
    configure_logging("DEBUG", secrets=[TOKEN], log_format="json", stream=stderr)
    log_some_lines()
    text = stderr.getvalue()
    assert TOKEN not in text
    assert INTERACTION_TOKEN not in text
    every = [json.loads(line) for line in text.splitlines()]  # every line is one object
    lines = [line for line in every if line["logger"] == "bot.test"]
    assert next(line["message"] for line in lines) == "plain line"
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    assert lines[0]["level"] == "INFO"
    assert lines[0]["logger"] == "bot.test"
    assert lines[0]["time"].endswith("+00:00")
    assert "guild" not in lines[0]
    assert "command" not in lines[0]
    debug = lines[1]["message"]
    assert debug.count(REDACTED) == 3  # the URL, the payload's token, the bot token
    assert "/interactions/123456789/" + REDACTED + "/callback" in debug
    slow, error, after = lines[2], lines[3], lines[4]
    assert (slow["guild"], slow["command"]) == (42, "define")
    assert (error["guild"], error["command"], error["error_id"]) == (42, "define", "ab12cd34")
    assert "RuntimeError: rejected " + REDACTED in error["exception"]
    assert "guild" not in after


def test_text_lines_stay_readable_and_redacted(stderr: io.StringIO) -> None:
    configure_logging("DEBUG", secrets=[TOKEN], stream=stderr)
    log_some_lines()
    text = stderr.getvalue()
    assert TOKEN not in text
    assert INTERACTION_TOKEN not in text
    first = text.splitlines()[0]
    assert first.endswith("INFO    bot.test: plain line")
    assert "slow answer [guild=42 command=define]" in text
    assert "[guild=42 command=define error_id=ab12cd34]" in text
    assert "Traceback" in text
    assert "rejected " + REDACTED in text
    with pytest.raises(json.JSONDecodeError):
        json.loads(first)


def test_a_hostile_message_stays_one_json_line(stderr: io.StringIO) -> None:
    configure_logging("INFO", secrets=[TOKEN], log_format="json", stream=stderr)
    logging.getLogger("bot.test").warning('no entry for "%s"', 'a\nb"}{\u2028\x00' + "x" * 5000)
    (line,) = stderr.getvalue().splitlines()
    assert json.loads(line)["message"].startswith('no entry for "a\nb"}{')


def test_the_context_belongs_to_the_task_that_set_it() -> None:
    async def one(guild: int) -> object:
        log_context(guild=guild)
        await asyncio.sleep(0)  # let the other task set its own
        return (logs._CONTEXT.get() or {}).get("guild")

    async def both() -> list[object]:
        return list(await asyncio.gather(one(1), one(2)))

    assert asyncio.run(both()) == [1, 2]


async def test_glossary_bot_run_logs_json_without_tokens(lab: Lab) -> None:
    async with lab.bot(LOG_FORMAT="json", LOG_LEVEL="DEBUG") as bot:
        handle = await lab.fake.slash(lab.user, "define", {"term": "kv cache"}, channel=lab.channel)
        await handle.final_message()
        await bot.wait_for_output("interactions/")  # discord.py's DEBUG line of the callback
    lines = [line for line in bot.lines if line.strip()]
    assert lines
    parsed = [json.loads(line) for line in lines]
    assert all(line["level"] in {"DEBUG", "INFO", "WARNING"} for line in parsed)
    # discord.py's request lines for the answer were logged while answering: they say which.
    answering = [line for line in parsed if line.get("command") == "define"]
    assert answering
    assert all(line["guild"] == lab.guild_id for line in answering)
    text = "\n".join(lines)
    assert lab.fake.token not in text
    assert "fake-interaction-token-" not in text
    assert REDACTED in text


def test_late_autocompletes_stay_quiet_below_the_level_asked_for(stderr: io.StringIO) -> None:
    """LOG_LEVEL=ERROR asks for no WARNING line: discord.py's ERROR for an autocomplete answer
    Discord refused as too late passes that level, and its filter makes it a WARNING; said then,
    it would be a line below the level the operator chose."""

    class Expired(Exception):
        code = logs.UNKNOWN_INTERACTION

    configure_logging("ERROR", [], stream=stderr)
    try:
        raise Expired
    except Expired:
        logging.getLogger("discord.app_commands.tree").exception(
            "Ignoring exception in autocomplete for %r (Guild: %s, User: %s)", "define", 1, 2
        )
    logging.getLogger("bot.test").error("a real error")
    assert "autocomplete" not in stderr.getvalue()
    assert "a real error" in stderr.getvalue()


class _Expired(discord.NotFound):
    def __init__(self) -> None:  # discord.NotFound wants a response; only the code matters
        self.code = logs.UNKNOWN_INTERACTION


def late_autocomplete_at(created: float) -> logging.LogRecord:
    """The record discord.py logs for an autocomplete answer Discord refused as too late."""
    record = logging.LogRecord(
        "discord.app_commands.tree",
        logging.ERROR,
        "tree.py",
        1,
        "Ignoring exception in autocomplete for %r (Guild: %s, User: %s)",
        ("define", 1, 2),
        (_Expired, _Expired(), None),
    )
    record.created = created
    return record


def test_late_autocompletes_are_counted_into_the_next_line_after_the_window() -> None:
    """The filter's arithmetic: the first late answer is said, the next ones within the window
    are held back and counted into the line after it; any other record passes untouched."""
    late = logs.LateAutocompletes(window=60.0)
    kept = [r for r in map(late_autocomplete_at, (0.0, 10.0, 20.0, 59.0, 61.0)) if late.filter(r)]
    assert [(r.created, r.levelname, r.exc_info) for r in kept] == [
        (0.0, "WARNING", None),
        (61.0, "WARNING", None),
    ]
    assert [r.getMessage().split(" reached")[0] for r in kept] == [
        "1 autocomplete answer",
        "4 autocomplete answers",
    ]
    other = logging.LogRecord("discord.client", logging.ERROR, "c.py", 1, "boom", (), None)
    assert late.filter(other)
    assert other.levelname == "ERROR"


def test_late_autocompletes_held_back_say_since_when() -> None:
    """A burst's late answers held back within the window are counted into the next line, which
    may come hours later with the next slow moment: that line says when the first it counts was,
    so the old burst is not read as the new one's."""
    late = logs.LateAutocompletes(window=60.0)
    burst_at = 1_800_000_010.0
    kept = [
        r
        for r in map(late_autocomplete_at, (burst_at - 10, burst_at, burst_at + 5, 1_800_020_000.0))
        if late.filter(r)
    ]
    said = [r.getMessage() for r in kept]
    assert "since" not in said[0], said
    first = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(burst_at))
    assert said[1].startswith(f"3 autocomplete answers reached Discord too late since {first}"), (
        said
    )
