"""compose.yaml as Compose reads it (YAML merge keys, `${VAR:-default}`): the single bot by
default, and the `sharded` profile of issue 14, PostgreSQL and two bot processes that together
run every shard once, with settings the bot reads and accepts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
SHARDED = "sharded"
PASSWORD = "s3cretpw"  # what an operator puts in .env as POSTGRES_PASSWORD
VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")


def interpolated(value: Any, env: dict[str, str]) -> Any:
    """`${NAME}` and `${NAME:-default}` replaced as Compose does, from `env`."""
    if isinstance(value, str):
        return VARIABLE.sub(lambda m: env.get(m.group(1)) or (m.group(2) or ""), value)
    if isinstance(value, dict):
        return {k: interpolated(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolated(v, env) for v in value]
    return value


@pytest.fixture
def services() -> dict[str, Any]:
    compose = yaml.safe_load(COMPOSE.read_text("utf-8"))
    return dict(interpolated(compose["services"], {"POSTGRES_PASSWORD": PASSWORD}))


def sharded_bots(services: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The bot services of the sharded profile, each with its environment."""
    return {
        name: {k: str(v) for k, v in service.get("environment", {}).items()}
        for name, service in services.items()
        if SHARDED in service.get("profiles", []) and name != "postgres"
    }


def test_the_default_service_is_the_single_bot_as_before(services: dict[str, Any]) -> None:
    default = [name for name, service in services.items() if "profiles" not in service]
    assert default == ["glossary-bot"]
    assert "DATABASE_URL" not in services["glossary-bot"].get("environment", {})
    assert any(str(v).endswith(":/data") for v in services["glossary-bot"]["volumes"])


def test_the_sharded_profile_runs_every_shard_once_on_one_postgresql(
    services: dict[str, Any],
) -> None:
    postgres = services["postgres"]
    assert postgres["profiles"] == [SHARDED]
    assert postgres["environment"]["POSTGRES_PASSWORD"] == PASSWORD
    bots = sharded_bots(services)
    assert len(bots) == 2
    counts = {env["SHARD_COUNT"] for env in bots.values()}
    assert len(counts) == 1  # the same SHARD_COUNT in every process
    count = int(counts.pop())
    shards = [int(i) for env in bots.values() for i in env["SHARD_IDS"].split(",")]
    assert sorted(shards) == list(range(count))  # every shard, none in two processes
    for name, env in bots.items():
        url = urlsplit(env["DATABASE_URL"])
        assert url.scheme == "postgresql", name
        assert url.hostname == "postgres", name  # the service above
        assert url.username == postgres["environment"]["POSTGRES_USER"], name
        assert url.password == PASSWORD, name
        assert url.path == "/" + postgres["environment"]["POSTGRES_DB"], name
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert services[name]["env_file"] == ".env"  # DISCORD_TOKEN, as for the single bot


def test_every_bot_setting_in_compose_is_one_the_bot_reads_and_accepts(
    services: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    known = {name.upper() for name in Settings.model_fields}
    monkeypatch.chdir(tmp_path)  # no developer's .env
    for name, env in sharded_bots(services).items():
        assert set(env) <= known, (name, set(env) - known)
        with monkeypatch.context() as patch:
            for key, value in env.items():
                patch.setenv(key, value)
            settings = load_settings()
            assert settings.sharded, name
            assert settings.database_location == env["DATABASE_URL"], name


def test_the_readme_command_starts_services_of_the_profile(services: dict[str, Any]) -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    commands = re.findall(r"docker compose --profile sharded up -d ([\w .-]+)", readme)
    commands += re.findall(
        r"docker compose --profile sharded up -d ([\w .-]+)", COMPOSE.read_text()
    )
    assert commands
    for command in commands:
        names = command.split()
        assert sorted(names) == sorted(["postgres", *sharded_bots(services)]), command


PODMAN_COMPOSE = re.compile(r"(\S*)\s*\bpodman[- ]compose (?:--profile \w+ )?(?:up|build)\b")


def test_podman_compose_commands_build_the_docker_format_that_keeps_the_health_check() -> None:
    """podman builds the OCI format unless told otherwise, and that format has no HEALTHCHECK:
    `podman-compose up -d` as compose.yaml named it made an image without one (podman's warning
    scrolled by in the build; readme49). `BUILDAH_FORMAT=docker` keeps it, as `make image` does
    with `--format docker`."""
    texts = {
        "README.md": (ROOT / "README.md").read_text("utf-8"),
        "compose.yaml": COMPOSE.read_text(),
    }
    for name, text in texts.items():
        found = PODMAN_COMPOSE.findall(text)
        assert found, f"{name} names no podman-compose command"
        for before in found:
            assert before.endswith("BUILDAH_FORMAT=docker"), name
