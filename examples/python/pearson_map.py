#!/usr/bin/env python3
"""Pearson's map of Gray-Scott patterns from Python: one batched run over a grid of (F, k), then each
member sorted by what it became (docs/python.md, "Parameter sweeps"). Writes the mosaic v.png, the
[member, y, x] stack v.npy and summary.json into --out, and prints the map as text, F upwards:
'.' the uniform state u = 1 (v died out), 'o' a few spots, '#' a pattern filling the domain.

    PYTHONPATH=build/python python3 examples/python/pearson_map.py [--count 16] [--size 128] [--steps 10000]
                                                                   [--backend cuda] [--out out/python_pearson]
"""
import argparse
import os

import numpy as np

import pdex

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def kind(v):
    """What a member's v became: gone, a few spots, or spread over the domain."""
    covered = np.mean(v > 0.1)
    return "." if covered == 0 else "o" if covered < 0.25 else "#"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=16, help="values of F and of k each")
    ap.add_argument("--size", type=int, default=128, help="cells along each side of a member")
    ap.add_argument("--steps", type=int, default=10000)
    ap.add_argument("--backend", default=None)
    ap.add_argument("--out", default="out/python_pearson")
    a = ap.parse_args()
    c = a.size / 2
    square = lambda value: [{"shape": "square", "center": [c, c], "size": 20.0, "value": value}]
    maps = pdex.sweep(os.path.join(ROOT, "examples", "gray_scott_spots.toml"),
                      {"F": np.linspace(0.01, 0.07, a.count), "k": np.linspace(0.03, 0.07, a.count)},
                      steps=a.steps, backend=a.backend, out=a.out, grid__nx=a.size, grid__ny=a.size,
                      initial__u__shapes=square(0.5), initial__v__shapes=square(0.25))
    v = maps["v"]
    print(f"{len(maps.members)} members of {a.size}x{a.size}, {a.steps} steps in {maps.seconds:.2f} s "
          f"({maps.summary['cell_updates_per_second'] / 1e9:.2f} Gcell/s); F upwards, k across:")
    for i in reversed(range(a.count)):
        print(f"F={maps.params['F'][i]:.4f} " + "".join(kind(v[i, j]) for j in range(a.count)))
    print(f"k: {maps.params['k'][0]:.3f} .. {maps.params['k'][-1]:.3f}; mosaic, stack and summary in {a.out}")


if __name__ == "__main__":
    main()
