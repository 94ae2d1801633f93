"""Probes for task part72 (issue #12): the written name is the setting and the question asks for
a part, mechanism or kind of it ("how does pytorch figure out the gradients by itself" asks for
automatic differentiation, not PyTorch), against controls in the same frames where the written
name is what is asked ("how does pytorch work"). part72_probes.tsv was written from entry ids and
general knowledge, before reading the tuning rows, the entries' text or bot/search."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. `_mechanism_setting_offered` reads a tool or model's name
# as the subject of "how does X know / work out / encode ..." or beside "this object", "what
# kind of N does/did ...", "the N part"; these write the part otherwise ("what is the object X
# keeps ...", "what N does X use", "X's feed-forward layers", "what network inside X"), or the
# setting is a method or concept (mixture of experts, latent diffusion, temperature), which the
# step leaves alone. The control loses to FlashAttention on main too.
STILL_FAILING: set[str] = {
    "what is the object pytorch keeps all the numbers in",
    "what normalisation does llama use instead of the usual one",
    "which activation function is inside llama's feed-forward layers",
    "what does gpt-2 use to stop each token from seeing the words after it",
    "how does mixture of experts decide which expert gets each token",
    "what network inside latent diffusion squeezes the image down into the latent space",
    "what does the temperature setting divide before the model samples",
    "how does paged attention save gpu memory",
}
PROBES = ProbeFile("part72_probes.tsv", STILL_FAILING)

test_a_part_of_a_named_entry_gets_the_part = PROBES.test(
    "part", expect=the_asked_card_or_first_offers
)
test_a_named_entry_asked_about_keeps_its_card = PROBES.test("self", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"part": 24, "self": 22})
