"""Probes for task written45: a text that pastes a log or error line ("Epoch 12: ...",
"sampler: ...", "ALERT: ...") writing one entry's name while it asks about another; the name
in the pasted line is no card (issue #12, passing41's cause table row 5). written45_probes.tsv
was written from entry titles and general knowledge, not from the entries' text nor any slice's
rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers


def the_pasted_name_not_carded(result, asked: str, written: str) -> None:  # type: ignore[no-untyped-def]
    """No card for the name the pasted line writes; the asked entry the card or among the
    first offers."""
    assert result.entry is None or result.entry.id != written, result
    the_asked_card_or_first_offers(result, asked, written)


# Probes that fail on this branch (and on main before it): strict expected failures, so one
# that starts passing fails the suite and is moved out of here.
# A name in the pasted line carded (Epoch, Step, Docker, PyTorch for "torch.cuda...") or the
# asked entry not among the first offers (overfitting, classifier-free guidance).
# Own probes: the pasted line's other words lead (Video RAM for "CUDA out of memory", Scheduler
# for "sampler: ... temperature=1.4"; "ppl" offered third).
STILL_FAILING = {
    "Epoch 4: train loss 0.21, val loss 1.87 and climbing, what is happening to my model?",
    "Epoch 12: lr=3e-4 grad_norm=143.2, what caps the size of the gradients before the update?",
    "sampler: euler a, steps: 30. the images ignore my prompt, which knob makes them follow it more?",
    "torch.cuda.OutOfMemoryError on a 100k token prompt, what stores the keys and values of every earlier token?",
    "Epoch 5 | train acc 99% | val acc 61%, what's the name for this?",
    "step 4000: loss spiked to 9.8 then nan, what extra loss term keeps the logits from blowing up?",
    "INFO: docker container restarted 14 times tonight, what is the average time between failures called?",
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB, what is cuda anyway?",
    "sampler: top_p=0.9 temperature=1.4 and the output is gibberish, what does the temperature do?",
    "eval ppl 12.4 on wikitext, what does ppl measure?",
}
PROBES = ProbeFile("written45_probes.tsv", STILL_FAILING)

test_a_pasted_name_is_no_card = PROBES.test("pasted", expect=the_pasted_name_not_carded)
test_a_pasted_name_asked_keeps_its_card = PROBES.test("own", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"pasted": 15, "own": 11})
