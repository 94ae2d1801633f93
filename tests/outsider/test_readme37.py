"""A newcomer follows the README (tests/outsider/PLAN.md, readme37)."""

from __future__ import annotations

from bot.cards.embed import render_card
from bot.glossary import load_glossary
from tests.fake_discord.__main__ import shown


def test_the_fake_by_hand_prints_a_cards_footer() -> None:
    """The README says a card's footer tells how a term was matched (`matched "kv cahce" as a
    typo`) and that `python -m tests.fake_discord` prints the answer as text; it printed the
    title, text, fields and buttons of the bot's card, not its footer, so a typo looked like an
    exact match."""
    glossary = load_glossary()
    matched = 'matched "kv cahce" as a typo'
    card = render_card(glossary["kv-cache"], glossary, matched=matched).to_dict()
    printed = shown({"embeds": [card]})
    assert card["footer"]["text"] in printed.splitlines()
    assert matched in printed
