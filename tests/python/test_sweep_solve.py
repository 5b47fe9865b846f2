"""pdex.sweep (members equal their runs alone), pdex.solve (SciPy matrices), and fields lent without a
copy (NumPy on the host, 2D and 3D; DLPack with PyTorch or CuPy on the GPU, where one of them is
installed)."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import pdex

SOURCE = os.environ["PDEX_SOURCE_DIR"]
GRAY_SCOTT = os.path.join(SOURCE, "examples", "gray_scott_spots.toml")
SMALL = {"grid.nx": 24, "grid.ny": 20,
         "initial.u.shapes": [{"shape": "square", "center": [12.0, 10.0], "size": 8.0, "value": 0.5}],
         "initial.v.shapes": [{"shape": "square", "center": [12.0, 10.0], "size": 8.0, "value": 0.25}]}


def test_sweep_members_equal_their_runs_alone(tmp_path):
    maps = pdex.sweep(GRAY_SCOTT, {"F": [0.03, 0.04], "k": [0.055, 0.06, 0.065]}, steps=40, backend="serial",
                      precision="f64", config=SMALL, out=tmp_path / "maps")
    assert maps.shape == (2, 3) and maps.fields == ["u", "v"]
    assert maps["v"].shape == (2, 3, 20, 24) and maps.stack("v").shape == (6, 20, 24)
    assert maps.members[4] == {"F": 0.04, "k": 0.06}
    assert np.array_equal(np.load(tmp_path / "maps" / "v.npy"), maps.stack("v"))
    for i, F in enumerate([0.03, 0.04]):
        for j, k in enumerate([0.055, 0.06, 0.065]):
            sim = pdex.Simulation(GRAY_SCOTT, backend="serial", precision="f64", config=SMALL,
                                  model__params__F=F, model__params__k=k).run(steps=40)
            assert np.array_equal(maps["v"][i, j], sim["v"]), (F, k)


def test_a_3d_theta_sweep_runs_its_members_in_turn():
    volume = dict(SMALL, **{"grid.nz": 4, "time.dt": 0.5, "time.scheme": "theta",
                            "initial.u.shapes": [{"shape": "square", "center": [12.0, 10.0, 2.0], "size": 8.0, "value": 0.5}],
                            "initial.v.shapes": [{"shape": "square", "center": [12.0, 10.0, 2.0], "size": 8.0, "value": 0.25}]})
    maps = pdex.sweep(GRAY_SCOTT, {"F": [0.03, 0.04]}, steps=10, backend="serial", precision="f64", config=volume)
    assert maps["v"].shape == (2, 4, 20, 24)
    assert maps.summary["ensemble"]["schedule"] == "in turn"
    for i, F in enumerate([0.03, 0.04]):
        sim = pdex.Simulation(GRAY_SCOTT, backend="serial", precision="f64", config=volume, model__params__F=F).run(steps=10)
        assert np.array_equal(maps["v"][i], sim["v"]), F


def test_sweep_errors():
    with pytest.raises(pdex.ConfigError, match="no such parameter"):
        pdex.sweep(GRAY_SCOTT, {"G": [1.0, 2.0]}, steps=1, backend="serial", config=SMALL)
    with pytest.raises(pdex.ConfigError, match="ensemble"):  # a file with [ensemble] is for sweeps
        pdex.Simulation(os.path.join(SOURCE, "examples", "gray_scott_pearson_map.toml"), backend="serial")


def poisson(n):
    """The 2D five-point Laplacian (Dirichlet) on an n x n grid, as a SciPy CSR matrix."""
    import scipy.sparse as sp
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    return (sp.kron(sp.identity(n), t) + sp.kron(t, sp.identity(n))).tocsr()


@pytest.mark.skipif(importlib.util.find_spec("scipy") is None, reason="python3-scipy is not installed")
def test_solve_takes_scipy_matrices():
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
    a = poisson(24)
    b = np.random.default_rng(1).standard_normal(a.shape[0])
    exact = spla.spsolve(a.tocsc(), b)
    for method in ("cg", "pcg", "bicgstab"):
        x = pdex.solve(a.tocoo(), b, method=method, tol=1e-12, backend="serial")
        assert np.linalg.norm(x - exact) <= 1e-9 * np.linalg.norm(exact), method
    x, info = pdex.solve(a, b, method="cg", tol=1e-10, full_output=True, backend="openmp")
    assert info["converged"] and info["true_residual"] <= 1e-9 and info["backend"] == "openmp"
    with pytest.raises(pdex.Error, match="did not converge"):
        pdex.solve(a, b, method="cg", tol=1e-12, max_iter=3, backend="serial")
    with pytest.raises(pdex.ConfigError, match="square|size|match"):
        pdex.solve(sp.random(5, 4, density=0.5, format="csr"), np.ones(5), method="cg", backend="serial")
    with pytest.raises(pdex.ConfigError, match="cg"):
        pdex.solve(a, b, method="gauss", backend="serial")


def test_a_host_field_is_lent_without_a_copy(tmp_path):
    a = pdex.Simulation(GRAY_SCOTT, backend="openmp", precision="f64", config=SMALL)
    b = pdex.Simulation(GRAY_SCOTT, backend="openmp", precision="f64", config=SMALL)
    lent = np.asarray(a.field("v"))
    assert lent.shape == (20, 24) and np.array_equal(lent, a["v"])
    assert np.asarray(a.field("v")).__array_interface__["data"][0] == lent.__array_interface__["data"][0]
    lent[5:9, 3:7] = 0.4  # written in place: the next run starts from it, its ghosts refreshed
    v = b["v"]
    v[5:9, 3:7] = 0.4
    b["v"] = v
    a.run(steps=30)
    b.run(steps=30)
    assert np.array_equal(a["v"], b["v"])
    with pytest.raises(AttributeError):
        a.field("v").__cuda_array_interface__


def test_a_3d_host_field_is_lent_as_a_volume(tmp_path):
    config = {"grid.nx": 24, "grid.ny": 20, "grid.nz": 6, "time.dt": 0.5,
              "initial.u.shapes": [{"shape": "square", "center": [12.0, 10.0, 3.0], "size": 4.0, "value": 0.5}],
              "initial.v.shapes": [{"shape": "square", "center": [12.0, 10.0, 3.0], "size": 4.0, "value": 0.25}]}
    a = pdex.Simulation(GRAY_SCOTT, backend="openmp", precision="f64", config=config).run(steps=5)
    b = pdex.Simulation(GRAY_SCOTT, backend="openmp", precision="f64", config=config).run(steps=5)
    lent = np.asarray(a.field("v"))
    assert lent.shape == (6, 20, 24) and np.array_equal(lent, a["v"])
    lent[4, 5:9, 3:7] = 0.4  # plane 4 written in place: the next run starts from it
    v = b["v"]
    v[4, 5:9, 3:7] = 0.4
    b["v"] = v
    a.run(steps=20)
    b.run(steps=20)
    assert np.array_equal(a["v"], b["v"])


GPU_ARRAYS = [name for name in ("torch", "cupy") if importlib.util.find_spec(name) is not None]


@pytest.mark.skipif(os.environ.get("PDEX_TEST_GPU") != "1" or not GPU_ARRAYS,
                    reason="a GPU test (PDEX_TEST_GPU=1) with PyTorch or CuPy installed")
def test_a_gpu_field_goes_out_and_in_through_dlpack():
    for library in GPU_ARRAYS:
        sim = pdex.Simulation(GRAY_SCOTT, backend="cuda", precision="f32", config=SMALL).run(steps=10)
        ref = pdex.Simulation(GRAY_SCOTT, backend="cuda", precision="f32", config=SMALL).run(steps=10)
        field = sim.field("v")
        pointer = field.__cuda_array_interface__["data"][0]
        if library == "torch":
            import torch
            t = torch.from_dlpack(field)
            assert t.is_cuda and t.data_ptr() == pointer and tuple(t.shape) == (20, 24)
            assert np.array_equal(t.cpu().numpy(), sim["v"])
        else:
            import cupy
            t = cupy.from_dlpack(field)
            assert t.data.ptr == pointer and t.shape == (20, 24)
            assert np.array_equal(cupy.asnumpy(t), sim["v"])
        t[5:9, 3:7] = 0.4  # written where the field lives: the next run starts from it
        v = ref["v"]
        v[5:9, 3:7] = 0.4
        ref["v"] = v
        assert np.array_equal(sim["v"], ref["v"]), library
        sim.run(steps=30)
        ref.run(steps=30)
        assert np.array_equal(sim["v"], ref["v"]), library


def test_the_pearson_script_runs(tmp_path):
    script = os.path.join(SOURCE, "examples", "python", "pearson_map.py")
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    out = subprocess.run([sys.executable, script, "--count", "3", "--size", "32", "--steps", "50", "--backend", "openmp",
                          "--out", str(tmp_path)], check=True, capture_output=True, text=True, env=env).stdout
    assert "9 members of 32x32" in out and out.count("F=") == 3
    assert np.load(tmp_path / "v.npy").shape == (9, 32, 32) and (tmp_path / "v.png").exists()
