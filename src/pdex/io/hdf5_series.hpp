#pragma once
// A run's fields as one HDF5 file, with an XDMF file beside it that ParaView and VisIt open as a time
// series. Layout (docs/outputs.md):
//   /                       attributes nx, ny (int64), dx, dy, x0, y0 (double) (and nz, dz, z0 on a 3D
//                           grid), and set_attribute's texts
//   /steps/0000001000/      attributes step (int64), time (double)
//   /steps/0000001000/<f>   one dataset per field, shape [ny, nx] ([y][x], as the .npy files), or
//                           [nz, ny, nx] on a 3D grid, contiguous, float32 or float64
//   /params/<p>             the spatially varying parameters (write_params), as the fields
// The run writes "<file>.<pid>.partial", flushed after each step so that it can be read as the run goes;
// close() renames it to `file` and writes "<stem>.xmf". HDF5 failures throw Error naming the file.
// Host-only and single-threaded: Debian's libhdf5 is built without thread safety.
// Over MPI ranks (`ranks`, where the library has MPI-IO: writes_over_ranks()), every rank of the run
// opens the file and makes every call alike (the groups, datasets and attributes are made collectively),
// each writing its block's values into the datasets: no rank holds the whole grid.
#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "pdex/io/field_files.hpp"

namespace pdex::io {

struct Hdf5Ranks;  // hdf5_ranks.hpp

// Whether this HDF5 library writes one file from several MPI ranks (built with MPI-IO: Debian's
// libhdf5-openmpi-dev).
bool writes_over_ranks();

// The cells [first, first + count) of the whole grid, along x, y and z, whose values a rank writes.
struct GridBox {
  std::array<int, 3> first{}, count{};
  bool empty() const { return count[0] <= 0 || count[1] <= 0 || count[2] <= 0; }
};

class Hdf5Series {
 public:
  // Creates the partial file and writes the grid's attributes; with `ranks` (which must outlive the
  // series), on every rank alike, each later call too.
  Hdf5Series(std::filesystem::path file, ImageGrid grid, StoreAs store, const Hdf5Ranks* ranks = nullptr);
  // Closes as close() does (a failed run keeps what it wrote); never throws: a failure is a warning on stderr.
  ~Hdf5Series();
  Hdf5Series(const Hdf5Series&) = delete;
  Hdf5Series& operator=(const Hdf5Series&) = delete;

  // Writes the group /steps/<step, 10 digits> with `fields`, then flushes the file. Over ranks, the
  // fields' values are those of the rank's `box` (null: the whole grid), in its rows.
  void write(std::int64_t step, double time, std::span<const NamedValues> fields, const GridBox* box = nullptr);
  // The run's spatially varying parameters, once, as /params/<name>; the XDMF file lists them with
  // every step. Before the first write(). Over ranks, as write() (a rank may give an empty box).
  void write_params(std::span<const NamedValues> params, const GridBox* box = nullptr);
  // A text attribute of the root group (UTF-8, variable length), replacing one of the same name.
  void set_attribute(const std::string& name, const std::string& text);
  // Closes the file, renames it into place and writes the XDMF file; later calls do nothing.
  void close();
  const std::filesystem::path& file() const { return file_; }

 private:
  struct Step {
    std::string tag;
    double time;
    std::vector<std::string> fields;
  };
  std::int64_t open_file() const;  // the HDF5 file id, or throws once closed
  // The datasets of `fields` in `group`, each with its values of `box` (or the whole grid's).
  void write_fields(std::int64_t group, std::span<const NamedValues> fields, const GridBox* box);
  void write_values(std::int64_t dataset, const NamedValues& field, const GridBox& box);
  std::string xdmf_attribute(const std::string& name, const std::string& dataset) const;
  std::string xdmf_text() const;

  std::filesystem::path file_, partial_;
  ImageGrid grid_;
  StoreAs store_;
  const Hdf5Ranks* ranks_;
  bool leader_;  // renames the file and writes the XDMF: the only process, or rank 0
  std::int64_t h5_ = -1;  // hid_t, kept out of this header
  std::vector<Step> steps_;
  std::vector<std::string> params_;
};

}  // namespace pdex::io
