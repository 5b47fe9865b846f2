#include "pdex/io/vtk.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "pdex/io/atomic_file.hpp"

namespace pdex::io {

// The appended values are the host's bytes, and the header says LittleEndian.
static_assert(std::endian::native == std::endian::little, "VTK output assumes a little-endian host");

namespace {

std::uint64_t array_bytes(const ImageGrid& g, StoreAs store) {
  return std::uint64_t(g.nx) * g.rows() * (store == StoreAs::f32 ? sizeof(float) : sizeof(double));
}

std::string vti_header(const ImageGrid& g, std::span<const NamedValues> fields, StoreAs store) {
  const std::string extent = "0 " + std::to_string(g.nx - 1) + " 0 " + std::to_string(g.ny - 1) + " 0 " + std::to_string(g.nz - 1);
  const bool flat = g.nz == 1;
  std::string h = "<?xml version=\"1.0\"?>\n"
                  "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  h += "  <ImageData WholeExtent=\"" + extent + "\" Origin=\"" + xml_number(g.x0 + 0.5 * g.dx) + " " +
       xml_number(g.y0 + 0.5 * g.dy) + " " + (flat ? "0" : xml_number(g.z0 + 0.5 * g.dz)) + "\" Spacing=\"" + xml_number(g.dx) +
       " " + xml_number(g.dy) + " " + (flat ? "1" : xml_number(g.dz)) + "\">\n";
  h += "    <Piece Extent=\"" + extent + "\">\n      <PointData>\n";
  const char* type = store == StoreAs::f32 ? "Float32" : "Float64";
  std::uint64_t offset = 0;
  for (const NamedValues& f : fields) {
    h += std::string("        <DataArray type=\"") + type + "\" Name=\"" + xml_escaped(f.name) +
         "\" format=\"appended\" offset=\"" + std::to_string(offset) + "\"/>\n";
    offset += sizeof(std::uint64_t) + array_bytes(g, store);
  }
  h += "      </PointData>\n    </Piece>\n  </ImageData>\n  <AppendedData encoding=\"raw\">\n   _";
  return h;
}

// One appended array: its byte count, then its values.
template <class T>
bool write_array(std::FILE* out, const NamedValues& f, const ImageGrid& g) {
  const std::uint64_t bytes = std::uint64_t(g.nx) * g.rows() * sizeof(T);
  if (std::fwrite(&bytes, sizeof bytes, 1, out) != 1) return false;
  return for_each_block<T>(f, g, [&](const T* values, std::size_t, std::size_t rows) {
    const std::size_t n = rows * std::size_t(g.nx);
    return std::fwrite(values, sizeof(T), n, out) == n;
  });
}

std::string pvd_text(const std::vector<std::pair<double, std::string>>& datasets) {
  std::string t = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
                  "  <Collection>\n";
  for (const auto& [time, file] : datasets)
    t += "    <DataSet timestep=\"" + xml_number(time) + "\" group=\"\" part=\"0\" file=\"" + xml_escaped(file) + "\"/>\n";
  return t + "  </Collection>\n</VTKFile>\n";
}

}  // namespace

void write_vti(const std::filesystem::path& file, const ImageGrid& grid, std::span<const NamedValues> fields,
               StoreAs store) {
  check_fields(file, grid, fields);
  const std::string header = vti_header(grid, fields, store);
  static constexpr char footer[] = "\n  </AppendedData>\n</VTKFile>\n";
  AtomicFile out(file);
  bool ok = std::fwrite(header.data(), 1, header.size(), out.get()) == header.size();
  for (const NamedValues& f : fields)
    ok = ok && (store == StoreAs::f32 ? write_array<float>(out.get(), f, grid) : write_array<double>(out.get(), f, grid));
  ok = ok && std::fputs(footer, out.get()) >= 0;
  out.commit(ok ? "" : std::strerror(errno));
}

PvdSeries::PvdSeries(std::filesystem::path file) : file_(std::move(file)) {}

void PvdSeries::add(double time, const std::string& dataset_file) {
  datasets_.emplace_back(time, dataset_file);
  write_text_file(file_, pvd_text(datasets_));
}

}  // namespace pdex::io
