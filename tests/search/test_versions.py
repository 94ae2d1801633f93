"""Model names with a version (task "versions"): "gpt 3.5", "claude 3.5", "llama 3 70b". A version
number is no words of a sentence: an entry whose name carries another version (GPT-2 for "gpt
3.5") is offered, never the card; a product the glossary has no entry for gets an offer or no
entry, never a broad entry's card won by the version's digits; a family whose name carries no
version (Llama) keeps its card. Queries written for this file (none from a relevance slice)."""

from __future__ import annotations

import pytest

from bot.aliases import check_alias
from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.query import without_versions

OFFERED = "offered"  # no card; the entry among the choices
NO_CARD = "no card"  # an offer of anything, or no entry


@pytest.mark.parametrize(
    ("query", "expected", "entry"),
    [
        # another version of GPT than the one typed: offered, never the card
        ("gpt 3.5", OFFERED, "gpt-2"),
        ("gpt-3.5", OFFERED, "gpt-2"),
        ("what is gpt 3.5", OFFERED, "gpt-2"),
        ("gpt4", OFFERED, "gpt-2"),
        ("gpt 4", OFFERED, "gpt-2"),
        ("gpt-4", OFFERED, "gpt-2"),
        ("gpt3", OFFERED, "gpt-2"),
        # products without an entry: no card
        ("gpt-4o", NO_CARD, None),
        ("claude 3.5", NO_CARD, None),
        ("claude 3", NO_CARD, None),
        ("claude 3.5 sonnet", NO_CARD, None),
        ("mistral 7b", NO_CARD, None),
        ("mixtral 8x7b", NO_CARD, None),
        ("qwen2.5", NO_CARD, None),
        ("qwen 2.5 7b", NO_CARD, None),
        ("sd 1.5", NO_CARD, None),
        ("stable diffusion 1.5", NO_CARD, None),
        ("gemini 1.5 pro", NO_CARD, None),
        ("gemini 1.5", NO_CARD, None),
        ("phi-3", NO_CARD, None),
        ("whisper large v3", NO_CARD, None),
        ("o1 preview", NO_CARD, None),
        # the name typed, or a family whose name carries no version: the card
        ("gpt-2", "gpt-2", None),
        ("gpt2", "gpt-2", None),
        ("llama3", "llama", None),
        ("llama 3", "llama", None),
        ("llama 3 70b", "llama", None),
        ("llama-3.1 8b", "llama", None),
        ("deepseek v3", "deepseek", None),
        # questions that write a version keep their answers
        ("how was gpt-2 trained", "gpt-2", None),
        ("is gpt4 better than llama 3", "llama", None),
        ("fine tuning llama 3 with lora", "fine-tuning", None),
    ],
)
def test_versioned_names(
    bundled_index: SearchIndex, query: str, expected: str, entry: str | None
) -> None:
    result = bundled_index.search(query)
    card = result.entry_id
    if expected == OFFERED:
        assert card is None, (query, card)
        assert entry in [s.id for s in result.suggestions], (query, result.suggestions)
    elif expected == NO_CARD:
        assert card is None, (query, card)
    else:
        assert card == expected, (query, card, result.suggestions)


@pytest.mark.parametrize(
    ("query", "passing"),
    [
        ("claude", "mcp"),
        ("claude 3.5", "mcp"),
        ("chatgpt", "vision-transformer"),
        ("gemini", "tensor-processing-unit"),
    ],
)
def test_a_bare_product_name_offers_what_the_product_is(
    bundled_index: SearchIndex, query: str, passing: str
) -> None:
    """A well-known LLM the glossary has no entry for offers the Large Language Model entry
    first (its keywords), not an entry one of whose phrasings mentions it in passing ("standard
    way for claude desktop to talk to plugins": Model Context Protocol)."""
    result = bundled_index.search(query)
    assert result.entry is None
    offered = [s.id for s in result.suggestions]
    assert offered[:1] == ["llm-fundamentals"]
    assert passing not in offered


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("how does claude desktop connect to my files", "mcp"),
        ("what normalization does mistral use", "root-mean-square-normalization"),
        ("how does chatgpt browse the web", "tool-calling"),
        ("can chatgpt use a calculator", "tool-calling"),
        ("the architecture behind chatgpt but for images", "vision-transformer"),
    ],
)
def test_a_product_named_in_a_question_keeps_the_card_it_asks_about(
    bundled_index: SearchIndex, query: str, expected: str
) -> None:
    """The phrasings that name a product in passing are what find these: kept."""
    result = bundled_index.search(query)
    assert result.entry is not None, (query, result.suggestions)
    assert result.entry.id == expected


def test_a_question_with_a_version_offers_what_it_names(bundled_index: SearchIndex) -> None:
    """Main offers Llama and Tokenization here: right, and no card is wrong."""
    result = bundled_index.search("llama 3 tokenizer vocab size")
    assert result.entry is None or result.entry.id in ("llama", "tokenization")
    assert "llama" in [s.id for s in result.suggestions] + [getattr(result.entry, "id", "")]


@pytest.mark.parametrize(
    ("core", "bare"),
    [
        ("gpt 3 5", "gpt"),
        ("claude 3 5 sonnet", "claude sonnet"),
        ("mixtral 8x7b", "mixtral"),
        ("deepseek v3", "deepseek"),
        # a number that makes a name with the word before it stays ("llama 3"), the rest goes
        ("llama 3 70b", "llama 3"),
        ("llama 3 1 8b", "llama 3"),
        ("gpt 2 trained", "gpt 2 trained"),
        # a quantity, or a number no name is written before, is no version
        ("qlora 4 bit", "qlora 4 bit"),
        ("4 bit quantization", "4 bit quantization"),
        ("what is 8x7b", "what is 8x7b"),
    ],
)
def test_the_versions_after_a_name(core: str, bare: str) -> None:
    assert without_versions(core, {"gpt2", "llama3"}.__contains__) == bare


@pytest.mark.parametrize("alias", ["gpt-4o", "gpt 3.5", "claude 3.5"])
def test_another_models_name_is_free_for_a_servers_alias(
    bundled_index: SearchIndex, alias: str
) -> None:
    """GPT-2 offered for "gpt-4o" is another model: a server may make "gpt-4o" an alias of an
    entry of its choosing (search reads the alias first)."""
    key, _ = check_alias(alias, "vision-language-models", bundled_index)
    assert key == normalize(alias)
