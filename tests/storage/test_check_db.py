"""`glossary-bot check --db`, on each backend: the servers' own terms and aliases in a database
against a glossary about to be served, before the restart (round 24's C7, PLAN.md "Leftovers
(left30)"). Nothing told the maintainer or operator before: the bot logs these once per server as
it reads the server with the new glossary."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.glossary.keys import normalize
from bot.term_storage import read_terms
from tests.resilience.botproc import CLI_ENV, ROOT, glossary_bot_here, glossary_bot_waited

from .conftest import OpenStore

TERMS = """
[[entries]]
id = "zorblax"
title = "Zorblax"
category = "Fundamentals"
definition = "A nightly reranker of our own."

[[entries]]
id = "blap-unit"
title = "Blap Unit"
category = "Fundamentals"
definition = "A made-up accelerator card that hums."
"""
# The maintainers' new entries: one takes the term's name as an alias, one the alias as its
# title, one the term's id for another concept.
NEW = """
[[entries]]
id = "zorb"
title = "Zorb Engine"
aliases = ["Zorblax"]
category = "Fundamentals"
definition = "A made-up inference engine that batches prompts by colour."

[[entries]]
id = "humbox"
title = "Hum Box"
category = "Fundamentals"
definition = "A made-up speaker."

[[entries]]
id = "blap-unit"
title = "Blap Core"
category = "Fundamentals"
definition = "A made-up chip of another kind entirely."
"""


async def cli(tmp_path: Path, *args: str) -> tuple[int, str]:
    """The command in this process (`glossary_bot_here`: its environment and folder, what a bare
    process prints on stderr included), where its answer is the point (a process each only
    imported the bot again: ~1 s of CPU, ci62). `check --db` in a process of its own: the last
    test here."""
    return await asyncio.to_thread(glossary_bot_here, CLI_ENV, tmp_path, *args)


async def test_check_db_reports_what_a_new_glossary_leaves_at_odds_per_server(
    location: str, open_any: OpenStore, tmp_path: Path
) -> None:
    (tmp_path / "terms.toml").write_text(TERMS, encoding="utf-8")
    (tmp_path / "new.toml").write_text(NEW, encoding="utf-8")
    status, said = await cli(
        tmp_path, "terms", "import", "terms.toml", "--guild", "5", "--db", location
    )
    assert status == 0, said
    store = await open_any()
    await store.add_alias(5, normalize("hum box"), "hum box", "blap-unit", actor_id=9)
    await store.add_alias(7, normalize("kv stash"), "kv stash", "kv-cache", actor_id=9)
    data = str(ROOT / "data")

    status, said = await cli(tmp_path, "check", "-q", "--db", location, data)
    assert (status, said) == (0, ""), said  # the bundled data: nothing at odds
    status, said = await cli(tmp_path, "check", "--db", location, data, "new.toml")
    assert status == 0, said  # warnings: the data loads, the bot starts
    lines = [line for line in said.splitlines() if line.startswith("server ")]
    assert lines == [
        "server 5: warning: alias “hum box” of “Blap Unit” is now the title of the glossary's "
        "“Hum Box”: it opens that entry until the server's moderators remove it (/alias list "
        "marks it)",
        "server 5: warning: term “Blap Unit” has the id 'blap-unit', which the glossary's "
        "“Blap Core” now has: the bot renames it 'blap-unit-2' (with its aliases, related ids "
        "and lookups) when it next reads the server with this glossary",
        "server 5: warning: term “Zorblax” (id 'zorblax') is shown as the glossary's “Zorb "
        "Engine”, whose name “Zorblax” it has: in that server the entry's card leads with the "
        "term's text, and the entry's aliases and lookups are the term's; if they are different "
        "concepts, rename the term or give the entry other names",
    ], said
    assert ", 2 servers with aliases or terms; 0 error(s), 6 warning(s)" in said, said
    # Without the bundled data, server 7's alias names an entry the glossary no longer has.
    status, said = await cli(tmp_path, "check", "-q", "--db", location, "new.toml")
    assert status == 0, said
    status, said = await cli(tmp_path, "check", "--db", location, "new.toml")
    assert (
        "server 7: warning: alias “kv stash” is of 'kv-cache', an entry no longer in the "
        "glossary: it opens nothing until the server's moderators remove it (/alias list "
        "marks it)"
    ) in said.splitlines(), said
    # Only read: the term keeps its id (the bot renames it, not check).
    assert sorted(t.id for t in await read_terms(store, 5)) == ["blap-unit", "zorblax"]


async def test_check_db_counts_only_the_servers_it_checked(
    location: str, open_any: OpenStore, tmp_path: Path
) -> None:
    """readme30: a database whose one server has lookups and no alias or term of its own said
    "0 servers in the database": the count is of the servers whose aliases and terms it read."""
    store = await open_any()
    store.record_lookup(5, "kv-cache")
    assert await store.flush()
    status, said = await cli(tmp_path, "check", "--db", location, str(ROOT / "data"))
    assert status == 0, said
    assert ", 0 servers with aliases or terms; 0 error(s), 0 warning(s)" in said, said


async def test_check_db_names_a_database_it_cannot_read(tmp_path: Path) -> None:
    status, said = await asyncio.to_thread(
        glossary_bot_waited, CLI_ENV, tmp_path, "check", "--db", "missing.db"
    )
    assert status == 1, said
    assert said.splitlines()[0] == "missing.db: error: no database there (a SQLite file)", said
    assert not (tmp_path / "missing.db").exists()
