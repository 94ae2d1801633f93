"""Probes for task contrast73 (issue #12): a name written only as what the thing asked about is
not, is without, replaces or is measured against ("the processor that is way slower than a
graphics card", "rlhf without the reward model", "a weak gpt-2 sized model supervising a much
stronger one") gives way to the thing meant; where the same words ask about the named entry
("is a cpu slower than a gpu", "why would i use dpo instead of rlhf") its card stays.
contrast73_probes.tsv was written from entry ids and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import contrast_only

from .probe_files import (
    ProbeFile,
    not_the_written_card,
    the_asked_card,
    the_asked_card_or_first_offers,
    the_asked_first_offer_the_written_behind,
)

# Probes that fail on this branch and on its base 52c6c8e5 alike: strict expected failures, so
# one that starts passing fails the suite and is moved out of here. `contrast_only` reads the
# words just before and after a name; a name that opens the text and is then modified ("rlhf
# without the reward model", "rlhf but the feedback comes from an ai") is read as asked, and a
# plain "like X" after "instead of ..." / "rather than ..." is no frame of its own. "doesn't
# use" is left out on purpose ("why is pytorch not using the gpu" asks about the gpu). The self
# ones are other causes (no card on the base either, or the other side of "instead of" offered
# first).
STILL_FAILING: set[str] = {
    "rlhf without the reward model",
    "generating all the output tokens at once instead of one after another like autoregressive"
    " models",
    "sampling that keeps a fixed number of tokens rather than a probability mass like top-p",
    "rewards from a program that checks the answer instead of a preference model like in rlhf",
    "rlhf but the feedback comes from an ai instead of people",
    "the keyword ranking that doesn't use embeddings at all",
    "rlhf without the hype",
    "temperature, not the weather kind",
}
PROBES = ProbeFile("contrast73_probes.tsv", STILL_FAILING)

test_a_contrasted_name_gives_way_to_the_thing_meant = PROBES.test(
    "contrast", expect=the_asked_card_or_first_offers
)
test_a_contrasted_name_off_the_glossary_is_no_card = PROBES.test(
    "none", expect=not_the_written_card
)
test_a_named_entry_asked_about_keeps_its_card = PROBES.test("self", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"contrast": 22, "none": 3, "self": 21})


@pytest.mark.parametrize(
    ("before", "after", "contrast"),
    [
        ("an old pc without a ", ". is the regular processor enough", True),
        ("why do groq chips have no ", " at all", True),
        ("why does groq's chip skip ", " and keep everything on the die", True),
        ("it is far slower than a ", " because", True),
        ("how long one request takes, and unlike ", " it's felt by a single user", True),
        ("a dpo variant that doesn't need a ", " model", True),
        ("sd3 uses rectified flow instead of ", ". does that make sampling faster", True),
        ("some norm that's like ", " but without centering", True),
        ("a small ", " level model supervised gpt-4", True),
        ("a ", " sized model supervise gpt-4", True),
        ("", " vs cross-encoder", False),  # two sides set side by side: either may be asked
        ("bi-encoder vs ", "", False),
        ("why is pytorch not using the ", "", False),  # the name is the topic
        ("what is ", " without the hype", False),  # what follows is what it is without
        ("is it like ", "", False),  # a likeness not taken back
        ("what chunk ", " size should i use", False),
        ("how does a ", " grade chain of thought steps", False),  # a verb, no yardstick
        ("is gpt4 better than ", " 3", False),  # a yes-or-no question weighs both sides
        ("so is a cpu slower than a ", " for training", False),
        ("the processor that is way slower than a ", " for training", True),
        ("", "", False),
    ],
)
def test_the_contrast_is_read_around_the_name(before: str, after: str, contrast: bool) -> None:
    assert contrast_only(before, after) is contrast


# Hostile input: only the tail before the name is read, and the text after it from its start.
@pytest.mark.parametrize(
    ("before", "after", "contrast"),
    [
        ("without " * 4000, " but" * 1000, True),
        ("like " * 4000, " x" * 4000, False),
        ("x" * 8000 + " than ", "", True),
    ],
)
def test_only_the_words_beside_the_name_are_read(before: str, after: str, contrast: bool) -> None:
    assert contrast_only(before, after) is contrast


# Cases written after the code (not blind). The tuning rows the rule takes: each was the named
# entry's wrong card on the base 52c6c8e5; now no card, the name offered behind the thing meant
# (`SearchIndex._contrast_name_offered`).
@pytest.mark.parametrize(
    ("query", "name", "meant"),
    [
        (
            "my son's minecraft server admin wants to run an ai on an old pc without a graphics"
            " card. is the regular processor enough?",
            "gpu",
            "cpu",
        ),
        (
            "a design where image patches go straight into the language model through a linear"
            " layer, skipping a vit",
            "vision-transformer",
            "encoder-free-multimodal",
        ),
        (
            "The general-purpose chip in every laptop, the one with a handful of powerful cores"
            " good at branching logic; you can run a small quantised model on it but it is far"
            " slower than a graphics card because it does few multiplications at once",
            "gpu",
            "cpu",
        ),
        (
            "OpenAI's superalignment experiment where a small GPT-2-level model supervised GPT-4"
            " and the big student ended up outperforming its labels; the analogy is humans"
            " supervising future systems smarter than us. I like the idea of an apprentice"
            " overtaking the master",
            "gpt-2",
            "weak-to-strong-generalization",
        ),
    ],
)
def test_a_contrasted_name_is_offered_behind_the_thing_meant(
    bundled_index: SearchIndex, query: str, name: str, meant: str
) -> None:
    the_asked_first_offer_the_written_behind(bundled_index.search(query), meant, name)


# The same frame where the meaning ranks the name first by `CONTRAST_NAME_KEEPS` or more: nothing
# else is described near it, so the name is the topic and its card stays.
def test_a_contrasted_name_nothing_else_near_keeps_its_card(bundled_index: SearchIndex) -> None:
    the_asked_card(bundled_index.search("is there anything better than rag"), "rag", "")
