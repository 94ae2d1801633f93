"""mend75 (tests/outsider/PLAN.md, its "mend75" section): typed text the bot repeats inside its
own sentences shows a leading "#", "+", "-" or "1." as typed, where echo74 left a backslash; the
command line's `stats --chart` with standard output closed; the test run's cache folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.discord_app.items import inert
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.storage.backend import Migrate
from bot.storage.cli import on_store
from bot.term_storage import TermChange, change_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, embed_of
from tests.discord_app.term_commands import IDEA, TERM, add_term, made_up, stored_now

from .conftest import Scene
from .test_mend74 import _closed_stdout

EMBED_LINKS = 1 << 14

# -- 1. Titles, /term log's fields and Explain terms' file names, mid-sentence --


async def test_a_suggested_title_quoted_mid_sentence_shows_a_leading_hash_as_typed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/suggest #zorbqx` was thanked for “\\#zorbqx”: the title went through `echo_name`,
    which escapes a heading mark as at a line's start, inside a quote that starts none.
    Failed before: "Thanks! “\\#zorbqx” is with …"."""
    fake = scene.fake
    async with start_bot(store):
        opened = await fake.slash(
            scene.alice, "suggest", {"term": "#zorbqx"}, channel=scene.channel
        )
        assert (await opened.response())["type"] == 9
        sent = await fake.submit_modal(scene.alice, opened, {"definition": IDEA})
        answer = str((await sent.final_message())["content"])
    assert answer.startswith("Thanks! “#zorbqx” is with this server's moderators."), answer


async def test_term_remove_quotes_a_title_and_its_aliases_as_typed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/term remove` of a term titled "+1 Zorbqx" asked "Remove “\\+1 Zorbqx” …?", its alias
    "-zorbqx" listed “\\-zorbqx”, and said "Removed “\\+1 Zorbqx” and its alias “\\-zorbqx”."
    Failed before on each."""
    async with start_bot(store) as bot:
        await stored_now(scene, bot, store, made_up("zorbqx", title="+1 Zorbqx"))
        await store.add_alias(scene.guild.id, "-zorbqx", "-zorbqx", "zorbqx", scene.moderator.id)
        bot.state.servers.forget(scene.guild.id)
        asked = await scene.fake.slash(
            scene.moderator, "term remove", {"term": "zorbqx"}, channel=scene.channel
        )
        prompt = await asked.final_message()
        assert prompt["content"] == (
            "Remove “+1 Zorbqx” from this server's glossary? Its alias “-zorbqx” goes with it."
        ), prompt
        clicked = await scene.fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
        [done] = await clicked.followups(1)
    assert done["content"] == "Removed “+1 Zorbqx” and its alias “-zorbqx”.", done


async def test_a_title_in_bold_mid_sentence_shows_a_leading_hash_as_typed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/term add` of "#Zorbqx" said "Added **\\#Zorbqx** in this server's glossary": inside
    the bot's bold, mid-sentence, "#" heads nothing. Failed before."""
    async with start_bot(store):
        answer = await add_term(scene, {**TERM, "title": "#Zorbqx", "other_names": ""})
    assert str(answer["content"]).startswith("Added **#Zorbqx** in this server's glossary"), answer


async def _write(store: Store, scope: int, actor: int, term: ServerTerm) -> None:
    await change_terms(store, scope, lambda *_: (TermChange(put=(term,)), None), actor)


async def test_term_log_shows_a_title_and_fields_mid_line_as_typed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/term log` quoted a title “\\#Zorbqx” and showed an edited field as
    `~~\\- one~~ → \\- two`: both stand after the bot's words on the line ("edited ",
    "> **Definition**: ", "~~"), where "#" and "-" open nothing. Failed before."""
    mod = scene.moderator
    term = made_up("zorbqx", title="#Zorbqx", definition="- one")
    await _write(store, scene.guild.id, mod.id, term)
    await _write(store, scene.guild.id, mod.id, term.model_copy(update={"definition": "- two"}))
    async with start_bot(store):
        shown = await (
            await scene.fake.slash(mod, "term log", {}, channel=scene.channel)
        ).final_message()
    text = embed_of(shown)["description"]
    assert f"<@{mod.id}> edited “#Zorbqx”" in text, text
    assert "> **Definition**: ~~- one~~ → - two" in text, text
    assert f"<@{mod.id}> added “#Zorbqx”" in text, text


async def test_explain_terms_names_an_attached_file_as_typed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Explain terms on a message with an attached text file "- notes.txt" named it
    "(\\- notes.txt)": inside the bot's parentheses "-" starts no list. Failed before."""
    fake = scene.fake
    attached: Any = fake.add_attachment(
        "- notes.txt", "zorbqx notes", content_type="text/plain", channel=scene.channel
    )
    async with start_bot(store):
        said = await fake.user_message(scene.bob, scene.channel, "", attachments=[attached])
        explained = await fake.message_command(scene.alice, "Explain terms", said)
        answer = str((await explained.final_message())["content"])
    assert "attached file (- notes.txt), which I don't read" in answer, answer


def test_mid_line_text_keeps_the_escape_of_a_line_it_starts() -> None:
    """A guard: `mid_line` spares only the first line's start (the bot's words stand before it);
    a later line of the same text starts a line, and bold and "<" stay escaped everywhere."""
    assert (
        inert("# one\n# two **b** <t:0>", mid_line=True) == "# one\n\\# two \\*\\*b\\*\\* \\<t:0>"
    )
    assert inert("# one") == "\\# one"


# -- 4. Found reading the other replies: names in bold, and a form's text given back --


async def test_alias_add_names_a_title_in_bold_as_typed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/alias add` for a term titled "#Zorbqx" said "… now opens **\\#Zorbqx** in this
    server.": `shown_name` (discord.py's escape_markdown) escapes a leading "#" as at a line's
    start; inside the bot's bold it heads nothing. /alias list's "→ title", Explain terms' and
    /stats' lines and a card's related names (after the first) stand mid-line too. Failed
    before."""
    async with start_bot(store) as bot:
        await stored_now(scene, bot, store, made_up("zorbqx", title="#Zorbqx"))
        asked = await scene.fake.slash(
            scene.moderator,
            "alias add",
            {"alias": "zorbish", "term": "zorbqx"},
            channel=scene.channel,
        )
        answer = str((await asked.final_message())["content"])
    assert answer.startswith("Added: “zorbish” now opens **#Zorbqx** in this server."), answer


async def test_a_refused_suggestion_gives_back_its_first_line_as_typed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A suggestion refused (a term of spaces) gives back what was typed after "**definition**: ",
    where its first line's "-" starts no list: it came back "\\- first"; its second line
    starts a line, so it keeps the backslash. Failed before."""
    fake = scene.fake
    async with start_bot(store):
        opened = await fake.slash(scene.alice, "suggest", {"term": "zorbqx"}, channel=scene.channel)
        assert (await opened.response())["type"] == 9
        sent = await fake.submit_modal(
            scene.alice, opened, {"title": " ", "definition": "- first\n- second"}
        )
        answer = str((await sent.final_message())["content"])
    assert answer.endswith(": - first\n\\- second"), answer


async def test_term_remove_of_a_term_with_many_long_aliases_fits_one_message(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/term remove` names the term's aliases that go with it, the first 20 in a room of
    1,400 characters (NAMES_ROOM, so a term with 25 long aliases could be removed) counted
    before their escapes: 20 aliases of snake_case words, each "_" shown "\\_", took some
    2,100 and the question passed Discord's 2,000, so the moderator got no question and could
    not remove the term. Now the room counts the names as shown. Failed before."""
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike"
    names = [f"{w}_{n}_" + "_".join(["q"] * 45) for n, w in enumerate(words.split() * 2)][:22]
    async with start_bot(store) as bot:
        await stored_now(scene, bot, store, made_up("zorbqx", title="Zorbqx"))
        for name in names:
            await store.add_alias(scene.guild.id, name, name, "zorbqx", scene.moderator.id)
        bot.state.servers.forget(scene.guild.id)
        asked = await scene.fake.slash(
            scene.moderator, "term remove", {"term": "zorbqx"}, channel=scene.channel
        )
        prompt = await asked.final_message()
        question = str(prompt["content"])
        assert question.startswith("Remove “Zorbqx” from this server's glossary? Its aliases “")
        assert question.endswith(" and 2 more go with it."), question
        assert len(question) <= 2000, len(question)
        clicked = await scene.fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
        [done] = await clicked.followups(1)
    assert str(done["content"]).startswith("Removed “Zorbqx” and its aliases “"), done
    assert len(str(done["content"])) <= 2000


async def test_a_card_that_cannot_be_shown_names_its_title_in_bold_as_typed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A mention asking for "#Zorbqx" where the bot lacks Embed Links said "**\\#Zorbqx** has a
    card, but I can't show cards in this channel": the card's title (escaped as a title)
    inside the line's bold. Failed before."""
    for role in scene.guild.roles.values():
        role.permissions &= ~EMBED_LINKS
    async with start_bot(store) as bot:
        await stored_now(scene, bot, store, made_up("zorbqx", title="#Zorbqx"))
        await scene.fake.user_message(scene.alice, scene.channel, f"<@{scene.fake.bot.id}> zorbqx")
        said = await scene.fake.wait_for_channel_message(scene.channel)
    assert str(said["content"]).startswith("**#Zorbqx** has a card, but I can't show"), said


# -- 2. `stats --chart PNG` with standard output closed --


def test_stats_writes_its_chart_with_standard_output_closed(tmp_path: Path) -> None:
    """`stats --chart chart.png >&-` (a cron line keeping the picture only) was refused as
    `stats >&-` is, "cannot write the output: standard output is closed", exit 1, no chart: the
    report it prints counted as its output. The chart is the output asked for: written, exit 0,
    nothing said (the report is not wanted where stdout is closed). Failed before."""
    on_store(tmp_path / "glossary-bot.db", lambda store: store.aliases(1), migrate=Migrate.UPGRADE)
    done = _closed_stdout(tmp_path, ["stats", "--chart", "chart.png"])
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert (tmp_path / "chart.png").read_bytes().startswith(b"\x89PNG"), "no chart"
    json_too = _closed_stdout(tmp_path, ["stats", "--json", "--chart", "again.png"])
    assert (json_too.returncode, json_too.stderr) == (0, ""), json_too.stderr
    assert (tmp_path / "again.png").is_file()
