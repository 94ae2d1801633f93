"""The outside tests: the real bot process against the fake Discord, as users drive it."""

from pathlib import Path

import pytest

from bot.settings import Settings
from tests.resilience.conftest import (  # noqa: F401  (fixtures)
    Scene,
    bot,
    fake_discord,
    glossary,
    scene,
    start_bot,
    store,
)


@pytest.fixture
def no_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment alone: no `.env` of the working directory's (settings read from the
    environment as an env file passes them)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(Settings.model_config, "env_file", ())
