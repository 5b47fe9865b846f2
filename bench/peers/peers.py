#!/usr/bin/env python3
"""Peer implementations of pdex's explicit reaction-diffusion step: JAX, PyTorch, NumPy.

The same forward-Euler step pdex runs (cell-centred nx*nx grid, dx = dy = 1, periodic,
arrays indexed [y, x], 5-point Laplacian, then max(., 0) on both species), written the way a
competent user of each framework would write it, plus a benchmark harness. See README.md.
"""
import argparse
import importlib
import json
import math
import os
import platform
import statistics
import sys
import time
from collections import namedtuple

import numpy as np

MODELS = {
    "gray_scott": dict(Du=0.2097, Dv=0.105, F=0.0367, k=0.0649, dt=1.0),
    "turing": dict(Du=0.125, Dv=0.5, beta=16.0, s=1.0 / 128, dt=0.5),  # alpha: per-cell array
}
BYTES_PER_CELL = {"f32": 16, "f64": 32}  # u, v read + written once per step (alpha not counted)
TABLE1 = dict(model="turing", nx=512, steps=50_000)  # Turing 512x512, dt = 0.5
CHECK = dict(nx=64, steps=100, precision="f64")
SEED = 0
MODULES = {"jax": "jax", "torch": "torch", "numpy": "numpy"}

# A runner advances the model from its fixed initial state: run(steps) returns the final
# (u, v) only once the device is done with them; to_numpy turns that state into host arrays.
Runner = namedtuple("Runner", "variant device run to_numpy quantum")


# ---------------------------------------------------------------- the model, framework-agnostic
def initial_state(model, n, batch=1):
    """(u0, v0, alpha) as float64 [y, x] arrays ([member, y, x] for a batch of identical members, as
    pdex sweep stacks an ensemble); alpha is None for Gray-Scott."""
    if batch > 1:
        return tuple(None if a is None else np.ascontiguousarray(np.broadcast_to(a, (batch,) + a.shape))
                     for a in initial_state(model, n))
    rng = np.random.default_rng(SEED)
    shape = (n, n)
    if model == "turing":
        alpha = 12.0 + rng.uniform(-0.1, 0.1, shape)
        return np.full(shape, 4.0), np.full(shape, 4.0), alpha
    u, v = np.ones(shape), np.zeros(shape)
    lo, hi = (n - n // 8) // 2, (n - n // 8) // 2 + n // 8  # centred square of side n/8
    u[lo:hi, lo:hi], v[lo:hi, lo:hi] = 0.5, 0.25
    return u + rng.uniform(-0.01, 0.01, shape), v + rng.uniform(-0.01, 0.01, shape), None


def laplacian_roll(a, roll):
    """a[y,x-1] + a[y,x+1] + a[y-1,x] + a[y+1,x] - 4 a[y,x], periodic; roll(a, shift, axis). The
    axes are the last two, so that a batch [member, y, x] takes the same code."""
    return roll(a, 1, -1) + roll(a, -1, -1) + roll(a, 1, -2) + roll(a, -1, -2) - 4 * a


def reactions(model, u, v, alpha):
    p = MODELS[model]
    if model == "turing":  # Sanderson et al. 2008, eqs. (3)-(4)
        uv = u * v
        return p["s"] * (uv - u - alpha), p["s"] * (p["beta"] - uv)
    uvv = u * v * v  # Gray-Scott
    return -uvv + p["F"] * (1 - u), uvv - (p["F"] + p["k"]) * v


def euler_step(model, u, v, alpha, lap, relu):
    p = MODELS[model]
    f, g = reactions(model, u, v, alpha)
    u_new = u + p["dt"] * (p["Du"] * lap(u) + f)
    v_new = v + p["dt"] * (p["Dv"] * lap(v) + g)
    return relu(u_new), relu(v_new)


# ---------------------------------------------------------------- NumPy (CPU)
def numpy_runner(model, init, precision, variant, args):
    dtype = np.float32 if precision == "f32" else np.float64
    u0, v0, alpha = (None if a is None else a.astype(dtype) for a in init)
    # np.roll: four neighbour copies. np.pad(mode="wrap") + four strided views is no faster, so the
    # roll stencil that every framework shares is used.
    lap = lambda a: laplacian_roll(a, np.roll)
    relu = lambda x: np.maximum(x, 0, out=x)  # in place: x is a fresh temporary

    def run(steps):
        u, v = u0, v0
        for _ in range(steps):
            u, v = euler_step(model, u, v, alpha, lap, relu)
        return u, v

    return Runner("vectorized loop, np.roll", cpu_name(), run, lambda s: s, 1)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            name = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        name = platform.processor() or platform.machine()
    return f"{name} ({os.cpu_count()} logical CPUs, NumPy {np.__version__})"


# ---------------------------------------------------------------- JAX: jit + lax.fori_loop
def jax_runner(model, init, precision, variant, args):
    import jax
    jax.config.update("jax_enable_x64", precision == "f64")  # x64 only for f64 runs
    import jax.numpy as jnp

    dtype = jnp.float32 if precision == "f32" else jnp.float64
    u0, v0, alpha = (None if a is None else jnp.asarray(a, dtype) for a in init)
    # jnp.roll: XLA fuses the shifted reads, the reactions and the clamp into one kernel.
    lap = lambda a: laplacian_roll(a, jnp.roll)
    relu = lambda x: jnp.maximum(x, 0)
    unroll = int(variant)

    @jax.jit
    def advance(u, v, alpha, steps):  # steps is traced: one compile serves every step count
        def body(count):  # `count` Euler steps per loop trip (unrolled by hand)
            def trip(_, state):
                for _ in range(count):
                    state = euler_step(model, *state, alpha, lap, relu)
                return state
            return trip
        state = jax.lax.fori_loop(0, steps // unroll, body(unroll), (u, v))
        return jax.lax.fori_loop(0, steps % unroll, body(1), state)

    def run(steps):
        return jax.block_until_ready(advance(u0, v0, alpha, steps))

    dev = jax.devices()[0]
    device = f"{dev.platform}: {dev.device_kind} (JAX {jax.__version__})"
    variant_name = "jit+fori_loop" + (f" unroll={unroll}" if unroll > 1 else "")
    return Runner(variant_name, device, run, lambda s: tuple(map(np.asarray, s)), unroll)


# ---------------------------------------------------------------- PyTorch: torch.compile
def torch_runner(model, init, precision, variant, args):
    import torch
    torch._dynamo.reset()  # fresh compile per configuration; no recompile-limit surprises
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    if dev == "cpu" and variant in ("graph", "reduce-overhead"):
        variant = "default"  # CUDA graphs need a GPU
    dtype = torch.float32 if precision == "f32" else torch.float64
    u0, v0, alpha = (None if a is None else torch.as_tensor(a, dtype=dtype, device=dev)
                     for a in init)
    # torch.roll: Inductor lowers it to index arithmetic inside one fused Triton kernel.
    lap = lambda a: laplacian_roll(a, torch.roll)

    def one_step(u, v, alpha):
        return euler_step(model, u, v, alpha, lap, lambda x: torch.clamp_min(x, 0))

    mode = "default" if variant == "graph" else variant
    step = torch.compile(one_step, mode=mode, dynamic=False, fullgraph=True)
    sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
    if variant == "graph":
        run = torch_graph_run(torch, step, u0, v0, alpha, args.graph_chunk, sync)
        quantum, name = args.graph_chunk, f"compile+CUDAGraph({args.graph_chunk} steps)"
    else:
        clone = variant == "reduce-overhead"
        run = torch_loop_run(step, u0, v0, alpha, clone, sync)
        quantum, name = 1, f"compile:{variant}"
    device = f"{dev}: {torch.cuda.get_device_name() if dev == 'cuda' else cpu_name()}" \
             f" (PyTorch {torch.__version__})"
    return Runner(name, device, run, lambda s: tuple(t.cpu().numpy() for t in s), quantum)


def torch_loop_run(step, u0, v0, alpha, clone, sync):
    def run(steps):
        u, v = u0, v0
        for _ in range(steps):
            u, v = step(u, v, alpha)
            if clone:  # reduce-overhead: the next replay overwrites the graph's outputs
                u, v = u.clone(), v.clone()
        sync()
        return u, v
    return run


def torch_graph_run(torch, step, u0, v0, alpha, chunk, sync):
    """Capture `chunk` compiled steps in one CUDA graph, replay it; rest of steps plainly."""
    u, v = u0.clone(), v0.clone()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # compile and warm up outside the capture
        for _ in range(3):
            step(u, v, alpha)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        a, b = u, v
        for _ in range(chunk):
            a, b = step(a, b, alpha)
        u.copy_(a)
        v.copy_(b)

    def run(steps):
        u.copy_(u0)
        v.copy_(v0)
        for _ in range(steps // chunk):
            graph.replay()
        a, b = u, v
        for _ in range(steps % chunk):
            a, b = step(a, b, alpha)
        sync()
        return a, b
    return run


RUNNERS = {"jax": jax_runner, "torch": torch_runner, "numpy": numpy_runner}


# ---------------------------------------------------------------- harness
def available(framework):
    try:
        importlib.import_module(MODULES[framework])
        return True
    except Exception as e:  # ImportError, or a broken install
        print(f"# skipping {framework}: cannot import ({type(e).__name__}: {e})", flush=True)
        return False


def variants(framework, args):
    return {"jax": args.jax_unroll, "torch": args.torch_mode, "numpy": "-"}[framework].split(",")


def timed(run, steps):
    t0 = time.perf_counter()
    run(steps)
    return time.perf_counter() - t0


def choose_steps(runner, min_steps, min_time):
    """Fewest steps (>= min_steps, a multiple of runner.quantum) seen to last >= min_time."""
    q = runner.quantum
    n = -(-min_steps // q) * q
    while (t := timed(runner.run, n)) < min_time and n < 1 << 26:
        n = -(-max(2 * n, math.ceil(n * 1.2 * min_time / t)) // q) * q
    return n


def record(runner, framework, model, n, precision, steps, times, batch=1):
    seconds = statistics.median(times)
    cells = batch * n * n * steps
    variant = runner.variant + (f" batch={batch}" if batch > 1 else "")
    return dict(framework=framework, variant=variant, model=model, nx=n, ny=n, batch=batch,
                precision=precision, steps=steps, seconds=seconds,
                gcells_per_s=cells / seconds / 1e9,
                gbytes_per_s=cells * BYTES_PER_CELL[precision] / seconds / 1e9,
                device=runner.device, repeats=len(times), seconds_all=times)


def bench(framework, variant, model, n, precision, args):
    runner = RUNNERS[framework](model, initial_state(model, n, args.batch), precision, variant, args)
    runner.run(runner.quantum)  # warm-up: compile, autotune, allocate
    min_steps = 1 if framework == "numpy" else args.steps
    steps = choose_steps(runner, min_steps, args.min_time)
    times = [timed(runner.run, steps) for _ in range(args.repeats)]
    return record(runner, framework, model, n, precision, steps, times, args.batch)


def bench_table1(framework, variant, precision, args):
    model, n, steps = TABLE1["model"], TABLE1["nx"], TABLE1["steps"]
    runner = RUNNERS[framework](model, initial_state(model, n), precision, variant, args)
    runner.run(runner.quantum)
    times = [timed(runner.run, steps) for _ in range(args.repeats)]
    return dict(record(runner, framework, model, n, precision, steps, times), workload="table1")


HEADER = (f"{'framework':9} {'variant':34} {'model':10} {'nx':>5} {'prec':4} {'steps':>7} "
          f"{'seconds':>8} {'Gcell/s':>8} {'GB/s':>8}")


def print_row(r):
    print(f"{r['framework']:9} {r['variant'][:34]:34} {r['model']:10} {r['nx']:5d} "
          f"{r['precision']:4} {r['steps']:7d} {r['seconds']:8.3f} {r['gcells_per_s']:8.3f} "
          f"{r['gbytes_per_s']:8.1f}", flush=True)


def write_json(path, results, table1):
    if path:
        with open(path, "w") as f:
            json.dump(dict(command=" ".join(sys.argv), results=results, table1=table1), f,
                      indent=1)


def benchmark(args, frameworks, models):
    results, table1 = [], []
    print(HEADER, flush=True)
    for fw in frameworks:
        for var in variants(fw, args):
            for prec in args.precision.split(","):
                for model in models:
                    for n in [int(s) for s in args.sizes.split(",")]:
                        results.append(bench(fw, var, model, n, prec, args))
                        print_row(results[-1])
                        write_json(args.json, results, table1)
                if fw != "numpy" and args.table1:
                    table1.append(bench_table1(fw, var, prec, args))
                    print("table1:", end=" ")
                    print_row(table1[-1])
                    write_json(args.json, results, table1)


def check(args, frameworks):
    """100 f64 steps at 64x64 of each model; final u, v saved as {framework}_{model}_{u,v}.npy."""
    os.makedirs(args.check_dir, exist_ok=True)
    save = lambda name, a: np.save(os.path.join(args.check_dir, name + ".npy"), a)
    for model in MODELS:
        init = initial_state(model, CHECK["nx"])
        save(f"{model}_u0", init[0])
        save(f"{model}_v0", init[1])
        if init[2] is not None:
            save(f"{model}_alpha", init[2])
        ref = None
        for fw in frameworks:
            runner = RUNNERS[fw](model, init, CHECK["precision"], variants(fw, args)[0], args)
            u, v = runner.to_numpy(runner.run(CHECK["steps"]))
            save(f"{fw}_{model}_u", u)
            save(f"{fw}_{model}_v", v)
            ref = ref or (fw, u, v)
            diff = max(np.abs(u - ref[1]).max(), np.abs(v - ref[2]).max())
            print(f"check {model:10} {fw:6} u in [{u.min():.6g}, {u.max():.6g}] "
                  f"v in [{v.min():.6g}, {v.max():.6g}]  max|diff vs {ref[0]}| = {diff:.3g}",
                  flush=True)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--framework", default="all", help="jax|torch|numpy|all, or a comma list")
    p.add_argument("--model", default="all", help="gray_scott|turing|all")
    p.add_argument("--sizes", default="512,2048,4096", help="comma list of nx (= ny)")
    p.add_argument("--precision", default="f32", help="f32|f64, or f32,f64")
    p.add_argument("--batch", type=int, default=1,
                   help="members of nx*nx per run, stacked [member, y, x] (an ensemble, as pdex sweep runs one)")
    p.add_argument("--steps", type=int, default=1000,
                   help="minimum timed steps for jax/torch (NumPy: from --min-time alone)")
    p.add_argument("--min-time", type=float, default=0.2, help="seconds per timed run, at least")
    p.add_argument("--repeats", type=int, default=5, help="timed runs; the median is reported")
    p.add_argument("--json", help="write results here")
    p.add_argument("--no-table1", dest="table1", action="store_false",
                   help="skip the Turing 512x512 x 50,000-step workload")
    p.add_argument("--torch-mode", default="default,graph",
                   help="comma list of: graph, default, max-autotune-no-cudagraphs, "
                        "reduce-overhead")
    p.add_argument("--graph-chunk", type=int, default=100, help="steps per captured CUDA graph")
    p.add_argument("--jax-unroll", default="1,100", help="comma list of steps per fori_loop trip")
    p.add_argument("--check", action="store_true", help="write 64x64 f64 arrays, no timing")
    p.add_argument("--check-dir", default="peers_check")
    return p.parse_args()


def main():
    args = parse_args()
    fws = ["jax", "torch", "numpy"] if args.framework == "all" else args.framework.split(",")
    models = list(MODELS) if args.model == "all" else args.model.split(",")
    fws = [fw for fw in fws if available(fw)]
    if args.check:
        check(args, fws)
    else:
        benchmark(args, fws, models)


if __name__ == "__main__":
    main()
