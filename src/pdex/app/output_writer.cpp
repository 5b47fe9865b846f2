#include "pdex/app/output_writer.hpp"

#include <filesystem>
#include <system_error>

#include "pdex/core/error.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/io/png_writer.hpp"
#include "pdex/io/shading.hpp"

namespace pdex {

OutputWriter::OutputWriter(const RunConfig& rc) : rc_(rc), dir_(rc.output.dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw Error("cannot create the output folder '" + dir_ + "': " + ec.message());
  digits_ = std::max<int>(6, int(std::to_string(rc.clock().steps).size()));
  io::parse_colormap(rc.output.colormap);  // fail before the run, not at the first picture
}

std::vector<std::string> OutputWriter::write(Stepper& stepper, int64_t step) {
  const OutputConfig& o = rc_.output;
  const Grid2& g = rc_.grid();
  const auto& names = stepper.field_names();
  std::string tag = std::to_string(step);
  tag.insert(0, std::size_t(std::max(0, digits_ - int(tag.size()))), '0');
  std::vector<std::string> written;
  for (std::size_t f = 0; f < names.size(); ++f) {
    if (std::find(o.fields.begin(), o.fields.end(), names[f]) == o.fields.end()) continue;
    const std::vector<double> values = stepper.values(int(f));
    const std::string stem = (std::filesystem::path(dir_) / (names[f] + "_" + tag)).string();
    for (const auto& fmt : o.formats) {
      if (fmt == "png") {
        if (o.relief > 0)
          io::write_png(stem + ".png", io::height_shade(values, g.nx, g.ny, o.relief), g.nx, g.ny,
                        io::parse_colormap(o.colormap), io::ColorRange{false, 0.0, 1.0}, o.scale);
        else
          io::write_png(stem + ".png", values, g.nx, g.ny, io::parse_colormap(o.colormap),
                        io::ColorRange{o.auto_range, o.range_min, o.range_max}, o.scale);
      } else if (rc_.precision == Precision::f32) {
        std::vector<float> single(values.begin(), values.end());  // exact: the values were float
        io::write_npy(stem + ".npy", single.data(), g.extents().shape());
      } else {
        io::write_npy(stem + ".npy", values.data(), g.extents().shape());
      }
      written.push_back(stem + "." + fmt);
    }
  }
  return written;
}

}  // namespace pdex
