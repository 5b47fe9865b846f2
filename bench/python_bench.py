#!/usr/bin/env python3
"""The Python package's costs and the ensembles' speed (docs/performance.md, "Python and ensembles").

  overhead   sim.run(steps=1) on a 16x16 grid, median of 2000 calls, less one step's own time
             (from one run of 20000 steps): what Python and the package add to a call
  chunks     100 calls of sim.run(100) against one sim.run(10000) on a 256x256 grid: the ratio of times
  ensemble   an ensemble of M members of n x n against one run of the same cell count (sqrt(M) n)^2:
             cell updates per second of each and their ratio (the ensemble's stepping time; the single
             run's by pdex run's summary.json)
  pearson    Pearson's map, 32 x 32 members of 128 x 128, 10000 steps (examples/gray_scott_pearson_map.toml):
             the wall time of pdex.sweep, set-up included

    PYTHONPATH=build/python python3 bench/python_bench.py [--backend cuda] [--cases overhead,chunks,ensemble,pearson]
                                                         [--members 1024] [--n 128] [--json out.json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import pdex

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAY_SCOTT = os.path.join(ROOT, "examples", "gray_scott_spots.toml")
PEARSON = os.path.join(ROOT, "examples", "gray_scott_pearson_map.toml")
QUIET = {"run.progress": False}


def square(n):
    c = n / 2
    return {"grid.nx": n, "grid.ny": n, "run.progress": False,
            "initial.u.shapes": [{"shape": "square", "center": [c, c], "size": 20.0, "value": 0.5}],
            "initial.v.shapes": [{"shape": "square", "center": [c, c], "size": 20.0, "value": 0.25}]}


def overhead(backend, precision):
    sim = pdex.Simulation(GRAY_SCOTT, backend=backend, precision=precision, config=square(16))
    sim.run(steps=100)
    t0 = time.perf_counter()
    sim.run(steps=20000)
    step = (time.perf_counter() - t0) / 20000
    calls = []
    for _ in range(2000):
        t0 = time.perf_counter()
        sim.run(steps=1)
        calls.append(time.perf_counter() - t0)
    call = statistics.median(calls)
    return {"call_us": call * 1e6, "step_us": step * 1e6, "overhead_us": (call - step) * 1e6, "target_us": 20}


def chunks(backend, precision):
    def timed(calls, steps):
        sim = pdex.Simulation(GRAY_SCOTT, backend=backend, precision=precision, config=square(256))
        sim.run(steps=10)
        t0 = time.perf_counter()
        for _ in range(calls):
            sim.run(steps=steps)
        sim["v"]
        return time.perf_counter() - t0
    many = statistics.median(timed(100, 100) for _ in range(3))
    one = statistics.median(timed(1, 10000) for _ in range(3))
    return {"100_runs_of_100_s": many, "1_run_of_10000_s": one, "ratio": many / one, "target_ratio": 1.05}


def single_rate(backend, precision, n, steps):
    with tempfile.TemporaryDirectory() as out:
        args = [os.environ.get("PDEX", os.path.join(ROOT, "build", "src", "pdex", "app", "pdex")), "run", GRAY_SCOTT,
                "--backend", backend, "--precision", precision, "--out", out]
        for k, v in dict(square(n), **{"time.steps": steps, "output.formats": ["npy"], "output.every": 0}).items():
            args += ["--set", f"{k}={pdex.toml_value(v)}"]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)["cell_updates_per_second"]


def ensemble(backend, precision, members, n, steps):
    side = int(round(members ** 0.5))
    F = [0.02 + 0.04 * i / (side - 1) for i in range(side)]
    k = [0.04 + 0.03 * i / (members // side - 1) for i in range(members // side)]
    best = 0.0
    for _ in range(2):
        r = pdex.sweep(GRAY_SCOTT, {"F": F, "k": k}, steps=steps, backend=backend, precision=precision, config=square(n))
        best = max(best, r.summary["cell_updates_per_second"])
    one = max(single_rate(backend, precision, side * n, steps) for _ in range(2))
    return {"members": members, "n": n, "single_n": side * n, "steps": steps, "ensemble_gcells": best / 1e9,
            "single_gcells": one / 1e9, "ratio": best / one, "target_ratio": 0.85}


def pearson(backend, precision):
    t0 = time.perf_counter()
    r = pdex.sweep(PEARSON, {}, backend=backend, precision=precision, config=QUIET)
    wall = time.perf_counter() - t0
    return {"members": len(r.members), "steps": r.summary["steps"], "wall_s": wall, "stepping_s": r.seconds,
            "gcells": r.summary["cell_updates_per_second"] / 1e9, "target_s": 20 if backend == "cuda" else None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="openmp")
    ap.add_argument("--precision", default="f32")
    ap.add_argument("--cases", default="overhead,chunks,ensemble,pearson")
    ap.add_argument("--members", type=int, default=1024)
    ap.add_argument("--n", type=int, default=128)
    ap.add_argument("--steps", type=int, default=None, help="ensemble steps (default: 2000 on cuda, 100 else)")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    steps = a.steps or (2000 if a.backend == "cuda" else 100)
    results = {"backend": a.backend, "precision": a.precision, "device": pdex.models().get("backends")}
    for case in a.cases.split(","):
        if case == "overhead":
            results[case] = overhead(a.backend, a.precision)
        elif case == "chunks":
            results[case] = chunks(a.backend, a.precision)
        elif case == "ensemble":
            results[case] = ensemble(a.backend, a.precision, a.members, a.n, steps)
        elif case == "pearson":
            results[case] = pearson(a.backend, a.precision)
        else:
            sys.exit(f"unknown case {case}")
        print(f"{case:9s} " + "  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                       for k, v in results[case].items()), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
