"""The learned card decision (`bot/search/card_model.py`, tasks rerank22 and rerank23): its
weights file, its thresholds, and the step of `SearchIndex._search` that asks it. It promotes an
offer the rules made of their own accord to its first choice's card and offers a card the
meaning or a description made of their own accord: a name written, an answer a rule made on
purpose and a server's own term are never weighed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.glossary import load_glossary
from bot.search import SearchIndex
from bot.search import index as index_module
from bot.search.card_model import FEATURES, WEIGHTS, CardModel, Evidence
from bot.search.local import compile_local
from bot.search.results import SearchResult, Suggestion

from .server_term_calib import SERVERS

# a query the rules offer of their own accord (no entry clear enough), and one they give a card
OFFERED = "what is it called when you train a small model to copy a big one"
CARDED = "the model confidently makes up facts that are not true"


def _model(
    tmp_path: Path, promote: float | None = None, keep: float | None = None, **changes: object
) -> Path:
    """The shipped weights file with `changes` and the thresholds given, written to `tmp_path`."""
    made = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    made.update(changes)
    if promote is not None:
        made["offers"]["threshold"] = promote
    if keep is not None:
        made["cards"]["threshold"] = keep
    path = tmp_path / "card_model.json"
    path.write_text(json.dumps(made), encoding="utf-8")
    return path


def test_the_shipped_weights_are_for_these_features_and_say_how_they_were_made() -> None:
    made = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    loaded = CardModel.load()
    for model in (loaded.offers, loaded.cards):
        assert len(model.weights) == len(model.mean) == len(model.scale) == len(FEATURES)
    assert loaded.offers.threshold > 0.0
    assert 0.0 <= loaded.cards.threshold < 1.0
    assert made["how"].startswith("python tools/fit_card_model.py")


def test_weights_fitted_on_other_features_say_how_to_make_them_again(tmp_path: Path) -> None:
    path = _model(tmp_path, features=[*FEATURES, "another"])
    with pytest.raises(ValueError, match=r"tools/fit_card_model\.py"):
        CardModel.load(path)


def test_the_thresholds_decide_promotion_and_keeping(tmp_path: Path) -> None:
    """From the offers' threshold up an offer becomes a card: at 0 every one does, above 1
    none. From the cards' threshold up a card stays one: at 0 every one does, above 1 none."""
    values = [0.0 for _ in FEATURES]
    assert CardModel.load(_model(tmp_path, promote=0.0)).card(values, carded=False)
    assert not CardModel.load(_model(tmp_path, promote=1.01)).card(values, carded=False)
    assert CardModel.load(_model(tmp_path, keep=0.0)).card(values, carded=True)
    assert not CardModel.load(_model(tmp_path, keep=1.01)).card(values, carded=True)


class _Always:
    def __init__(self, card: bool) -> None:
        self.answer = card
        self.asked = 0

    def card(self, values: tuple[float, ...], carded: bool) -> bool:
        assert len(values) == len(FEATURES)
        self.asked += 1
        return self.answer


def test_an_offer_the_model_is_sure_of_becomes_its_first_choices_card(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_module, "card_model", lambda: _Always(False))
    offered = bundled_index.search(OFFERED)
    assert offered.entry is None
    assert len(offered.suggestions) > 1
    monkeypatch.setattr(index_module, "card_model", lambda: _Always(True))
    carded = bundled_index.search(OFFERED)
    assert carded.status == "match"
    assert carded.entry is not None
    first, *rest = offered.suggestions
    assert (carded.entry.id, carded.strategy, carded.score) == (
        first.id,
        first.strategy,
        first.score,
    )
    assert carded.suggestions == tuple(rest)


def test_a_card_the_model_doubts_becomes_an_offer_of_it_first(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_module, "card_model", lambda: _Always(True))
    carded = bundled_index.search(CARDED)
    assert carded.entry is not None
    assert carded.strategy in index_module.WEIGHED_CARDS
    monkeypatch.setattr(index_module, "card_model", lambda: _Always(False))
    offered = bundled_index.search(CARDED)
    assert offered.status == "suggest"
    assert offered.entry is None
    first, *rest = offered.suggestions
    assert (first.id, first.strategy) == (carded.entry.id, carded.strategy)
    assert tuple(rest) == carded.suggestions[: len(rest)]


@pytest.mark.parametrize(
    "query",
    [
        "what is a kv cache and why does it matter",  # a card for a name written
        "why does my kv cache grow with context length",  # ... by its description
        "kv cache",  # a name written outright: the meaning never ran
        "hallucination on lsd",  # an everyday sense (`_unless_everyday`)
        "hallucinations on acid",
        "how can i fine tune a 70b model on one gpu with 4 bit weights",  # `_narrower_offered`
        "what does it mean to seed a lawn",  # a name written, offered: an everyday sense
        "in tokenization, how many tokens per word do you get for different languages",  # context
    ],
)
def test_names_and_answers_made_on_purpose_are_not_weighed(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    before = bundled_index.search(query)
    model = _Always(before.entry is None)  # the answer that would change it
    monkeypatch.setattr(index_module, "card_model", lambda: model)
    assert bundled_index.search(query) == before
    assert model.asked == 0


def test_a_servers_own_term_is_never_weighed(bundled_index: SearchIndex) -> None:
    """The models saw no server's terms when they were fitted: their offers stay offers, their
    cards cards."""
    server = SERVERS[0]
    evidence = Evidence((), {}, {}, None, frozenset(), False, False, 1, False, False)
    index = compile_local(load_glossary(), bundled_index, server.terms, {}).index
    term = index.entry(server.terms[0].id)
    assert term is not None
    assert term.worded_by_server
    offer = SearchResult(
        "suggest", None, None, 0.0, "q", "q", (Suggestion(term.id, term.title, 60.0, "semantic"),)
    )
    card = SearchResult("match", term, "semantic", 60.0, "q", "q")
    assert index._weighed_first(offer, evidence) is None
    assert index._weighed_first(card, evidence) is None
    bundled = bundled_index.entries[0]
    offer = SearchResult(
        "suggest",
        None,
        None,
        0.0,
        "q",
        "q",
        (Suggestion(bundled.id, bundled.title, 60, "semantic"),),
    )
    card = SearchResult("match", bundled, "description", 60.0, "q", "q")
    assert index._weighed_first(offer, evidence) == (bundled, "semantic")
    assert index._weighed_first(card, evidence) == (bundled, "description")
