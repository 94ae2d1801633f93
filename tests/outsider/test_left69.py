"""left69 (tests/outsider/PLAN.md, "left69"): ops69's leftover, a DATABASE_URL whose port is no
number, through `glossary-bot run`, `stats` and `stats --db` as an operator meets it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.resilience.botproc import CLI_ENV, glossary_bot_here, glossary_bot_waited

# (URL as pasted, the URL as the line should show it: user and host kept, no password)
PORT_NOT_A_NUMBER = [
    (
        "postgresql://glossary:Pw0rdXy@127.0.0.1:54x2/glossary",
        "postgresql://glossary@127.0.0.1:54x2/glossary",
    ),
    (
        "postgresql://glossary:Pw0rdXy@db.example:99999/glossary",
        "postgresql://glossary@db.example:99999/glossary",
    ),
]


def ran(env: dict[str, str], cwd: Path, command: str) -> tuple[int, str]:
    """`run` in a process of its own (it sets signal handlers: main thread only), `stats` here."""
    return (glossary_bot_waited if command == "run" else glossary_bot_here)(env, cwd, command)


@pytest.mark.parametrize(("url", "shown"), PORT_NOT_A_NUMBER)
@pytest.mark.parametrize("command", ["run", "stats"])
def test_a_port_that_is_no_number_is_named_not_the_password(
    tmp_path: Path, url: str, shown: str, command: str
) -> None:
    """ops69: `…@host:54x2/db` was told "expected a postgresql:// URL (percent-encode @ : / ? #
    in its user name or password …)", true of URLs but pointing at the password, while the
    port is what is wrong. Now one line naming DATABASE_URL, the URL without its password, and
    its port; no percent-encoding advice. Exit 2 as for other bad settings."""
    env = {**CLI_ENV, "DATABASE_URL": url, "DISCORD_TOKEN": "x" * 59}
    status, said = ran(env, tmp_path, command)
    assert status == 2, said
    assert len(said.strip().splitlines()) == 1, said
    assert "DATABASE_URL" in said, said
    assert f"{shown}: its port is not a number from 1 to 65535" in said, said
    assert "percent-encode" not in said, said
    assert "Pw0rdXy" not in said, said


@pytest.mark.parametrize(("url", "shown"), PORT_NOT_A_NUMBER)
def test_a_port_that_is_no_number_in_db_is_named_not_the_password(
    tmp_path: Path, url: str, shown: str
) -> None:
    """The same URL given as `stats --db`: one line naming it without its password, exit 1 as
    for the URLs whose password needs percent-encoding (test_round11)."""
    status, said = glossary_bot_here(CLI_ENV, tmp_path, "stats", "--db", url)
    assert status == 1, said
    assert len(said.strip().splitlines()) == 1, said
    assert f"{shown}: its port is not a number from 1 to 65535" in said, said
    assert "percent-encode" not in said, said
    assert "Pw0rdXy" not in said, said


@pytest.mark.parametrize("command", ["run", "stats"])
def test_a_port_cut_by_a_slash_in_the_password_still_names_the_password(
    tmp_path: Path, command: str
) -> None:
    """A '/' in the password ends the host part early, so the password's end reads as the port
    (`glossary:Pq/Zw9@…` is host glossary, port Pq): that port is no number too, but the
    password is the likely cause, and the line keeps saying to percent-encode it, showing no
    part of the URL past its scheme."""
    url = "postgresql://glossary:Pq/Zw9@127.0.0.1:5432/glossary"
    env = {**CLI_ENV, "DATABASE_URL": url, "DISCORD_TOKEN": "x" * 59}
    status, said = ran(env, tmp_path, command)
    assert status == 2, said
    assert len(said.strip().splitlines()) == 1, said
    assert "percent-encode" in said, said
    assert "password" in said, said
    assert "port is not a number" not in said, said
    assert "Pq" not in said, said
    assert "Zw9" not in said, said
