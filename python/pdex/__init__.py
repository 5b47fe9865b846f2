"""pdex from Python: run, inspect and change a simulation of a pdex configuration (docs/python.md).

    import pdex
    sim = pdex.Simulation("examples/gray_scott_spots.toml", backend="openmp", precision="f64",
                          grid__nx=128, grid__ny=128)
    sim.run(steps=1000)
    v = sim["v"]                 # a NumPy array, indexed [y, x] as pdex's .npy files
    sim.params["F"] = 0.03       # the run goes on from its state with the new value
    sim.run(steps=1000)
    sim.save_config("saved")     # `pdex run saved/config.toml` goes on from here
"""
import json
import math
from collections.abc import MutableMapping

from . import _pdex

Error = _pdex.Error              # every error pdex raises
ConfigError = _pdex.ConfigError  # a configuration, key or value refused (the message names the file and key)
BlowUp = _pdex.BlowUp            # NaN or Inf in the state, or a linear solve that failed


def models():
    """What `pdex list --json` prints: the model families with their models and parameters, the schemes,
    solvers, boundary kinds, colormaps and backends."""
    return json.loads(_pdex.list_json())


def toml_value(v):
    """A Python number, string, boolean or list as TOML text (the value of a --set)."""
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


class Simulation:
    """A configuration's run. `overrides` are configuration keys with '__' for '.', as --set takes them:
    Simulation(file, model__params__F=0.03); or give `config` a dict of such keys with dots."""

    def __init__(self, file, backend=None, precision=None, out=None, config=None, **overrides):
        keys = dict(config or {})
        keys.update({k.replace("__", "."): v for k, v in overrides.items()})
        sets = [f"{k}={toml_value(v)}" for k, v in keys.items()]
        self._core = _pdex.Simulation(str(file), backend, precision, None if out is None else str(out), sets)
        self.params = Params(self)

    def run(self, steps=None, until=None, callback=None, every=None):
        """Advance by `steps` steps, or to simulated time `until`; callback(sim) every `every` steps."""
        if (steps is None) == (until is None):
            raise ConfigError("give steps= or until=, one of them")
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

    def summary(self):
        """What summary.json holds: configuration, backend, grid, steps, time, fields' min/max/mean, changes."""
        return json.loads(self._core.summary_json())

    def save_config(self, directory):
        """Writes directory/config.toml and the stepped fields as .npy: `pdex run` of it goes on from here."""
        return self._core.save_config(str(directory))[0]

    def _repr_png_(self):
        return self._core.png(self.fields[0])
