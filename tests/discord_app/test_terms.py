"""/term add|edit|remove through the fake: the modal, every problem said with the text kept,
concurrent edits, double submits, caps, removal, and a server's terms only in that server."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.term_drafts import Drafts
from bot.glossary.server_terms import TermDraft, check_draft
from bot.storage import Store
from bot.term_storage import read_terms
from tests.fake_discord import InteractionRefused
from tests.resilience.helpers import locked_by_another_process

from .conftest import Scene, StartBot
from .helpers import buttons, define, embed_of
from .term_commands import TERM, add_term, open_add, open_edit, submit


async def test_a_moderator_adds_a_term_and_members_look_it_up(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    answer = await add_term(scene)
    assert answer["content"].startswith("Added **Zorblax**")
    [stored] = await read_terms(store, scene.guild.id)
    assert (stored.title, stored.aliases, stored.related) == (
        "Zorblax",
        ("zbx", "nightly rerank"),
        ("rag",),
    )
    _, card = await define(scene.fake, scene.alice, "zbx", scene.channel)
    embed = embed_of(card)
    assert embed["title"] == "Zorblax"
    assert "re-ranks retrieved documents" in embed["description"]
    related = buttons(card)
    assert related["Retrieval-Augmented Generation"].startswith("gb:open:rag:")
    # Autocomplete and "Explain terms" know it, in this server only.
    typing = await scene.fake.autocomplete(
        scene.alice, "define", {"term": "zorb"}, focused="term", channel=scene.channel
    )
    assert [c["value"] for c in await typing.choices()][:1] == ["zorblax"]
    _, elsewhere = await define(scene.fake, scene.alice, "zorblax", scene.other_channel)
    assert elsewhere["content"].startswith("No entry for “zorblax”")
    audit = await store.term_audit_log(scene.guild.id)
    assert [(a.action, a.term_id, a.before is None) for a in audit] == [
        ("term_add", "zorblax", True)
    ]
    assert await store.term_audit_log(scene.other_guild.id) == []


async def test_members_cannot_use_term(scene: Scene, bot: GlossaryBot, store: Store) -> None:
    refused = await scene.fake.slash(scene.alice, "term add", {}, channel=scene.channel)
    assert refused.refused
    with pytest.raises(InteractionRefused, match="default_member_permissions"):
        await refused.response()
    assert await read_terms(store, scene.guild.id) == []


async def test_every_problem_is_said_and_edit_again_keeps_the_text(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    bad = {**TERM, "title": "@everyone", "related": "no such thing, RAG"}
    opened = await open_add(scene, scene.moderator)  # no category either
    answer = await submit(scene, scene.moderator, opened, bad)
    text = answer["content"]
    assert text.startswith("Nothing was saved:")
    assert "@\u200beveryone" in text or "everyone" in text
    assert "Title: “@\u200beveryone”: A name cannot contain mentions." in text
    assert "Category: choose a category" in text
    assert await read_terms(store, scene.guild.id) == []
    custom_id = buttons(answer)["Edit again"]
    reopened = await scene.fake.click(scene.moderator, answer, custom_id)
    body = await reopened.response()
    assert body["type"] == 9
    prefilled = {
        row["components"][0]["custom_id"]: row["components"][0].get("value")
        for row in body["data"]["components"]
    }
    assert prefilled["title"] == "@everyone"
    assert prefilled["definition"] == TERM["definition"]
    fixed = await submit(scene, scene.moderator, reopened, {"title": "Zorblax"})
    assert "Category: choose a category" in fixed["content"]  # said again, nothing lost
    assert await read_terms(store, scene.guild.id) == []


async def test_a_double_submit_adds_one_term_and_answers_both(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    first = await scene.fake.submit_modal(scene.moderator, opened, TERM)
    second = await scene.fake.submit_modal(scene.moderator, opened, TERM)
    one, two = await first.final_message(), await second.final_message()
    assert one["content"] == two["content"]
    assert one["content"].startswith("Added **Zorblax**")
    assert len(await read_terms(store, scene.guild.id)) == 1


async def test_two_moderators_editing_at_once(scene: Scene, bot: GlossaryBot, store: Store) -> None:
    await add_term(scene)
    mine = await open_edit(scene, scene.moderator, "zorblax")
    theirs = await open_edit(scene, scene.admin, "zorblax")
    saved = await submit(scene, scene.admin, theirs, {"definition": "Their new definition text."})
    assert saved["content"].startswith("Saved **Zorblax**")
    told = await submit(scene, scene.moderator, mine, {"definition": "My own new definition."})
    assert "changed this term while you edited it" in told["content"]
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == "Their new definition text."
    # Edit again shows the moderator's text; saving it now is deliberate, and goes through.
    again = buttons(told)["Edit again"]
    reopened = await scene.fake.click(scene.moderator, told, again)
    body = await reopened.response()
    values = {
        r["components"][0]["custom_id"]: r["components"][0].get("value")
        for r in body["data"]["components"]
    }
    assert values["definition"] == "My own new definition."
    final = await submit(scene, scene.moderator, reopened, {})
    assert final["content"].startswith("Saved **Zorblax**")
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == "My own new definition."
    audit = await store.term_audit_log(scene.guild.id)
    assert [a.action for a in audit] == ["term_edit", "term_edit", "term_add"]
    assert audit[0].before is not None
    assert "Their new definition" in audit[0].before


async def test_remove_asks_first_and_names_terms_pointing_at_it(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    await add_term(scene)
    await add_term(
        scene,
        {
            "title": "Blorptex",
            "definition": "The morning twin of the nightly job.",
            "related": "Zorblax",
        },
    )
    asked = await scene.fake.slash(
        scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    answer = await asked.final_message()
    assert "Blorptex" in answer["content"]
    assert buttons(answer) == {}
    assert len(await read_terms(store, scene.guild.id)) == 2

    asked = await scene.fake.slash(
        scene.moderator, "term remove", {"term": "blorptex"}, channel=scene.channel
    )
    prompt = await asked.final_message()
    confirm = buttons(prompt)["Remove"]
    clicked = await scene.fake.click(scene.moderator, prompt, confirm)
    [done] = await clicked.followups(1)
    assert done["content"] == "Removed “Blorptex”."
    assert [t.id for t in await read_terms(store, scene.guild.id)] == ["zorblax"]


async def test_an_overlaying_term_leads_the_card_and_removing_it_brings_the_bundled_back(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    values = {
        "title": "KV cache",
        "definition": "In this server: the cache our inference box keeps per user.",
    }
    opened = await open_add(scene, scene.moderator)
    answer = await submit(scene, scene.moderator, opened, values)
    assert answer["content"].startswith("Added **KV cache**")
    _, card = await define(scene.fake, scene.alice, "kv cache", scene.channel)
    assert "our inference box" in embed_of(card)["description"]
    asked = await scene.fake.slash(
        scene.moderator, "term remove", {"term": "kv-cache"}, channel=scene.channel
    )
    prompt = await asked.final_message()
    assert "bundled card comes back" in prompt["content"]
    clicked = await scene.fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
    await clicked.followups(1)
    _, card = await define(scene.fake, scene.alice, "kv cache", scene.channel)
    assert embed_of(card)["title"] == "KV Cache"
    assert "our inference box" not in embed_of(card)["description"]


async def test_caps_refuse_with_no_partial_write(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    async with start_bot(store, term_caps=(1, 2 * 1024 * 1024)):
        # A form opened below the cap, saved once another form took the last place: `/term
        # add` at the cap says so before its form (test_round26), the save checks again.
        opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
        await add_term(scene)
        values = {"title": "Blorptex", "definition": "Another local thing here."}
        answer = await submit(scene, scene.moderator, opened, values)
        assert "at most 1 terms" in answer["content"]
        assert [t.id for t in await read_terms(store, scene.guild.id)] == ["zorblax"]


async def test_mentions_explain_terms_and_stats_know_server_terms(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    await add_term(scene)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is zorblax?")
    reply = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(reply)["title"] == "Zorblax"
    said = await fake.user_message(scene.alice, scene.channel, "the zbx job broke the RAG index")
    explained = await fake.message_command(scene.bob, "Explain terms", said)
    listing = embed_of(await explained.final_message())
    assert "**Zorblax**" in listing["description"]
    await store.flush()
    stats = await fake.slash(scene.moderator, "stats", {"period": "all"}, channel=scene.channel)
    embed = embed_of(await stats.final_message())
    assert embed["fields"][-1] == {
        "name": "This server's glossary",
        "value": "1 own term",
        "inline": False,
    }
    assert "Zorblax: 1" in embed["fields"][0]["value"]


async def test_a_long_title_still_makes_working_buttons(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    long_title = "Nightly " + " ".join(["reranking"] * 25)  # about 260 characters
    long_title = long_title[:250]
    await add_term(scene, {"title": long_title, "definition": TERM["definition"]})
    await add_term(scene, {**TERM, "related": f"RAG, {long_title}"})
    [long_term] = [t for t in await read_terms(store, scene.guild.id) if t.title == long_title]
    assert len(long_term.id) <= 60
    _, card = await define(scene.fake, scene.alice, "zorblax", scene.channel)
    opened = await scene.fake.click(
        scene.alice, card, next(cid for label, cid in buttons(card).items() if "Nightly" in label)
    )
    shown = await opened.final_message()
    assert embed_of(shown)["title"].startswith("Nightly reranking")


async def test_forms_opened_before_a_restart(scene: Scene, start_bot: StartBot) -> None:
    async with start_bot(await Store.open(scene.db_path)):
        await add_term(scene)
        editing = await open_edit(scene, scene.moderator, "zorblax")
        options = {"category": "Fundamentals", "acronym": "KVC", "summary": "Keys kept."}
        adding = await open_add(scene, scene.moderator, **options)
    store = await Store.open(scene.db_path)
    async with start_bot(store) as bot:  # a new bot: nothing of the first in memory
        edited = await submit(scene, scene.moderator, editing, {"definition": "My edit, kept."})
        assert edited["content"].startswith("Saved **Zorblax**"), edited
        new = {"title": "KV cache", "definition": "An add keeps the command's options."}
        added = await submit(scene, scene.moderator, adding, new)
        assert added["content"].startswith("Added **KV cache**"), added
        terms = {t.title: t for t in await read_terms(store, scene.guild.id)}
        assert terms["Zorblax"].definition == "My edit, kept."
        kv = terms["KV cache"]
        assert (kv.category, kv.acronym, kv.summary) == ("Fundamentals", "KVC", "Keys kept.")

        # A form the bot can no longer find (no database kept it): the edit is not guessed.
        editing = await open_edit(scene, scene.moderator, "zorblax")
        bot.state.term_drafts = Drafts(lambda: None)
        told = await submit(scene, scene.moderator, editing, {"definition": "Not lost either."})
        assert "I no longer know which term it edits" in told["content"]
        assert "Not lost either." in told["content"]
        [zorblax] = [t for t in await read_terms(store, scene.guild.id) if t.title == "Zorblax"]
        assert zorblax.definition == "My edit, kept."


async def test_a_form_is_only_its_moderators(scene: Scene, bot: GlossaryBot, store: Store) -> None:
    adding = await open_add(scene, scene.moderator, category="Fundamentals", acronym="ZBX")
    bot.state.term_drafts = Drafts(lambda: store)  # memory forgotten: the store answers
    # The admin (who may use /term too) submits the moderator's form: refused, nothing saved.
    forged = await scene.fake.submit_modal(scene.admin, adding, TERM)
    assert "belongs to another moderator" in (await forged.final_message())["content"]
    assert await read_terms(store, scene.guild.id) == []
    added = await submit(scene, scene.moderator, adding, TERM)
    assert added["content"].startswith("Added **Zorblax**")
    [term] = await read_terms(store, scene.guild.id)
    assert term.acronym == "ZBX"


async def test_a_form_opens_in_time_while_the_database_is_locked(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Discord wants the modal within 3 s; the database may be locked for longer (its busy
    timeout is 5 s). The form opens anyway, and its draft is kept in memory meanwhile."""
    async with locked_by_another_process(scene.db_path):
        adding = await open_add(scene, scene.moderator, category="Fundamentals", acronym="ZBX")
    added = await submit(scene, scene.moderator, adding, TERM)
    assert added["content"].startswith("Added **Zorblax**"), added
    [term] = await read_terms(store, scene.guild.id)
    assert term.acronym == "ZBX"


def form_inputs(modal: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The text inputs of a MODAL response's data, by custom id."""
    return {r["components"][0]["custom_id"]: r["components"][0] for r in modal["components"]}


def exactly(length: int, word: str) -> str:
    """Text of `length` characters, words of `word` with no space at either end."""
    return (f"{word} " * length)[: length - 1] + word[0]


def names(length: int, prefix: str) -> str:
    """A comma-separated list of distinct names, `length` characters as the form shows it."""
    out: list[str] = []
    n = 0
    while len(", ".join(out)) < length:
        n += 1
        out.append(f"{prefix}{n:04d}")
    text = ", ".join(out)
    return text[: length - 1] + "q" if len(text) > length else text


async def test_the_term_form_holds_what_the_save_accepts_and_no_more(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Each input's max_length is what the save accepts for that field, whichever way a term is
    written (the form, an import): one character more is refused. Definitions of 4,001-4,096
    characters were accepted (the card's cap) and /term edit opened them cut to the input's
    4,000, so saving the edit lost their end unseen."""
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    inputs = form_inputs((await opened.response())["data"])
    assert set(inputs) == {"title", "definition", "boundary", "other_names", "related"}
    texts = {
        "title": lambda n: exactly(n, "Zorbledger"),
        "definition": lambda n: exactly(n, "zorb"),
        "boundary": lambda n: exactly(n, "zorb"),
        "other_names": lambda n: names(n, "zorbname"),
        "related": lambda n: names(n, "zorbrel"),
    }
    problem_field = {"other_names": "aliases"}
    for key, make in texts.items():
        most = inputs[key]["max_length"]
        for length, refused in ((most, False), (most + 1, True)):
            text = make(length)
            assert len(text) == length, (key, len(text))
            values = {"title": "Zorb Ledger", "definition": "Ours.", key: text}
            draft = TermDraft(**values, category="Fundamentals")
            problems = check_draft(draft, bot.state.glossary, []).problems
            too_long = [
                p
                for p in problems
                if p.field == problem_field.get(key, key) and "characters" in p.message
            ]
            assert bool(too_long) is refused, (key, length, too_long)

    # Through the form: the longest definition it takes is saved whole and opens whole.
    longest = exactly(inputs["definition"]["max_length"], "zorb")
    answer = await submit(
        scene, scene.moderator, opened, {"title": "Zorb Ledger", "definition": longest}
    )
    assert answer["content"].startswith("Added"), answer
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == longest
    reopened = await open_edit(scene, scene.moderator, "zorb ledger")
    shown = form_inputs((await reopened.response())["data"])
    assert shown["definition"]["value"] == longest


async def test_the_command_options_hold_what_the_save_accepts_and_no_more(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/term add|edit`'s acronym and summary boxes take what the save accepts: the summary's
    box stopped at 300 characters where a saved summary (an import's) may have 1,024."""
    for command in ("add", "edit"):
        registered = scene.fake.registry.find("term", 1, None) or scene.fake.registry.find(
            "term", 1, scene.guild.id
        )
        assert registered is not None
        [sub] = [o for o in registered["options"] if o["name"] == command]
        boxes = {o["name"]: o for o in sub["options"]}
        for key, word in (("acronym", "ZBX"), ("summary", "zorb")):
            most = boxes[key]["max_length"]
            for length, refused in ((most, False), (most + 1, True)):
                draft = TermDraft(
                    "Zorb Ledger", "Ours.", category="Fundamentals", **{key: exactly(length, word)}
                )
                problems = check_draft(draft, bot.state.glossary, []).problems
                too_long = [p for p in problems if p.field == key and "characters" in p.message]
                assert bool(too_long) is refused, (command, key, length, too_long)

    summary = exactly(1024, "zorb")
    opened = await open_add(scene, scene.moderator, category="Fundamentals", summary=summary)
    added = await submit(scene, scene.moderator, opened, TERM)
    assert added["content"].startswith("Added"), added
    [term] = await read_terms(store, scene.guild.id)
    assert term.summary == summary
