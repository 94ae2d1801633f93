"""How close two cheaper readings of a long message come to today's vectors (task speed76), before
any card is compared: the tuning rows of `--min-chars` or more (held-out slices skipped before a
query is read) are searched with this checkout's bot; each clause pass (`encode_queries` with
`uncut` clauses) is kept, and its vectors are compared with

  (a)  the whole message's vector as the token-weighted mean of its clauses' vectors (weights:
       each clause's word pieces; `a64`: only its pieces inside the message's first 62, the rows
       today's whole-text vector reads), no pass of the message at all;
  (b)  the message's pass alone (uncut), each clause's vector pooled from its own rows of that
       pass (the clause's pieces aligned to the message's by difflib); the whole vector the mean
       of the pass's first 64 rows (`b64`) or of all of them (`ball`).

Prints, per reading, the cosine with today's vector (whole text; each clause) at mean / p10 /
min, and the rows a pass would run. The last line is one JSON object.

    OPENBLAS_NUM_THREADS=1 python bench/speed76_cosines.py [--min-chars 240]
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-chars", type=int, default=240)
    args = parser.parse_args()
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    import numpy as np

    from bot.glossary import load_glossary
    from bot.search import SearchIndex
    from bot.search.relevance import load_cases
    from bot.search.semantic.encoder import QUERY_TOKENS, _layer, _layer_norm_

    report = __import__("relevance_report")
    queries = [
        case.query
        for name in report.SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in report.HELD_OUT
        and case.slice != "calib"
        and not case.slice.startswith("test")
        and len(case.query) >= args.min_chars
    ]
    index = SearchIndex.build(tuple(load_glossary()))
    assert index.semantic is not None
    encoder = index.semantic.encoder
    tok = encoder.tokenizer
    calls: list[tuple[list[str], list[str], np.ndarray]] = []
    original = encoder.encode_queries

    def kept(texts, max_tokens=QUERY_TOKENS, fit=False, uncut=()):  # type: ignore[no-untyped-def]
        got = original(texts, max_tokens, fit, uncut)
        if uncut:
            calls.append((list(texts), list(uncut), np.array(got, copy=True)))
        return got

    encoder.encode_queries = kept  # type: ignore[method-assign]

    def hidden(ids: list[int]) -> np.ndarray:
        w = encoder._weights()
        n = len(ids)
        flat = np.multiply(w.words[ids], w.word_scales[ids][:, None]).astype(np.float32)
        flat += w.positions[:n]
        flat = _layer_norm_(flat, *w.norm)
        for layer in w.layers:
            flat = _layer(layer, w.heads, flat, n, [(0, 1, n)], None)
        return flat

    def unit(v: np.ndarray) -> np.ndarray:
        return v / max(float(np.linalg.norm(v)), 1e-12)

    found: dict[str, list[float]] = {
        k: [] for k in ("a_whole", "a64_whole", "b64_whole", "ball_whole", "b_clause")
    }
    rows = {"today": [], "a": [], "b": []}
    aligned = [0, 0]
    riders = 0
    for query in queries:
        calls.clear()
        index.search(query)
        for texts, uncut, got in calls:
            if len(texts) > 1:
                riders += 1
            meant = texts[0]
            whole_old = got[0]
            clause_old = got[len(texts) :]
            m_ids = tok.encode(meant, QUERY_TOKENS)
            c_ids = [tok.encode(c, QUERY_TOKENS) for c in uncut]
            rider_ids = [tok.encode(t, QUERY_TOKENS) for t in texts[1:]]
            rows["today"].append(len(m_ids) + sum(map(len, c_ids)) + sum(map(len, rider_ids)))
            rows["a"].append(sum(map(len, c_ids)) + sum(map(len, rider_ids)))
            # (a): the clauses' vectors, token-weighted
            weights = np.array([len(c) - 2 for c in c_ids], np.float32)
            found["a_whole"].append(float(unit(weights @ clause_old) @ whole_old))
            # a64: the pieces of each clause inside the message's first 62, by position
            inside, at = [], 0
            for c in c_ids:
                n = len(c) - 2
                inside.append(max(0, min(n, (QUERY_TOKENS - 2) - at)))
                at += n
            w64 = np.array(inside, np.float32)
            if w64.sum() > 0:
                found["a64_whole"].append(float(unit(w64 @ clause_old) @ whole_old))
            # (b): the message's own pass, uncut
            full = tok.encode(meant, 512)
            rows["b"].append(len(full) + sum(map(len, rider_ids)))
            h = hidden(full)
            found["b64_whole"].append(float(unit(h[:QUERY_TOKENS].mean(axis=0)) @ whole_old))
            found["ball_whole"].append(float(unit(h.mean(axis=0)) @ whole_old))
            body = full[1:-1]
            for c, old in zip(c_ids, clause_old, strict=True):
                piece = c[1:-1]
                match = difflib.SequenceMatcher(None, piece, body, autojunk=False)
                at_rows = [1 + b.b + k for b in match.get_matching_blocks() for k in range(b.size)]
                aligned[0] += len(at_rows) == len(piece)
                aligned[1] += 1
                if at_rows:
                    found["b_clause"].append(float(unit(h[at_rows].mean(axis=0)) @ old))
                else:
                    found["b_clause"].append(0.0)
    out: dict[str, object] = {"rows": len(queries), "passes": len(rows["today"])}
    out["passes_with_riders"] = riders
    out["clauses_aligned_whole"] = f"{aligned[0]} of {aligned[1]}"
    for name, values in found.items():
        v = np.array(values)
        out[name] = {
            "n": len(v),
            "mean": round(float(v.mean()), 4),
            "p10": round(float(np.percentile(v, 10)), 4),
            "p1": round(float(np.percentile(v, 1)), 4),
            "min": round(float(v.min()), 4),
        }
    for name, r in rows.items():
        r = np.array(r)
        out[f"rows_{name}"] = {
            "p50": int(np.median(r)),
            "p90": int(np.percentile(r, 90)),
            "max": int(r.max()),
            "sum": int(r.sum()),
        }
    for key, value in out.items():
        print(f"  {key:<22} {value}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
