"""fake70 (tests/outsider/PLAN.md): the product run as its users run it. Two display leftovers
of readme70 (a masked link's footer, `terms export`'s singular), and the fake Discord by hand
driving every kind of interaction through a real `glossary-bot run`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import embed_of

from .conftest import Scene
from .test_round30 import SMART_QUOTES, _cli


@pytest.mark.parametrize("said", ["[rag](https://example.com)", "[rag](<https://example.com>)"])
async def test_a_masked_link_s_footer_names_its_label(
    scene: Scene, bot: GlossaryBot, said: str
) -> None:
    """readme70's leftover: `[rag](https://example.com)` in a mention opened RAG with the
    footer `matched "[rag](" as an acronym`, the link's remains. A masked link reads as its
    label: the footer names "rag", what the member wrote as the term."""
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {said}")
    card = embed_of(await fake.wait_for_channel_message(scene.channel))
    assert card["title"] == "Retrieval-Augmented Generation (RAG)", card
    assert ' · matched "rag" as an acronym' in card["footer"]["text"], card["footer"]


@pytest.mark.parametrize(
    ("aliases", "told"),
    [
        (
            1,
            "1 alias: `glossary-bot aliases export --guild 4` writes it (`aliases import` reads "
            "it back, with its guild_id set to the other server's)",
        ),
        (
            2,
            "2 aliases: `glossary-bot aliases export --guild 4` writes them (`aliases import` "
            "reads them back, with each guild_id set to the other server's)",
        ),
    ],
)
async def test_terms_export_names_one_alias_in_the_singular(
    tmp_path: Path, aliases: int, told: str
) -> None:
    """readme70's leftover: with one alias left out, `terms export` said "the file does not
    hold server 4's 1 alias: ... writes them (... reads them back, with each guild_id ...)".
    One alias is "it", as "1 alias" already was."""
    (tmp_path / "ours.toml").write_text(
        SMART_QUOTES.replace("\u201c", '"').replace("\u201d", '"'), encoding="utf-8"
    )
    rows = [
        {"guild_id": 4, "alias": f"the zorbinator {n}", "entry_id": "zorb-engine"}
        for n in range(aliases)
    ]
    (tmp_path / "aliases.json").write_text(json.dumps(rows))
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
    assert said == f"terms export: the file does not hold server 4's {told}\n", said
