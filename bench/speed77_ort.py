"""Task speed77: the encoder's pass run by onnxruntime instead of numpy, measured, not shipped.
The same weights (`Encoder._weights()`, widened from the int8 artifact exactly as numpy widens
them) are written as an ONNX graph of the ragged pass (a text attends to its own rows through an
additive block mask; the mean over its rows by a pooling matrix; unit length), and the encoder
passes a search makes on the tuning rows are replayed through both, alternated pass by pass
(best of `--rounds`, CPU time, one thread each). Prints the largest vector difference and the
cosines, each runtime's p50/p90/p99 per pass and the ratio ort/numpy, the session's start-up
and the installed size of onnxruntime and what it requires; the last line is one JSON object.

Needs `onnxruntime` and `onnx` (a venv of its own: neither is a dependency of the bot):

    python -m venv /tmp/ortvenv && /tmp/ortvenv/bin/pip install onnxruntime onnx numpy
    OPENBLAS_NUM_THREADS=1 PYTHONPATH=. /tmp/ortvenv/bin/python bench/speed77_ort.py \
        [--sample 400 --seed 77] [--min-chars 250] [--rounds 3]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent


def graph(weights: Any, dim: int) -> bytes:
    """The ragged pass as an ONNX model: ids, positions (N,), mask (N, N), pool (T, N)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes: list[Any] = []
    inits: list[Any] = []

    def const(name: str, value: Any) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], out: str, **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    heads = weights.heads
    size = dim // heads
    const("words_q", weights.words)
    const("words_s", weights.word_scales[:, None])
    const("positions", weights.positions)
    word = node("Gather", ["words_q", "ids"], "w_q", axis=0)
    word = node("Cast", [word], "w_f", to=TensorProto.FLOAT)
    scale = node("Gather", ["words_s", "ids"], "w_s", axis=0)
    x = node("Mul", [word, scale], "w")
    x = node("Add", [x, node("Gather", ["positions", "pos"], "p", axis=0)], "emb")
    x = node(
        "LayerNormalization",
        [x, const("norm_w", weights.norm[0]), const("norm_b", weights.norm[1])],
        "x0",
        axis=-1,
        epsilon=1e-12,
    )
    const("heads_shape", np.array([-1, heads, size], np.int64))
    const("flat_shape", np.array([-1, dim], np.int64))
    const("scale", np.array(1.0 / np.sqrt(size), np.float32))
    for i, layer in enumerate(weights.layers):
        p = f"l{i}_"
        qkv = node("MatMul", [x, const(p + "qkv", layer.qkv)], p + "qkv_m")
        qkv = node("Add", [qkv, const(p + "qkv_b", layer.qkv_bias)], p + "qkv_a")
        nodes.append(
            helper.make_node("Split", [qkv], [p + "q", p + "k", p + "v"], axis=-1, num_outputs=3)
        )
        q, k, v = (
            node(
                "Transpose",
                [node("Reshape", [p + n, "heads_shape"], p + n + "r")],
                p + n + "t",
                perm=[1, 0, 2],
            )
            for n in "qkv"
        )
        kt = node("Transpose", [k], p + "k_across", perm=[0, 2, 1])
        scores = node("Mul", [node("MatMul", [q, kt], p + "s"), "scale"], p + "ss")
        scores = node("Add", [scores, "mask"], p + "sm")
        probs = node("Softmax", [scores], p + "pr", axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v], p + "c")], p + "ct", perm=[1, 0, 2])
        ctx = node("Reshape", [ctx, "flat_shape"], p + "cf")
        att = node("MatMul", [ctx, const(p + "out", layer.out)], p + "o")
        att = node("Add", [att, const(p + "out_b", layer.out_bias)], p + "ob")
        att = node("Add", [att, x], p + "res1")
        att = node(
            "LayerNormalization",
            [att, const(p + "n1w", layer.norm1[0]), const(p + "n1b", layer.norm1[1])],
            p + "n1",
            axis=-1,
            epsilon=1e-12,
        )
        up = node("MatMul", [att, const(p + "up", np.ascontiguousarray(layer.up_rows.T))], p + "u")
        up = node("Add", [up, const(p + "up_b", layer.up_bias)], p + "ub")
        up = node("Gelu", [up], p + "g")
        down = node("MatMul", [up, const(p + "down", layer.down)], p + "d")
        down = node("Add", [down, const(p + "down_b", layer.down_bias)], p + "db")
        down = node("Add", [down, att], p + "res2")
        x = node(
            "LayerNormalization",
            [down, const(p + "n2w", layer.norm2[0]), const(p + "n2b", layer.norm2[1])],
            p + "n2",
            axis=-1,
            epsilon=1e-12,
        )
    pooled = node("MatMul", ["pool", x], "pooled")
    node("LpNormalization", [pooled], "vectors", axis=1, p=2)
    model = helper.make_model(
        helper.make_graph(
            nodes,
            "minilm_ragged",
            [
                helper.make_tensor_value_info("ids", TensorProto.INT64, ["N"]),
                helper.make_tensor_value_info("pos", TensorProto.INT64, ["N"]),
                helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["N", "N"]),
                helper.make_tensor_value_info("pool", TensorProto.FLOAT, ["T", "N"]),
            ],
            [helper.make_tensor_value_info("vectors", TensorProto.FLOAT, ["T", dim])],
            inits,
        ),
        opset_imports=[helper.make_opsetid("", 20)],
    )
    model.ir_version = 9
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def feeds(batch: list[list[int]]) -> dict[str, Any]:
    import numpy as np

    n = sum(len(ids) for ids in batch)
    mask = np.full((n, n), np.float32(-1e4), np.float32)
    pool = np.zeros((len(batch), n), np.float32)
    pos = np.empty(n, np.int64)
    start = 0
    for t, ids in enumerate(batch):
        end = start + len(ids)
        mask[start:end, start:end] = 0.0
        pool[t, start:end] = 1.0 / len(ids)
        pos[start:end] = np.arange(len(ids))
        start = end
    ids = np.fromiter((i for b in batch for i in b), np.int64, n)
    return {"ids": ids, "pos": pos, "mask": mask, "pool": pool}


def installed_mb(name: str) -> float:
    dist = importlib.metadata.distribution(name)
    files = dist.files or []
    return sum(Path(str(dist.locate_file(f))).stat().st_size for f in files) / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--min-chars", type=int, default=0)
    args = parser.parse_args()
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    import numpy as np
    import onnxruntime as ort

    from bot.glossary import load_glossary
    from bot.search import SearchIndex
    from bot.search.relevance import load_cases

    report = importlib.import_module("relevance_report")
    queries = [
        case.query
        for name in report.SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in report.HELD_OUT
        and not case.slice.startswith("test")
        and len(case.query) >= args.min_chars
    ]
    if args.sample and args.sample < len(queries):
        picked = sorted(random.Random(args.seed).sample(range(len(queries)), args.sample))
        queries = [queries[i] for i in picked]
    index = SearchIndex.build(tuple(load_glossary()))
    assert index.semantic is not None
    encoder = index.semantic.encoder
    passes: list[list[list[int]]] = []
    ragged = encoder._forward_ragged

    def kept(batch: list[list[int]]) -> Any:
        passes.append([list(ids) for ids in batch])
        return ragged(batch)

    encoder._forward_ragged = kept  # type: ignore[method-assign]
    for query in queries:
        index.search(query)
    encoder._forward_ragged = ragged  # type: ignore[method-assign]
    weights = encoder._weights()
    start = time.perf_counter()
    model = graph(weights, encoder.dimensions)
    built = time.perf_counter() - start
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    start = time.perf_counter()
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    started = time.perf_counter() - start
    session.run(None, feeds(passes[0]))
    best = {"numpy": [float("inf")] * len(passes), "ort": [float("inf")] * len(passes)}
    largest, cosines = 0.0, []
    for round_ in range(args.rounds):
        for i, batch in enumerate(passes):
            fed = feeds(batch)
            order = ["numpy", "ort"] if (i + round_) % 2 == 0 else ["ort", "numpy"]
            out = {}
            for name in order:
                t = time.process_time()
                out[name] = ragged(batch) if name == "numpy" else session.run(None, fed)[0]
                best[name][i] = min(best[name][i], time.process_time() - t)
            if round_ == 0:
                largest = max(largest, float(np.abs(out["numpy"] - out["ort"]).max()))
                cosines.extend((out["numpy"] * out["ort"]).sum(axis=1).tolist())
    rows = np.array([sum(len(ids) for ids in batch) for batch in passes])
    result: dict[str, Any] = {
        "searches": len(queries),
        "passes": len(passes),
        "rows_p50": float(np.median(rows)),
        "rows_max": int(rows.max()),
        "largest_difference": largest,
        "within_1e-5": largest <= 1e-5,
        "min_cosine": float(min(cosines)),
        "graph_build_s": round(built, 2),
        "session_start_s": round(started, 2),
        "onnxruntime": ort.__version__,
        "installed_mb": {
            name: round(installed_mb(name), 1)
            for name in ("onnxruntime", "flatbuffers", "protobuf", "packaging")
        },
        "load": os.getloadavg(),
    }
    for name in best:
        ms = np.array(best[name]) * 1000
        result[name] = {f"p{p}_ms": round(float(np.percentile(ms, p)), 2) for p in (50, 90, 99)} | {
            "total_ms": round(float(ms.sum()), 1)
        }
    ratio = np.array(best["ort"]) / np.array(best["numpy"])
    result["ratio_ort_numpy"] = {
        "median": round(float(np.median(ratio)), 3),
        "total": round(float(sum(best["ort"]) / sum(best["numpy"])), 3),
        "long_passes_median": round(float(np.median(ratio[rows >= 100])), 3)
        if (rows >= 100).any()
        else None,
    }
    for key, value in result.items():
        print(f"  {key:<20} {value}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
