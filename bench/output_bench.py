#!/usr/bin/env python3
"""What outputs and checkpoints cost a run (docs/performance.md, "Outputs and checkpoints").

Runs Gray-Scott (examples/gray_scott_spots.toml) on an n x n grid for `steps` steps with outputs every
`every` steps in each format (FORMAT-waited: the run waits for its files, output.background = "never"),
once without outputs, and once with checkpoints, all with `pdex run`; from
each run's summary.json: the wall time, the time stepping, the time the run waited for its outputs, and
the share of the run's time that writing costs ((total - total without outputs) / total). The checkpoints'
write rate and a restart's read rate (GB/s) are reported beside the disk's, measured by dd on the same
folder.

    python3 bench/output_bench.py --pdex build-gpu/src/pdex/app/pdex --backend cuda --n 4096 --steps 10000 \\
        --every 1000 [--formats none,npy,npy-waited,vtk,hdf5,checkpoint] [--json out.json] [--dir /tmp/pdex-outputs]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAY_SCOTT = os.path.join(ROOT, "examples", "gray_scott_spots.toml")


def run(args, out, sets, extra=()):
    cmd = [args.pdex, "run", GRAY_SCOTT, "--backend", args.backend, "--precision", args.precision, "--out", out,
           "--set", f"grid.nx={args.n}", "--set", f"grid.ny={args.n}", "--set", f"time.steps={args.steps}",
           "--set", "run.progress=false", "--set", f"time.check_every={args.every}", *extra]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def disk_rate(folder, mib=512):
    """dd's write and read rates of `mib` MiB in `folder`, in GB/s (written through to the disk, read back
    from the page cache: as checkpoints are)."""
    path = os.path.join(folder, "dd.bin")
    t0 = time.perf_counter()
    subprocess.run(["dd", "if=/dev/zero", f"of={path}", "bs=1M", f"count={mib}", "conv=fsync"], check=True,
                   stderr=subprocess.DEVNULL)
    write = mib * 2**20 / (time.perf_counter() - t0) / 1e9
    t0 = time.perf_counter()
    subprocess.run(["dd", f"if={path}", "of=/dev/null", "bs=1M"], check=True, stderr=subprocess.DEVNULL)
    read = mib * 2**20 / (time.perf_counter() - t0) / 1e9
    os.remove(path)
    return write, read


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pdex", default=os.path.join(ROOT, "build", "src", "pdex", "app", "pdex"))
    p.add_argument("--backend", default="auto")
    p.add_argument("--precision", default="f32")
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--steps", type=int, default=10000)
    p.add_argument("--every", type=int, default=1000)
    p.add_argument("--formats", default="none,npy,vtk,hdf5,checkpoint")
    p.add_argument("--dir", default="/tmp/pdex-output-bench")
    p.add_argument("--json", default="")
    args = p.parse_args()

    shutil.rmtree(args.dir, ignore_errors=True)
    os.makedirs(args.dir)
    rows = []
    base = None
    for kind in args.formats.split(","):
        out = os.path.join(args.dir, kind)
        fmt, _, waited = kind.partition("-")
        sets = ["output.formats=[]"] if fmt in ("none", "checkpoint") else [f'output.formats=["{fmt}"]']
        sets.append(f'output.background="{"never" if waited else "auto"}"')
        if kind != "none":
            sets.append(f"output.every={args.every}")
        if kind == "checkpoint":
            sets.append(f"output.checkpoint_every={args.every}")
        s = run(args, out, sets)
        wall = s["wall_seconds"]
        row = {"outputs": kind, "total_s": wall["total"], "stepping_s": wall["stepping"],
               "run_waited_s": s.get("output_wall_seconds", {}).get("run_waited", 0.0),
               "closing_s": s.get("output_wall_seconds", {}).get("closing", 0.0)}
        if kind == "none":
            base = wall["total"]
        if base is not None:
            row["output_share"] = (wall["total"] - base) / wall["total"]
        if kind == "checkpoint":
            row["checkpoint"] = s["checkpoints"]
            restart = run(args, os.path.join(args.dir, "restart"), sets, ["--restart", s["last_checkpoint"]])
            row["restart_read"] = restart["restarted_from"]
        rows.append(row)
        shutil.rmtree(out, ignore_errors=True)
    disk_write, disk_read = disk_rate(args.dir)

    print(f"Gray-Scott {args.n}^2 {args.precision}, {args.steps} steps, outputs every {args.every} steps, backend {args.backend}")
    print(f"{'outputs':>12} {'total s':>9} {'stepping s':>10} {'run waited s':>12} {'closing s':>9} {'share':>7}")
    for r in rows:
        share = f"{100 * r['output_share']:6.1f}%" if "output_share" in r else "      -"
        print(f"{r['outputs']:>12} {r['total_s']:9.3f} {r['stepping_s']:10.3f} {r['run_waited_s']:12.3f} {r['closing_s']:9.3f} {share}")
        if "checkpoint" in r:
            c, rd = r["checkpoint"], r["restart_read"]
            print(f"{'':>10} checkpoints: {c['written']} of {c['bytes'] / c['written'] / 1e6:.1f} MB, write {c['gb_per_s']:.2f} GB/s; "
                  f"restart read {rd['gb_per_s']:.2f} GB/s")
    print(f"{'':>10} disk (dd, {args.dir}): write {disk_write:.2f} GB/s (fsync), read {disk_read:.2f} GB/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"n": args.n, "steps": args.steps, "every": args.every, "backend": args.backend,
                       "precision": args.precision, "runs": rows, "disk_gb_per_s": {"write": disk_write, "read": disk_read}},
                      f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
