"""The package pdex: NumPy round trips, the same answer as `pdex run`, parameters changed between runs,
saved configurations, errors as Python exceptions (docs/python.md)."""
import glob
import os
import subprocess
import sys

import numpy as np
import pytest

import pdex

SOURCE = os.environ["PDEX_SOURCE_DIR"]
PDEX = os.environ["PDEX_EXE"]
GRAY_SCOTT = os.path.join(SOURCE, "examples", "gray_scott_spots.toml")


def small(tmp_path, **keys):
    return pdex.Simulation(GRAY_SCOTT, backend="serial", precision="f64", out=tmp_path / "out", grid__nx=48, grid__ny=40, **keys)


def pdex_run(config, out, steps, *sets):
    args = [PDEX, "run", str(config), "--out", str(out), "--backend", "serial", "--precision", "f64",
            "--set", f"time.steps={steps}", "--set", "output.formats=[\"npy\"]", "--set", "run.progress=false"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return {name: np.load(sorted(glob.glob(os.path.join(out, f"{name}_*.npy")))[-1]) for name in ("u", "v")}


def test_every_field_round_trips_through_numpy(tmp_path):
    sim = small(tmp_path)
    assert sim.fields == ["u", "v"]
    for name in sim.fields:
        a = sim[name]
        assert a.shape == (40, 48) and a.dtype == np.float64
        b = 0.5 * a + np.arange(48)[None, :] * 1e-3
        sim[name] = b
        assert np.array_equal(sim[name], b)


def test_python_gives_what_pdex_run_gives(tmp_path):
    sim = small(tmp_path).run(steps=200)
    assert sim.step == 200 and sim.time == 200.0
    ref = pdex_run(GRAY_SCOTT, tmp_path / "ref", 200, "grid.nx=48", "grid.ny=40")
    for name in ("u", "v"):
        assert np.array_equal(sim[name], ref[name])


def test_many_short_runs_are_one_long_run(tmp_path):
    a, b = small(tmp_path), small(tmp_path)
    for _ in range(10):
        a.run(steps=7)
    b.run(steps=70)
    assert np.array_equal(a["v"], b["v"])


def test_until_and_callbacks(tmp_path):
    sim = small(tmp_path)
    seen = []
    sim.run(steps=50, every=10, callback=lambda s: seen.append(s.step))
    assert seen == [10, 20, 30, 40, 50]
    sim.run(until=sim.time + 25)
    assert sim.step == 75
    with pytest.raises(pdex.ConfigError, match="whole number of steps"):
        sim.run(until=sim.time + 0.5)


def test_a_parameter_changed_between_runs_keeps_the_state(tmp_path):
    sim = small(tmp_path).run(steps=20)
    before = sim["v"]
    sim.params["F"] = 0.031
    assert sim.params["F"] == 0.031
    assert np.array_equal(sim["v"], before)
    assert sim.step == 20
    sim.run(steps=10)
    assert not np.array_equal(sim["v"], before)
    del sim.params["F"]
    assert sim.params["F"] == 0.0367


def test_a_saved_configuration_goes_on_where_python_is(tmp_path):
    sim = small(tmp_path, model__params__k=0.061).run(steps=20)
    v = sim["v"]
    v[10:14, 30:34] = 0.5
    sim["v"] = v
    config = sim.save_config(tmp_path / "saved")
    sim.run(steps=30)
    ref = pdex_run(config, tmp_path / "rerun", 30)
    for name in ("u", "v"):
        assert np.array_equal(sim[name], ref[name])


def test_errors_are_python_exceptions(tmp_path):
    assert issubclass(pdex.ConfigError, pdex.Error) and issubclass(pdex.BlowUp, pdex.Error)
    with pytest.raises(pdex.ConfigError, match="nope.toml"):
        pdex.Simulation(tmp_path / "nope.toml")
    with pytest.raises(pdex.ConfigError, match="model.params.nope"):
        small(tmp_path, model__params__nope=1.0)
    sim = small(tmp_path)
    with pytest.raises(KeyError):
        sim["w"]
    with pytest.raises(pdex.ConfigError, match="shape"):
        sim["v"] = np.zeros((3, 3))
    with pytest.raises(pdex.ConfigError, match="time.dt"):
        sim.params["F"] = 0.03
        sim.set({"time.dt": 100.0})
    blowing = small(tmp_path, time__dt=50.0, time__force=True)
    with pytest.raises(pdex.BlowUp, match="NaN or Inf"):
        blowing.run(steps=400)


def test_the_example_script_runs(tmp_path):
    script = os.path.join(SOURCE, "examples", "python", "gray_scott_steer.py")
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    out = subprocess.run([sys.executable, script, "--size", "48", "--steps", "50", "--backend", "serial", "--out", str(tmp_path)],
                         check=True, capture_output=True, text=True, env=env).stdout
    assert out.count("F = ") == 3 and "saved" in out
    assert len(glob.glob(str(tmp_path / "stage*.png"))) == 3


def test_models_and_pictures(tmp_path):
    names = [m["name"] for f in pdex.models()["families"] for m in f["models"]]
    assert "gray_scott" in names and "equations" in names
    assert small(tmp_path)._repr_png_().startswith(b"\x89PNG")
