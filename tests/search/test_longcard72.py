"""Probes for task longcard72: long chat messages (40-80 words, several sentences) that name
nothing of their entry, and long off-topic messages that use ML-ish words (a gym's weights, the
street's transformer, a dough's temperature, a trail's gradient). longcard72_probes.tsv was
written from the entry ids and general knowledge before any search run on the branch or reading
the code; on main 9b70ae97 20 of 34 chat messages get their card (one wrong: few-shot learning ->
Fine-Tuning) and 9 of 10 off-topic ones none (the gym's weights -> Warmup-Stable-Decay). With a
long text's clause-averaged first carded where the lexical stages agree
(`fusion.claused_agreed`) 26 of 34 (one more wrong: sparse autoencoder -> Polysemanticity), 9 of
10 (bench/results/semantic.md "longcard72")."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    "so our training job was mostly waiting on memory, not doing maths. the profiler showed "
    "the gpu shuffling the big score matrix between slow and fast memory over and over. "
    "someone swapped in a kernel that works on small tiles kept on the chip and never writes "
    "the full matrix out, and the same model now trains almost twice as fast with identical "
    "results. what is that trick called",
    "trying to understand how newer models know word order. apparently they don't add a "
    "position vector to the input anymore. instead they rotate the query and key vectors by "
    "an angle that depends on the position, pair of dimensions by pair of dimensions, so the "
    "dot product only depends on how far apart two words are. what is this scheme called",
    "before our company released its assistant we hired a group of outside people whose whole"
    " job for three weeks was to try to make it misbehave. they tried tricking it into giving"
    " dangerous advice, leaking private data and saying awful things, and wrote up every "
    "failure they found so the team could fix them before launch. is there a standard name "
    "for this exercise",
    "our retrieval step pulls back the top hundred passages quickly using vectors, but the "
    "order is kind of rough. so we added a second, slower model that reads each question "
    "together with each passage and scores them properly, then we keep only the best five for"
    " the prompt. answers got noticeably better. what do people call that second stage",
    "our pretraining recipe ramps the step size up from zero over the first couple thousand "
    "steps, then keeps it flat for most of the run, and only in the last ten percent drops it"
    " sharply toward zero. the nice part is you can branch off the flat part and cool down at"
    " any point to get a finished model. is there a name for this kind of schedule",
    "i watched a talk where they took the internal activations of a language model and "
    "trained a second small network to rebuild them from a much wider hidden layer, where "
    "only a handful of units may be active at once. each of those units ended up meaning "
    "something readable, like dna sequences or legal text. what is that tool called",
    "instead of fine tuning anything, i just paste three examples of the input and the output"
    " i want at the top of my prompt, then my real input, and the model picks up the pattern "
    "and formats its answer the same way. it works surprisingly well for classifying support "
    "tickets. what is this way of teaching the model in the prompt called",
    "we let our assistant write and run python to answer data questions, which is great until"
    " it decides to delete files or call random websites. so now its code runs inside an "
    "isolated environment with no network, a throwaway filesystem and strict time and memory "
    "limits, and whatever it breaks in there doesn't touch our real servers. what is that "
    "kind of isolated environment called",
    "so i've been going to the gym for six months and my trainer says my progress has "
    "plateaued because my body has adapted to the routine. she wants me to change the weights"
    " every few weeks, add a deload week, and keep a log of every set and rep so we can spot "
    "patterns. honestly i just want to know if i should eat more protein or sleep more first",
}
PROBES = ProbeFile("longcard72_probes.tsv", STILL_FAILING)

test_a_long_chat_message_gets_its_card = PROBES.test("chat", expect=the_asked_card)
test_a_long_off_topic_message_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"chat": 34, "none": 10})
