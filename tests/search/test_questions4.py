"""Questions that name two entries and ask about one: "convert A to B" asks about B, "does A run
on B" about whether they go together (either may be the unknown one: both offered, no card).
Queries written for this file before the rules (none from a relevance slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.fusion import LEADING_NAME_RANKS, NAMED_RANKS, named_rank
from bot.search.query import compatibility, conversion


@pytest.mark.parametrize(
    ("core", "sides"),
    [
        ("how can i convert my safetensors weights into gguf", ("gguf", "safetensors weights")),
        ("converting a gguf to safetensors possible", ("safetensors possible", "gguf")),
        ("whats the easiest way to port my pytorch code to mlx", ("mlx", "pytorch code")),
        ("migrating from cuda to rocm what breaks", ("rocm", "cuda")),
        ("export pytorch to onnx for a phone app", ("onnx", "pytorch")),
        ("how does quantization work", None),  # converts nothing
        ("moving on to the next question", None),  # "moving on" converts nothing
    ],
)
# The sides as written: the index reads the longest name each starts with.
def test_the_sides_of_a_conversion(core: str, sides: tuple[str, str] | None) -> None:
    assert conversion(core) == sides


@pytest.mark.parametrize(
    ("core", "sides"),
    [
        ("does vllm run on rocm", ("vllm", "rocm")),
        ("will llama cpp work with cuda 12", ("llama cpp", "cuda 12")),
        ("is mlx compatible with gguf files", ("mlx", "gguf files")),
        ("does docker even support rocm yet", ("docker", "rocm")),
        ("does quantization hurt accuracy", None),  # a question about one thing's effect
        ("how does docker work", None),
    ],
)
def test_the_sides_of_a_compatibility_question(core: str, sides: tuple[str, str] | None) -> None:
    assert compatibility(core) == sides


def _answer(index: SearchIndex, query: str) -> tuple[str | None, list[str]]:
    """The card's entry (None: no card) and the entries offered, for a query."""
    result = index.search(query)
    return result.entry_id, [s.id for s in result.suggestions]


@pytest.mark.parametrize(
    ("query", "card", "offered"),
    [
        ("how can i convert my safetensors weights into gguf?", "gguf", "safetensors"),
        ("what's the easiest way to port my pytorch code to mlx", "mlx", "pytorch"),
    ],
)
def test_a_conversion_answers_its_target_and_offers_its_source(
    bundled_index: SearchIndex, query: str, card: str, offered: str
) -> None:
    shown, offers = _answer(bundled_index, query)
    assert shown == card
    assert offered in offers


@pytest.mark.parametrize(
    ("query", "source"),
    [
        ("how do i convert a gguf back to a pytorch state dict", "gguf"),
        ("converting docker compose files to helm charts, any tool?", "docker"),
    ],
)
def test_what_a_conversion_starts_from_is_no_card(
    bundled_index: SearchIndex, query: str, source: str
) -> None:
    shown, _ = _answer(bundled_index, query)
    assert shown != source


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("does vllm run on rocm yet?", {"vllm", "rocm"}),
        ("will llama.cpp work with cuda 12?", {"llama-cpp", "cuda"}),
        ("does mlx support gguf files", {"mlx", "gguf"}),
    ],
)
def test_whether_two_things_go_together_offers_both(
    bundled_index: SearchIndex, query: str, named: set[str]
) -> None:
    shown, offers = _answer(bundled_index, query)
    assert shown is None
    assert named <= set(offers)


@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("why is the mixture of expers router unstable", "mixture-of-experts"),
        ("how big is the mixtrue of experts model", "mixture-of-experts"),
        ("why is stochastic gradeint descent so noisy", "sgd"),
    ],
)
def test_a_name_of_three_words_mistyped_in_a_question(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    shown, _ = _answer(bundled_index, query)
    assert shown == card


@pytest.mark.parametrize(
    ("before", "rank"),
    [
        ("how do i set temperature when calling the", 0),  # a clause saying when: its setting
        ("why does my loss spike while fine tuning with", 0),
        ("when does", LEADING_NAME_RANKS),  # "when" asking, not a clause: the start, any rank
        ("why does my model", NAMED_RANKS),
    ],
)
def test_a_name_in_a_when_clause_is_its_setting(before: str, rank: int) -> None:
    assert named_rank(True, before) == rank


def test_a_question_about_a_setting_used_when_calling_an_api(bundled_index: SearchIndex) -> None:
    shown, _ = _answer(bundled_index, "how do i set temperature when calling the openai api")
    assert shown == "temperature"
