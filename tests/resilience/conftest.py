"""Fault, fuzz and security tests through the real bot and the fake Discord.

The scene (two servers, members, moderators), the store and the in-process bot are those of the
Discord tests; tests that need a process of their own (signals, kill -9, file modes, the log)
use ``BotProcess``.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.discord_app.conftest import (  # noqa: F401  (fixtures)
    Scene,
    StartBot,
    bot,
    glossary,
    scene,
    start_bot,
    store,
)
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)

__all__ = ["Scene", "StartBot", "without_permission_override"]


def without_permission_override() -> list[str]:
    """A command prefix under which file modes apply, even to root (who ignores chmod)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: file modes cannot be enforced")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
