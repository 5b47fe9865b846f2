#!/usr/bin/env python3
"""Gray-Scott steered from Python: grow spots, then lower F and watch them become stripes; save each
stage as a picture, and the end as a configuration that `pdex run` goes on from (docs/python.md).

    PYTHONPATH=build/python python3 examples/python/gray_scott_steer.py [--size 256] [--steps 4000] [--out out/python_steer]
"""
import argparse
import os
import sys

import numpy as np

import pdex

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--steps", type=int, default=4000, help="steps per stage")
    ap.add_argument("--backend", default=None)
    ap.add_argument("--out", default="out/python_steer")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    sim = pdex.Simulation(os.path.join(ROOT, "examples", "gray_scott_spots.toml"), backend=a.backend, precision="f64",
                          out=a.out, grid__nx=a.size, grid__ny=a.size)
    for stage, F in enumerate([0.0367, 0.030, 0.026]):
        sim.params["F"] = F
        sim.run(steps=a.steps)
        v = sim["v"]
        with open(os.path.join(a.out, f"stage{stage}_F{F}.png"), "wb") as f:
            f.write(sim._repr_png_())
        print(f"t = {sim.time:8.0f}  F = {F:.4f}  v in [{v.min():.3f}, {v.max():.3f}], "
              f"{np.mean(v > 0.2) * 100:.1f}% of cells above 0.2")
    print("saved", sim.save_config(os.path.join(a.out, "saved")))


if __name__ == "__main__":
    sys.exit(main())
