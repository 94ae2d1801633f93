"""product75 (tests/outsider/PLAN.md, "product75"): a server's names read the way search reads
a question, what a button to a card gone says, and a reference in another script, as members
and moderators meet them in Discord."""

from __future__ import annotations

import json
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.glossary import load_glossary
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.resilience.helpers import unhurried
from tests.resilience.test_reload import ZEBRA_ONLY, glossary_files

from .conftest import Scene
from .test_left47 import moderator_answer

THE_ZORBLER = """
[[entries]]
title = "Zorbler Engine"
definition = "The lab's engine that turns checkpoints into evaluation notes."
category = "Fundamentals"
aliases = ["the zorbler"]
"""


async def test_a_server_term_s_other_name_with_the_opens_its_card_without_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: a server term's other name "the zorbler" opened the card typed whole
    only; "zorbler", "what is the zorbler?" (search reads the question's "the" away) and a
    mention asking it answered "Did you mean" (the name without its article was kept as a
    weak part of the term), where an alias or a title so written opens the card. The three
    are read by one reading now (`query.read_otherwise`)."""
    fake = scene.fake
    file = fake.add_attachment("terms.toml", THE_ZORBLER)
    said = await moderator_answer(scene, "term import", {"file": file})
    assert said.startswith("Imported: 1 added"), said
    for asked in ("the zorbler", "zorbler", "what is the zorbler?", "Zorbler"):
        _, answer = await define(fake, scene.alice, asked, scene.channel)
        assert answer["embeds"], (asked, answer)
        assert embed_of(answer)["title"] == "Zorbler Engine", (asked, answer)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is zorbler?")
    posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "Zorbler Engine", posted


async def test_explain_terms_finds_an_alias_written_without_its_the(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: with the alias "the quuxer" for RAG (which `/define quuxer` opens since
    outsider74), Explain terms on "we use quuxer daily" listed nothing: mentions were read
    against the aliases' own keys only. A server term's other name so written is found too."""
    fake = scene.fake
    unhurried(fake)
    said = await moderator_answer(scene, "alias add", {"alias": "the quuxer", "term": "rag"})
    assert said.startswith("Added"), said
    file = fake.add_attachment("terms.toml", THE_ZORBLER)
    said = await moderator_answer(scene, "term import", {"file": file})
    assert said.startswith("Imported: 1 added"), said
    for text, shown in (
        ("we use quuxer daily", "**Retrieval-Augmented Generation (RAG)**"),
        ("we use the quuxer daily", "**Retrieval-Augmented Generation (RAG)**"),
        ("the zorbler broke again", "**Zorbler Engine**"),
        ("ask zorbler about it", "**Zorbler Engine**"),
    ):
        posted = await fake.user_message(scene.bob, scene.channel, text)
        listing = await (
            await fake.message_command(scene.alice, "Explain terms", posted)
        ).final_message()
        assert listing["embeds"], (text, listing)
        assert shown in embed_of(listing)["description"], (text, listing)


async def test_a_bundled_entry_a_restart_left_out_is_gone_from_the_glossary_not_the_server_s(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    """Failed before: served with GLOSSARY_PATHS holding "Yak Attention", then restarted with
    it gone, the button to it on a card sent before said "That entry is no longer in this
    server's glossary." (only the ids bundled in this run were known as the glossary's, left74).
    What remembers a server's terms is its term log: an id it never held is the glossary's.
    A server term removed and then a restart still says "this server's glossary"."""
    fake = scene.fake
    data, extra = glossary_files(tmp_path)
    with_yak = load_glossary([data, extra])
    extra.write_text(ZEBRA_ONLY, encoding="utf-8")
    without_yak = load_glossary([data, extra])
    async with start_bot(store, glossary=with_yak, glossary_paths=[data, extra]):
        _, card = await define(fake, scene.alice, "zebra attention", scene.channel)
        file = fake.add_attachment("terms.toml", THE_ZORBLER + 'plain = "Our engine."\n')
        said = await moderator_answer(scene, "term import", {"file": file})
        assert said.startswith("Imported: 1 added"), said
        _, zorbler = await define(fake, scene.alice, "zorbler", scene.channel)
        handle = await fake.slash(
            scene.moderator, "term remove", {"term": "Zorbler Engine"}, channel=scene.channel
        )
        confirm = await handle.final_message()
        await (await fake.click(scene.moderator, confirm, buttons(confirm)["Remove"])).followups()
    async with start_bot(await Store.open(scene.db_path), glossary=without_yak):
        pressed = await fake.click(scene.alice, card, buttons(card)["Yak Attention"])
        answer = await pressed.final_message()
        assert is_ephemeral(answer), answer
        assert answer["content"] == "That entry is no longer in the glossary.", answer
        pressed = await fake.click(scene.alice, zorbler, buttons(zorbler)["Plain words"])
        answer = await pressed.final_message()
        assert answer["content"] == "That entry is no longer in this server's glossary.", answer


async def test_download_all_of_a_removed_term_says_so_as_its_card_s_buttons_do(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: `/alias list term:` of a server term, its term then removed, and the
    listing's **Download all** (product74) said "That term is no longer in the glossary.",
    where the term's card's buttons say "That entry is no longer in this server's glossary."
    (left74): one wording now, from one home (`replies.gone_said`)."""
    fake = scene.fake
    unhurried(fake)
    file = fake.add_attachment("terms.toml", THE_ZORBLER + 'plain = "Our engine."\n')
    said = await moderator_answer(scene, "term import", {"file": file})
    assert said.startswith("Imported: 1 added"), said
    _, card = await define(fake, scene.alice, "zorbler", scene.channel)
    (entry_id,) = [t.id for t in await store.terms(scene.guild.id)]
    for n in range(120):
        await store.add_alias(
            scene.guild.id, f"zorbish {n:03}", f"zorbish {n:03}", entry_id, 1, own_term=True
        )
    await bot.state.servers.reload(scene.guild.id)
    handle = await fake.slash(
        scene.moderator, "alias list", {"term": entry_id}, channel=scene.channel
    )
    listing = await handle.final_message()
    assert "Download all" in buttons(listing), listing
    handle = await fake.slash(
        scene.moderator, "term remove", {"term": "Zorbler Engine"}, channel=scene.channel
    )
    confirm = await handle.final_message()
    await (await fake.click(scene.moderator, confirm, buttons(confirm)["Remove"])).followups()
    gone = "That entry is no longer in this server's glossary."
    clicked = await fake.click(scene.moderator, listing, buttons(listing)["Download all"])
    assert (await clicked.final_message())["content"] == gone
    clicked = await fake.click(scene.alice, card, buttons(card)["Plain words"])
    assert (await clicked.final_message())["content"] == gone


IDN_TERM = """
[[entries]]
title = "Bücherwurm"
definition = "Our reading list of papers, kept on the lab's German wiki."
category = "Fundamentals"
reference = "https://bücher.example/wiki/Übersetzung?q=größe#Änderung"
"""


async def test_a_reference_with_a_unicode_host_links_its_card_as_a_uri(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: a reference "https://bücher.example/wiki/Übersetzung" was accepted and
    sent as the card's link as written, where Discord's spec takes an embed's url as a URI
    (RFC 3986, `format: uri`: ASCII only), which the fake now holds it to. The card links its
    ASCII form (the host in punycode, the rest percent-encoded as UTF-8, as a browser sends
    it); the term keeps the reference as written (its export gives it back)."""
    fake = scene.fake
    file = fake.add_attachment("terms.toml", IDN_TERM)
    said = await moderator_answer(scene, "term import", {"file": file})
    assert said.startswith("Imported: 1 added"), said
    _, card = await define(fake, scene.alice, "Bücherwurm", scene.channel)
    assert embed_of(card)["url"] == (
        "https://xn--bcher-kva.example/wiki/%C3%9Cbersetzung?q=gr%C3%B6%C3%9Fe#%C3%84nderung"
    ), card
    (stored,) = await store.terms(scene.guild.id)
    assert (
        "https://bücher.example/wiki/Übersetzung?q=größe#Änderung"
        in json.loads(stored.body)["reference"]
    ), stored
