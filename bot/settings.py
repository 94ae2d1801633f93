"""Settings from the environment and a `.env` file; every one is documented in `.env.example`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DISCORD_API_BASE_URL = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    discord_api_base_url: str = DISCORD_API_BASE_URL
    discord_gateway_url: str = DISCORD_GATEWAY_URL
    database_path: Path = Path("glossary-bot.db")
    dev_guild_id: int | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    # Files or folders of glossary data, separated by the OS path separator (":" on Linux).
    glossary_paths: str = ""
    # A file the bot touches while it is connected and its database is writable (health checks).
    heartbeat_path: Path | None = None
    # Per-user cooldown on /define and /alias: this many uses per `cooldown_seconds`.
    cooldown_uses: int = Field(default=5, ge=1)
    cooldown_seconds: float = Field(default=10.0, gt=0)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("dev_guild_id", "heartbeat_path", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @property
    def glossary_path_list(self) -> list[Path] | None:
        parts = [p for p in self.glossary_paths.split(os.pathsep) if p.strip()]
        return [Path(p.strip()) for p in parts] or None
