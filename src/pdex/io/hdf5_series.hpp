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
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "pdex/io/field_files.hpp"

namespace pdex::io {

class Hdf5Series {
 public:
  // Creates the partial file and writes the grid's attributes.
  Hdf5Series(std::filesystem::path file, ImageGrid grid, StoreAs store);
  // Closes as close() does (a failed run keeps what it wrote); never throws: a failure is a warning on stderr.
  ~Hdf5Series();
  Hdf5Series(const Hdf5Series&) = delete;
  Hdf5Series& operator=(const Hdf5Series&) = delete;

  // Writes the group /steps/<step, 10 digits> with `fields`, then flushes the file.
  void write(std::int64_t step, double time, std::span<const NamedValues> fields);
  // The run's spatially varying parameters, once, as /params/<name>; the XDMF file lists them with
  // every step. Before the first write().
  void write_params(std::span<const NamedValues> params);
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
  void write_field(std::int64_t group, const NamedValues& field);
  std::string xdmf_attribute(const std::string& name, const std::string& dataset) const;
  std::string xdmf_text() const;

  std::filesystem::path file_, partial_;
  ImageGrid grid_;
  StoreAs store_;
  std::int64_t h5_ = -1;  // hid_t, kept out of this header
  std::vector<Step> steps_;
  std::vector<std::string> params_;
};

}  // namespace pdex::io
