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

#include <dlpack/dlpack.h>
#ifdef PDEX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "pdex/app/commands.hpp"
#include "pdex/app/session.hpp"
#include "pdex/app/sweep.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/colormap.hpp"
#include "pdex/io/png_writer.hpp"
#include "pdex/io/section.hpp"
#include "pdex/linalg/matrix_solve.hpp"

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

// Waits for every stream of the device: pdex's own, and any of a library that writes a field in place.
void wait_for_device(bool device) {
#ifdef PDEX_HAVE_CUDA
  if (device && cudaDeviceSynchronize() != cudaSuccess) throw Error("CUDA: waiting for the device failed");
#else
  (void)device;
#endif
}

int device_ordinal(bool device) {
  int d = 0;
#ifdef PDEX_HAVE_CUDA
  if (device) cudaGetDevice(&d);
#else
  (void)device;
#endif
  return d;
}

// A field lent to another array library (DLPack 0.6): the tensor points at the stepper's memory and
// holds the Python simulation while the library uses it.
struct LentField {
  DLManagedTensor tensor{};
  int64_t shape[3] = {0, 0, 0}, strides[3] = {0, 0, 0};
  py::object owner;
};

// A field's shape and strides in values, [y, x] or, of a 3D field, [z, y, x].
std::vector<int64_t> lent_shape(const FieldMemory& m) {
  if (m.nz > 1) return {m.nz, m.ny, m.nx};
  return {m.ny, m.nx};
}
std::vector<int64_t> lent_strides(const FieldMemory& m) {
  if (m.nz > 1) return {m.plane, m.pitch, 1};
  return {m.pitch, 1};
}

py::capsule dlpack_capsule(const FieldMemory& m, py::object owner) {
  auto* lent = new LentField;
  const std::vector<int64_t> shape = lent_shape(m), strides = lent_strides(m);
  std::copy(shape.begin(), shape.end(), lent->shape);
  std::copy(strides.begin(), strides.end(), lent->strides);
  lent->owner = std::move(owner);
  DLTensor& t = lent->tensor.dl_tensor;
  t.data = m.data;
  t.device = DLDevice{m.device ? kDLCUDA : kDLCPU, device_ordinal(m.device)};
  t.ndim = int32_t(shape.size());
  t.dtype = DLDataType{kDLFloat, uint8_t(8 * m.value_bytes), 1};
  t.shape = lent->shape;
  t.strides = lent->strides;
  lent->tensor.manager_ctx = lent;
  lent->tensor.deleter = [](DLManagedTensor* self) {
    py::gil_scoped_acquire gil;
    delete static_cast<LentField*>(self->manager_ctx);
  };
  // A capsule still named "dltensor" when it dies was never consumed: it frees the tensor itself.
  PyObject* capsule = PyCapsule_New(&lent->tensor, "dltensor", [](PyObject* c) {
    if (!PyCapsule_IsValid(c, "dltensor")) return;
    auto* unused = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
    unused->deleter(unused);
  });
  if (!capsule) {
    delete lent;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(capsule);
}

// The array interface of NumPy (host) or of CUDA (__cuda_array_interface__), version 3.
py::dict array_interface(const FieldMemory& m) {
  py::dict d;
  py::list shape, strides;
  for (const int64_t n : lent_shape(m)) shape.append(n);
  for (const int64_t s : lent_strides(m)) strides.append(s * m.value_bytes);
  d["shape"] = py::tuple(shape);
  d["typestr"] = m.value_bytes == 4 ? "<f4" : "<f8";
  d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(m.data), false);
  d["strides"] = py::tuple(strides);
  d["version"] = 3;
  if (m.device) d["stream"] = py::none();  // the values are ready: pdex waited for the device
  return d;
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
    const std::vector<std::size_t> shape = g.extents().shape();
    py::array_t<double> a(std::vector<py::ssize_t>(shape.begin(), shape.end()));
    const std::vector<double> v = session_.stepper().values(f);
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
  }

  void set(const std::string& name, const py::array_t<double, py::array::c_style | py::array::forcecast>& a) {
    const int f = index(name);
    const Grid2& g = session_.config().grid();
    const std::vector<std::size_t> shape = g.extents().shape();
    if (std::vector<std::size_t>(a.shape(), a.shape() + a.ndim()) != shape)
      throw InputError("field '" + name + "': expected an array of shape " + (g.is_3d() ? "(nz, ny, nx)" : "(ny, nx)") +
                       " = (" + (g.is_3d() ? std::to_string(g.nz) + ", " : "") + std::to_string(g.ny) + ", " +
                       std::to_string(g.nx) + ")");
    if (!session_.stepper().settable(f)) throw InputError("field '" + name + "' is computed from the others; set a stepped field");
    session_.stepper().set_values(f, std::vector<double>(a.data(), a.data() + a.size()));
  }

  // PNG bytes of a field as `pdex run` draws it (the configuration's colormap and range).
  py::bytes png(const std::string& name) {
    const Grid2& g = session_.config().grid();
    const OutputConfig& o = session_.config().output;
    const std::filesystem::path file = std::filesystem::temp_directory_path() / ("pdex_repr_" + std::to_string(::getpid()) + ".png");
    // A 3D field is drawn by its first section (the middle plane across z unless output.slice says).
    const std::vector<double> v = session_.stepper().values(index(name));
    const io::SectionPicture p = g.is_3d() ? io::section_of(v, g.nx, g.ny, g.nz, o.sections.front()) : io::SectionPicture{v, g.nx, g.ny};
    io::write_png(file, p.values, p.width, p.height, io::parse_colormap(o.colormap),
                  io::ColorRange{o.auto_range, o.range_min, o.range_max}, std::max(1, 256 / std::max(p.width, p.height)));
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(file);
    return py::bytes(bytes);
  }

  // Where a stepped field lives now (until the next run or change), the device's work on it done.
  FieldMemory memory(const std::string& name) {
    const int f = index(name);
    if (!session_.stepper().settable(f)) throw InputError("field '" + name + "' is computed from the others: only stepped fields are lent");
    const FieldMemory m = session_.stepper().memory(f);
    if (!m.data) throw InputError("this model does not lend its fields; use sim[\"" + name + "\"]");
    wait_for_device(m.device);
    return m;
  }

  // After another library wrote fields in place: its work done, the ghosts follow the new values.
  void refresh() {
    wait_for_device(session_.config().backend == Backend::cuda);
    session_.stepper().refresh_ghosts();
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

// pdex.sweep: the fields of every member [member, y, x] ([member, z, y, x] in 3D), the summary as JSON.
py::tuple sweep(const std::string& file, std::optional<std::string> backend, std::optional<std::string> precision,
                std::optional<std::string> out, std::vector<std::string> sets, std::vector<std::string> params) {
  const bool outputs = out.has_value();
  CliOverrides cli = overrides(std::move(backend), std::move(precision), std::move(out), std::move(sets));
  cli.params = std::move(params);
  SweepResult r;
  {
    py::gil_scoped_release free;
    r = run_sweep(load_run_config(file, cli), cli, outputs);
  }
  py::list fields;
  for (const std::vector<double>& v : r.fields) {
    std::vector<py::ssize_t> shape{py::ssize_t(r.member_values.size()), py::ssize_t(r.ny), py::ssize_t(r.nx)};
    if (r.nz > 1) shape.insert(shape.begin() + 1, py::ssize_t(r.nz));
    py::array_t<double> a(shape);
    std::copy(v.begin(), v.end(), a.mutable_data());
    fields.append(a);
  }
  return py::make_tuple(r.field_names, fields, r.summary.dump());
}

using IndexArray = py::array_t<int, py::array::c_style | py::array::forcecast>;
using ValueArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A CSR matrix from SciPy's arrays, checked: row pointers that grow from 0 to nnz, columns in range.
CsrMatrix<double> csr_of(int rows, int cols, const IndexArray& indptr, const IndexArray& indices, const ValueArray& data) {
  if (rows < 0 || cols < 0 || indptr.size() != rows + 1 || indices.size() != data.size())
    throw InputError("A: expected a CSR matrix with rows + 1 row pointers and one column index per value");
  CsrMatrix<double> a;
  a.rows = rows, a.cols = cols;
  a.row_ptr.assign(indptr.data(), indptr.data() + indptr.size());
  a.col.assign(indices.data(), indices.data() + indices.size());
  a.val.assign(data.data(), data.data() + data.size());
  if (a.row_ptr.front() != 0 || a.row_ptr.back() != int(a.val.size()) || !std::is_sorted(a.row_ptr.begin(), a.row_ptr.end()))
    throw InputError("A: the row pointers must grow from 0 to the number of stored values");
  for (int c : a.col)
    if (c < 0 || c >= cols) throw InputError("A: column index " + std::to_string(c) + " outside 0.." + std::to_string(cols - 1));
  return a;
}

py::tuple solve(int rows, int cols, const IndexArray& indptr, const IndexArray& indices, const ValueArray& data,
                const ValueArray& b, const std::string& method, double tol, int max_iter, bool jacobi,
                const std::string& format, const std::string& backend, const std::string& precision) {
  const CsrMatrix<double> a = csr_of(rows, cols, indptr, indices, data);
  MatrixSolve s;
  s.method = parse_matrix_method(method);
  s.format = parse_matrix_format(format);
  s.tol = tol, s.max_iter = max_iter, s.jacobi = jacobi;
  const Backend be = backend == "auto" ? best_backend() : parse_backend(backend);
  const std::vector<double> rhs(b.data(), b.data() + b.size());
  MatrixSolution sol;
  {
    py::gil_scoped_release free;
    sol = solve_matrix(a, rhs, s, be, parse_precision(precision));
  }
  py::array_t<double> x(py::ssize_t(sol.x.size()));
  std::copy(sol.x.begin(), sol.x.end(), x.mutable_data());
  py::dict info;
  info["converged"] = sol.stats.converged;
  info["iterations"] = sol.stats.iterations;
  info["residual"] = sol.stats.residual;
  info["true_residual"] = sol.true_residual;
  info["seconds"] = sol.stats.seconds;
  info["backend"] = std::string(backend_name(be));
  return py::make_tuple(x, info);
}

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
  m.attr("pybind11_version") = py::make_tuple(PYBIND11_VERSION_MAJOR, PYBIND11_VERSION_MINOR);
  m.def("list_json", [] { return pdex::list_json().dump(); }, "what `pdex list --json` prints");
  m.def("sweep", &pdex::sweep, py::arg("file"), py::arg("backend"), py::arg("precision"), py::arg("out"), py::arg("sets"),
        py::arg("params"));
  m.def("solve", &pdex::solve);
  py::class_<Simulation>(m, "Simulation")
      .def(py::init<const std::string&, std::optional<std::string>, std::optional<std::string>, std::optional<std::string>,
                    std::vector<std::string>>(),
           py::arg("file"), py::arg("backend"), py::arg("precision"), py::arg("out"), py::arg("sets"))
      .def("run_steps", &Simulation::run_steps, py::arg("steps"), py::arg("callback"), py::arg("every"))
      .def("run_until", &Simulation::run_until)
      .def("get", &Simulation::get)
      .def("set", &Simulation::set)
      .def("png", &Simulation::png)
      .def("dlpack", [](Simulation& s, const std::string& name, py::object owner) { return pdex::dlpack_capsule(s.memory(name), std::move(owner)); })
      .def("dlpack_device", [](Simulation& s, const std::string& name) {
        const pdex::FieldMemory lent = s.memory(name);
        return py::make_tuple(int(lent.device ? kDLCUDA : kDLCPU), pdex::device_ordinal(lent.device));
      })
      .def("array_interface", [](Simulation& s, const std::string& name) {
        const pdex::FieldMemory lent = s.memory(name);
        return py::make_tuple(lent.device, pdex::array_interface(lent));
      })
      .def("refresh", &Simulation::refresh)
      .def_property_readonly("step", [](Simulation& s) { return s.session().step(); })
      .def_property_readonly("time", [](Simulation& s) { return s.session().time(); })
      .def_property_readonly("fields", [](Simulation& s) { return s.session().stepper().field_names(); })
      .def_property_readonly("changes", [](Simulation& s) { return s.session().changes(); })
      .def("set_changes", [](Simulation& s, const std::map<std::string, std::string>& c) { s.session().set_changes(c); })
      .def("params_json", [](Simulation& s) { return s.session().config().resolved["model"]["params"].dump(); })
      .def("summary_json", [](Simulation& s) { return s.session().summary().dump(); })
      .def("save_config", [](Simulation& s, const std::string& dir) { return s.session().save_config(dir, "pdex (Python)"); });
}
