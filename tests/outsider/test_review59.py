"""review59 (tests/outsider/PLAN.md, "Attacks on outsider51 and review58 (review59)"): each
fix's test failing on main 0dc403b first."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.search.semantic.term_vectors import TermVectors
from tests.discord_app.test_term_files import run_import

from .conftest import Scene
from .test_outsider51 import THREE_TERMS


class Counted(TermVectors):
    """The term-vector cache, counting the texts it embeds (one embedding thread: no race)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.embedded_texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> int:
        self.embedded_texts += self.missing(texts)
        return super().embed(texts)


async def test_a_change_of_one_term_embeds_its_texts_alone_past_the_cache(
    scene: Scene, bot: GlossaryBot, tmp_path: Path
) -> None:
    """outsider51 kept a server's meaning stage across batches (`with_vectors` keeps the rows
    it holds), but a change of any term compiles the server anew, and the new stage was built
    from the cache alone: a server whose texts the cache had partly let go of (more than it
    keeps, or a dozen full servers embedding after a move) embedded every one of them again at
    each edit, a removal included, holding the one embedding thread. Here the cache keeps 2 of
    the 6 texts: an edit embeds the edited term's 2 texts alone, a removal none, and the stage
    holds exactly the texts of the terms there are (an edited term's old texts dropped)."""
    shared = bot.state.servers._vectors()
    assert shared is not None
    vectors = Counted(shared.encoder, tmp_path, kept=2)
    bot.state.servers._term_vectors = vectors
    scope = scene.guild.id
    said = await run_import(scene, scene.fake.add_attachment("ours.toml", THREE_TERMS))
    assert said.startswith("Imported: 3 added"), said
    assert (await bot.state.servers.embedded(scope)).complete

    vectors.embedded_texts.clear()
    old = "kept for audits."
    edited = THREE_TERMS.replace(old.encode(), b"kept for the auditors each quarter.")
    said = await run_import(scene, scene.fake.add_attachment("ours.toml", edited))
    assert said.startswith("Imported: 0 added, 1 changed"), said
    local = await bot.state.servers.embedded(scope)
    assert local.complete
    assert len(vectors.embedded_texts) == 2, vectors.embedded_texts  # before: 4 or more
    assert all("auditors each quarter" in text for text in vectors.embedded_texts)
    assert set(local.row_keys) == {vectors.key(text) for _, text in local.texts}
    assert not any(old in text for _, text in local.texts)

    vectors.embedded_texts.clear()
    two = edited[: edited.rindex(b"[[entries]]")]
    said = await run_import(scene, scene.fake.add_attachment("ours.toml", two))
    assert said.startswith("Imported: 0 added, 0 changed, 1 removed"), said
    local = await bot.state.servers.embedded(scope)
    assert local.complete and local.embedded == len(local.texts) == 4
    assert vectors.embedded_texts == []  # before: 2
