#!/usr/bin/env python3
"""A run's memory against its state (docs/performance.md, "Memory").

Runs Gray-Scott (examples/gray_scott_spots.toml; with --text the same model typed as equations, its
preset) on n x n (or n^3 with --dims 3) grids for a few steps with `pdex run`, without outputs, writing .npy
(or another format) at the start and the end in the background (output.background = "auto", "npy") and
waiting for them ("never", "npy-waited"), each with the blow-up guard's copy where memory has room for it
(time.blowup_copy = "auto") and without it ("never"), and reads each run's summary.json: whether the run
kept the copy (`blowup_copy`), how many outputs it waited for (`outputs_waited`),
`memory.state_bytes` (one copy of the output fields in the run's precision), `memory.host_peak_bytes`
(the process's peak resident set) and, on the GPU, `memory.device_bytes` (the most pdex's buffers held).
Prints a table and, with --json, writes the rows.

    python3 bench/memory_bench.py --pdex build/src/pdex/app/pdex --backend openmp --sizes 2048,4096 \\
        [--precision f32] [--dims 2] [--text] [--copies auto,never] [--outputs none,npy,npy-waited] [--json memory.json]
"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAY_SCOTT = os.path.join(ROOT, "examples", "gray_scott_spots.toml")
MIB = float(1 << 20)


def run(args, n, outputs, copy, folder):
    out = os.path.join(folder, f"run-{n}-{outputs}-{copy}")
    fmt, _, waited = outputs.partition("-")
    formats = '[]' if fmt == "none" else f'["{fmt}"]'
    background = "never" if waited else "auto"
    sets = [f"grid.nx={n}", f"grid.ny={n}", "time.steps=4", "time.check_every=4", "run.progress=false",
            "output.every=4", f"output.formats={formats}", f'output.background="{background}"', f'time.blowup_copy="{copy}"']
    if args.dims == 3:  # the example's squares, as cubes at the centre
        sets += [f"grid.nz={n}", "time.dt=0.5"]  # the stable step is smaller in 3D
        for name, seed, inside in (("u", 1, 0.5), ("v", 2, 0.25)):
            cube = f'{{ shape = "square", center = [{n / 2}, {n / 2}, {n / 2}], size = 20.0, value = {inside} }}'
            sets.append(f"initial.{name}={{ value = {1.0 if name == 'u' else 0.0}, noise = 0.01, seed = {seed}, shapes = [{cube}] }}")
    if args.text:
        sets += ["model.name=equations", "model.preset=gray_scott"]
    cmd = [args.pdex, "run", GRAY_SCOTT, "--backend", args.backend, "--precision", args.precision, "--out", out]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    return {"n": n, "dims": args.dims, "model": "text" if args.text else "built-in", "outputs": outputs,
            "blowup_copy": summary["blowup_copy"], "outputs_waited": summary["outputs_waited"], "backend": args.backend, "precision": args.precision, **summary["memory"]}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pdex", default=os.path.join(ROOT, "build", "src", "pdex", "app", "pdex"))
    p.add_argument("--backend", default="openmp")
    p.add_argument("--precision", default="f32")
    p.add_argument("--dims", type=int, default=2, choices=(2, 3))
    p.add_argument("--sizes", default="2048,4096")
    p.add_argument("--text", action="store_true", help="the model typed as equations (model.preset)")
    p.add_argument("--copies", default="auto,never", help="time.blowup_copy values to run")
    p.add_argument("--outputs", default="none,npy,npy-waited",
                   help="none, or a format (npy, png, vtk, hdf5) written in the background, or FORMAT-waited (output.background = \"never\")")
    p.add_argument("--json")
    args = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="pdex-memory-") as folder:
        for n in (int(s) for s in args.sizes.split(",")):
            for outputs in args.outputs.split(","):
                for copy in args.copies.split(","):
                    rows.append(run(args, n, outputs, copy, folder))
    print(f"{'model':>9} {'grid':>10} {'outputs':>10} {'copy':>5} {'state MiB':>10} {'host peak MiB':>14} {'host/state':>11} {'device MiB':>11}")
    for r in rows:
        grid = f"{r['n']}^{r['dims']}"
        device = f"{r['device_bytes'] / MIB:11.1f}" if "device_bytes" in r else f"{'-':>11}"
        copy = "yes" if r["blowup_copy"] else "no"
        print(f"{r['model']:>9} {grid:>10} {r['outputs']:>10} {copy:>5} {r['state_bytes'] / MIB:10.1f} {r['host_peak_bytes'] / MIB:14.1f} "
              f"{r['host_peak_per_state']:11.2f} {device}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
