"""What the third round of outside testing broke in server glossaries, through `glossary-bot run`:
a term taking a name an alias already answers to, aliases left pointing at a removed term, and
term text carrying direction overrides, hidden characters and Discord markup onto cards.
What moderators are answered is checked on a bot in this process (a bot process each cost
~8 s on a loaded machine; trim57b); the importers and `glossary-bot` commands stay processes."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of
from tests.fake_discord import FakeDiscord

from .conftest import Scene
from .helpers import add_alias, stored_aliases

ZORBLAX = {
    "title": "Zorblax",
    "definition": "The team's nightly batch job that re-ranks retrieved documents.",
}


async def add_term(scene: Scene, values: dict[str, str]) -> str:
    fake = scene.fake
    opened = await fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    assert (await opened.response())["type"] == 9
    saved = await (await fake.submit_modal(scene.moderator, opened, values)).final_message()
    return str(saved["content"])


async def import_terms(scene: Scene, toml: str) -> str:
    upload = scene.fake.add_attachment("terms.toml", toml)
    handle = await scene.fake.slash(
        scene.moderator, "term import", {"file": upload}, channel=scene.channel
    )
    return str((await handle.final_message())["content"])


async def alias_list(fake: FakeDiscord, scene: Scene) -> str:
    handle = await fake.slash(scene.moderator, "alias list", {}, channel=scene.channel)
    message = await handle.final_message()
    return str(message["content"]) + str(message.get("embeds"))


async def test_a_term_cannot_take_a_name_an_alias_answers_to(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store):
        assert (await add_alias(fake, scene.moderator, "plonk", "rag", scene.channel)).startswith(
            "Added"
        )
        for values in (
            {"title": "Plonk", "definition": "Our word for a dropped request."},
            {"title": "PLONKS", "definition": "Our word for a dropped request."},
            {"title": "Droppage", "definition": "A dropped request.", "other_names": "pl onk"},
        ):
            answer = await add_term(scene, values)
            assert not answer.startswith("Added"), (values, answer)
            assert "plonk" in answer.casefold(), answer
            assert "alias" in answer, answer
        answer = await import_terms(
            scene,
            '[[entries]]\nid = "droppage"\ntitle = "Droppage"\ncategory = "Fundamentals"\n'
            'definition = "A dropped request."\naliases = ["Plonk"]\n',
        )
        assert answer.startswith("Nothing was imported"), answer
        assert "plonk" in answer.casefold(), answer
        assert "alias" in answer, answer
        _, card = await define(fake, scene.alice, "plonk", scene.channel)
        assert embed_of(card)["title"].startswith("Retrieval"), card
        # A name the alias does not take is fine, and so is the alias's own term's wording.
        assert (await add_term(scene, ZORBLAX)).startswith("Added"), "Zorblax"
        # And the other way round: an alias may not take a term's name.
        answer = await add_alias(fake, scene.moderator, "zorb lax", "rag", scene.channel)
        assert not answer.startswith("Added"), answer


async def test_removing_a_term_takes_its_aliases_with_it(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store):
        assert (await add_term(scene, ZORBLAX)).startswith("Added")
        for alias in ("blorp", "zbx nightly"):
            answer = await add_alias(fake, scene.moderator, alias, "zorblax", scene.channel)
            assert answer.startswith("Added"), answer
        answer = await add_alias(fake, scene.moderator, "frob", "rag", scene.channel)
        assert answer.startswith("Added"), answer
        asked = await fake.slash(
            scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
        )
        prompt = await asked.final_message()
        assert "blorp" in prompt["content"], prompt
        assert "zbx nightly" in prompt["content"], prompt
        clicked = await fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
        [done] = await clicked.followups(1)
        assert done["content"].startswith("Removed “Zorblax”"), done
        assert "blorp" in done["content"], done
        assert "alias" in done["content"], done
        listed = await alias_list(fake, scene)
        assert "blorp" not in listed, listed
        assert "frob" in listed, listed
        _, card = await define(fake, scene.alice, "frob", scene.channel)
        assert embed_of(card)["title"].startswith("Retrieval"), card
    assert [key for _, key, _ in stored_aliases(scene.db_path)] == ["frob"]


async def test_an_import_that_drops_a_term_drops_its_aliases(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    one = (
        '[[entries]]\nid = "{id}"\ntitle = "{title}"\ncategory = "Fundamentals"\n'
        'definition = "A job of ours."\n'
    )
    async with start_bot(store):
        both = one.format(id="zorblax", title="Zorblax") + one.format(id="quux", title="Quux")
        assert (await import_terms(scene, both)).startswith("Imported"), both
        for alias, term in (("blorp", "zorblax"), ("frob", "quux")):
            answer = await add_alias(fake, scene.moderator, alias, term, scene.channel)
            assert answer.startswith("Added"), answer
        answer = await import_terms(scene, one.format(id="quux", title="Quux"))
        assert answer.startswith("Imported"), answer
        assert "blorp" in answer, answer
    assert [(key, e) for _, key, e in stored_aliases(scene.db_path)] == [("frob", "quux")]


HOSTILE_TEXT = {
    "direction override": "The nightly job \u202egnp.exe\u202c that re-ranks documents.",
    "zero-width space": "The nightly\u200b job that re-ranks documents.",
    "NUL": "The nightly job\x00 that re-ranks documents.",
    "timestamp markup": "The nightly job, next run <t:99999999999:F>, that re-ranks documents.",
    "role mention": "The nightly job that re-ranks documents; ask <@&{guild}>.",
    "user mention": "The nightly job that re-ranks documents; ask <@123456789012345678>.",
    "everyone": "The nightly job that re-ranks documents. @everyone read this.",
}
# Characters a member's text loses on its way into Accept…'s form, as the review shows it.
SHOWN_WITHOUT = ("direction override", "zero-width space")
HIDDEN = ("\u202e", "\u202c", "\u200b", "\x00", "<t:", "<@", "@everyone")


def shown_text(card: dict[str, Any]) -> str:
    embed = embed_of(card)
    parts = [embed.get("title", ""), embed.get("description", "")]
    parts += [f["value"] for f in embed.get("fields", [])]
    return "\n".join(parts)


@pytest.mark.parametrize("kind", list(HOSTILE_TEXT))
async def test_hostile_term_text_is_refused_per_field(
    scene: Scene, start_bot: StartBot, store: Store, kind: str
) -> None:
    fake = scene.fake
    text = HOSTILE_TEXT[kind].replace("{guild}", str(scene.guild.id))
    async with start_bot(store):
        answer = await add_term(scene, {**ZORBLAX, "definition": text})
        assert answer.startswith("Nothing was saved"), answer
        assert "Definition" in answer, answer
        answer = await add_term(scene, {**ZORBLAX, "boundary": text})
        assert answer.startswith("Nothing was saved"), answer
        assert "boundary" in answer.casefold() or "not" in answer, answer
        toml_text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\x00", "\\u0000")
        answer = await import_terms(
            scene,
            '[[entries]]\nid = "zorblax"\ntitle = "Zorblax"\ncategory = "Fundamentals"\n'
            f'definition = "{toml_text}"\n',
        )
        assert answer.startswith("Nothing was imported"), answer
        assert "Definition" in answer or "definition" in answer, answer
        # A member's suggestion carrying it: refused when sent where Accept…'s form could not
        # save it (outsider77); queued where the form holds it without those characters, and
        # saved without them (round 21).
        opened = await fake.slash(
            scene.alice, "suggest", {"term": "Zorblax"}, channel=scene.channel
        )
        await opened.response()
        sent = await fake.submit_modal(scene.alice, opened, {"definition": text})
        told = str((await sent.final_message())["content"])
        if kind in SHOWN_WITHOUT:
            assert told.startswith("Thanks!"), told
            review = await fake.slash(
                scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
            )
            shown = await review.final_message()
            accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
            await accept.response()
            saved = await (await fake.submit_modal(scene.moderator, accept, {})).final_message()
            # the form holds the text as the review showed it (round 21)
            assert str(saved["content"]).startswith("Added"), saved
        else:
            assert "Nothing was queued; what you typed:" in told, told
        # Nothing got in: no card for it, or one without it.
        _, card = await define(fake, scene.alice, "zorblax", scene.channel)
        assert not card.get("embeds") or not any(h in shown_text(card) for h in HIDDEN), card
        # Line breaks and ordinary punctuation in a definition stay fine.
        fine = "The nightly job.\nIt re-ranks what retrieval found (a < b, 2 > 1)."
        answer = await add_term(scene, {"title": "Blorptex", "definition": fine})
        assert answer.startswith("Added"), answer
