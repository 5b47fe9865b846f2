#include "pdex/app/output_writer.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include "pdex/app/field_copy.hpp"
#include "pdex/core/error.hpp"
#include "pdex/core/format.hpp"
#include "pdex/core/memory_stats.hpp"
#include "pdex/io/atomic_file.hpp"
#include "pdex/io/hdf5_series.hpp"
#include "pdex/io/movie.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/io/png_writer.hpp"
#include "pdex/io/section.hpp"
#include "pdex/io/shading.hpp"
#include "pdex/io/vtk.hpp"

namespace pdex {

namespace fs = std::filesystem;

namespace {

bool wants(const OutputConfig& o, const char* format) {
  return std::find(o.formats.begin(), o.formats.end(), format) != o.formats.end();
}

io::ImageGrid image_grid(const Grid2& g) { return {g.nx, g.ny, g.x0, g.y0, g.dx, g.dy, g.nz, g.z0, g.dz}; }

// The pictures of a field: the field itself on a 2D grid, drawn from its rows; its sections (`tag` names
// each) on a 3D one.
struct Picture {
  std::string tag;
  io::SectionPicture section;  // 3D: the section's values
  io::NamedValues shown;       // the rows drawn: the field's, or the section's values
  int width = 0, height = 0;
};
std::vector<Picture> pictures(const OutputConfig& o, const Grid2& g, const FieldCopy& field) {
  std::vector<Picture> out;
  if (!g.is_3d()) out.push_back({"", {}, field.view(), g.nx, g.ny});
  for (const io::Section& s : o.sections) {  // none on a 2D grid
    Picture& p = out.emplace_back(Picture{s.tag(), io::section_of(field.view(), g.nx, g.ny, g.nz, s), {}, 0, 0});
    p.shown = {field.name, std::span<const double>(p.section.values)};
    p.width = p.section.width, p.height = p.section.height;
  }
  return out;
}
// A picture's file stem: the field's, and the section's tag in 3D.
std::string picture_stem(const std::string& stem, const std::string& tag) { return tag.empty() ? stem : stem + "_" + tag; }

}  // namespace

// One thread that runs the queued writes in order. A write that fails skips the rest; its error is
// thrown by the next post() or drain().
class OutputWriter::Queue {
 public:
  explicit Queue(std::size_t max_waiting) : max_waiting_(max_waiting), thread_([this] { loop(); }) {}
  ~Queue() {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  // Waits while max_waiting writes wait already (each holds a copy of the fields).
  void post(std::function<void()> job) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return jobs_.size() < max_waiting_ || error_; });
    rethrow(lock);
    jobs_.push_back(std::move(job));
    cv_.notify_all();
  }
  void drain() {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return (jobs_.empty() && !busy_) || error_; });
    rethrow(lock);
  }

 private:
  void rethrow(std::unique_lock<std::mutex>&) {
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }
  void loop() {
    std::unique_lock lock(m_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      busy_ = true;
      lock.unlock();
      std::exception_ptr failed;
      try {
        job();
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      busy_ = false;
      if (failed) error_ = failed, jobs_.clear();
      cv_.notify_all();
    }
  }

  std::size_t max_waiting_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stop_ = false, busy_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

struct OutputWriter::Snapshot {
  int64_t step = 0;
  double time = 0;
  std::string tag;
  std::vector<FieldCopy> fields;
};

struct OutputWriter::Series {
  std::string suffix;  // "" or "_from_<step>" (a restarted run)
  std::unique_ptr<io::PvdSeries> pvd;
  std::unique_ptr<io::Hdf5Series> h5;
  std::vector<std::unique_ptr<io::MovieWriter>> movies;
};

OutputWriter::OutputWriter(const RunConfig& rc)
    : rc_(rc), dir_(rc.output.dir), params_(rc.setup->varying_params()), series_(std::make_unique<Series>()),
      queue_(std::make_unique<Queue>(2)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw Error("cannot create the output folder '" + dir_ + "': " + ec.message());
  for (const fs::path& d : {fs::path(dir_), fs::path(dir_) / "checkpoints"}) io::remove_stale_partials(d);
  digits_ = std::max<int>(6, int(std::to_string(rc.clock().steps).size()));
  io::parse_colormap(rc.output.colormap);  // fail before the run, not at the first picture
  if (wants(rc.output, "movie") && !io::ffmpeg_available())
    throw InputError(rc.file + ": key 'output.formats': \"movie\" needs ffmpeg, which was not found on PATH; install it (apt-get install ffmpeg)");
}

OutputWriter::~OutputWriter() {
  try {
    queue_->drain();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pdex: an output could not be written: %s\n", e.what());
  }
}

void OutputWriter::continue_from(int64_t step) { series_->suffix = "_from_" + std::to_string(step); }

std::vector<std::string> OutputWriter::write(Stepper& stepper, int64_t step, double time) {
  const OutputConfig& o = rc_.output;
  auto snap = std::make_shared<Snapshot>();
  snap->step = step, snap->time = time;
  snap->tag = std::to_string(step);
  snap->tag.insert(0, std::size_t(std::max(0, digits_ - int(snap->tag.size()))), '0');
  if (o.formats.empty()) return {};
  std::vector<int> fields;
  const auto& names = stepper.field_names();
  for (std::size_t f = 0; f < names.size(); ++f)
    if (std::find(o.fields.begin(), o.fields.end(), names[f]) != o.fields.end()) fields.push_back(int(f));
  const bool by_ranks = write_by_ranks(stepper, fields, step, time);
  if (by_ranks && o.formats.size() == 1) return {};
  const bool background = in_background(stepper, fields);
  for (const int f : fields)
    snap->fields.push_back(background ? copy_field(stepper, f, buffers_) : field_in_place(stepper, f, buffers_));

  std::vector<std::string> files;
  const fs::path dir(dir_);
  for (const FieldCopy& c : snap->fields)
    for (const std::string& fmt : o.formats) {
      const std::string stem = (dir / (c.name + "_" + snap->tag)).string();
      if (fmt == "npy") files.push_back(stem + ".npy");
      if (fmt == "png" && o.sections.empty()) files.push_back(stem + ".png");
      if (fmt == "png")
        for (const io::Section& s : o.sections) files.push_back(picture_stem(stem, s.tag()) + ".png");
    }
  if (wants(o, "vtk")) files.push_back((dir / ("fields_" + snap->tag + ".vti")).string());
  if (background) {
    queue_->post([this, snap] { write_snapshot(*snap); });
  } else {
    write_snapshot(*snap);
    ++waited_;
  }
  return files;
}

// Whether this output's copy can be written while the run goes on: output.background = "auto" and host
// memory has room for the copy twice over, or the copy buffers of earlier outputs hold it (waiting for
// the queued writes to give theirs back). Otherwise the run waits for the files, which are written from
// the stepper's own host memory or from one copy.
bool OutputWriter::in_background(Stepper& stepper, const std::vector<int>& fields) {
  std::size_t bytes = 0;
  for (const int f : fields) bytes += copy_bytes(stepper, f);
  if (rc_.output.background && (buffers_.kept_bytes() >= bytes || room_for_copy(MemorySpace::host, bytes))) return true;
  queue_->drain();  // the queued writes give their buffers back, and no write runs beside the run's own
  return rc_.output.background && buffers_.kept_bytes() >= bytes;
}

// Over ranks with parallel HDF5: every rank writes its block of `fields` into the HDF5 file, opened at
// the run's first output. Returns whether they did (otherwise the background thread writes the file).
bool OutputWriter::write_by_ranks(Stepper& stepper, const std::vector<int>& fields, int64_t step, double time) {
  if (!wants(rc_.output, "hdf5")) return false;
  if (!std::exchange(ranks_asked_, true)) {
    Hdf5Opening opening{run_file("fields", ".h5"), image_grid(rc_.grid()),
                        rc_.precision == Precision::f32 ? io::StoreAs::f32 : io::StoreAs::f64, rc_.resolved.dump(), {}};
    for (const auto& [name, cells] : params_) opening.params.push_back({name, std::span<const double>(cells)});
    ranks_h5_ = ranks_hdf5(stepper, opening);
  }
  if (!ranks_h5_) return false;
  ranks_h5_->write(step, time, fields);
  return true;
}

std::string OutputWriter::run_file(const std::string& stem, const std::string& extension) const {
  return (fs::path(dir_) / (stem + series_->suffix + extension)).string();
}

nlohmann::json OutputWriter::run_files() const {
  const OutputConfig& o = rc_.output;
  nlohmann::json j = nlohmann::json::object();
  if (wants(o, "vtk")) j["pvd"] = run_file("fields", ".pvd");
  if (wants(o, "hdf5")) j["hdf5"] = run_file("fields", ".h5"), j["xdmf"] = run_file("fields", ".xmf");
  if (wants(o, "movie"))
    for (const std::string& f : o.movie_formats) j["movie"].push_back(run_file(o.movie_field, "." + f));
  return j;
}

void OutputWriter::write_picture(const std::string& stem, const FieldCopy& field) const {
  const OutputConfig& o = rc_.output;
  const std::string& name = field.name;
  const io::Colormap cmap = io::parse_colormap(o.colormap);
  for (const Picture& p : pictures(o, rc_.grid(), field)) {
    const std::string file = picture_stem(stem, p.tag) + ".png";
    const io::ImageGrid shape{p.width, p.height};
    if (o.relief > 0)
      io::write_png(file, io::height_shade(io::row_major(p.shown, shape), p.width, p.height, o.relief), p.width, p.height, cmap,
                    io::ColorRange{false, 0.0, 1.0}, o.scale);
    else
      io::write_png(file, p.shown, p.width, p.height, cmap, io::ColorRange{o.auto_range, o.range_min, o.range_max},
                    io::FrameDecor{o.scale, o.colorbar, o.colorbar ? name + (p.tag.empty() ? "" : " " + p.tag) : ""});
  }
}

// A frame of the movie field (of its first section, in 3D) in each movie format; the movies start with the
// first frame.
void OutputWriter::add_frame(const Snapshot& snap, const FieldCopy& copy) {
  const OutputConfig& o = rc_.output;
  const std::string& field = copy.name;
  const std::vector<Picture> all = pictures(o, rc_.grid(), copy);
  const Picture& p = all.front();
  const std::string where = run_file(field, "");
  const io::FrameDecor decor{o.scale, true, field + "   t = " + format_number(snap.time)};
  if (series_->movies.empty()) {
    const io::FrameLayout size = io::frame_layout(p.width, p.height, decor, where);
    for (const std::string& f : o.movie_formats)
      series_->movies.push_back(std::make_unique<io::MovieWriter>(run_file(field, "." + f), size.width, size.height, o.movie_fps));
  }
  const io::ColorScale colors(p.shown, p.width, p.height, io::parse_colormap(o.colormap), io::ColorRange{o.auto_range, o.range_min, o.range_max}, where);
  const io::Image frame = io::render_field(p.shown, p.width, p.height, colors, decor, where);
  for (auto& m : series_->movies) m->add_frame(frame);
}

// Every file of one output (in the background thread, or in the run's while it waits). Pictures take
// doubles (a 2D field's, a 3D field's sections); the data files take the rows as they are.
void OutputWriter::write_snapshot(Snapshot& snap) {
  const OutputConfig& o = rc_.output;
  const fs::path dir(dir_);
  const io::StoreAs store = rc_.precision == Precision::f32 ? io::StoreAs::f32 : io::StoreAs::f64;
  const io::ImageGrid grid = image_grid(rc_.grid());
  std::vector<io::NamedValues> named;
  for (const FieldCopy& c : snap.fields) {
    const std::string stem = (dir / (c.name + "_" + snap.tag)).string();
    named.push_back(c.view());
    if (wants(o, "npy")) io::write_npy(stem + ".npy", named.back(), grid, store);
    if (wants(o, "png")) write_picture(stem, c);
    if (wants(o, "movie") && c.name == o.movie_field) add_frame(snap, c);
  }
  std::vector<io::NamedValues> params;
  for (const auto& [name, cells] : params_) params.push_back({name, std::span<const double>(cells)});
  if (wants(o, "vtk")) {
    std::vector<io::NamedValues> with_params = named;
    with_params.insert(with_params.end(), params.begin(), params.end());
    const std::string file = "fields_" + snap.tag + ".vti";
    io::write_vti(dir / file, grid, with_params, store);
    if (!series_->pvd) series_->pvd = std::make_unique<io::PvdSeries>(run_file("fields", ".pvd"));
    series_->pvd->add(snap.time, file);
  }
  if (wants(o, "hdf5") && !ranks_h5_) {
    if (!series_->h5) {
      series_->h5 = std::make_unique<io::Hdf5Series>(run_file("fields", ".h5"), grid, store);
      series_->h5->set_attribute("config", rc_.resolved.dump());
      series_->h5->write_params(params);
    }
    series_->h5->write(snap.step, snap.time, named);
  }
  for (FieldCopy& c : snap.fields) buffers_.give(std::move(c.rows));
}

void OutputWriter::close(const nlohmann::json& summary) {
  queue_->drain();
  Series& s = *series_;
  if (ranks_h5_) std::exchange(ranks_h5_, nullptr)->close(summary.dump());
  if (s.h5) {
    s.h5->set_attribute("summary", summary.dump());
    s.h5->close();
  }
  for (auto& m : s.movies)
    if (m->frames() > 0) m->close();
}

}  // namespace pdex
