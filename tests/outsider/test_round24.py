"""Outside testing round 24: upgrade day (tests/outsider/PLAN.md, round 24).

A self-hoster restarts the bot on the same database after the glossary under it changed, and a
maintainer runs `glossary-bot check` on a `data/` pull request: through `glossary-bot check`
and `glossary-bot run` against the fake Discord, with real SQLite files."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.discord_app.helpers import define, embed_of
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_waited

from .conftest import Scene

DATA = Path(__file__).resolve().parents[2] / "data"
CAFE = '[[entries]]\nid = "cafe"\ntitle = "Café Engine"\ncategory = "Fundamentals"\n'
CAFE += 'definition = "A made-up engine – for cafés."\n'


def test_check_names_the_line_of_a_file_saved_as_ansi_and_says_how_to_mend_it(
    tmp_path: Path,
) -> None:
    """Plan line C6: a pull request's curated TOML saved by Notepad as "ANSI" (Windows-1252),
    and a `kinds/` file likewise: `check` said "cannot read the file: 'utf-8' codec can't
    decode byte 0xe9 in position 36: invalid continuation byte" (a byte offset, the codec's
    words). Now it names the line and says to save the file as UTF-8, as `/term import`
    does."""
    folder = tmp_path / "g"
    (folder / "kinds").mkdir(parents=True)
    (folder / "mine.toml").write_bytes(("# the café's glossary\n" + CAFE).encode("cp1252"))
    (folder / "kinds" / "mine.toml").write_bytes('cafe = "tool"  # café\n'.encode("cp1252"))
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "-q", str(folder))
    assert status == 1, output
    advice = "error: not UTF-8 text (a byte on this line is not UTF-8): save the file as UTF-8"
    assert f"{folder / 'mine.toml'}:1: {advice}" in output, output
    assert f"{folder / 'kinds' / 'mine.toml'}:1: {advice}" in output, output
    assert "codec" not in output, output
    assert "position" not in output, output


def test_check_warns_of_a_file_the_folders_sources_toml_does_not_list(tmp_path: Path) -> None:
    """Plan line C8: a pull request adds `extra.toml` to `data/` without a `[[sources]]` table
    for it. `check` passed it in silence ("0 error(s), 0 warning(s)") and the bot never read
    it: its entries were simply not there. Now a warning names the file."""
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    (folder / "extra.toml").write_text(CAFE, encoding="utf-8")
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", str(folder))
    assert status == 0, output
    warning = (
        f"{folder / 'extra.toml'}: warning: not listed in sources.toml, so not read: add a "
        "[[sources]] table for it"
    )
    assert warning in output, output
    assert output.count("not listed in sources.toml") == 1, output  # the overlays are listed


async def test_a_corrupt_embedding_cache_is_one_line_and_the_bot_serves(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line U12: the entry vectors' cache file in GLOSSARY_CACHE_DIR damaged (cut short
    by a copy of the cache folder, emptied, or another file under its name): `run` ended in a
    traceback (`zipfile.BadZipFile: File is not a zip file`, `EOFError`, `TypeError`) and the
    bot never started. Now one WARNING names the file, the entries are embedded again, the
    cache is written afresh, and cards by meaning are found."""
    folder, cache = tmp_path / "glossary", tmp_path / "cache"
    folder.mkdir()
    cache.mkdir()
    zorb = '[[entries]]\nid = "zorb"\ntitle = "Zorb Engine"\ncategory = "Fundamentals"\n'
    zorb += 'definition = "A made-up inference engine that batches prompts by colour."\n'
    (folder / "mine.toml").write_text(zorb, encoding="utf-8")
    env = {"GLOSSARY_PATHS": str(folder), "GLOSSARY_CACHE_DIR": str(cache)}
    for damaged in (b"PK\x03\x04" + b"cut short" * 20, b""):
        (cache / "entry-vectors.npz").write_bytes(damaged)
        async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **env) as bot:
            _, card = await define(scene.fake, scene.alice, "zorb engine", scene.channel)
            assert embed_of(card)["title"] == "Zorb Engine"
        told = [line for line in bot.lines if "unreadable embedding cache" in line]
        assert len(told) == 1, bot.output
        assert str(cache / "entry-vectors.npz") in told[0]
        assert "Traceback" not in bot.output, bot.output
        assert (cache / "entry-vectors.npz").stat().st_size > 1000  # written afresh


def _entry(entry_id: str, title: str, definition: str) -> str:
    return (
        f'[[entries]]\nid = "{entry_id}"\ntitle = "{title}"\ncategory = "Fundamentals"\n'
        f'definition = "{definition}"\n\n'
    )


ZORB = _entry("zorb", "Zorb Engine", "A made-up inference engine that batches prompts by colour.")


async def test_an_alias_a_new_glossary_title_takes_is_marked_and_told(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line U19: a server's alias "qq titled" opened Zorb Engine; the maintainers then
    added an entry titled "Qq Titled" (another concept). A glossary title outranks a server's
    alias, so after the restart `/define qq titled` opened the new entry, while `/alias list`
    and the remove box still said "“qq titled” → Zorb Engine", and nobody was told: the alias
    silently opened another entry. Now `/alias list` and the remove box say what it opens, and
    the log tells the operator once."""
    fake, mod = scene.fake, scene.moderator
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB, encoding="utf-8")
    env = {"GLOSSARY_PATHS": str(folder), "GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env):
        added = await fake.slash(
            mod, "alias add", {"alias": "qq titled", "term": "zorb"}, channel=scene.channel
        )
        assert (await added.final_message())["content"].startswith("Added"), "the alias"
    titled = _entry("titled", "Qq Titled", "A made-up concept the maintainers added later.")
    (folder / "mine.toml").write_text(ZORB + titled, encoding="utf-8")
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env) as bot:
        _, card = await define(fake, scene.alice, "qq titled", scene.channel)
        assert embed_of(card)["title"] == "Qq Titled"  # the glossary's title wins, by design
        listed = await fake.slash(mod, "alias list", {}, channel=scene.channel)
        lines = embed_of(await listed.final_message())["description"]
        marked = "“qq titled” → Zorb Engine (opens “Qq Titled” now: the glossary's title)"
        assert marked in lines, lines
        picker = await fake.autocomplete(
            mod, "alias remove", {"alias": "qq"}, focused="alias", channel=scene.channel
        )
        assert [c["name"] for c in await picker.choices()] == [
            "qq titled → Zorb Engine (opens “Qq Titled” now: the glossary's title)"
        ]
    told = [line for line in bot.lines if "glossary titles now take" in line]
    assert len(told) == 1, bot.output
    assert (
        f"server {scene.guild.id} has 1 alias that glossary titles now take (“qq titled” opens "
        "“Qq Titled”, not “Zorb Engine”)" in told[0]
    ), told[0]


async def test_a_term_a_new_glossary_name_makes_a_wording_is_told_to_the_operator(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line U7: a server's own term "Blorp Widget" (its own concept); the maintainers then
    gave their Zorb Engine the other name "blorp widget". A term named as a bundled entry is the
    server's wording of it, so after the restart, in that server, `/define zorb engine` opened
    "Blorp Widget" (the term's text first, Zorb Engine's after it), the server's aliases of Zorb
    Engine opened it, and `/stats` counted Zorb Engine's lookups as the term's: two concepts on
    one card, and nobody told. The merge is the documented rule (a term named as an entry words
    it); now the operator is told once, naming the server, the term, the name and the entry."""
    fake, mod = scene.fake, scene.moderator
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB, encoding="utf-8")
    env = {"GLOSSARY_PATHS": str(folder), "GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env) as bot:
        opened = await fake.slash(
            mod, "term add", {"category": "Fundamentals"}, channel=scene.channel
        )
        await opened.response()
        form = {"title": "Blorp Widget", "definition": "Our own widget for blorping the queue."}
        await (await fake.submit_modal(mod, opened, form)).final_message()
        _, card = await define(fake, scene.alice, "zorb engine", scene.channel)
        assert embed_of(card)["title"] == "Zorb Engine"
    assert not [line for line in bot.lines if "is shown as the glossary's" in line], bot.output
    named = ZORB + 'aliases = ["blorp widget"]\n'
    (folder / "mine.toml").write_text(named, encoding="utf-8")
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env) as bot:
        _, card = await define(fake, scene.alice, "zorb engine", scene.channel)
        assert embed_of(card)["title"] == "Blorp Widget"  # the documented one card per concept
    told = [line for line in bot.lines if "is shown as the glossary's" in line]
    assert len(told) == 1, bot.output
    assert (
        f"server {scene.guild.id}'s term “Blorp Widget” (id 'blorp-widget') is shown as the "
        "glossary's “Zorb Engine”, whose name “blorp widget” it has" in told[0]
    ), told[0]
