"""review73 (tests/outsider/PLAN.md, "review73"): attacks on the eighth session's changes as an
outsider makes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms

from .conftest import Scene
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
    terms = tuple(
        ServerTerm(
            id=name,
            title=name.title(),
            definition=f"A made-up {name}.",
            category="Fundamentals",
            reference=url,
        )
        for name, url in made.items()
    )
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=terms), None), 1)
    bot.state.servers.forget(scene.guild.id)
    await bot.state.servers.local(scene.guild.id, patient=True)
    for name, url in made.items():
        asked = await scene.fake.slash(scene.alice, "define", {"term": name}, channel=scene.channel)
        [card] = (await asked.final_message())["embeds"]
        assert card["title"] == name.title(), card
        assert card.get("url") == (url if name == "blorp" else None), card


@pytest.mark.parametrize("reference", ["https://wiki/page", "http://localhost:8080/page"])
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
