"""Review of outsider43's merge (tests/outsider/PLAN.md, "Review of outsider43 (review44)"):
the next suggestion after a decision, the import report, another program's JSON, smart quotes
and an unreadable data file, attacked. The real bot against the fake Discord, real SQLite files,
the real command line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary.toml import TomlError, parse_toml
from bot.storage import Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.term_commands import add_term
from tests.resilience.botproc import CLI_ENV, ROOT, glossary_bot_waited
from tests.storage.conftest import fresh_schema

from .conftest import Scene
from .test_round30 import review_shown, suggested


async def test_a_rejection_the_database_refused_does_not_show_it_again_as_the_next(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line K1: the database file was replaced underneath the bot (writes refused until a
    database is back; reads go on from the open file). Reject answered "The suggestion could
    not be marked decided (database); it stays in the queue." and then "Next, 2 waiting:" with
    that same suggestion as the next. A failed decision now answers alone, as in a stop."""
    await suggested(scene, store, "Zorb Engine", "Quux Store")
    fake = scene.fake
    shown = await review_shown(scene, scene.moderator)
    assert shown["embeds"][0]["title"] == "Zorb Engine"
    # The write fails as a full disk would (a real SQLite error), the reads go on.
    with contextlib.closing(sqlite3.connect(scene.db_path)) as other:
        other.execute(
            "CREATE TRIGGER disk_full BEFORE UPDATE ON suggestions "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
        other.commit()
    rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    answer = await rejected.final_message()
    assert is_ephemeral(answer)
    assert "could not be marked decided (database); it stays in the queue" in answer["content"]
    assert "Next" not in answer["content"], answer["content"]
    assert not answer.get("embeds"), answer["embeds"]


async def test_two_moderators_rejecting_together_and_then_the_next(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan lines K2-K4: a moderator and an admin go through the same queue at once. Both press
    Reject on the oldest, then both on the "next" each was shown (the same one): each time one
    rejects it and the other is told it was already rejected; the queue ends in "No more
    suggestions are waiting."; one log line per decision."""
    names = ("Zorb Engine", "Quux Store", "Frob Rate")
    await suggested(scene, store, *names)
    fake = scene.fake
    deciders = (scene.moderator, scene.admin)
    shown = [await review_shown(scene, user) for user in deciders]
    for name, after in ((names[0], names[1]), (names[1], names[2])):
        assert [m["embeds"][0]["title"] for m in shown] == [name, name]
        clicks = await asyncio.gather(
            *(fake.click(u, m, buttons(m)["Reject"]) for u, m in zip(deciders, shown, strict=True))
        )
        answers = [await c.final_message() for c in clicks]
        texts = sorted(a["content"].split("\n")[0] for a in answers)
        assert texts == [
            "Rejected the suggestion; the member was told privately.",
            "That suggestion was already rejected (`/term log` says by whom).",
        ], texts
        assert all(
            a["content"].endswith("Next, 1 waiting:" if after == names[2] else "Next, 2 waiting:")
            for a in answers
        ), answers
        shown = answers
    last = await fake.click(scene.moderator, shown[0], buttons(shown[0])["Reject"])
    done = await last.final_message()
    assert done["content"].endswith("No more suggestions are waiting."), done["content"]
    assert await store.open_suggestions(scene.guild.id) == []
    log = await store.term_audit_log(scene.guild.id)
    assert len(log) == 3, log


# 100 terms whose titles are 250 foxes (4 bytes each in UTF-8), each with 120 other names that
# are mentions: a 205 KB file of 12,000 problems, each naming its term.
MENTIONS = ", ".join(f'"@a{k}"' for k in range(120))
FOXES = "\n".join(
    f'[[entries]]\ntitle = "{"🦊" * 250}{n}"\ncategory = "Fundamentals"\ndefinition = "d"\n'
    f"aliases = [{MENTIONS}]\n"
    for n in range(100)
)


async def test_an_import_report_past_discord_s_upload_size_is_still_sent(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line K7: a 205 KB file of 12,000 problems, each quoting a title of 250 emoji. The
    whole report (10,000 problems listed) was 20 MB, past the 10 MiB Discord takes from a bot
    (the interaction's `attachment_size_limit`): Discord refused the answer (413, 40005) and
    the moderator got the fake's "something went wrong", without the problems. Now the
    attached report stops at the upload size, at a line, and says how many it leaves out."""
    handle = await scene.fake.slash(
        scene.moderator,
        "term import",
        {"file": scene.fake.add_attachment("foxes.toml", FOXES)},
        channel=scene.channel,
    )
    message = await handle.final_message()
    head = message["content"].split("\n")[0]
    assert re.fullmatch(r"Nothing was imported: 1\d,\d{3} problems in the file\.", head), head
    [attached] = message["attachments"]
    data = scene.fake.attachment_bytes(attached)
    assert len(data) <= 10 * 1024 * 1024
    lines = data.decode("utf-8").splitlines()
    assert lines[0] == head
    assert len(lines) > 4000, len(lines)  # as many as the upload size holds
    left = re.fullmatch(
        r"… and ([\d,]+) more \(the rest of the report is past Discord's upload size\)\.",
        lines[-1],
    )
    assert left, lines[-1]
    left_out = int(left[1].replace(",", ""))  # counted as the head counts: 5,009
    assert len(lines) - 1 + left_out == 10_002, (len(lines), left[1])  # head, 10,000, "and N"


async def test_an_unreadable_verbatim_file_s_curation_is_one_line_too(tmp_path: Path) -> None:
    """Plan line K13: outsider43 folded the echoes of an unreadable glossary file (kinds,
    asked-as tables, related ids) into one line, but not its curation overlay's: with
    `llm-studio-topics.json` cut in half (an interrupted copy), `check` said its two errors,
    the one folded line, and then 89 "curation names an entry that is not in the file it
    curates", one per curated entry. Now the overlay is one line too."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    path = data / "llm-studio-topics.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    status, said = await asyncio.to_thread(
        glossary_bot_waited, CLI_ENV, tmp_path, "check", "-q", "data"
    )
    assert status == 1, said
    lines = said.splitlines()
    assert not [line for line in lines if "not in the file it curates" in line], said
    # the sha256, not JSON, the references, those its cut text does not hold (left47), the overlay
    assert len(lines) == 5, said
    assert re.fullmatch(
        r"data/llm-studio-topics\.curation\.toml: error: its \d+ entries are not checked: the "
        r"file it curates could not be read; `check` checks them once it reads",
        lines[-1],
    ), lines[-1]


def test_smart_quotes_inside_a_string_are_not_blamed_for_its_missing_end() -> None:
    """Plan line K12: typographic quotes inside a straight-quoted string are legal (M4 keeps
    them), but a definition that only lacked its closing `"` (`definition = "He said “hi”`)
    was told "“ is a typographic quote …: TOML strings take straight quotes", sending its
    writer to replace quotes that were right. The quote is now named only when it stands
    where a string should open (outside any straight-quoted one), as `title = “Zorb”`."""
    with pytest.raises(TomlError) as inside:
        parse_toml('definition = "He said “hi”\n')
    assert "typographic" not in str(inside.value), inside.value
    assert "(at line 1, column 27)" in str(inside.value), inside.value
    for outside in ("title = “Zorb”\n", 'a = ["🦊", “x”]\n', 'a = "“ok”"\nb = “x”\n'):
        with pytest.raises(TomlError) as said:
            parse_toml(outside)
        assert "is a typographic quote" in str(said.value), (outside, said.value)


async def test_another_program_s_keys_stay_on_one_line(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line K11: another program's JSON is "said in one line", but its keys were quoted as
    they are: a key holding a line break and `# Heading` broke the problem in two, the second
    line rendered by Discord as a heading. Keys are now quoted on one line."""
    data = json.dumps({"note\n# Heading": "x", "tags": []})
    handle = await scene.fake.slash(
        scene.moderator,
        "term import",
        {"file": scene.fake.add_attachment("other.json", data)},
        channel=scene.channel,
    )
    message = await handle.final_message()
    lines = message["content"].split("\n")
    assert lines[0] == "Nothing was imported: 1 problem in the file.", lines
    assert len(lines) == 2, lines
    assert "“note # Heading”, “tags”" in lines[1], lines[1]


async def test_an_export_whose_alias_read_fails_is_one_short_answer(
    scene: Scene, bot: GlossaryBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Plan line K16: `/term export` now reads the terms and the aliases together; with the
    aliases' read failing alone (a damaged database: its table gone), the answer is the short
    one about the database: no file, no traceback or error id, nothing left unretrieved."""
    await add_term(scene, {"title": "Zorb Engine", "definition": "A thing that zorbs."})
    with contextlib.closing(sqlite3.connect(scene.db_path)) as other:
        other.execute("DROP TABLE aliases")
        other.commit()
    handle = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
    message = await handle.final_message()
    assert is_ephemeral(message)
    assert "database" in message["content"].lower(), message["content"]
    assert "error id" not in message["content"], message["content"]
    assert not message.get("attachments"), message
    assert "never retrieved" not in caplog.text, caplog.text


@pytest.mark.postgres
async def test_rejecting_together_and_a_refused_rejection_on_postgresql(
    scene: Scene, start_bot: StartBot
) -> None:
    """Plan lines K1 and K2 on PostgreSQL: two moderators press Reject on the same suggestion
    at once (one rejects it, the other is told; both are shown the next); then the database
    refuses the decision's write (a trigger raising, as a full disk would): the answer says it
    stays in the queue and shows no "Next" (it would be the same suggestion)."""
    async with fresh_schema(TEST_DATABASE_URL, "review44") as url:
        store = await Store.open(url, flush_interval=None)
        async with start_bot(store):
            await suggested(scene, store, "Zorb Engine", "Quux Store")
            fake = scene.fake
            deciders = (scene.moderator, scene.admin)
            shown = [await review_shown(scene, user) for user in deciders]
            clicks = await asyncio.gather(
                *(
                    fake.click(u, m, buttons(m)["Reject"])
                    for u, m in zip(deciders, shown, strict=True)
                )
            )
            answers = [await c.final_message() for c in clicks]
            assert sorted(a["content"].split("\n")[0] for a in answers) == [
                "Rejected the suggestion; the member was told privately.",
                "That suggestion was already rejected (`/term log` says by whom).",
            ], answers
            assert all(a["embeds"][0]["title"] == "Quux Store" for a in answers), answers
            session = await asyncpg.connect(url)
            try:
                await session.execute(
                    "CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS "
                    "$$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' "
                    "USING ERRCODE = '53100'; END $$"
                )
                await session.execute(
                    "CREATE TRIGGER disk_full BEFORE UPDATE ON suggestions "
                    "FOR EACH ROW EXECUTE FUNCTION full_disk()"
                )
            finally:
                await session.close()
            refused = await fake.click(scene.moderator, answers[0], buttons(answers[0])["Reject"])
            answer = await refused.final_message()
            assert "could not be marked decided (database)" in answer["content"], answer
            assert "Next" not in answer["content"], answer["content"]
            assert not answer.get("embeds"), answer


async def test_a_reload_with_the_topics_file_cut_keeps_serving_in_a_short_line(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    """Plan line K15: the running bot's data/ gets an interrupted copy of the topics JSON and
    is reloaded (SIGHUP's `reload_off_loop`): refused, the old glossary serving, and the log
    line's problems the file's own and one line each for what it leaves unchecked, not the
    curation overlay's 89 (which cut it at "... and 72 more")."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    async with start_bot(store, glossary_paths=[data]) as client:
        path = data / "llm-studio-topics.json"
        text = path.read_text(encoding="utf-8")
        path.write_text(text[: len(text) // 2], encoding="utf-8")
        said = await client.state.reload_off_loop()
        # the file's two, the references folded, those its cut text does not hold (left47)
        assert said.startswith("reload refused: 5 problem(s) in the glossary data:"), said
        assert "... and" not in said, said
        asked = await scene.fake.slash(
            scene.alice, "define", {"term": "rag"}, channel=scene.channel
        )
        assert (await asked.final_message())["embeds"][0]["title"].startswith("Retrieval"), said


async def test_the_next_after_a_rejection_keeps_the_review_s_category(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line K5: `/term review category:Fundamentals`, Reject on the first, then Accept… on
    the next one shown and save: the review's category must carry over, as it does after an
    Accept…, so the save adds the term without asking for a category."""
    await suggested(scene, store, "Zorb Engine", "Quux Store")
    fake = scene.fake
    shown = await review_shown(scene, scene.moderator, category="Fundamentals")
    rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    answer = await rejected.final_message()
    assert answer["embeds"][0]["title"] == "Quux Store", answer
    accept = await fake.click(scene.moderator, answer, buttons(answer)["Accept…"])
    await accept.response()
    saved = await fake.submit_modal(scene.moderator, accept, {})
    last = await saved.final_message()
    assert last["content"].startswith("Added **Quux Store**"), last["content"]
    assert last["content"].endswith("No more suggestions are waiting."), last["content"]
