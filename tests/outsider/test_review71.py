"""review71 (tests/outsider/PLAN.md, "review71"): attacks on the sixth session's changes as an
outsider makes them. A DATABASE_URL whose host part urllib cannot split (an IPv6 bracket left
open, a name in brackets) raised ValueError from `bot.dburl` and `is_database_url`: `--db` echoed
the URL with its password in argparse's "invalid value" line, `migrate-db --to` ended in a
traceback. README: the password is never shown; bad input gets one line."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.dburl import url_problem, without_password
from bot.storage.backend import is_database_url
from bot.storage.store import Store
from tests.conftest import TEST_DATABASE_URL
from tests.resilience.botproc import CLI_ENV, glossary_bot_here
from tests.storage.conftest import fresh_schema

from .test_product70 import _imported

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


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs TEST_DATABASE_URL")
async def test_fifty_hosts_reach_the_last_and_all_refusing_is_one_line(tmp_path: Path) -> None:
    """Held (left70's host lists at scale, the real PostgreSQL): 49 ports that refuse, then the
    database: the store opens through the list; every host refusing: one line, no password.
    `stats` in a process of its own: `glossary_bot_here` runs its own event loop."""
    async with fresh_schema(TEST_DATABASE_URL, "review71") as url:
        parts = urlsplit(url)
        auth, _, host = parts.netloc.rpartition("@")
        refusing = ",".join(f"127.0.0.1:{port}" for port in range(21, 70))
        listed = parts._replace(netloc=f"{auth}@{refusing},{host}").geturl()
        store = await Store.open(listed, flush_interval=None)
        await store.close()
        dead = parts._replace(netloc=f"{auth}@{refusing}").geturl()
        status, said = await asyncio.to_thread(
            glossary_bot_here, CLI_ENV, tmp_path, "stats", "--db", dead
        )
    assert status == 1, said
    assert len(said.strip().splitlines()) == 1, said
    assert "cannot reach the database" in said, said
    password = parts.password or ""
    assert not password or f":{password}@" not in said, said


ONE_ENTRY = (
    '[[entries]]\ntitle = "Zorblax"\ncategory = "Retrieval & Context"\n'
    'definition = "A made-up thing for a test."\n'
)


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ("\ufeff# ours\r\n" + "\t#\r\n" * 1_200, False),  # BOM, CRLF, tabs before "#"
        ("# [[entries]]\n" + "#\n" * 1_200, False),  # the header only in a comment
        ("\ufeff" + ONE_ENTRY.replace("\n", "\r\n") + "#\r\n" * 1_200, True),
        ("\ufeff" + ONE_ENTRY + "#\n" * 20, True),
    ],
    ids=["bom-crlf-tabs", "commented-header", "bom-entry-then-comments", "bom-entry-small"],
)
def test_no_entries_is_said_only_of_a_file_without_them(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    entries: bool,
) -> None:
    """Held (product70's "no entries in the file." at a cap of 20, 1,200 lines): a BOM, CRLF and
    tabs change nothing; a file with an entry, however many comments follow, is not said to
    hold none: it is imported (product71: comment lines are not counted as structure; before,
    1,200 of them were the count's refusal)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MAX_SERVER_TERMS", "20")
    code, said = _imported(tmp_path, capsys, "ours.toml", text)
    assert ("no entries in the file" in said) is not entries, said
    if entries:
        assert code == 0, said
    else:
        assert code == 1, said


@pytest.mark.parametrize("reference", ["https://[oops/page", "https://[db1]/page"])
def test_a_reference_url_urllib_cannot_split_is_a_problem_not_a_traceback(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
) -> None:
    """Found beside the database URLs: an entry's reference with a bracket left open, or a name
    in brackets, raised urllib's ValueError out of `check.entry_problems`: `glossary-bot check`
    and `terms import` (so `/term import`'s worker thread) ended in a traceback. It is the
    "bad reference URL" every other bad reference gets."""
    monkeypatch.chdir(tmp_path)
    text = ONE_ENTRY + f'reference = "{reference}"\n'
    code, said = _imported(tmp_path, capsys, "ours.toml", text)
    assert code == 1, said
    assert f"Reference: bad reference URL '{reference}'" in said, said
    assert "Traceback" not in said, said
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(
        text.replace("[[entries]]\n", '[[entries]]\nid = "zorblax"\n')
    )
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "check", str(folder))
    assert status == 1, said
    assert f"bad reference URL '{reference}'" in said, said
    assert "Traceback" not in said, said
