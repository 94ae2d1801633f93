"""Probes for task setting75 (issue #12): a question names a product or model as its setting and
asks about the mechanism inside it ("in llava, which part looks at the picture" asks for the
visual encoder, not vision-language models), against controls where the product itself is asked
("what is vllm", "how does llava work"). setting75_probes.tsv was written from general knowledge
and entry ids before reading bot/search or any slice's rows; its last four controls after the
first what-if."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. `_product_setting_read` reads only a product no entry is
# named after, that one tool or model's phrasings name ("llava", "gpt-4o"); a product with its own
# entry (vllm, llama.cpp, deepseek, pytorch) or named by several entries' phrasings (claude) is
# left to the written-name rules (part72's `_mechanism_setting_offered`), whose frames these miss.
# "how does gpt-4o see an image ..." read as vision-language models still leads with them. The
# self controls with no card on main too: "llava" alone is read as a typo of Llama.
STILL_FAILING: set[str] = {
    "why does vllm handle lots of users at once better",
    "why does vllm serve so many requests at once without waiting for the slowest one",
    "how does vllm use a small draft model to go faster",
    "how does gpt-4o see an image, does it cut it into pieces",
    "how does llama.cpp make models small enough for a laptop",
    "how does deepseek r1 think before it answers",
    "does llama.cpp support gpus",
    "is llava good for ocr",
    "what is llava",
    "how does llava work",
    "what is llava's license",
    "how does claude call tools",
}
PROBES = ProbeFile("setting75_probes.tsv", STILL_FAILING)

test_a_mechanism_inside_a_named_product_gets_the_mechanism = PROBES.test(
    "setting", expect=the_asked_card_or_first_offers
)
test_a_product_asked_about_keeps_its_card = PROBES.test("self", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 14, "self": 18})
