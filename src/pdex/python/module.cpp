// pdex._pdex: the engine for Python (docs/python.md). The package pdex (python/pdex/__init__.py) wraps
// it: a Simulation is a Session (app/session.hpp) with checks against blow-up as `pdex run` makes them.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pdex/app/session.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/colormap.hpp"
#include "pdex/io/png_writer.hpp"
#include "pdex/app/commands.hpp"

namespace py = pybind11;

namespace pdex {
namespace {

CliOverrides overrides(std::optional<std::string> backend, std::optional<std::string> precision, std::optional<std::string> out,
                       std::vector<std::string> sets) {
  CliOverrides cli;
  cli.backend = backend.value_or("");
  cli.precision = precision.value_or("");
  cli.out_dir = out.value_or("");
  cli.sets = std::move(sets);
  return cli;
}

class Simulation {
 public:
  Simulation(const std::string& file, std::optional<std::string> backend, std::optional<std::string> precision,
             std::optional<std::string> out, std::vector<std::string> sets)
      : session_(file, overrides(std::move(backend), std::move(precision), std::move(out), std::move(sets))) {}

  // `steps` steps, looking for NaN/Inf every time.check_every steps (or every `every` steps, with
  // callback(self) after each look); the interpreter runs on meanwhile (the GIL is released).
  void run_steps(int64_t steps, const std::function<void()>& callback, int64_t every) {
    if (steps < 0) throw InputError("steps must be non-negative, got " + std::to_string(steps));
    const int64_t chunk = every > 0 ? every : session_.config().clock().check_every;
    for (int64_t done = 0; done < steps;) {
      const int64_t n = std::min(chunk, steps - done);
      {
        py::gil_scoped_release free;
        session_.advance(n);
      }
      check_finite();
      done += n;
      if (callback) callback();
    }
  }

  void run_until(double t) {
    {
      py::gil_scoped_release free;
      session_.advance_to(t);
    }
    check_finite();
  }

  py::array_t<double> get(const std::string& name) {
    const int f = index(name);
    const Grid2& g = session_.config().grid();
    py::array_t<double> a({g.ny, g.nx});
    const std::vector<double> v = session_.stepper().values(f);
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
  }

  void set(const std::string& name, const py::array_t<double, py::array::c_style | py::array::forcecast>& a) {
    const int f = index(name);
    const Grid2& g = session_.config().grid();
    if (a.ndim() != 2 || a.shape(0) != g.ny || a.shape(1) != g.nx)
      throw InputError("field '" + name + "': expected an array of shape (ny, nx) = (" + std::to_string(g.ny) + ", " +
                       std::to_string(g.nx) + ")");
    if (!session_.stepper().settable(f)) throw InputError("field '" + name + "' is computed from the others; set a stepped field");
    session_.stepper().set_values(f, std::vector<double>(a.data(), a.data() + a.size()));
  }

  // PNG bytes of a field as `pdex run` draws it (the configuration's colormap and range).
  py::bytes png(const std::string& name) {
    const Grid2& g = session_.config().grid();
    const OutputConfig& o = session_.config().output;
    const std::filesystem::path file = std::filesystem::temp_directory_path() / ("pdex_repr_" + std::to_string(::getpid()) + ".png");
    io::write_png(file, session_.stepper().values(index(name)), g.nx, g.ny, io::parse_colormap(o.colormap),
                  io::ColorRange{o.auto_range, o.range_min, o.range_max}, std::max(1, 256 / std::max(g.nx, g.ny)));
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(file);
    return py::bytes(bytes);
  }

  Session& session() { return session_; }

 private:
  int index(const std::string& name) const {
    const std::vector<std::string>& names = session_.stepper().field_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw py::key_error("no field '" + name + "' in this model");
    return int(it - names.begin());
  }

  void check_finite() {
    Stepper& s = session_.stepper();
    for (int f = 0; f < int(s.field_names().size()); ++f) {
      const int64_t cell = s.first_nonfinite(f);
      if (cell < 0) continue;
      const int nx = session_.config().grid().nx;
      throw NumericalError("the run blew up by step " + std::to_string(session_.step()) + ": " + s.field_names()[std::size_t(f)] +
                           " is NaN or Inf at cell (" + std::to_string(cell % nx) + ", " + std::to_string(cell / nx) +
                           "); lower time.dt or change the parameters");
    }
  }

  Session session_;
};

}  // namespace
}  // namespace pdex

PYBIND11_MODULE(_pdex, m) {
  using pdex::Simulation;
  m.doc() = "pdex's engine; use the package pdex";
  static py::exception<pdex::Error> error(m, "Error");
  static py::exception<pdex::InputError> config_error(m, "ConfigError", error.ptr());
  static py::exception<pdex::NumericalError> blow_up(m, "BlowUp", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pdex::NumericalError& e) {
      blow_up(e.what());
    } catch (const pdex::InputError& e) {
      config_error(e.what());
    } catch (const pdex::Error& e) {
      error(e.what());
    }
  });
  m.def("list_json", [] { return pdex::list_json().dump(); }, "what `pdex list --json` prints");
  py::class_<Simulation>(m, "Simulation")
      .def(py::init<const std::string&, std::optional<std::string>, std::optional<std::string>, std::optional<std::string>,
                    std::vector<std::string>>(),
           py::arg("file"), py::arg("backend"), py::arg("precision"), py::arg("out"), py::arg("sets"))
      .def("run_steps", &Simulation::run_steps, py::arg("steps"), py::arg("callback"), py::arg("every"))
      .def("run_until", &Simulation::run_until)
      .def("get", &Simulation::get)
      .def("set", &Simulation::set)
      .def("png", &Simulation::png)
      .def_property_readonly("step", [](Simulation& s) { return s.session().step(); })
      .def_property_readonly("time", [](Simulation& s) { return s.session().time(); })
      .def_property_readonly("fields", [](Simulation& s) { return s.session().stepper().field_names(); })
      .def_property_readonly("changes", [](Simulation& s) { return s.session().changes(); })
      .def("set_changes", [](Simulation& s, const std::map<std::string, std::string>& c) { s.session().set_changes(c); })
      .def("params_json", [](Simulation& s) { return s.session().config().resolved["model"]["params"].dump(); })
      .def("summary_json", [](Simulation& s) { return s.session().summary().dump(); })
      .def("save_config", [](Simulation& s, const std::string& dir) { return s.session().save_config(dir, "pdex (Python)"); });
}
