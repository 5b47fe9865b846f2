#pragma once
// VTK XML files for ParaView and VisIt: one ImageData file (.vti) per output and a .pvd collection that
// lists them with their times, so that ParaView opens a run as one time series.
//
// A field's values are PointData at the cell centres: the image's points are the cell centres, so its
// Origin is the first cell's centre (x0 + dx/2, y0 + dy/2) and its extent 0..nx-1 x 0..ny-1, and
// ParaView shows each value where the solver has it (the image ends half a cell inside the domain).
// The values follow the XML header as raw appended binary (a UInt64 byte count, then the values,
// little-endian), so that writing a large field costs about a copy to disk.
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "pdex/io/field_files.hpp"

namespace pdex::io {

// Writes `fields` on `grid` as `file` (written whole or not at all, io::AtomicFile); values as
// Float32 or Float64 as `store` says. Throws Error naming the file.
void write_vti(const std::filesystem::path& file, const ImageGrid& grid, std::span<const NamedValues> fields,
               StoreAs store);

// A .pvd collection, rewritten whole after each add so that it is valid after every output.
class PvdSeries {
 public:
  explicit PvdSeries(std::filesystem::path file);
  // Lists `dataset_file` (a path relative to the .pvd's folder) at `time`, then rewrites the .pvd.
  void add(double time, const std::string& dataset_file);

 private:
  std::filesystem::path file_;
  std::vector<std::pair<double, std::string>> datasets_;
};

}  // namespace pdex::io
