"""review70 (tests/outsider/PLAN.md, "review70"): attacks, as an outsider, on the last
session's changes: database URLs as operators write them (bot.dburl), line breaks written as
escapes in glossary files, the export/import round trip at every cap."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.dburl import url_problem, without_password
from tests.conftest import TEST_DATABASE_URL
from tests.resilience.botproc import CLI_ENV, glossary_bot_here

SECRET = "Pw0rdXy7"

# URLs PostgreSQL's own clients take (libpq's and asyncpg's forms), each with its password
# somewhere: never shown, and no problem claimed.
WELL_FORMED = [
    f"postgresql://bot:{SECRET}@[::1]:5432/glossary",
    f"postgresql://bot:{SECRET}@[::1]/glossary",
    f"postgresql://bot:{SECRET}@[fe80::1%25eth0]:5432/glossary",
    f"postgresql://bot:{SECRET}@%2Fvar%2Frun%2Fpostgresql/glossary",
    f"postgresql://bot:{SECRET}@/glossary?host=/var/run/postgresql",
    f"postgresql://bot:{SECRET}@db:/glossary",
    f"postgres://bot:{SECRET}@db:5432/glossary",
    f"postgresql://bot:{SECRET}@db:5432/glossary?sslmode=require&search_path=glossary",
    "postgresql://bot:P%40ss%3A%2F%3F%23" + SECRET + "@db:5432/glossary",
    # The password as a query parameter, as libpq and asyncpg both read it.
    f"postgresql://bot@db:5432/glossary?password={SECRET}",
    f"postgresql:///glossary?host=/var/run/postgresql&user=bot&password={SECRET}",
    f"postgresql://bot@db:5432/glossary?sslmode=disable&password={SECRET}&application_name=gb",
    f"postgresql://bot@db/glossary?password=%50{SECRET}",
]


@pytest.mark.parametrize("url", WELL_FORMED)
def test_a_well_formed_url_is_taken_and_shown_without_its_password(url: str) -> None:
    """README: "The password is never logged". A password given as `?password=` (libpq's and
    asyncpg's own form, where a socket folder is the host) was shown as written in every line
    naming the URL (`cannot log in to the database at postgresql://bot@db/glossary?password=…`);
    review70 found it so."""
    assert url_problem(url) is None, url
    shown = without_password(url)
    assert SECRET not in shown, shown
    assert "%50" not in shown, shown
    # What is kept still names the same place: scheme, host, path and the other parameters.
    kept, given = urlsplit(shown), urlsplit(url)
    assert shown.startswith(f"{given.scheme}://"), shown
    assert (kept.scheme, kept.hostname, kept.path) == (given.scheme, given.hostname, given.path)
    for name in ("sslmode", "search_path", "application_name", "host", "user"):
        if f"{name}=" in given.query:
            assert f"{name}=" in kept.query, shown


@pytest.mark.parametrize("port", ["0", "-1", "+5432", "5x", "65536"])
def test_a_port_outside_1_to_65535_is_named(port: str) -> None:
    """The line says "its port is not a number from 1 to 65535"; port 0 went to connect
    ("cannot reach the database at …:0: Connect call failed")."""
    url = f"postgresql://bot:{SECRET}@db:{port}/glossary"
    assert url_problem(url) == "its port is not a number from 1 to 65535", url
    assert SECRET not in without_password(url)


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://glossary@127.0.0.1:9/glossary_test?password={SECRET}",
        f"postgresql://glossary:{SECRET}@[::1]:9/glossary_test",
        f"postgresql://glossary:{SECRET}@%2Fnonexistent-r70/glossary_test",
    ],
)
def test_stats_names_an_unreachable_url_without_its_password(tmp_path: Path, url: str) -> None:
    """The command line's one line for a database it cannot reach, as `stats` and `stats --db`
    print it: the URL without the password, whichever form the password was given in."""
    for args, env in (
        (("stats",), {**CLI_ENV, "DATABASE_URL": url}),
        (("stats", "--db", url), CLI_ENV),
    ):
        status, said = glossary_bot_here(env, tmp_path, *args)
        assert status != 0, said
        assert len(said.strip().splitlines()) == 1, said
        assert SECRET not in said, said
        assert "glossary_test" in said, said


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs TEST_DATABASE_URL")
def test_a_password_as_a_query_parameter_logs_in_and_a_wrong_one_is_not_shown(
    tmp_path: Path,
) -> None:
    """Against the real PostgreSQL: its password moved into `?password=` logs in as the URL
    with it in place does (libpq's form), and a wrong one is refused without showing it."""
    parts = urlsplit(TEST_DATABASE_URL)
    assert parts.password, "the test database URL names its password"
    bare = parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", "@", 1))
    right = bare._replace(query=f"password={parts.password}").geturl()
    wrong = bare._replace(query=f"password={SECRET}").geturl()
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "stats", "--db", wrong)
    assert status == 1, said
    assert "password authentication failed" in said, said
    assert SECRET not in said, said
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "stats", "--db", right)
    assert "password authentication failed" not in said, said
    assert f"password={parts.password}" not in said, said


# Names written with line breaks or a tab as escapes (a script's file of text typed on Windows):
# refused, as names may not hold them; the problem still one line, the name as the file wrote it.
NAMES_WITH_BREAKS = """
[[entries]]
title = "Zorb\\r\\nOne"
category = "Fundamentals"
definition = "A line.\\r\\nAnother line."

[[entries]]
title = "Zorb Two"
aliases = ["zorb\\rtwo thing", "z\\ttab"]
category = "Fundamentals"
definition = "B."
"""


def test_a_name_with_a_line_break_is_refused_in_one_line_showing_it(tmp_path: Path) -> None:
    """`terms import` listed each problem on a line of its own, but quoted the name with its
    line break in it: "• line 2, “Zorb" then "One”, Title: …" over two lines, and a lone "\\r"
    sent the terminal's cursor back over the line's start. Now the name is shown as the file
    writes it (`Zorb\\r\\nOne`), one problem a line."""
    file = tmp_path / "names.toml"
    file.write_text(NAMES_WITH_BREAKS)
    db = str(tmp_path / "g.db")
    status, said = glossary_bot_here(
        {**CLI_ENV, "DATABASE_PATH": db}, tmp_path, "terms", "import", str(file), "--guild", "42"
    )
    assert status == 1, said
    assert "\r" not in said, said
    assert "\t" not in said, said
    lines = said.strip().split("\n")
    assert lines[0] == "Nothing was imported: 3 problems in the file.", said
    assert len(lines) == 4, said
    assert "“Zorb\\r\\nOne”, Title: “Zorb\\r\\nOne”: A name cannot contain line breaks" in said
    assert "Other names: “zorb\\rtwo thing”" in said, said
    assert "Other names: “z\\ttab”" in said, said


def _one_term(tmp_path: Path, definition: str) -> tuple[int, str]:
    file = tmp_path / "big.toml"
    file.write_text(
        f'[[entries]]\ntitle = "Zorb Big"\ncategory = "Fundamentals"\ndefinition = "{definition}"\n'
    )
    db = str(tmp_path / "g.db")
    return glossary_bot_here(
        {**CLI_ENV, "DATABASE_PATH": db}, tmp_path, "terms", "import", str(file), "--guild", "7"
    )


@pytest.mark.parametrize("size", [4001, 4096, 4097, 5000])
def test_a_definition_past_the_form_is_told_the_forms_cap_whatever_its_length(
    tmp_path: Path, size: int
) -> None:
    """README: a field holds what its form input does (definition 4,000). One of 4,001-4,096
    was told "longer than 4,000 characters (4,050): more than `/term edit`'s form holds", one
    past 4,096 "definition longer than 4096 characters" (the card's cap, said first): trimmed to
    4,090 after that, the moderator met the other. Now the form's cap, with the count, always."""
    status, said = _one_term(tmp_path, "a" * size)
    assert status == 1, said
    assert (
        f"Definition: longer than 4,000 characters ({size:,}): more than `/term edit`'s form holds"
        in said
    ), said
    assert "4096" not in said, said
    assert said.startswith("Nothing was imported: 1 problem in the file."), said


def test_a_definition_past_the_form_with_a_mention_is_told_both(tmp_path: Path) -> None:
    """README: every problem is reported at once. A definition of 4,050 characters holding
    @everyone was told only of the mention (the form's cap was not checked on a field already
    said to be wrong): the moderator who removed the mention then met the length."""
    status, said = _one_term(tmp_path, "hey @everyone " + "a" * 4050)
    assert status == 1, said
    assert said.startswith("Nothing was imported: 2 problems in the file."), said
    assert "cannot contain mentions" in said, said
    assert "longer than 4,000 characters (4,064)" in said, said
