"""Outsider round 30 (tests/outsider/PLAN.md, outsider43): a community moves its glossary in,
and a maintainer edits data/. The real bot against the fake Discord, real SQLite files, the real
command line."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.term_commands import add_term
from tests.fake_discord import FakeUser
from tests.fake_discord.handles import JSON
from tests.resilience.botproc import CLI_ENV, ROOT, glossary_bot_here

from .conftest import Scene

# A curated TOML typed in a word processor, which turned the quotes into typographic ones.
SMART_QUOTES = """[[entries]]
title = \u201cZorb Engine\u201d
category = "Fundamentals"
definition = "A thing that zorbs."
"""
CURLY = (
    "“ is a typographic quote (a word processor's smart quotes): TOML strings take "
    "straight quotes, \" or '"
)


async def suggested(scene: Scene, store: Store, *names: str) -> None:
    """`names` suggested, in turn by alice, bob and the owner, each "What NAME is."."""
    for member, name in zip((scene.alice, scene.bob, scene.owner), names, strict=False):
        await store.add_suggestion(scene.guild.id, member.id, name, f"What {name} is.")


async def review_shown(scene: Scene, user: FakeUser, **options: str) -> JSON:
    """`/term review` (its `options`) by `user`: the suggestion it shows."""
    review = await scene.fake.slash(user, "term review", options, channel=scene.channel)
    return await review.final_message()


async def _import(scene: Scene, filename: str, data: str, **options: object) -> str:
    handle = await scene.fake.slash(
        scene.moderator,
        "term import",
        {"file": scene.fake.add_attachment(filename, data), **options},
        channel=scene.channel,
    )
    message = await handle.final_message()
    assert is_ephemeral(message)
    return str(message["content"])


async def _cli(tmp_path: Path, *args: str) -> tuple[int, str]:
    """The command in this process (its process is not what these tests check: each cost 1-2 s
    of importing the bot, far more loaded); `terms import`/`export` in a process of their own
    stay in test_round14 and test_round14_left."""
    return await asyncio.to_thread(glossary_bot_here, CLI_ENV, tmp_path, *args)


async def test_smart_quotes_in_an_import_are_named(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line M3: a curated TOML written in a word processor (`title = “Zorb Engine”`) was
    refused "not valid TOML: String values must be quoted, expected literal string (at line 2,
    column 9)": the quotes are there, to the eye. Now the problem names the typographic quote
    and what TOML takes instead; nothing is written."""
    text = await _import(scene, "ours.toml", SMART_QUOTES)
    assert text.startswith("Nothing was imported: 1 problem in the file."), text
    assert f"(at line 2, column 9): {CURLY}" in text, text
    assert await read_terms(store, scene.guild.id) == []


async def test_smart_quotes_in_a_maintainer_s_file_are_named_by_check(tmp_path: Path) -> None:
    """Plan line D4: the same in a GLOSSARY_PATHS file, `glossary-bot check` (whose reading
    `run` and `kill -HUP` share): one error line naming the file, the line and the quote."""
    (tmp_path / "mine.toml").write_text(
        SMART_QUOTES.replace("[[entries]]", '[[entries]]\nid = "zorb-engine"'), encoding="utf-8"
    )
    status, said = await _cli(tmp_path, "check", "-q", "mine.toml")
    assert status == 1, said
    assert said.startswith("mine.toml: error: not valid TOML: "), said
    assert "(at line 3, column 9): " + CURLY in said, said


async def test_a_straight_quoted_text_with_curly_quotes_inside_is_kept(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line M4 (held): typographic quotes and apostrophes inside straight quotes are text,
    kept as typed."""
    said = "It\u2019s the \u201cengine\u201d that zorbs."
    text = await _import(
        scene,
        "ours.toml",
        SMART_QUOTES.replace("\u201c", '"', 1)
        .replace("\u201d", '"', 1)
        .replace("A thing that zorbs.", said),
    )
    assert text.startswith("Imported: 1 added"), text
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == said


OTHER_TOOLS: list[object] = [
    # another glossary bot's export: a list of objects
    [{"term": "Zorb Engine", "definition": "A thing that zorbs."}],
    # a tags bot's export
    {"tags": [{"name": "zorb", "content": "A thing that zorbs."}]},
    # a name-to-definition map a script wrote
    {"Zorb Engine": "A thing that zorbs.", "Blap": "Another thing."},
]


@pytest.mark.parametrize("data", OTHER_TOOLS, ids=["list", "tags", "map"])
async def test_another_tool_s_json_is_told_in_one_line(
    scene: Scene, bot: GlossaryBot, store: Store, data: object
) -> None:
    """Plan lines M1, M2: a community moving from another bot brings that bot's JSON export. A
    JSON object was read as a broken topics JSON: five lines of "schemaVersion: missing required
    field", "language: …", "tags: unknown key", none of which the moderator can act on (a list:
    "expected the topics JSON: one object …"). Now one problem says what the file holds and
    which formats the bot reads, with the one to write (curated TOML, as `/term export`
    writes it)."""
    text = await _import(scene, "export.json", json.dumps(data))
    assert text.startswith("Nothing was imported: 1 problem in the file."), text
    assert "not a glossary format the bot reads" in text, text
    assert "schemaVersion" not in text, text
    assert "curated TOML" in text, text
    assert "`/term export`" in text, text
    keys = list(data)[:2] if isinstance(data, dict) else ["term", "definition"]
    assert all(f"“{key}”" in text for key in keys), text
    assert await read_terms(store, scene.guild.id) == []


async def test_a_topics_json_written_by_hand_is_still_read_as_one(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The other side of M2: a file with the topics JSON's own keys is that format, its
    problems listed as before (outsider40 F3)."""
    text = await _import(scene, "topics.json", json.dumps({"topics": [{"id": "zorb"}]}))
    assert "schemaVersion: missing required field" in text, text


async def test_an_export_says_the_server_s_aliases_are_not_in_it(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line R1: a server's glossary moved to another server with `/term export` and
    `/term import` lost every alias the moderators had made (of its terms and of bundled
    entries: missed searches turned into aliases), and nothing said so: "1 term of this server,
    as curated TOML." Now the export's answer says how many aliases the file leaves out and
    how to see them."""
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    for alias, term in (("nightly zorb", "zorblax"), ("kv stash", "kv-cache")):
        added = await scene.fake.slash(
            scene.moderator, "alias add", {"alias": alias, "term": term}, channel=scene.channel
        )
        assert "now opens" in (await added.final_message())["content"]
    exported = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
    message = await exported.final_message()
    assert message["attachments"], message
    assert message["content"] == (
        "1 term of this server, as curated TOML. The file does not hold this server's 2 "
        "aliases (`/alias list` lists them): on another server, add them with `/alias add`."
    ), message["content"]


async def test_the_command_line_export_names_the_aliases_it_leaves_out(tmp_path: Path) -> None:
    """R1 for the operator: `terms export` says on stderr which command writes the aliases."""
    (tmp_path / "ours.toml").write_text(
        SMART_QUOTES.replace("\u201c", '"').replace("\u201d", '"'), encoding="utf-8"
    )
    (tmp_path / "aliases.json").write_text(
        json.dumps([{"guild_id": 4, "alias": "the zorbinator", "entry_id": "zorb-engine"}])
    )
    db = str(tmp_path / "bot.db")
    for args in (
        ("terms", "import", "ours.toml", "--guild", "4"),
        ("aliases", "import", "aliases.json"),
    ):
        status, said = await _cli(tmp_path, *args, "--db", db)
        assert status == 0, said
    status, said = await _cli(
        tmp_path, "terms", "export", "--guild", "4", "--db", db, "-o", "out.toml"
    )
    assert status == 0, said
    assert said == (
        "terms export: the file does not hold server 4's 1 alias: "
        "`glossary-bot aliases export --guild 4` writes it (`aliases import` reads it back, "
        "with its guild_id set to the other server's)\n"
    ), said


async def test_a_tab_in_a_title_is_named_as_a_tab(scene: Scene, bot: GlossaryBot) -> None:
    """Plan line M5: a title pasted from a spreadsheet's cells ("Grib<tab>Store") was refused
    "A name cannot contain control or invisible characters", though the tab shows as a gap and
    the rules have a line for it ("cannot contain line breaks or tabs"), which the tab never
    reached. A no-break space from a wiki is a space (NFKC), and imports."""
    tabbed = SMART_QUOTES.replace("\u201cZorb Engine\u201d", '"Grib\\tStore"')
    text = await _import(scene, "ours.toml", tabbed)
    # review70: the tab written as the file writes it (Discord shows "Grib\tStore").
    assert "Title: “Grib\\\\tStore”: A name cannot contain line breaks or tabs." in text, text
    spaced = SMART_QUOTES.replace("\u201cZorb Engine\u201d", '"Grib\u00a0Store"')
    assert (await _import(scene, "ours.toml", spaced)).startswith("Imported: 1 added"), spaced


IMPORTED_TWO = """[[entries]]
title = "Zorb Engine"
category = "Fundamentals"
definition = "A thing that zorbs."

[[entries]]
title = "Quux Store"
category = "Fundamentals"
definition = "A store of quux."
"""


async def test_an_import_accepting_suggestions_of_several_names_says_those_names(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line S1: alice suggested "Zorb Engine", bob "Quux Store"; the moderator imports the
    community's file, which has both. The answer said "Also accepted 2 suggestions of that
    name", of no name it had given. Now "of those names" (the ones it just listed), and "of
    that name" where one name was suggested."""
    for member, name in ((scene.alice, "Zorb Engine"), (scene.bob, "Quux Store")):
        await store.add_suggestion(scene.guild.id, member.id, name, "Please add it.")
    text = await _import(scene, "ours.toml", IMPORTED_TWO)
    assert text.startswith("Imported: 2 added"), text
    assert text.endswith(
        "\nAlso accepted 2 suggestions of those names; their members were told privately."
    ), text
    assert await store.open_suggestions(scene.guild.id) == []


async def test_a_rejection_shows_the_next_suggestion_waiting(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line S2: a moderator going through a queue of suggestions (a community that has
    just moved in asks for much) got "Rejected the suggestion; …" and had to run `/term review`
    again for each of up to 50. Now the answer shows the next one waiting, with its Accept… and
    Reject, until none is left."""
    await suggested(scene, store, "Zorb Engine", "Quux Store")
    fake = scene.fake
    shown = await review_shown(scene, scene.moderator)
    assert shown["embeds"][0]["title"] == "Zorb Engine"
    rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    answer = await rejected.final_message()
    assert is_ephemeral(answer)
    assert answer["content"].startswith("Rejected the suggestion; the member was told"), answer
    assert answer["content"].endswith("Next, 1 waiting:"), answer["content"]
    [embed] = answer["embeds"]
    assert embed["title"] == "Quux Store"
    assert sorted(buttons(answer)) == ["Accept…", "Reject"]
    last = await fake.click(scene.moderator, answer, buttons(answer)["Reject"])
    done = await last.final_message()
    assert done["content"].endswith("No more suggestions are waiting."), done["content"]
    assert not done.get("embeds"), done
    assert await store.open_suggestions(scene.guild.id) == []


WORDS_LLM = """[[entries]]
title = "Big Talkers"
aliases = ["large language models"]
category = "Fundamentals"
definition = "Our server's word for the models that write."
"""


async def test_an_import_says_which_bundled_cards_its_terms_now_lead(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line A1: a community's file has a term whose other name is a bundled entry's
    ("large language models"): by the rules the term becomes this server's wording of Large
    Language Model, and `/define llm` leads with the server's text from then on. The dry run
    and the import said only "1 added: Big Talkers". Now both name the bundled card the term
    words, as the form's answer does."""
    line = "Wording bundled entries (their cards lead with this server's text): Big Talkers → "
    dry = await _import(scene, "ours.toml", WORDS_LLM, dry_run=True)
    assert dry.startswith("Dry run, nothing written. Would import: 1 added"), dry
    assert line + "Large Language Model" in dry, dry
    done = await _import(scene, "ours.toml", WORDS_LLM)
    assert line + "Large Language Model" in done, done
    again = await _import(scene, "ours.toml", WORDS_LLM, dry_run=True)
    assert "Wording" not in again, again  # nothing changed, nothing to say


async def test_the_form_says_which_bundled_card_a_term_words(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A1 through `/term add`: "Added **Big Talkers** …" now says it words Large Language
    Model, whose card leads with this text."""
    values = {"title": "Big Talkers", "definition": "Models that write.", "other_names": "LLMs"}
    answer = await add_term(scene, values)
    assert answer["content"].startswith("Added **Big Talkers**"), answer
    assert (
        "It is this server's wording of **Large Language Model**, whose card now leads with "
        "this text."
    ) in answer["content"], answer["content"]


def smart_quoted_data(folder: Path) -> Path:
    """A copy of data/ in `folder`, the first title of `foundations.toml` in a word processor's
    smart quotes (the file no longer TOML): the copy's folder."""
    import shutil

    data = folder / "data"
    shutil.copytree(ROOT / "data", data)
    path = data / "foundations.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index('title = "') + len("title = ")
    end = text.index('"', start + 1)
    path.write_text(f"{text[:start]}“{text[start + 1 : end]}”{text[end + 1 :]}", "utf-8")
    return data


async def test_one_unreadable_data_file_is_one_error_not_hundreds(tmp_path: Path) -> None:
    """Plan line D4 (found trying it): a maintainer's word processor put smart quotes on one
    title of `foundations.toml`. `check` (and the log line of a refused `kill -HUP`, which
    reads the same problems) said the file's error first, then 279 more: every kind, "asked
    as" table and related id naming one of that file's 163 entries, "names no entry", the log
    line cut at "… and 260 more". Now those are one line under the file's: how many
    references were not listed, and why."""
    smart_quoted_data(tmp_path)
    status, said = await _cli(tmp_path, "check", "-q", "data")
    assert status == 1, said
    lines = said.splitlines()
    assert len(lines) == 2, said
    assert lines[0].startswith("data/foundations.toml: error: not valid TOML: "), lines[0]
    assert CURLY in lines[0], lines[0]
    assert re.fullmatch(
        r"data/foundations\.toml: error: \d+ references to entries \(kinds, asked-as tables, "
        r"related ids\) name no entry: not listed, as this file, which may hold them, could not "
        r"be read; `check` lists those left once it reads",
        lines[1],
    ), lines[1]


async def test_every_problem_of_a_big_import_can_be_read(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line M8: a community's converted file of 40 terms, none with a category (their old
    bot had none). The answer showed the first 9 and a half problems, cut at Discord's 2,000
    characters ("Category: choose […]"; its "… and 25 more." cut with it): the moderator fixed
    those, imported again, and met the next ones. Now the whole report comes attached as a text
    file whenever the message cuts it (as `/alias list` attaches what does not fit)."""
    entries = "".join(
        f'[[entries]]\ntitle = "Zorb Thing {n}"\ndefinition = "Thing number {n}."\n\n'
        for n in range(40)
    )
    handle = await scene.fake.slash(
        scene.moderator,
        "term import",
        {"file": scene.fake.add_attachment("old-bot.toml", entries)},
        channel=scene.channel,
    )
    message = await handle.final_message()
    assert message["content"].startswith("Nothing was imported: 40 problems in the file."), message
    [attached] = message["attachments"]
    assert attached["filename"] == "import-report.txt", attached
    report = scene.fake.attachment_bytes(attached).decode("utf-8").splitlines()
    assert report[0] == "Nothing was imported: 40 problems in the file."
    assert len(report) == 41, report
    assert all("Category: choose a category" in line for line in report[1:]), report
    assert "“Zorb Thing 39”" in report[-1], report[-1]


async def test_an_accepted_suggestion_shows_the_next_waiting(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """S2's other button: Accept…'s form saved answered "Added … Accepted the suggestion; …" and
    the moderator ran `/term review` again for the next. Now that answer shows the next one
    waiting too, in the category `/term review` was given."""
    await suggested(scene, store, "Zorb Engine", "Quux Store")
    fake = scene.fake
    shown = await review_shown(scene, scene.moderator, category="Fundamentals")
    accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    await accept.response()
    saved = await fake.submit_modal(scene.moderator, accept, {})
    answer = await saved.final_message()
    assert answer["content"].startswith("Added **Zorb Engine**"), answer["content"]
    assert "Accepted the suggestion; the member was told privately." in answer["content"]
    assert answer["content"].endswith("Next, 1 waiting:"), answer["content"]
    assert answer["embeds"][0]["title"] == "Quux Store"
    accept = await fake.click(scene.moderator, answer, buttons(answer)["Accept…"])
    await accept.response()
    saved = await fake.submit_modal(scene.moderator, accept, {})
    last = await saved.final_message()
    assert last["content"].startswith("Added **Quux Store**"), last["content"]  # its category
    assert last["content"].endswith("No more suggestions are waiting."), last["content"]


async def test_the_command_line_import_accepting_several_names_says_those_names(
    tmp_path: Path,
) -> None:
    """S1 on the command line: `terms import` of the community's file accepted two members'
    suggestions of two names and said "Also accepted 2 waiting suggestions of that name"."""
    db = tmp_path / "bot.db"
    store = await Store.open(db, flush_interval=None)
    try:
        for user, name in ((1, "Zorb Engine"), (2, "Quux Store")):
            await store.add_suggestion(7, user, name, "Please add it.")
    finally:
        await store.close()
    (tmp_path / "ours.toml").write_text(IMPORTED_TWO, encoding="utf-8")
    status, said = await _cli(
        tmp_path, "terms", "import", "ours.toml", "--guild", "7", "--db", str(db)
    )
    assert status == 0, said
    assert said.endswith(
        "Also accepted 2 waiting suggestions of those names; their members were not told (the "
        "command line cannot message members).\n"
    ), said
