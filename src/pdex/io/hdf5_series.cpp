#include "pdex/io/hdf5_series.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <exception>
#include <functional>
#include <system_error>
#include <type_traits>
#include <utility>

#include "pdex/core/error.hpp"
#include "pdex/io/atomic_file.hpp"
#ifdef H5_HAVE_PARALLEL
#include "pdex/io/hdf5_ranks.hpp"
#endif

namespace pdex::io {

bool writes_over_ranks() {
#ifdef H5_HAVE_PARALLEL
  return true;
#else
  return false;
#endif
}

static_assert(std::is_same_v<hid_t, std::int64_t>, "the header keeps hid_t as int64_t (HDF5 1.10 and later)");

namespace {

using std::filesystem::path;

// HDF5's innermost error message; the file driver's holds the system's reason (a full disk) as
// "error message = '...'", and that part alone is clearer.
std::string hdf5_reason() {
  std::string deepest;
  auto keep_last = [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
    if (e->desc && *e->desc) *static_cast<std::string*>(out) = e->desc;
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, keep_last, &deepest);
  H5Eclear2(H5E_DEFAULT);
  const std::string marker = "error message = '";
  const auto at = deepest.find(marker);
  if (at == std::string::npos) return deepest.empty() ? "no reason given" : deepest;
  const auto begin = at + marker.size();
  return deepest.substr(begin, deepest.find('\'', begin) - begin);
}

[[noreturn]] void fail(const path& file, const std::string& what) {
  throw Error(file.string() + ": " + what + " failed (" + hdf5_reason() + ")");
}

void check(herr_t status, const path& file, const std::string& what) {
  if (status < 0) fail(file, what);
}

// An HDF5 object id, closed when it goes out of scope.
class Id {
 public:
  Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Id() { close_(id_); }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

Id opened(hid_t id, herr_t (*close)(hid_t), const path& file, const std::string& what) {
  if (id < 0) fail(file, what);
  return Id(id, close);
}

void write_attribute(hid_t object, const std::string& name, hid_t type, const void* value, const path& file) {
  const Id space = opened(H5Screate(H5S_SCALAR), H5Sclose, file, "creating a dataspace");
  const Id attribute = opened(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, file,
                              "creating attribute " + name);
  check(H5Awrite(attribute, type, value), file, "writing attribute " + name);
}

// The grid's attributes; those of z (nz, dz, z0) on a 3D grid only.
void write_grid_attributes(hid_t h5, const ImageGrid& g, const path& file) {
  const auto wanted = [&](const char* name) { return g.nz > 1 || std::strchr(name, 'z') == nullptr; };
  for (const auto& [name, n] : {std::pair{"nx", g.nx}, std::pair{"ny", g.ny}, std::pair{"nz", g.nz}}) {
    const std::int64_t value = n;
    if (wanted(name)) write_attribute(h5, name, H5T_NATIVE_INT64, &value, file);
  }
  for (const auto& [name, value] : {std::pair{"dx", g.dx}, std::pair{"dy", g.dy}, std::pair{"dz", g.dz}, std::pair{"x0", g.x0},
                                    std::pair{"y0", g.y0}, std::pair{"z0", g.z0}})
    if (wanted(name)) write_attribute(h5, name, H5T_NATIVE_DOUBLE, &value, file);
}

// A dataset's shape: [ny, nx], or [nz, ny, nx] in 3D (the .npy files' order).
int shape_of(const ImageGrid& g, hsize_t* dims) {
  const hsize_t n[3] = {static_cast<hsize_t>(g.nz), static_cast<hsize_t>(g.ny), static_cast<hsize_t>(g.nx)};
  const int rank = g.nz > 1 ? 3 : 2;
  std::copy(n + 3 - rank, n + 3, dims);
  return rank;
}

// The grid of a box's cells, as its values' rows lie.
ImageGrid part_grid(const ImageGrid& whole, const GridBox& box) {
  ImageGrid part = whole;
  part.nx = box.count[0], part.ny = box.count[1], part.nz = box.count[2];
  return part;
}

// The field's rows (those of `box`), each block written to its hyperslabs of the dataset, a plane's rows
// at a time.
template <class T>
void write_rows(hid_t dataset, hid_t memory_type, const ImageGrid& whole, const GridBox& box, const NamedValues& f,
                const path& file) {
  const Id file_space = opened(H5Dget_space(dataset), H5Sclose, file, "getting the dataspace of " + f.name);
  const int rank = whole.nz > 1 ? 3 : 2;
  const ImageGrid part = part_grid(whole, box);
  const std::size_t ny = static_cast<std::size_t>(part.ny), nx = static_cast<std::size_t>(part.nx);
  for_each_block<T>(f, part, [&](const T* values, std::size_t y, std::size_t rows) {
    for (std::size_t done = 0; done < rows;) {
      // Whole planes at once where the block has them, else the rows left in the plane.
      const std::size_t r = y + done, k = r / ny, j = r % ny, planes = j == 0 ? (rows - done) / ny : 0;
      const std::size_t n = planes > 0 ? planes * ny : std::min(rows - done, ny - j);
      const hsize_t start3[3] = {box.first[2] + k, box.first[1] + j, static_cast<hsize_t>(box.first[0])};
      const hsize_t count3[3] = {planes > 0 ? planes : 1, planes > 0 ? ny : n, nx};
      const hsize_t* start = start3 + 3 - rank;
      const hsize_t* count = count3 + 3 - rank;
      const Id memory = opened(H5Screate_simple(rank, count, nullptr), H5Sclose, file, "creating a dataspace");
      check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr), file, "selecting rows of " + f.name);
      check(H5Dwrite(dataset, memory_type, memory, file_space, H5P_DEFAULT, values + done * nx), file, "writing " + f.name);
      done += n;
    }
    return true;
  });
}

// Runs `local`, a rank's own part of a collective step; over ranks, it throws on every rank where it threw
// on any, so that all leave the collective calls together.
void on_every_rank([[maybe_unused]] const Hdf5Ranks* ranks, [[maybe_unused]] const path& file,
                   const std::function<void()>& local) {
#ifdef H5_HAVE_PARALLEL
  if (ranks) {
    if (!ranks->all_ok(local)) throw Error(file.string() + ": the HDF5 file failed on another rank");
    return;
  }
#endif
  local();
}

// Rank 0 of the ranks, or the only process.
bool is_leader([[maybe_unused]] const Hdf5Ranks* ranks) {
  int rank = 0;
#ifdef H5_HAVE_PARALLEL
  if (ranks) MPI_Comm_rank(ranks->comm, &rank);
#endif
  return rank == 0;
}

// The partial file's name, with the leader's process id on every rank.
path partial_name(const path& file, [[maybe_unused]] const Hdf5Ranks* ranks) {
  int pid = ::getpid();
#ifdef H5_HAVE_PARALLEL
  if (ranks) MPI_Bcast(&pid, 1, MPI_INT, 0, ranks->comm);
#endif
  return file.string() + "." + std::to_string(pid) + ".partial";
}

// File access over the ranks' communicator (MPI-IO), where there are ranks.
void share_access([[maybe_unused]] hid_t access, const Hdf5Ranks* ranks, const path& file) {
  if (!ranks) return;
#ifdef H5_HAVE_PARALLEL
  check(H5Pset_fapl_mpio(access, ranks->comm, MPI_INFO_NULL), file, "opening the file for MPI-IO");
#else
  throw Error(file.string() + ": this HDF5 library has no MPI-IO: the ranks cannot write one file");
#endif
}

path xdmf_file(const path& h5) { return h5.parent_path() / (h5.stem().string() + ".xmf"); }

}  // namespace

Hdf5Series::Hdf5Series(path file, ImageGrid grid, StoreAs store, const Hdf5Ranks* ranks)
    : file_(std::move(file)), partial_(partial_name(file_, ranks)), grid_(grid), store_(store), ranks_(ranks),
      leader_(is_leader(ranks)) {
  check_fields(file_, grid_, {});
  // A file whose close failed (a full disk) makes HDF5's clean-up at exit crash; each series closes its
  // own file instead. Must come before any other HDF5 call; a later call changes nothing.
  H5dont_atexit();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5's errors become exceptions here, not text on stderr
  const Id access = opened(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, file_, "creating file access properties");
  // HDF5 locks a file for as long as a writer holds it open, and h5py could not read the partial file
  // while the run goes; each step is flushed whole instead.
  check(H5Pset_file_locking(access, false, true), file_, "turning file locking off");
  share_access(access, ranks_, file_);
  h5_ = H5Fcreate(partial_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access);
  if (h5_ < 0) fail(file_, "creating " + partial_.string());
  try {
    write_grid_attributes(h5_, grid_, file_);
    opened(H5Gcreate2(h5_, "steps", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, file_, "creating group /steps");
    check(H5Fflush(h5_, H5F_SCOPE_LOCAL), file_, "flushing the file");
  } catch (...) {
    H5Fclose(h5_);
    std::error_code ignored;
    if (leader_) std::filesystem::remove(partial_, ignored);
    throw;
  }
}

Hdf5Series::~Hdf5Series() {
  try {
    close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pdex: warning: %s\n", e.what());
  }
}

std::int64_t Hdf5Series::open_file() const {
  if (h5_ < 0) throw Error(file_.string() + ": the HDF5 file is closed already");
  return h5_;
}

void Hdf5Series::write(std::int64_t step, double time, std::span<const NamedValues> fields, const GridBox* box) {
  const hid_t h5 = open_file();
  char tag[24];
  std::snprintf(tag, sizeof tag, "%010lld", static_cast<long long>(step));
  const std::string group_path = std::string("steps/") + tag;
  if (H5Lexists(h5, group_path.c_str(), H5P_DEFAULT) > 0)
    throw Error(file_.string() + ": step " + std::to_string(step) + " is written already");
  const Id group = opened(H5Gcreate2(h5, group_path.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, file_,
                          "creating group /" + group_path);
  write_attribute(group, "step", H5T_NATIVE_INT64, &step, file_);
  write_attribute(group, "time", H5T_NATIVE_DOUBLE, &time, file_);
  Step written{tag, time, {}};
  write_fields(group, fields, box);
  for (const NamedValues& f : fields) written.fields.push_back(f.name);
  check(H5Fflush(h5, H5F_SCOPE_LOCAL), file_, "flushing step " + std::to_string(step));
  steps_.push_back(std::move(written));
}

void Hdf5Series::write_fields(std::int64_t group, std::span<const NamedValues> fields, const GridBox* box) {
  const GridBox mine = box ? *box : GridBox{{0, 0, 0}, {grid_.nx, grid_.ny, grid_.nz}};
  on_every_rank(ranks_, file_, [&] {
    if (!mine.empty()) check_fields(file_, part_grid(grid_, mine), fields);
  });
  hsize_t dims[3];
  const int rank = shape_of(grid_, dims);
  const Id space = opened(H5Screate_simple(rank, dims, nullptr), H5Sclose, file_, "creating a dataspace");
  const Id properties = opened(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, file_, "creating dataset properties");
  // Every value is written: filling the dataset first would write it twice.
  check(H5Pset_fill_time(properties, H5D_FILL_TIME_NEVER), file_, "setting the fill time");
  const hid_t type = store_ == StoreAs::f32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  for (const NamedValues& field : fields) {
    const Id dataset = opened(H5Dcreate2(group, field.name.c_str(), type, space, H5P_DEFAULT, properties, H5P_DEFAULT),
                              H5Dclose, file_, "creating dataset " + field.name);
    on_every_rank(ranks_, file_, [&] {
      if (!mine.empty()) write_values(dataset, field, mine);
    });
  }
}

void Hdf5Series::write_values(std::int64_t dataset, const NamedValues& field, const GridBox& box) {
  if (store_ == StoreAs::f32)
    write_rows<float>(dataset, H5T_NATIVE_FLOAT, grid_, box, field, file_);
  else
    write_rows<double>(dataset, H5T_NATIVE_DOUBLE, grid_, box, field, file_);
}

void Hdf5Series::write_params(std::span<const NamedValues> params, const GridBox* box) {
  const hid_t h5 = open_file();
  if (!steps_.empty() || !params_.empty()) throw Error(file_.string() + ": the parameters go in before the first step, once");
  if (params.empty()) return;
  const Id group = opened(H5Gcreate2(h5, "params", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, file_, "creating group /params");
  write_fields(group, params, box);
  for (const NamedValues& p : params) params_.push_back(p.name);
  check(H5Fflush(h5, H5F_SCOPE_LOCAL), file_, "flushing the parameters");
}

void Hdf5Series::set_attribute(const std::string& name, const std::string& text) {
  const hid_t h5 = open_file();
  if (H5Aexists(h5, name.c_str()) > 0) check(H5Adelete(h5, name.c_str()), file_, "replacing attribute " + name);
  const Id type = opened(H5Tcopy(H5T_C_S1), H5Tclose, file_, "creating a string type");
  check(H5Tset_size(type, H5T_VARIABLE), file_, "creating a string type");
  check(H5Tset_cset(type, H5T_CSET_UTF8), file_, "creating a string type");
  const char* chars = text.c_str();
  write_attribute(h5, name, type, &chars, file_);
}

void Hdf5Series::close() {
  if (h5_ < 0) return;
  haddr_t end = 0;
  H5Fget_eoa(h5_, &end);
  const herr_t closed = H5Fclose(std::exchange(h5_, -1));
  const std::string why = closed < 0 ? hdf5_reason() : std::string();
  on_every_rank(ranks_, file_, [&] {  // over ranks also a barrier: every rank's writes are in before the rename
    if (closed >= 0) return;
    // The superblock may name an end of file that the data never reached (a full disk), and readers refuse
    // such a file as truncated; extended to that end (a hole: no disk space), it reads up to the last step.
    std::error_code ignored;
    if (leader_ && std::filesystem::file_size(partial_, ignored) < end) std::filesystem::resize_file(partial_, end, ignored);
    throw Error(file_.string() + ": closing the HDF5 file failed (" + why + "); what was written is in " +
                partial_.string());
  });
  if (!leader_) return;
  std::error_code ec;
  std::filesystem::rename(partial_, file_, ec);
  if (ec) throw Error(file_.string() + ": cannot rename " + partial_.string() + " into place (" + ec.message() + ")");
  write_text_file(xdmf_file(file_), xdmf_text());
}

// A temporal collection of 3DCoRectMesh grids, of one layer on a 2D grid: a 2DCoRectMesh lands in
// ParaView's y-z plane (vtkXdmf3DataSet::CopyShape), one layer of a 3D mesh in the x-y plane. XDMF lists
// dimensions and coordinates slowest first: z, y, x. The points are the cell centres, as in the .vti files.
std::string Hdf5Series::xdmf_text() const {
  const bool volume = grid_.nz > 1;
  const std::string dims = std::to_string(grid_.nz) + " " + std::to_string(grid_.ny) + " " + std::to_string(grid_.nx);
  const std::string geometry =
      "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
      "          <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">" +
      (volume ? xml_number(grid_.z0 + 0.5 * grid_.dz) : std::string("0")) + " " + xml_number(grid_.y0 + 0.5 * grid_.dy) +
      " " + xml_number(grid_.x0 + 0.5 * grid_.dx) +
      "</DataItem>\n"
      "          <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">" +
      (volume ? xml_number(grid_.dz) : std::string("1")) + " " + xml_number(grid_.dy) + " " + xml_number(grid_.dx) +
      "</DataItem>\n        </Geometry>\n";
  std::string t = "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"2.0\">\n  <Domain>\n"
                  "    <Grid Name=\"fields\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const Step& s : steps_) {
    t += "      <Grid Name=\"step " + s.tag + "\" GridType=\"Uniform\">\n        <Time Value=\"" + xml_number(s.time) +
         "\"/>\n        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" + dims + "\"/>\n" + geometry;
    for (const std::string& f : s.fields) t += xdmf_attribute(f, "/steps/" + s.tag + "/" + f);
    for (const std::string& p : params_) t += xdmf_attribute(p, "/params/" + p);
    t += "      </Grid>\n";
  }
  return t + "    </Grid>\n  </Domain>\n</Xdmf>\n";
}

std::string Hdf5Series::xdmf_attribute(const std::string& name, const std::string& dataset) const {
  const std::string dims = (grid_.nz > 1 ? std::to_string(grid_.nz) + " " : std::string()) + std::to_string(grid_.ny) + " " +
                           std::to_string(grid_.nx);
  const std::string precision = store_ == StoreAs::f32 ? "4" : "8";
  return "        <Attribute Name=\"" + xml_escaped(name) + "\" AttributeType=\"Scalar\" Center=\"Node\">\n"
         "          <DataItem Dimensions=\"" + dims + "\" NumberType=\"Float\" Precision=\"" + precision +
         "\" Format=\"HDF\">" + xml_escaped(file_.filename().string()) + ":" + xml_escaped(dataset) + "</DataItem>\n        </Attribute>\n";
}

}  // namespace pdex::io
