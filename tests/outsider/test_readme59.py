"""readme59: what a newcomer following README.md and .env.example met (tests/outsider/PLAN.md,
"README as a newcomer reads it (readme59)"), each fix's test failing before it."""

from __future__ import annotations

import logging
from typing import Any, cast

import pytest

from bot.discord_app import metrics as bot_metrics
from bot.settings import Settings


@pytest.mark.parametrize("host", ["127.0.0..1", ".localhost", "a" * 64 + ".example"])
async def test_a_metrics_host_no_name_can_be_is_one_error_line_and_the_bot_runs_without(
    host: str, caplog: pytest.LogCaptureFixture
) -> None:
    """README (Metrics and logs): a port already taken is one line and the bot runs on without
    metrics; so is a host name not found. A METRICS_HOST with an empty or over-long part
    between its dots (a typo: `127.0.0..1`) ended `glossary-bot run` in a traceback
    (UnicodeError from the IDNA codec, which the OSError handler let through)."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="not-used", metrics_port=0, metrics_host=host
    )
    with caplog.at_level(logging.ERROR, logger="bot.discord_app.metrics"):
        served = bot_metrics.serve_metrics(settings, cast(Any, None), cast(Any, None))
    assert served is None
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.discord_app.metrics"]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"cannot serve metrics on {host}:0 (METRICS_HOST, METRICS_PORT)")
    assert "not a host name or address" in lines[0], lines
    assert lines[0].endswith("; running without"), lines
