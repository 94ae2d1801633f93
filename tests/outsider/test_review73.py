"""review73 (tests/outsider/PLAN.md, "review73"): attacks on the eighth session's changes as an
outsider makes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.term_commands import edit_answer, made_up, stored_now

from .conftest import Scene
from .test_outsider69 import import_file
from .test_product70 import _imported
from .test_review71 import ONE_ENTRY


async def test_a_stored_reference_discord_refuses_leaves_the_card_without_its_link(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A reference stored before `check` refused it (review72: a port that is no number) or one
    it still takes that Discord refuses ("Not a well formed URL": a host with no dot) went to
    the card as its title's link: Discord refused the whole card, and `/define` of the term
    answered no card at all. The card goes out without the link; a good one keeps it."""
    made = {
        "zorb": "https://example.org:abc/page",
        "quux": "https://wiki/quux",
        "blorp": "https://example.org/blorp",
    }
    await stored_now(
        scene, bot, store, *(made_up(name, reference=url) for name, url in made.items())
    )
    for name, url in made.items():
        asked = await scene.fake.slash(scene.alice, "define", {"term": name}, channel=scene.channel)
        [card] = (await asked.final_message())["embeds"]
        assert card["title"] == name.title(), card
        assert card.get("url") == (url if name == "blorp" else None), card


@pytest.mark.parametrize(
    "reference", ["https://wiki/page", "http://localhost:8080/page", "https://./page"]
)
def test_a_reference_url_whose_host_has_no_dot_is_a_problem(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    reference: str,
) -> None:
    """A host name with no dot (an intranet's "wiki", "localhost"): a browser there may open
    it, but Discord refuses a card linking to it ("Not a well formed URL"), so `terms import`
    says "bad reference URL" as for a port that is none (review72)."""
    monkeypatch.chdir(tmp_path)
    text = ONE_ENTRY + f'reference = "{reference}"\n'
    code, said = _imported(tmp_path, capsys, "ours.toml", text)
    assert code == 1, said
    assert "Reference: bad reference URL" in said, said


async def _exported_and_imported_back(scene: Scene) -> str:
    asked = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
    exported = await asked.final_message()
    data = scene.fake.attachment_bytes(exported["attachments"][0])
    return await import_file(scene, "ours.toml", data)


@pytest.mark.parametrize(
    "reference",
    ["https://example.org/zorb", "https://example.org:abc/page", "https://wiki/zorb"],
    ids=["good", "stored-before-port", "stored-before-no-dot"],
)
async def test_a_term_with_every_field_edited_exported_and_imported_back_loses_nothing(
    scene: Scene, bot: GlossaryBot, store: Store, reference: str
) -> None:
    """A term holding every field, the file-only ones too (mend72: an edit keeps them), edited
    in the form, then exported and imported back: nothing changed, nothing lost. With a
    reference stored before `check` refused it, the edit keeps it (mend72), so its export must
    import back too, as a name stored before such names were refused does (frame72)."""
    full = made_up(
        "zorb",
        title="Zorb Engine",
        definition="A made-up zorb engine.",
        acronym="ZE",
        aliases=("zorbster",),
        summary="Zorbs things.",
        boundary="Not a blorp.",
        importance="It matters.",
        plain="A zorb maker.",
        keywords=("zorbing",),
        related=("rag",),
        reference=reference,
    )
    await stored_now(scene, bot, store, full)
    said = await edit_answer(scene, "zorb", {"definition": "A made-up zorb engine, edited."})
    assert said.startswith("Saved **Zorb Engine**"), said
    edited = full.model_copy(update={"definition": "A made-up zorb engine, edited."})
    assert await read_terms(store, scene.guild.id) == [edited]
    answer = await _exported_and_imported_back(scene)
    assert answer.startswith("Nothing changed: the file holds this server's terms"), answer
    assert await read_terms(store, scene.guild.id) == [edited]


async def test_an_import_changing_a_stored_bad_reference_to_another_bad_one_is_refused(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Only the reference stored for that term is kept: another bad one is refused as ever."""
    term = made_up("zorb", reference="https://wiki/zorb")
    await stored_now(scene, bot, store, term)
    text = (
        '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\n'
        'definition = "A made-up zorb."\nreference = "https://wiki/other"\n'
    )
    answer = await import_file(scene, "ours.toml", text)
    assert answer.startswith("Nothing was imported: 1 problem"), answer
    assert await read_terms(store, scene.guild.id) == [term]
