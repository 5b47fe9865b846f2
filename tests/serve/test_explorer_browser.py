#!/usr/bin/env python3
"""The explorer page in a real browser: headless chromium, driven by Selenium, against `pdex serve` on
the CPU (docs/explorer.md). Exits 77 (CTest: skipped) where chromium, chromedriver or selenium is missing.

    test_explorer_browser.py PDEX SOURCE_DIR SCREENSHOT.png
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(77)


try:
    import numpy as np
except ImportError:
    skip("python3-numpy is not installed")
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
except ImportError:
    skip("python3-selenium is not installed (scripts/test.sh installs it)")
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    skip("chromium and chromium-driver are not installed (scripts/test.sh installs them)")

PDEX, SOURCE, SHOT = sys.argv[1:4]
WORK = tempfile.mkdtemp(prefix="pdex_browser_")
STEPS_PER_FRAME = 10


def wait_for(what, check, timeout=30.0):
    end = time.time() + timeout
    while time.time() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Server:
    """pdex serve on Turing's spots, 128x128, f64 on OpenMP (or another example and its settings); its
    output read by a thread."""

    def __init__(self, example="turing_spots_demo.toml", sets=("grid.nx=128", "grid.ny=128"), out=WORK):
        args = [PDEX, "serve", os.path.join(SOURCE, "examples", example), "--port", "0", "--backend", "openmp",
                "--precision", "f64", "--out", out]
        for s in sets:
            args += ["--set", s]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=WORK)
        self.lines = []
        threading.Thread(target=self.drain, daemon=True).start()
        line = wait_for("the URL from pdex serve", lambda: next((l for l in self.lines if "?token=" in l), None), 60)
        self.url = line.strip()
        self.base, self.token = re.match(r"(http://[^/]+)/\?token=([0-9a-f]+)", self.url).groups()

    def drain(self):
        for line in self.proc.stdout:
            self.lines.append(line)

    def api(self, path, body=None, token=True):
        url = self.base + path + (f"?token={self.token}" if token else "")
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method="POST" if data else "GET")
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def state(self):
        return self.api("/api/state")["state"]


def status_of(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
              "--use-angle=swiftshader", "--enable-unsafe-swiftshader"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def js(driver, code):
    return driver.execute_script(code)


def frames(driver):
    return js(driver, "return window.pdex ? window.pdex.framesReceived : 0")


def check_token(srv):
    assert status_of(srv.base + "/") == 403, "the page without the token"
    assert status_of(srv.base + "/api/state") == 403, "the API without the token"
    assert status_of(srv.base + "/?token=" + "0" * len(srv.token)) == 403, "a wrong token"
    assert status_of(srv.base + "/explorer.js") == 403, "the page's code without the token"
    assert status_of(srv.url) == 200


def check_picture_moves(driver):
    wait_for("frames in the page", lambda: frames(driver) >= 3)
    first = js(driver, "return window.pdex.canvasStats()")
    assert first["std"] > 5, f"the picture is uniform: {first}"
    time.sleep(1.5)
    later = js(driver, "return window.pdex.canvasStats()")
    assert later["signature"] != first["signature"], "the picture does not change over time"
    print(f"renderer {js(driver, 'return window.pdex.renderer')}; grey std {first['std']:.1f}")


def check_slider(driver, srv):
    name = "beta"  # a Turing pattern still forms at the value it is moved to
    before_version = js(driver, "return window.pdex.frame.version")
    before_picture = js(driver, "return window.pdex.canvasStats().signature")
    moved = js(driver, """
        const s = document.querySelector('input[data-param="beta"]');
        s.value = String(parseFloat(s.min) + 0.45 * (parseFloat(s.max) - parseFloat(s.min)));
        s.dispatchEvent(new Event('input'));
        return parseFloat(s.value);""")
    wait_for(f"{name} = {moved} in the server", lambda: abs(srv.state()["params"][name] - moved) <= 1e-12 * abs(moved))
    wait_for("a frame after the change", lambda: js(driver, "return window.pdex.frame.version") > before_version + 1)
    assert js(driver, "return window.pdex.canvasStats().signature") != before_picture, "the picture did not change"


def check_brush(driver, srv):
    driver.find_element(By.ID, "play").click()
    wait_for("the run to pause", lambda: not srv.state()["playing"])
    driver.find_element(By.ID, "brush-on").click()
    js(driver, """document.getElementById('brush-field').value = 'v';
                  document.getElementById('brush-value').value = '9';
                  document.getElementById('brush-radius').value = '6';""")
    canvas = driver.find_element(By.ID, "field")
    w, h = canvas.size["width"], canvas.size["height"]
    ActionChains(driver).move_to_element_with_offset(canvas, -w // 4, -h // 4).click().perform()  # upper left quarter
    time.sleep(0.5)
    files = srv.api("/api/command", {"type": "save", "what": "npy"})["files"]
    v = np.load(next(f for f in files if os.path.basename(f).startswith("v_")))
    ny, nx = v.shape
    i, j = int(nx / 4), int(ny * 3 / 4)  # the click's cell: x a quarter in, y three quarters up
    assert abs(v[j, i] - 9) < 1e-12, f"the brush did not paint at ({i}, {j}): {v[j, i]}"
    painted = int(np.sum(np.abs(v - 9) < 1e-12))
    assert 100 <= painted <= 130, f"{painted} cells painted; a disc of radius 6 has about 113"
    driver.find_element(By.ID, "brush-on").click()


def check_saved_configuration(driver, srv):
    driver.find_element(By.ID, "save-config").click()
    text = wait_for("the saved configuration", lambda: re.search(r"saved (\S+config\.toml)",
                                                                  driver.find_element(By.ID, "messages").text))
    config = text.group(1).rstrip(",")
    assert config.startswith(WORK), "saves stay in the output folder"
    step0 = srv.state()["step"]
    for _ in range(3):
        srv.api("/api/command", {"type": "step"})
    wait_for("three frames of steps", lambda: srv.state()["step"] == step0 + 3 * STEPS_PER_FRAME)
    files = srv.api("/api/command", {"type": "save", "what": "npy"})["files"]
    live = {os.path.basename(f).split("_")[0]: np.load(f) for f in files}
    rerun = os.path.join(WORK, "rerun")
    subprocess.run([PDEX, "run", config, "--out", rerun, "--set", f"time.steps={3 * STEPS_PER_FRAME}",
                    "--set", "output.formats=[\"npy\"]", "--set", "output.every=0", "--set", "run.progress=false"],
                   check=True, cwd=WORK)
    for name, values in live.items():
        last = sorted(glob.glob(os.path.join(rerun, f"{name}_*.npy")))[-1]
        diff = np.max(np.abs(np.load(last) - values))
        assert diff <= 1e-12 * np.max(np.abs(values)), f"{name}: pdex run of the saved configuration differs by {diff}"


def check_bad_messages(driver, srv):
    replies = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket(`ws://${location.host}/ws`);
        const got = [];
        let frames = 0;
        ws.binaryType = 'arraybuffer';
        ws.onmessage = (e) => {
          if (typeof e.data !== 'string') { ++frames; ws.send('{"type": "drawn"}'); return; }
          const m = JSON.parse(e.data);
          if (m.ok === false) got.push(m.error);
        };
        ws.onopen = () => {
          ws.send('garbage{');
          ws.send('x'.repeat(1 << 20));
          ws.send(JSON.stringify({type: 'paint', field: 'nope', x: 1, y: 1, radius: 1, value: 1}));
          ws.send(JSON.stringify({type: 'set', key: 'model.params.alpha', value: {evil: true}}));
        };
        setTimeout(() => { ws.close(); done([got, frames]); }, 2000);""")
    replies, frames_seen = replies
    assert frames_seen >= 1, "a second watcher (beside the page) gets frames too"
    assert len(replies) == 4, f"every bad message gets an error: {replies}"
    assert "not JSON" in replies[0] and "at most" in replies[1] and "nope" in replies[2], replies
    srv.api("/api/command", {"type": "play"})
    step = srv.state()["step"]
    wait_for("the run to go on", lambda: srv.state()["step"] > step + 100)


def check_3d(driver):
    """A 3D grid: the page shows the z plane slider, and moving it changes the plane the server shows."""
    srv = Server("gray_scott_3d.toml", ("grid.nx=32", "grid.ny=32", "grid.nz=8"), os.path.join(WORK, "volume"))
    try:
        driver.get(srv.url)
        wait_for("frames of the 3D run", lambda: frames(driver) >= 3)
        assert driver.find_element(By.ID, "plane-row").is_displayed(), "no z plane slider for a 3D grid"
        assert srv.state()["plane"] == 4, "the middle plane first"
        js(driver, """const p = document.getElementById('plane');
                      p.value = '1'; p.dispatchEvent(new Event('input'));""")
        wait_for("the plane the slider chose", lambda: srv.state()["plane"] == 1)
        assert "32x32x8" in driver.find_element(By.ID, "title").text
    finally:
        srv.proc.send_signal(signal.SIGINT)
        assert srv.proc.wait(timeout=30) == 0, "pdex serve of a 3D grid did not end cleanly"


def main():
    srv = Server()
    driver = None
    try:
        check_token(srv)
        driver = browser()
        driver.get(srv.url)
        check_picture_moves(driver)
        check_slider(driver, srv)
        check_brush(driver, srv)
        check_saved_configuration(driver, srv)
        check_bad_messages(driver, srv)
        driver.refresh()  # a new page: its frame count starts again from 0
        wait_for("frames after a reload", lambda: frames(driver) >= 3)
        srv.api("/api/command", {"type": "steps_per_frame", "value": 100})
        time.sleep(4)
        driver.save_screenshot(SHOT)
        print(f"screenshot: {SHOT}")
        check_3d(driver)
    finally:
        if driver:
            driver.quit()
        srv.proc.send_signal(signal.SIGINT)
        status = srv.proc.wait(timeout=30)
    print("".join(srv.lines[-5:]))
    assert status == 0, f"pdex serve exited with {status} after Ctrl-C"
    summary = json.load(open(os.path.join(WORK, "summary.json")))
    assert summary["status"] == "ok" and summary["explorer"]["saved"], summary.get("explorer")
    shutil.rmtree(WORK, ignore_errors=True)
    print("explorer: every browser check passed")


if __name__ == "__main__":
    main()
