"""The bundled glossary: every source definition loads, merges into one card per concept."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from bot.glossary import Glossary, bundled_data_dir, inspect_glossary, load_glossary


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary()


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_bundled_data_is_clean() -> None:
    _, problems = inspect_glossary()
    assert [str(p) for p in problems if p.severity == "error"] == []


def test_counts_per_source(glossary: Glossary) -> None:
    per_source = Counter(text.source for entry in glossary for text in entry.sources)
    assert per_source == {"backend-ai-go": 74, "llm-studio": 117, "foundations": 163}


def test_every_source_definition_is_kept_verbatim(glossary: Glossary) -> None:
    data = bundled_data_dir()
    topics = json.loads((data / "llm-studio-topics.json").read_text("utf-8"))["topics"]
    kept = {_squash(t.definition) for e in glossary for t in e.sources}
    for topic in topics:
        assert _squash(topic["definition"]) in kept, topic["id"]
    # The Markdown glossary's bodies: everything between one heading line and the next.
    markdown = (data / "backend-ai-go-glossary.md").read_text("utf-8")
    bodies = re.split(r"^.*¶$", markdown, flags=re.MULTILINE)[2:]
    bodies = [_squash(b) for b in bodies if _squash(b)]
    assert len(bodies) == 74
    for body in bodies:
        assert body in kept, body[:60]


def test_concept_in_three_sources_is_one_card(glossary: Glossary) -> None:
    entry = glossary["kv-cache"]
    assert [s.source for s in entry.sources] == ["llm-studio", "foundations", "backend-ai-go"]
    assert entry.title == "KV Cache"
    # The richest source leads; the others keep their own wording.
    assert entry.definition.startswith("In autoregressive decoding, the KV cache")
    assert entry.sources[1].definition.startswith("The stored keys and values of past tokens")


@pytest.mark.parametrize(
    "entry_id",
    [
        "lora-qlora",
        "rlhf",
        "rag",
        "speculative-decoding",
        "quantization",
        "perplexity",
        "paged-attention",
    ],
)
def test_shared_concepts_merge(glossary: Glossary, entry_id: str) -> None:
    assert len(glossary[entry_id].sources) >= 2


def test_namesakes_stay_apart(glossary: Glossary) -> None:
    assert glossary["transformers"].category == "Fundamentals"
    assert "Hugging Face" in glossary["transformers-library"].title
    assert glossary["serving-goodput"].id != glossary["training-goodput"].id
    gate = glossary["gate"]
    assert [s.source for s in gate.sources] == ["llm-studio"]
    assert "mixture-of-experts" in glossary
    assert "gate" not in glossary["mixture-of-experts"].names


def test_acronym_and_expansion_from_markdown_parenthesis(glossary: Glossary) -> None:
    llama = glossary["llama"]
    assert "Large Language Model Meta AI" in llama.aliases
    gguf = glossary["gguf"]
    assert gguf.acronym == "GGUF"
    assert "GPT-Generated Unified Format" in gguf.aliases


def test_see_also_becomes_related(glossary: Glossary) -> None:
    agent = glossary["ai-agents"]
    assert "reasoning-and-acting" in agent.related


def test_every_related_id_resolves_and_entries_without_links_get_some(glossary: Glossary) -> None:
    for entry in glossary:
        for target in entry.related:
            assert target in glossary, (entry.id, target)
    linked = sum(1 for e in glossary if e.related)
    assert linked >= 0.9 * len(glossary)


def test_foundation_definitions_have_boundaries_from_their_contrast(glossary: Glossary) -> None:
    tokens = next(e for e in glossary if e.definition.startswith("The count of token instances"))
    assert tokens.boundary == "It is data volume, not vocabulary size."


def test_app_sentences_are_attributed_not_presented_as_ours(glossary: Glossary) -> None:
    adamw = glossary["adamw"]
    assert "This app" not in adamw.definition
    assert any("This app uses AdamW" in n.text and n.source == "llm-studio" for n in adamw.notes)
    assert glossary.source("llm-studio").app_name == "LLM Studio"
    for entry in glossary:
        for field in (entry.definition, entry.boundary or "", entry.plain or ""):
            assert not re.search(r"(?i)\bthis app\b", field), entry.id


def test_entries_are_immutable(glossary: Glossary) -> None:
    with pytest.raises(AttributeError, match="immutable Entry"):
        glossary["kv-cache"].title = "changed"  # type: ignore[misc]


def test_the_vision_transformer_and_its_parts_link_each_other(glossary: Glossary) -> None:
    """Vision Transformer links Image Patch Token and Visual Encoder (which lists ViT among its
    keywords); each links it back."""
    vit = glossary["vision-transformer"]
    for other in ("image-patch-token", "visual-encoder"):
        assert other in vit.related
        assert "vision-transformer" in glossary[other].related
