#!/usr/bin/env python3
"""The live explorer's speed, with a headless browser as the client (docs/performance.md, "Explorer").

For each case: `pdex run`'s stepping rate; then `pdex serve` of the same run with chromium showing it
(or, where there is no browser, `pdex bench serve-client` taking the frames as a page does):
frames drawn per second, steps per second while serving (and their ratio to `pdex run`'s), and the
latency from a parameter change to the first frame drawn with it (median of 15).

    bench/serve_bench.py [--pdex build/src/pdex/app/pdex] [--cases cpu,gpu] [--seconds 8] [--client auto|browser|pdex]
                         [--json out.json]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (example, overrides, backend, precision, steps per frame, parameter to move, its two values, targets)
CASES = {
    "cpu": ("turing_spots_demo.toml", ["grid.nx=256", "grid.ny=256"], "openmp", "f32", 10, "beta", (16.0, 15.0),
            {"frames_per_second": 20}),
    "gpu": ("gray_scott_spots.toml", ["grid.nx=512", "grid.ny=512"], "cuda", "f32", 100, "F", (0.0367, 0.035),
            {"frames_per_second": 60, "serving_over_run": 0.9}),
}


def sets(overrides):
    return [a for o in overrides for a in ("--set", o)]


def run_rate(pdex, example, overrides, backend, precision, work):
    """Steps per second of `pdex run`, over a run of about 5 s (calibrated by a short one)."""
    steps, rate = 200, 0.0
    for _ in range(2):
        out = os.path.join(work, "run")
        subprocess.run([pdex, "run", os.path.join(ROOT, "examples", example), "--backend", backend, "--precision", precision,
                        "--out", out, *sets(overrides + [f"time.steps={steps}", "output.every=0", "run.progress=false",
                                                          "output.formats=[\"npy\"]"])],
                       check=True, stdout=subprocess.DEVNULL)
        summary = json.load(open(os.path.join(out, "summary.json")))
        rate = summary["steps"] / summary["wall_seconds"]["stepping"]
        steps = max(200, int(rate * 5))
    return rate


class Serve:
    def __init__(self, pdex, example, overrides, backend, precision, work):
        self.proc = subprocess.Popen([pdex, "serve", os.path.join(ROOT, "examples", example), "--port", "0", "--backend", backend,
                                      "--precision", precision, "--out", os.path.join(work, "serve"), *sets(overrides)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        threading.Thread(target=lambda: [self.lines.append(l) for l in self.proc.stdout], daemon=True).start()
        end = time.time() + 60
        while not any("?token=" in l for l in self.lines):
            if time.time() > end or self.proc.poll() is not None:
                raise RuntimeError("pdex serve did not start:\n" + "".join(self.lines))
            time.sleep(0.05)
        self.url = next(l for l in self.lines if "?token=" in l).strip()
        self.base, self.token = re.match(r"(http://[^/]+)/\?token=(\w+)", self.url).groups()

    def command(self, body):
        req = urllib.request.Request(f"{self.base}/api/command?token={self.token}", data=json.dumps(body).encode())
        with urllib.request.urlopen(req) as r:
            return json.loads(r.read())

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
              "--use-angle=swiftshader", "--enable-unsafe-swiftshader"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=opts)


def has_browser():
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return bool(shutil.which("chromium") and shutil.which("chromedriver"))


def steps(srv):
    return srv.command({"type": "get"})["state"]["step"], time.time()


def with_browser(srv, param, values, seconds, result):
    driver = browser()
    try:
        driver.get(srv.url)
        time.sleep(3)  # warm up: the page, the first frames, the rate window
        f0, (s0, t0) = driver.execute_script("return window.pdex.framesReceived"), steps(srv)
        time.sleep(seconds)
        f1, (s1, t1) = driver.execute_script("return window.pdex.framesReceived"), steps(srv)
        result["frames_per_second"] = (f1 - f0) / (t1 - t0)
        result["serve_steps_per_second"] = (s1 - s0) / (t1 - t0)
        latencies = [driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"window.pdex.latency('model.params.{param}', {values[k % 2]}).then(done, (e) => done(-1));") for k in range(15)]
        result["latency_ms"] = {"median": statistics.median(latencies), "max": max(latencies)}
        result["client"] = "chromium (" + driver.execute_script("return window.pdex.renderer") + ")"
    finally:
        driver.quit()


# Without a browser (the GPU machine): pdex's own client takes the frames as a page does, without drawing.
def with_client(srv, pdex, param, values, seconds, result):
    client = subprocess.Popen([pdex, "bench", "serve-client", srv.url, "--seconds", str(seconds), "--set", f"model.params.{param}",
                               "--values", f"{values[0]},{values[1]}"], stdout=subprocess.PIPE, text=True)
    time.sleep(1)
    s0, t0 = steps(srv)
    time.sleep(seconds - 2)
    s1, t1 = steps(srv)
    out = json.loads(client.communicate(timeout=120)[0].splitlines()[-1])
    result["frames_per_second"] = out["frames_per_second"]
    result["serve_steps_per_second"] = (s1 - s0) / (t1 - t0)
    result["latency_ms"] = {"median": out["latency_ms"]["median"], "max": out["latency_ms"]["max"]}
    result["client"] = "pdex bench serve-client (no browser here)"


def measure(case, pdex, seconds, client):
    example, overrides, backend, precision, spf, param, values, targets = CASES[case]
    work = tempfile.mkdtemp(prefix="pdex_serve_bench_")
    result = {"case": case, "example": example, "overrides": overrides, "backend": backend, "precision": precision,
              "steps_per_frame": spf, "targets": targets}
    result["run_steps_per_second"] = run_rate(pdex, example, overrides, backend, precision, work)
    srv = Serve(pdex, example, overrides, backend, precision, work)
    try:
        srv.command({"type": "steps_per_frame", "value": spf})
        if client == "browser" or (client == "auto" and has_browser()):
            with_browser(srv, param, values, seconds, result)
        else:
            with_client(srv, pdex, param, values, seconds, result)
        result["serving_over_run"] = result["serve_steps_per_second"] / result["run_steps_per_second"]
    finally:
        srv.stop()
        shutil.rmtree(work, ignore_errors=True)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdex", default=os.path.join(ROOT, "build", "src", "pdex", "app", "pdex"))
    ap.add_argument("--cases", default="cpu")
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--client", choices=["auto", "browser", "pdex"], default="auto",
                    help="chromium (browser), pdex bench serve-client (pdex), or chromium where there is one (auto)")
    ap.add_argument("--json")
    a = ap.parse_args()
    results = [measure(c, a.pdex, a.seconds, a.client) for c in a.cases.split(",")]
    print(f"{'case':5} {'grid':9} {'backend':7} {'steps/frame':>11} {'frames/s':>9} {'serve steps/s':>14} "
          f"{'run steps/s':>12} {'ratio':>6} {'latency ms (median, max)':>25}")
    for r in results:
        grid = "x".join(o.split("=")[1] for o in r["overrides"])
        print(f"{r['case']:5} {grid:9} {r['backend']:7} {r['steps_per_frame']:>11} {r['frames_per_second']:>9.1f} "
              f"{r['serve_steps_per_second']:>14.0f} {r['run_steps_per_second']:>12.0f} {r['serving_over_run']:>6.2f} "
              f"{r['latency_ms']['median']:>12.1f}, {r['latency_ms']['max']:.1f}   {r['client']}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
