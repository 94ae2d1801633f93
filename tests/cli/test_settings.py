"""Settings: one object for every command, from the environment and `.env`; an empty value is
the default; a bad value is one line naming the setting and what it accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import ACCEPTS, SECRET, Settings, SettingsError, load_settings

NAMES = [name.upper() for name in Settings.model_fields]


@pytest.fixture(autouse=True)
def _clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def test_every_setting_says_what_it_accepts() -> None:
    assert set(ACCEPTS) == set(Settings.model_fields)


@pytest.mark.parametrize("name", NAMES)
def test_an_empty_value_in_the_environment_means_the_default(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(name, "")
    assert load_settings() == Settings()


@pytest.mark.parametrize("name", NAMES)
def test_an_empty_value_in_an_env_file_means_the_default(name: str, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"{name}=\n", "utf-8")
    assert load_settings() == Settings()


def test_the_env_file_counts_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("DATABASE_PATH=from-file.db\nLOG_LEVEL=debug\n", "utf-8")
    monkeypatch.setenv("LOG_LEVEL", "warning")
    settings = load_settings()
    assert (settings.database_path, settings.log_level) == (Path("from-file.db"), "WARNING")


BAD = {
    "LOG_LEVEL": "verbose",
    "DISCORD_API_BASE_URL": "https://user:hunter2@proxy.example/api",
    "DISCORD_GATEWAY_URL": "https://gateway.example/",
    "DATABASE_URL": "mysql://root:hunter2@db.example/glossary",
    "DEV_GUILD_ID": "-4",
    "COOLDOWN_USES": "0",
    "COOLDOWN_SECONDS": "inf",
    "SERVER_CACHE_MB": "0",
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_value_is_one_line_naming_the_setting(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(name, BAD[name])
    with pytest.raises(SettingsError) as raised:
        load_settings()
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"bad setting: {name}")
    assert message.endswith(f"expected {ACCEPTS[name.lower()]}")
    if name.lower() in SECRET:
        assert BAD[name] not in message
    else:
        assert f"{name}={BAD[name]}" in message


def test_a_bad_value_in_the_env_file_is_named_too(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("COOLDOWN_USES=lots\n", "utf-8")
    with pytest.raises(SettingsError, match=r"^bad setting: COOLDOWN_USES \(from .env\) is not"):
        load_settings()


def test_an_unreadable_env_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"LOG_LEVEL=\xff\xfe\n")
    with pytest.raises(SettingsError, match=r"cannot read the \.env file"):
        load_settings()


@pytest.mark.parametrize("where", ["environment", ".env", "both"])
def test_an_empty_value_falls_back_to_the_installations_defaults(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As in the container: `--env-file .env.example` blanks HEARTBEAT_PATH; the image's
    default must still apply, or its health check never passes."""
    defaults = tmp_path / "defaults.env"
    defaults.write_text("HEARTBEAT_PATH=/tmp/hb\nDATABASE_PATH=/data/x.db\n", "utf-8")
    monkeypatch.setitem(Settings.model_config, "env_file", (str(defaults), ".env"))
    if where in ("environment", "both"):
        monkeypatch.setenv("HEARTBEAT_PATH", "")
    if where in (".env", "both"):
        (tmp_path / ".env").write_text("HEARTBEAT_PATH=\nDATABASE_PATH=mine.db\n", "utf-8")
    settings = load_settings()
    assert settings.heartbeat_path == Path("/tmp/hb")
    assert settings.database_path == Path("mine.db" if where != "environment" else "/data/x.db")


def test_a_metrics_host_is_read_without_its_spaces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("METRICS_HOST", " 0.0.0.0 ")
    assert load_settings().metrics_host == "0.0.0.0"
    monkeypatch.setenv("METRICS_HOST", "   ")
    assert load_settings().metrics_host == "127.0.0.1"
