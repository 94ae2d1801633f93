"""left70 (tests/outsider/PLAN.md, "left70"): review70's leftovers. A `DATABASE_URL` naming
several hosts (libpq's and asyncpg's `host1:port1,host2:port2`) or an IPv6 address without its
brackets was told "its port is not a number": true of what urllib reads, not of what is wrong."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.dburl import url_problem, without_password
from bot.storage.store import Store
from tests.conftest import TEST_DATABASE_URL
from tests.resilience.botproc import CLI_ENV, glossary_bot_here, glossary_bot_waited
from tests.storage.conftest import fresh_schema

SECRET = "Pw0rdXy7"

# Host lists as libpq and asyncpg read them (tried in order): taken, shown with every host and
# port as written and without the password.
HOST_LISTS = [
    (f"postgresql://bot:{SECRET}@db1:5432,db2:5433/glossary", "db1:5432,db2:5433"),
    (f"postgresql://bot:{SECRET}@db1,db2/glossary", "db1,db2"),
    (f"postgresql://bot:{SECRET}@db1:5432,[::1]:5433/glossary", "db1:5432,[::1]:5433"),
    (f"postgresql://bot:{SECRET}@[::1]:5432,db2/glossary?sslmode=require", "[::1]:5432,db2"),
    ("postgresql://db1:5432,db2:5433/glossary", "db1:5432,db2:5433"),
    (f"postgresql://bot@db1:5432,db2:5433/glossary?password={SECRET}", "db1:5432,db2:5433"),
]


@pytest.mark.parametrize(("url", "hosts"), HOST_LISTS)
def test_several_hosts_are_taken_and_shown_without_the_password(url: str, hosts: str) -> None:
    assert url_problem(url) is None, url
    shown = without_password(url)
    assert SECRET not in shown, shown
    assert urlsplit(shown).netloc.rpartition("@")[2] == hosts, shown
    assert urlsplit(shown).path == "/glossary", shown


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{SECRET}@db1:5432,db2:0/glossary",
        f"postgresql://bot:{SECRET}@db1:5432,db2:x/glossary",
        f"postgresql://bot:{SECRET}@db1:65536,db2/glossary",
    ],
)
def test_a_bad_port_in_a_host_list_is_still_named_as_the_port(url: str) -> None:
    assert url_problem(url) == "its port is not a number from 1 to 65535", url


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{SECRET}@db1:5432,,db2/glossary",
        f"postgresql://bot:{SECRET}@db1:5432,/glossary",
    ],
)
def test_an_empty_host_in_a_list_is_named(url: str) -> None:
    """asyncpg fails on it with an IndexError of its own."""
    problem = url_problem(url) or ""
    assert "empty" in problem, problem
    assert "host" in problem, problem


UNBRACKETED = [
    f"postgresql://bot:{SECRET}@::1:5432/glossary",
    f"postgresql://bot:{SECRET}@::1/glossary",
    f"postgresql://bot:{SECRET}@fe80::1:5432/glossary",
    f"postgresql://bot:{SECRET}@db1:5432,::1:5433/glossary",
]


@pytest.mark.parametrize("url", UNBRACKETED)
def test_an_ipv6_address_without_brackets_is_told_to_take_them(url: str) -> None:
    problem = url_problem(url) or ""
    assert "IPv6" in problem, problem
    assert "[::1]:5432" in problem, problem
    assert "port is not a number" not in problem, problem
    assert SECRET not in without_password(url)


@pytest.mark.parametrize("command", ["stats", "run"])
def test_the_command_line_names_the_missing_brackets_in_one_line(
    tmp_path: Path, command: str
) -> None:
    """As other bad URLs: `DATABASE_URL` refused as a setting (exit 2), `--db` refused by the
    store (exit 1); one line, the password not in it."""
    url = UNBRACKETED[0]
    env = {**CLI_ENV, "DATABASE_URL": url, "DISCORD_TOKEN": "x" * 59}
    # `run` sets signal handlers: a process of its own.
    status, said = (glossary_bot_waited if command == "run" else glossary_bot_here)(
        env, tmp_path, command
    )
    assert status == 2, said
    assert len(said.strip().splitlines()) == 1, said
    assert "DATABASE_URL" in said, said
    assert "IPv6" in said, said
    assert "[::1]:5432" in said, said
    assert "port is not a number" not in said, said
    assert SECRET not in said, said
    if command == "stats":
        status, said = glossary_bot_here(CLI_ENV, tmp_path, "stats", "--db", url)
        assert status == 1, said
        assert len(said.strip().splitlines()) == 1, said
        assert "IPv6" in said, said
        assert SECRET not in said, said


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs TEST_DATABASE_URL")
async def test_a_host_list_reaches_the_database_past_a_host_that_refuses(tmp_path: Path) -> None:
    """Against the real PostgreSQL: the first host refuses (port 9), the second is the
    database. The store opens (and creates its tables) through the list as the bot does, and
    `stats` reads it, as asyncpg tries the hosts in order."""
    async with fresh_schema(TEST_DATABASE_URL, "left70") as url:
        parts = urlsplit(url)
        auth, _, host = parts.netloc.rpartition("@")
        listed = parts._replace(netloc=f"{auth}@127.0.0.1:9,{host}").geturl()
        store = await Store.open(listed, flush_interval=None)
        await store.close()
        for args, env in (
            (("stats",), {**CLI_ENV, "DATABASE_URL": listed}),
            (("stats", "--db", listed), CLI_ENV),
        ):
            status, said = glossary_bot_here(env, tmp_path, *args)
            assert status == 0, said
            assert said.startswith("Glossary Bot stats"), said
