"""What a fifteenth round of outside testing found: the glossary's maintainers editing a glossary
the bot serves (an entry renamed or removed while servers' aliases and terms point at it), cards
over time, server terms found by meaning, through `glossary-bot run` against the fake Discord and
the command line (tests/outsider/PLAN.md, round 15)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.discord_app.helpers import buttons, define, embed_of
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_run_here

from .conftest import Scene

ZORB = """
[[entries]]
id = "zorb"
title = "Zorb Engine"
category = "Fundamentals"
definition = "A made-up inference engine that batches prompts by colour before scheduling them."
"""
# The same entry after its maintainers renamed its id: what pointed at "zorb" points at nothing.
RENAMED = ZORB.replace('id = "zorb"', 'id = "zorb-engine"')


async def test_an_alias_whose_entry_the_maintainers_renamed_says_so(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line X4: a server's alias "qq zorbo" opened Zorb Engine; the maintainers renamed the
    entry's id and restarted the bot. `/define qq zorbo` then said "No entry … ask a moderator
    to add it as an alias", `/alias list` showed "“qq zorbo” → zorb" as if it worked, a moderator
    adding the alias for the renamed entry was told it "is already this server's alias for
    **zorb**", and the log said nothing. Now each says the alias names an entry no longer in
    the glossary, and the log says it once to the operator."""
    fake, mod = scene.fake, scene.moderator
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    env = {"GLOSSARY_PATHS": str(folder), "GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env):
        added = await fake.slash(
            mod, "alias add", {"alias": "qq zorbo", "term": "zorb"}, channel=scene.channel
        )
        assert (await added.final_message())["content"].startswith("Added"), "the alias"
    (folder / "mine.toml").write_text(RENAMED)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env) as bot:
        _, answer = await define(fake, scene.alice, "qq zorbo", scene.channel)
        assert (
            "It is this server's alias for “zorb”, which is no longer in the glossary"
            in (answer["content"])
        ), answer["content"]
        assert "ask a moderator to add it as an alias" not in answer["content"]
        listed = await fake.slash(mod, "alias list", {}, channel=scene.channel)
        lines = embed_of(await listed.final_message())["description"]
        assert "“qq zorbo” → zorb (no longer in the glossary)" in lines, lines
        again = await fake.slash(
            mod, "alias add", {"alias": "qq zorbo", "term": "zorb-engine"}, channel=scene.channel
        )
        refused = (await again.final_message())["content"]
        assert "alias for **zorb (no longer in the glossary)**. Remove it first" in refused
        picker = await fake.autocomplete(
            mod, "alias remove", {"alias": "qq"}, focused="alias", channel=scene.channel
        )
        assert [c["name"] for c in await picker.choices()] == [
            "qq zorbo → zorb (no longer in the glossary)"
        ]
    # The operator who changed the data is told once, whatever the moderators did meanwhile.
    told = [line for line in bot.lines if "alias of entries no longer in the glossary" in line]
    assert len(told) == 1, bot.output
    assert (
        f"server {scene.guild.id} has 1 alias of entries no longer in the glossary (zorb)"
        in (told[0])
    )


async def test_about_counts_a_glossary_of_one_entry_in_the_singular(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line X34: `/glossary about` on a maintainer's glossary of one file with one entry
    said "1 entries from 1 sources" and "mine: 1 definitions"."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    env = {"GLOSSARY_PATHS": str(folder), "GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **env):
        about = await scene.fake.slash(scene.alice, "glossary about", {}, channel=scene.channel)
        counted = embed_of(await about.final_message())["fields"][0]
    assert counted == {
        "inline": False,
        "name": "1 entry from 1 source",
        "value": "mine: 1 definition",
    }


async def test_a_term_whose_id_the_glossary_gives_another_entry_is_renamed(
    scene: Scene, tmp_path: Path
) -> None:
    """Beside plan line X7 (X35): a server's term "Blap" (id `blap`, an alias "qq blap", looked
    up 3 times); the maintainers then add an entry "Blapper Unit" with the id `blap`, and their
    Zorb Engine relates to it. In that server the id opened the term: Zorb Engine's button
    "Blap" opened the server's term, and the two shared one lookup count. Now the server's
    first read renames the term (`blap-2`) in one write with its alias and lookups, and says
    so once: the button opens the maintainers' entry, the term opens by its title and alias,
    the counts stay apart, and `terms export` writes the new id."""
    fake, mod = scene.fake, scene.moderator
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    env = {"GLOSSARY_PATHS": str(folder), "GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env):
        opened = await fake.slash(
            mod, "term add", {"category": "Fundamentals"}, channel=scene.channel
        )
        await opened.response()
        form = {"title": "Blap", "definition": "Our nightly invoice job."}
        await (await fake.submit_modal(mod, opened, form)).final_message()
        added = await fake.slash(
            mod, "alias add", {"alias": "qq blap", "term": "blap"}, channel=scene.channel
        )
        assert (await added.final_message())["content"].startswith("Added"), "the alias"
        for _ in range(3):
            _, card = await define(fake, scene.alice, "blap", scene.channel)
            assert embed_of(card)["title"] == "Blap"
    blapper = '[[entries]]\nid = "blap"\ntitle = "Blapper Unit"\ncategory = "Fundamentals"\n'
    blapper += 'definition = "The maintainers\' blapper unit, another concept."\n'
    zorb = ZORB + 'related = ["blap"]\n'
    (folder / "mine.toml").write_text(zorb + "\n" + blapper)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env) as bot:
        _, card = await define(fake, scene.alice, "zorb engine", scene.channel)
        assert embed_of(card)["title"] == "Zorb Engine"
        click = await fake.click(scene.alice, card, buttons(card)["Blapper Unit"])
        assert embed_of(await click.final_message())["title"] == "Blapper Unit"
        for asked in ("blap", "qq blap"):
            _, term = await define(fake, scene.alice, asked, scene.channel)
            assert embed_of(term)["title"] == "Blap", asked
        listed = await fake.slash(mod, "term log", {}, channel=scene.channel)
        logged = embed_of(await listed.final_message())["description"]
        assert "the bot renamed (the glossary gave its id to an entry) “Blap”" in logged, logged
        assert "> **Id**: ~~blap~~ → blap-2" in logged, logged
    told = [line for line in bot.lines if "which the glossary's" in line]
    assert len(told) == 1, bot.output
    assert (
        f"server {scene.guild.id}'s term “Blap” had the id 'blap', which the glossary's "
        "“Blapper Unit” now has: renamed 'blap-2'"
    ) in told[0]
    db, guild = str(scene.db_path), str(scene.guild.id)
    shown = _cli(tmp_path, "stats", "--db", db, "--guild", guild, GLOSSARY_PATHS=str(folder))
    assert shown.returncode == 0, shown.stderr
    top = [line.split() for line in shown.stdout.splitlines() if "  [" in line]
    assert top == [
        ["5", "Blap", "[blap-2]"],  # 3 before the rename, 2 after
        ["1", "Blapper", "Unit", "[blap]"],  # the button's
        ["1", "Zorb", "Engine", "[zorb]"],
    ], shown.stdout
    exported = _cli(tmp_path, "terms", "export", "--guild", guild, "--db", db, **env)
    assert exported.returncode == 0, exported.stderr
    assert 'id = "blap-2"' in exported.stdout, exported.stdout
    logged = _cli(tmp_path, "terms", "log", "--guild", guild, "--db", db, **env)
    assert logged.returncode == 0, logged.stderr
    assert logged.stdout.splitlines()[:2] == [
        logged.stdout[:22] + "the bot renamed (the glossary gave its id to an entry) “Blap”",
        "    Id: blap → blap-2",
    ], logged.stdout


def exported_after_a_rename(
    tmp_path: Path,
) -> tuple[subprocess.CompletedProcess[str], str, dict[str, str]]:
    """`terms export --guild 5` of a server term ("blap") related to a maintainer's entry
    ("zorb") whose id was renamed since; with the database and the settings it ran with."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    db = str(tmp_path / "g.db")
    blap = '[[entries]]\nid = "blap"\ntitle = "Blap"\ncategory = "Fundamentals"\n'
    blap += 'definition = "A blap thing."\nrelated = ["zorb"]\n'
    served = {"GLOSSARY_PATHS": str(folder)}
    imported = _cli(
        tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=blap, **served
    )
    assert imported.returncode == 0, imported.stderr
    (folder / "mine.toml").write_text(RENAMED)
    exported = _cli(tmp_path, "terms", "export", "--guild", "5", "--db", db, **served)
    assert exported.returncode == 0, exported.stderr
    return exported, db, served


def test_an_export_leaves_out_related_entries_no_longer_in_the_glossary(tmp_path: Path) -> None:
    """Plan line X6: a server term related to a maintainer's entry; the entry's id renamed. The
    card rightly dropped the dead button, but `terms export` (and `/term export`) still wrote
    `related = ["zorb"]`, so the README's "writes a file that imports back" failed: "Related
    terms: no term of this server or the bundled glossary is called “zorb”", nothing imported,
    here or in another server. Now the export leaves it out and says so in a comment."""
    exported, db, served = exported_after_a_rename(tmp_path)
    assert '# related "zorb" left out: no longer in the glossary' in exported.stdout
    assert "related =" not in exported.stdout, exported.stdout
    back = _cli(
        tmp_path,
        "terms",
        "import",
        "-",
        "--guild",
        "6",
        "--db",
        db,
        stdin=exported.stdout,
        **served,
    )
    assert back.returncode == 0, back.stderr
    assert back.stdout.startswith("Imported: 1 added"), back.stdout


def test_an_asked_as_phrasing_of_no_entry_names_its_file_and_line(tmp_path: Path) -> None:
    """Plan line X9: a maintainer's folder with `asked-as/mine.toml` holding phrasings for an id
    no entry has: `check` said "asked-as [nope]: error: names no entry", no file or line, where
    the README promises every problem "with file (as you named it), entry and line". Now the
    file as named and the line of the id's table."""
    folder = tmp_path / "glossary"
    (folder / "asked-as").mkdir(parents=True)
    (folder / "mine.toml").write_text(ZORB)
    (folder / "asked-as" / "mine.toml").write_text(
        '["zorb"]\nasked_as = ["the engine that sorts prompts by colour"]\n\n'
        '["nope"]\nasked_as = ["something that is nowhere"]\n'
    )
    checked = _cli(tmp_path, "check", "glossary")
    assert checked.returncode == 1, checked
    assert checked.stdout.splitlines()[0] == (
        "glossary/asked-as/mine.toml:4 [nope]: error: names no entry: 'nope'"
    ), checked.stdout


def test_a_toml_import_gives_an_entry_without_a_category_one(tmp_path: Path) -> None:
    """Plan line X32: `terms import --category C` ("the category of entries that give none")
    of curated TOML whose entry gives none: "Category: missing required field", with the
    option or without; and a term wording a bundled entry, which the README says "takes the
    entry's category unless given one", was refused the same way. Only Markdown took them
    (`/term import` alike). Now a TOML entry without one gets the entry's it words, else the
    option's, else "choose a category", as a Markdown term does."""
    db = str(tmp_path / "g.db")
    blap = '[[entries]]\nid = "blap"\ntitle = "Blap"\ndefinition = "A blap thing."\n'
    kv = '[[entries]]\nid = "kv-cache"\ntitle = "KV Cache"\ndefinition = "Our kv cache."\n'
    given = _cli(
        tmp_path,
        "terms",
        "import",
        "-",
        "--guild",
        "5",
        "--db",
        db,
        "--category",
        "Agents & Interfaces",
        stdin=blap + "\n" + kv,
    )
    assert given.returncode == 0, given.stdout
    exported = _cli(tmp_path, "terms", "export", "--guild", "5", "--db", db).stdout
    assert exported.count('category = "Agents & Interfaces"') == 1, exported
    assert 'category = "Inference & Operations"' in exported, exported  # KV Cache's own
    none = _cli(tmp_path, "terms", "import", "-", "--guild", "6", "--db", db, stdin=blap)
    assert none.returncode == 1, none
    assert "“Blap”, Category: choose a category (one of: Fundamentals," in none.stderr


def test_export_help_says_what_it_prints(tmp_path: Path) -> None:
    """Plan line X13: `export --help` said it prints `{"entries": [...]}`; it prints (and the
    README says) `{"sources": [...], "entries": [...]}`."""
    helped = _cli(tmp_path, "export", "--help")
    assert 'Print {"sources": [...], "entries": [...]}' in helped.stdout, helped.stdout
    printed = _cli(tmp_path, "export")
    assert printed.stdout.startswith('{\n "sources": ['), printed.stdout[:40]


def _cli(
    cwd: Path, *args: str, stdin: str = "", **settings: str
) -> subprocess.CompletedProcess[str]:
    """A command run in this process (`glossary_bot_run_here`): its answers are the point here,
    not its process (a process each was for `terms export` to stdout, which needs a buffer)."""
    return glossary_bot_run_here({**CLI_ENV, **settings}, cwd, *args, stdin=stdin)
