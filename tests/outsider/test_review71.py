"""review71 (tests/outsider/PLAN.md, "review71"): attacks on the sixth session's changes as an
outsider makes them. A DATABASE_URL whose host part urllib cannot split (an IPv6 bracket left
open, a name in brackets) raised ValueError from `bot.dburl` and `is_database_url`: `--db` echoed
the URL with its password in argparse's "invalid value" line, `migrate-db --to` ended in a
traceback. README: the password is never shown; bad input gets one line."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.dburl import url_problem, without_password
from bot.storage.backend import is_database_url
from bot.storage.store import Store
from tests.resilience.botproc import glossary_bot_here

from .test_round11 import CLI_ENV

SECRET = "Pw0rdXy7"

# Host parts `urllib.parse.urlsplit` refuses with ValueError (Python 3.11).
UNSPLITTABLE = [
    f"postgresql://bot:{SECRET}@[::1:5432/glossary",  # the bracket left open
    f"postgresql://bot:{SECRET}@::1]:5432/glossary",  # closed, never opened
    f"postgresql://bot:{SECRET}@[db1]:5432/glossary",  # a name, not an address, in brackets
    f"postgresql://bot:{SECRET}@db1:5432,[db2/glossary",  # in a list of hosts
]


@pytest.mark.parametrize("url", UNSPLITTABLE)
def test_an_unsplittable_host_is_a_problem_not_an_exception(url: str) -> None:
    assert is_database_url(url)
    problem = url_problem(url) or ""
    assert "IPv6" in problem, problem
    assert SECRET not in problem
    shown = without_password(url)
    assert SECRET not in shown, shown
    assert shown.startswith("postgresql://"), shown


@pytest.mark.parametrize("url", UNSPLITTABLE[:3])
@pytest.mark.parametrize(
    "args",
    [
        ("stats", "--db", "{url}"),
        ("prune", "--older-than", "30", "--db", "{url}"),
        ("terms", "export", "--guild", "1", "--db", "{url}"),
        ("migrate-db", "--from", "from.db", "--to", "{url}"),
    ],
)
def test_the_command_line_names_it_in_one_line_without_the_password(
    tmp_path: Path, url: str, args: tuple[str, ...]
) -> None:
    asyncio.run(_bot_database(tmp_path / "from.db"))
    status, said = glossary_bot_here(CLI_ENV, tmp_path, *(a.format(url=url) for a in args))
    assert status == 1, said
    assert len(said.strip().splitlines()) == 1, said
    assert SECRET not in said, said
    assert "IPv6" in said, said
    assert "Traceback" not in said, said


async def _bot_database(path: Path) -> None:
    """A SQLite file a bot has run on: `migrate-db --from` reads it before `--to`."""
    store = await Store.open(path, flush_interval=None)
    await store.close()


@pytest.mark.parametrize("url", UNSPLITTABLE[:3])
def test_the_setting_names_it_in_one_line_without_the_password(tmp_path: Path, url: str) -> None:
    env = {**CLI_ENV, "DATABASE_URL": url}
    status, said = glossary_bot_here(env, tmp_path, "stats")
    assert status == 2, said
    assert len(said.strip().splitlines()) == 1, said
    assert "DATABASE_URL" in said, said
    assert "IPv6" in said, said
    assert SECRET not in said, said


@pytest.mark.parametrize("name", ["PASSWORD", "Password", "pass%57ord"])
def test_a_password_parameter_in_other_letters_is_not_shown(name: str) -> None:
    """libpq reads its keywords as written, but one who writes `?PASSWORD=` means a password:
    a line naming the URL (asyncpg's refusal of the unknown setting) must not show it."""
    shown = without_password(f"postgresql://bot@db1:5432,db2/glossary?{name}={SECRET}&x=1")
    assert SECRET not in shown, shown
    assert shown.endswith("?x=1"), shown
