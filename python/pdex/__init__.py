"""pdex from Python: run, inspect and change a simulation of a pdex configuration (docs/python.md).

    import pdex
    sim = pdex.Simulation("examples/gray_scott_spots.toml", backend="openmp", precision="f64",
                          grid__nx=128, grid__ny=128)
    sim.run(steps=1000)
    v = sim["v"]                 # a NumPy array, indexed [y, x] as pdex's .npy files
    sim.params["F"] = 0.03       # the run goes on from its state with the new value
    sim.run(steps=1000)
    sim.save_config("saved")     # `pdex run saved/config.toml` goes on from here

    t = torch.from_dlpack(sim.field("v"))        # the field where it lives (GPU or host), no copy
    maps = pdex.sweep("examples/gray_scott_spots.toml", {"F": [0.02, 0.03], "k": [0.05, 0.06]}, steps=2000)
    x = pdex.solve(A, b, method="cg")            # A: a SciPy sparse matrix, b: a NumPy vector
"""
import json
import math
import warnings
from collections.abc import MutableMapping

import numpy

from . import _pdex

if int(numpy.__version__.split(".")[0]) >= 2 and tuple(_pdex.pybind11_version) < (2, 12):
    warnings.warn(f"pdex was built with pybind11 {'.'.join(map(str, _pdex.pybind11_version))}, which predates NumPy 2 "
                  f"(supported from pybind11 2.12), and runs with NumPy {numpy.__version__}: arrays passed to pdex "
                  "may arrive wrong; build it with pybind11 2.12 or later, or run it with NumPy 1.x")

Error = _pdex.Error              # every error pdex raises
ConfigError = _pdex.ConfigError  # a configuration, key or value refused (the message names the file and key)
BlowUp = _pdex.BlowUp            # NaN or Inf in the state, or a linear solve that failed


def models():
    """What `pdex list --json` prints: the model families with their models and parameters, the schemes,
    solvers, boundary kinds, colormaps and backends."""
    return json.loads(_pdex.list_json())


def toml_value(v):
    """A Python number, string, boolean, list or dict as TOML text (the value of a --set)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ConfigError(f"expected a finite number, got {v}")
        text = repr(v)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string: JSON's escapes are TOML's
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):  # an inline table
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    if hasattr(v, "item"):  # a NumPy scalar
        return toml_value(v.item())
    raise ConfigError(f"expected a number, string, boolean or list, got {type(v).__name__}")


class Params(MutableMapping):
    """The model's parameters; setting one rebuilds the run with the state and time carried over."""

    def __init__(self, sim):
        self._sim = sim

    def __getitem__(self, name):
        params = json.loads(self._sim._core.params_json())
        if name not in params:
            raise KeyError(f"no parameter '{name}' in this model; it has {', '.join(params)}")
        return params[name]

    def __setitem__(self, name, value):
        self._sim.set({f"model.params.{name}": value})

    def __delitem__(self, name):
        self._sim.set({f"model.params.{name}": None})

    def __iter__(self):
        return iter(json.loads(self._sim._core.params_json()))

    def __len__(self):
        return len(json.loads(self._sim._core.params_json()))


def _sets(config, overrides):
    """--set assignments from a dict of dotted keys and keyword arguments with '__' for '.'."""
    keys = dict(config or {})
    keys.update({k.replace("__", "."): v for k, v in overrides.items()})
    return [f"{k}={toml_value(v)}" for k, v in keys.items()]


class Field:
    """A stepped field where it lives, lent without a copy: to PyTorch, CuPy or JAX through DLPack
    (torch.from_dlpack(field)) or __cuda_array_interface__ on the GPU, to NumPy through
    __array_interface__ on the host. The array is indexed [y, x] ([z, y, x] on a 3D grid) with the row
    (and plane) strides of the field's layout.
    It is valid until the simulation runs or changes: take a new one after sim.run() (the state moves
    between two buffers) or a change of parameters. Values written into it are the simulation's: its
    next run starts from them."""

    def __init__(self, sim, name):
        self._sim, self._name = sim, name
        sim._lent = True

    def __dlpack__(self, stream=None, **_):
        return self._sim._core.dlpack(self._name, self._sim)

    def __dlpack_device__(self):
        return self._sim._core.dlpack_device(self._name)

    @property
    def __cuda_array_interface__(self):
        device, interface = self._sim._core.array_interface(self._name)
        if not device:
            raise AttributeError("a field of a host backend: use __array_interface__ (np.asarray(field))")
        return interface

    @property
    def __array_interface__(self):
        device, interface = self._sim._core.array_interface(self._name)
        if device:
            raise AttributeError("a field on the GPU: use DLPack (torch.from_dlpack, cupy.from_dlpack) or sim[name] for a copy")
        return interface


class Sweep:
    """The members of an ensemble: every combination of the parameters' values, in C order (the last
    parameter varying fastest). sweep["u"] has shape (len(values of the first), ..., ny, nx);
    sweep.stack("u") is [member, y, x] as the .npy of `pdex sweep`."""

    def __init__(self, params, names, fields, summary):
        self.params = {name: list(values) for name, values in params.items()}
        self.fields = list(names)
        self._stacks = dict(zip(names, fields))
        self.summary = summary
        self.seconds = summary["wall_seconds"]["stepping"]

    @property
    def shape(self):
        return tuple(len(v) for v in self.params.values())

    @property
    def members(self):
        """Each member's parameter values, as dicts, in member order."""
        names = list(self.params)
        return [dict(zip(names, values)) for values in self.summary["ensemble"]["member_values"]]

    def stack(self, field):
        return self._stacks[field]

    def __getitem__(self, field):
        s = self._stacks[field]
        return s.reshape(self.shape + s.shape[1:])


def sweep(file, params, steps=None, backend=None, precision=None, out=None, config=None, **overrides):
    """Runs every combination of `params` ({"F": values, "k": values}) as one batched run of the members
    stacked in one field (docs/config.md, "Ensembles"); `steps` sets time.steps. With `out`, writes what
    `pdex sweep` writes there (the .npy stacks, mosaics and summary.json)."""
    keys = {"run.progress": False}
    keys.update(config or {})
    if steps is not None:
        keys["time.steps"] = int(steps)
    args = []
    for name, values in params.items():
        values = [values] if isinstance(values, (int, float)) else list(values)
        if not values:
            raise ConfigError(f"parameter '{name}': no values")
        args.append(f"{name}=" + ",".join(repr(float(v)) for v in values))
    names, fields, summary = _pdex.sweep(str(file), backend, precision, None if out is None else str(out),
                                         _sets(keys, overrides), args)
    summary = json.loads(summary)
    values = {name: summary["ensemble"]["params"][name] for name in summary["ensemble"]["names"]}
    return Sweep(values, names, fields, summary)


def solve(A, b, method="cg", tol=1e-8, max_iter=10000, jacobi=False, format="csr", backend="auto",
          precision="f64", full_output=False):
    """Solves A x = b with pdex's Krylov solvers ("cg", "pcg", "bicgstab", "cgls") on a backend:
    A a SciPy sparse matrix (any format) or a 2D NumPy array, b a NumPy vector. Returns x, or
    (x, info) with full_output (converged, iterations, residual, true_residual, seconds, backend).
    Raises pdex.Error when the solver does not converge, unless full_output is set."""
    try:
        import scipy.sparse as sp
        A = sp.csr_matrix(A, dtype=numpy.float64)
    except ImportError:
        raise ConfigError("pdex.solve takes SciPy sparse matrices: install SciPy (python3-scipy)") from None
    A.sum_duplicates()
    A.sort_indices()
    b = numpy.ascontiguousarray(b, dtype=numpy.float64).ravel()
    if A.nnz >= 2**31:
        raise ConfigError(f"A has {A.nnz} stored values: at most 2^31 - 1")
    index = lambda a: numpy.ascontiguousarray(a, dtype=numpy.int32)  # the types the module takes, converted here
    x, info = _pdex.solve(A.shape[0], A.shape[1], index(A.indptr), index(A.indices), numpy.ascontiguousarray(A.data), b,
                          method, float(tol), int(max_iter), bool(jacobi), format, backend, precision)
    if full_output:
        return x, info
    if not info["converged"]:
        raise Error(f"{method} did not converge in {info['iterations']} iterations: relative residual "
                    f"{info['residual']:.3e} > tol {tol:g}; raise max_iter, try another method, or use full_output=True "
                    "to take the last iterate")
    return x


class Simulation:
    """A configuration's run. `overrides` are configuration keys with '__' for '.', as --set takes them:
    Simulation(file, model__params__F=0.03); or give `config` a dict of such keys with dots."""

    def __init__(self, file, backend=None, precision=None, out=None, config=None, **overrides):
        self._core = _pdex.Simulation(str(file), backend, precision, None if out is None else str(out),
                                      _sets(config, overrides))
        self.params = Params(self)
        self._lent = False

    def run(self, steps=None, until=None, callback=None, every=None):
        """Advance by `steps` steps, or to simulated time `until`; callback(sim) every `every` steps."""
        if (steps is None) == (until is None):
            raise ConfigError("give steps= or until=, one of them")
        if self._lent:  # a lent field may have been written in place
            self._core.refresh()
        if until is not None:
            self._core.run_until(float(until))
            return self
        if callback is not None and not every:
            raise ConfigError("a callback needs every= (steps between calls)")
        self._core.run_steps(int(steps), (lambda: callback(self)) if callback else None, int(every or 0))
        return self

    def set(self, changes):
        """Change configuration keys ({"time.dt": 0.5, ...}; None takes a change back), all or none."""
        merged = dict(self._core.changes)
        for key, value in changes.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = toml_value(value)
        self._core.set_changes(merged)

    @property
    def step(self):
        return self._core.step

    @property
    def time(self):
        return self._core.time

    @property
    def fields(self):
        return list(self._core.fields)

    def __getitem__(self, field):
        return self._core.get(field)

    def __setitem__(self, field, values):
        self._core.set(field, values)

    def field(self, name):
        """The field `name` where it lives, without a copy (see Field)."""
        return Field(self, name)

    def summary(self):
        """What summary.json holds: configuration, backend, grid, steps, time, fields' min/max/mean, changes."""
        return json.loads(self._core.summary_json())

    def save_config(self, directory):
        """Writes directory/config.toml and the stepped fields as .npy: `pdex run` of it goes on from here."""
        return self._core.save_config(str(directory))[0]

    def _repr_png_(self):
        return self._core.png(self.fields[0])
