#include "pdex/mpi/block_service.hpp"

#include <chrono>
#include <limits>
#include <span>
#include <utility>

namespace pdex {

namespace {

enum ErrorKind : int { none = 0, error = 1, input = 2, numerical = 3 };

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
int size_of(MPI_Comm comm) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  return n;
}

// Rank 0's text on every rank.
void share_text(MPI_Comm comm, std::string& text) {
  int size = int(text.size());
  MPI_Bcast(&size, 1, MPI_INT, 0, comm);
  text.resize(std::size_t(size));
  MPI_Bcast(text.data(), size, MPI_CHAR, 0, comm);
}

[[noreturn]] void rethrow(int kind, const std::string& what) {
  if (kind == input) throw InputError(what);
  if (kind == numerical) throw NumericalError(what);
  throw Error(what);
}

}  // namespace

bool all_ranks_ok(MPI_Comm comm, const std::function<void()>& local) {
  const int rank = rank_of(comm), size = size_of(comm);
  int kind = none;
  std::string what;
  try {
    local();
  } catch (const NumericalError& e) {
    kind = numerical, what = e.what();
  } catch (const InputError& e) {
    kind = input, what = e.what();
  } catch (const std::exception& e) {
    kind = error, what = e.what();
  }
  int first = kind == none ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return true;
  int head[2] = {kind, int(what.size())};
  MPI_Bcast(head, 2, MPI_INT, first, comm);
  what.resize(std::size_t(head[1]));
  MPI_Bcast(what.data(), head[1], MPI_CHAR, first, comm);
  if (rank == 0) rethrow(head[0], first == 0 ? what : "rank " + std::to_string(first) + ": " + what);
  return false;
}

BlockService::BlockService(MPI_Comm comm, const Extents2& whole, const ProcessGrid& pg, BlockRun run)
    : comm_(comm), rank_(rank_of(comm)), size_(size_of(comm)), whole_(whole), pg_(pg), run_(std::move(run)),
      h5_ranks_{comm, [comm](const std::function<void()>& local) { return all_ranks_ok(comm, local); }} {
  for (int r = 0, at = 0; r < size_; ++r) {
    blocks_.push_back(block_of(whole, pg, r));
    counts_.push_back(int(blocks_.back().cells()));
    offsets_.push_back(at);
    at += counts_.back();
  }
}

void BlockService::issue(const Command& c) {
  Command sent = c;
  MPI_Bcast(&sent, int(sizeof sent), MPI_BYTE, 0, comm_);
  perform(sent);
}

void BlockService::serve() {
  for (;;) {
    Command c;
    MPI_Bcast(&c, int(sizeof c), MPI_BYTE, 0, comm_);
    if (c.op == Command::quit) return;
    perform(c);
  }
}

void BlockService::perform(const Command& c) {
  Stepper& own = *run_.own;
  switch (c.op) {
    case Command::advance: {
      const auto t0 = std::chrono::steady_clock::now();
      all_ranks_ok(comm_, [&] { own.advance(c.steps); });
      step_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return;
    }
    case Command::advance_to: {
      const auto t0 = std::chrono::steady_clock::now();
      all_ranks_ok(comm_, [&] { dynamic_cast<MolStepper&>(own).advance_to(c.t, c.steps); });
      step_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return;
    }
    case Command::values: {
      std::vector<double> mine;
      if (all_ranks_ok(comm_, [&] { mine = own.values(c.field); })) values = gather_cells(mine);
      return;
    }
    case Command::stats: {
      FieldStats s;
      if (!all_ranks_ok(comm_, [&] { s = own.stats(c.field); })) return;
      const double cells = double(block().cells());
      double lo = s.min, hi = s.max, sum[2] = {s.mean * cells, cells};
      MPI_Reduce(rank_ ? &lo : MPI_IN_PLACE, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, comm_);
      MPI_Reduce(rank_ ? &hi : MPI_IN_PLACE, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, comm_);
      MPI_Reduce(rank_ ? sum : MPI_IN_PLACE, sum, 2, MPI_DOUBLE, MPI_SUM, 0, comm_);
      stats = FieldStats{lo, hi, sum[0] / sum[1]};
      return;
    }
    case Command::first_nonfinite: {
      int64_t local = -1;
      if (!all_ranks_ok(comm_, [&] { local = own.first_nonfinite(c.field); })) return;
      long long at = std::numeric_limits<long long>::max();
      if (local >= 0) {
        const Block& b = block();
        const CellIndex2 q = b.extents().cell(local);
        at = whole_.index(b.first[0] + q.i, b.first[1] + q.j, b.first[2] + q.k);
      }
      MPI_Reduce(rank_ ? &at : MPI_IN_PLACE, &at, 1, MPI_LONG_LONG, MPI_MIN, 0, comm_);
      first_nonfinite = at == std::numeric_limits<long long>::max() ? -1 : int64_t(at);
      return;
    }
    case Command::set_values: {
      const std::vector<double> mine = scatter_cells(values);
      all_ranks_ok(comm_, [&] { own.set_values(c.field, mine); });
      return;
    }
    case Command::set_time: own.set_time(c.t); return;
    case Command::extra_state: {
      std::vector<NamedArray> mine;
      if (all_ranks_ok(comm_, [&] { mine = own.extra_state(); })) gather_extra_state(std::move(mine));
      return;
    }
    case Command::set_extra_state: {
      share_extra_state();
      all_ranks_ok(comm_, [&] { own.set_extra_state(extra); });
      return;
    }
    case Command::save: all_ranks_ok(comm_, [&] { own.save(); }); return;
    case Command::restore: all_ranks_ok(comm_, [&] { own.restore(); }); return;
    case Command::refresh: own.refresh_ghosts(); return;
    case Command::warning: {
      std::string w;
      warning = all_ranks_ok(comm_, [&] { w = own.warning(); }) ? std::move(w) : std::string();
      return;
    }
    case Command::timing: return gather_timing();
    case Command::hdf5_open: return open_hdf5();
    case Command::hdf5_write: return write_hdf5(c);
    case Command::hdf5_close: return close_hdf5();
    default: return;
  }
}

// Rank 0 assembles the whole grid's array of one value per cell from every block's (empty elsewhere).
std::vector<double> BlockService::gather_cells(const std::vector<double>& mine) {
  std::vector<double> all(rank_ ? 0 : std::size_t(whole_.cells()));
  MPI_Gatherv(mine.data(), int(mine.size()), MPI_DOUBLE, all.data(), counts_.data(), offsets_.data(), MPI_DOUBLE, 0, comm_);
  if (rank_) return {};
  std::vector<double> out(std::size_t(whole_.cells()), 0.0);
  for (int r = 0; r < size_; ++r) {
    const auto first = all.begin() + offsets_[std::size_t(r)];
    place_block(out, whole_, blocks_[std::size_t(r)], std::vector<double>(first, first + counts_[std::size_t(r)]));
  }
  return out;
}

// Every rank gets its block of rank 0's whole-grid array of one value per cell.
std::vector<double> BlockService::scatter_cells(const std::vector<double>& whole) {
  std::vector<double> packed;
  if (rank_ == 0)
    for (const Block& b : blocks_) {
      const std::vector<double> part = block_values(whole, whole_, b);
      packed.insert(packed.end(), part.begin(), part.end());
    }
  std::vector<double> mine(static_cast<std::size_t>(counts_[std::size_t(rank_)]));
  MPI_Scatterv(packed.data(), counts_.data(), offsets_.data(), MPI_DOUBLE, mine.data(), int(mine.size()), MPI_DOUBLE, 0, comm_);
  return mine;
}

namespace {
// f (a gather or a scatter of one value per cell) applied to each of n components of `values`, `cells`
// values each (none where `values` is empty: a rank that receives), the results joined.
template <class F>
std::vector<double> each_component(const std::vector<double>& values, std::size_t cells, int n, F f) {
  std::vector<double> out;
  for (int c = 0; c < n; ++c) {
    std::vector<double> component;
    if (!values.empty()) {
      const auto first = values.begin() + std::ptrdiff_t(cells * std::size_t(c));
      component.assign(first, first + std::ptrdiff_t(cells));
    }
    const std::vector<double> done = f(component);
    out.insert(out.end(), done.begin(), done.end());
  }
  return out;
}
}  // namespace

// Rank 0's `extra` from every rank's arrays (the same names in the same order on each): per-cell arrays
// gathered component by component over the whole grid, the others as rank 0 holds them.
void BlockService::gather_extra_state(std::vector<NamedArray> mine) {
  for (NamedArray& a : mine)
    if (a.per_cell > 0)
      a.values = each_component(a.values, std::size_t(block().cells()), a.per_cell,
                                [&](const std::vector<double>& part) { return gather_cells(part); });
  if (rank_ == 0) extra = std::move(mine);
}

// Rank 0's `extra` (a checkpoint's) to every rank: count, then each array's name, kind and values, a
// per-cell array's split into the blocks' cells.
void BlockService::share_extra_state() {
  int count = int(extra.size());
  MPI_Bcast(&count, 1, MPI_INT, 0, comm_);
  extra.resize(std::size_t(count));
  const std::size_t cells = std::size_t(whole_.cells());
  for (NamedArray& a : extra) {
    share_text(comm_, a.name);
    int head[2] = {int(a.values.size()), a.per_cell};
    MPI_Bcast(head, 2, MPI_INT, 0, comm_);
    a.per_cell = head[1];
    if (a.per_cell == 0) {
      a.values.resize(std::size_t(head[0]));
      MPI_Bcast(a.values.data(), head[0], MPI_DOUBLE, 0, comm_);
      continue;
    }
    if (rank_ != 0) a.values.clear();
    a.values = each_component(a.values, cells, a.per_cell, [&](const std::vector<double>& whole) { return scatter_cells(whole); });
  }
}

void BlockService::gather_timing() {
  const double mine[2] = {step_seconds_, run_.halo->seconds()};
  std::vector<double> all(2 * std::size_t(size_));
  MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, comm_);
  if (rank_) return;
  nlohmann::json per_rank = nlohmann::json::array();
  for (int r = 0; r < size_; ++r) {
    const Block& b = blocks_[std::size_t(r)];
    const double stepping = all[2 * std::size_t(r)], exchange = all[2 * std::size_t(r) + 1];
    per_rank.push_back({{"rank", r}, {"block", {{"first", b.first}, {"cells", b.count}}},
                        {"compute_seconds", stepping - exchange}, {"exchange_seconds", exchange}});
  }
  timing = {{"count", size_}, {"process_grid", pg_.p}, {"per_rank", per_rank}, {"schedule", run_.schedule},
            {"exchange_through", run_.halo->through()},
            {"exchanges", {{"count", run_.halo->exchanges()}, {"overlapped", run_.halo->overlapped()}}}};
}

// Every rank opens the file rank 0 names (parallel HDF5), writing the configuration and rank 0's
// parameters (the others take part with none).
void BlockService::open_hdf5() {
  Hdf5Opening& o = hdf5_opening;
  std::string head;
  if (rank_ == 0) {
    nlohmann::json names = nlohmann::json::array();
    for (const io::NamedValues& p : o.params) names.push_back(p.name);
    const io::ImageGrid& g = o.grid;
    head = nlohmann::json{{"file", o.file}, {"store", o.store == io::StoreAs::f32 ? 32 : 64}, {"params", names},
                          {"n", {g.nx, g.ny, g.nz}}, {"origin", {g.x0, g.y0, g.z0}}, {"spacing", {g.dx, g.dy, g.dz}}}.dump();
  }
  share_text(comm_, head);
  share_text(comm_, o.config);
  const nlohmann::json h = nlohmann::json::parse(head);
  if (rank_ != 0) {
    o.file = h["file"];
    o.store = h["store"] == 32 ? io::StoreAs::f32 : io::StoreAs::f64;
    const auto n = h["n"].get<std::vector<int>>();
    const auto origin = h["origin"].get<std::vector<double>>(), spacing = h["spacing"].get<std::vector<double>>();
    o.grid = {n[0], n[1], origin[0], origin[1], spacing[0], spacing[1], n[2], origin[2], spacing[2]};
    for (const std::string name : h["params"]) o.params.push_back({name, std::span<const double>(), 0});
  }
  const io::GridBox none{}, whole{{0, 0, 0}, {o.grid.nx, o.grid.ny, o.grid.nz}};
  all_ranks_ok(comm_, [&] {
    h5_ = std::make_unique<io::Hdf5Series>(o.file, o.grid, o.store, &h5_ranks_);
    h5_->set_attribute("config", o.config);
    h5_->write_params(o.params, rank_ == 0 ? &whole : &none);
  });
  o = Hdf5Opening{};
}

// Each rank's block of the fields rank 0 lists, from its own memory.
void BlockService::write_hdf5(const Command& c) {
  std::vector<int> fields = hdf5_fields;
  int count = int(fields.size());
  MPI_Bcast(&count, 1, MPI_INT, 0, comm_);
  fields.resize(std::size_t(count));
  MPI_Bcast(fields.data(), count, MPI_INT, 0, comm_);
  std::vector<FieldCopy> copies;
  if (!all_ranks_ok(comm_, [&] {
        for (const int f : fields) copies.push_back(copy_field(*run_.own, f, buffers_));
      }))
    return;
  std::vector<io::NamedValues> named;
  for (const FieldCopy& f : copies) named.push_back(f.view());
  const io::GridBox box{block().first, block().count};
  all_ranks_ok(comm_, [&] { h5_->write(c.steps, c.t, named, &box); });
  for (FieldCopy& f : copies) buffers_.give(std::move(f.rows));
}

void BlockService::close_hdf5() {
  share_text(comm_, hdf5_summary);
  all_ranks_ok(comm_, [&] {
    const std::unique_ptr<io::Hdf5Series> h5 = std::move(h5_);
    if (!h5) return;
    h5->set_attribute("summary", hdf5_summary);
    h5->close();
  });
}

DistributedStepper::~DistributedStepper() {
  try {
    s_->issue({Command::quit, 0, 0, 0});
  } catch (...) {  // a destructor does not throw; MPI aborts the job on a failed broadcast anyway
  }
}

// Rank 0's clock is every rank's.
double DistributedStepper::time() const {
  const auto* mol = dynamic_cast<const MolStepper*>(&s_->own());
  return mol ? mol->time() : 0.0;
}

const StepStats& DistributedStepper::step_stats() const {
  static const StepStats none;
  const auto* mol = dynamic_cast<const MolStepper*>(&s_->own());
  return mol ? mol->step_stats() : none;
}

std::vector<NamedArray> DistributedStepper::extra_state() {
  s_->issue({Command::extra_state, 0, 0, 0});
  return std::move(s_->extra);
}

// A per-cell array's size is checked before the ranks share it (a throw inside would leave them waiting).
void DistributedStepper::set_extra_state(const std::vector<NamedArray>& state) {
  const std::size_t cells = std::size_t(s_->whole().cells());
  for (const NamedArray& a : state)
    if (a.per_cell > 0 && a.values.size() != cells * std::size_t(a.per_cell))
      throw Error("the checkpoint's '" + a.name + "' has " + std::to_string(a.values.size()) + " values, " +
                  std::to_string(a.per_cell) + " for each of this grid's " + std::to_string(cells) + " cells expected");
  s_->extra = state;
  s_->issue({Command::set_extra_state, 0, 0, 0});
}

std::vector<double> DistributedStepper::values(int field) {
  s_->issue({Command::values, field, 0, 0});
  return std::move(s_->values);
}

FieldStats DistributedStepper::stats(int field) {
  s_->issue({Command::stats, field, 0, 0});
  return s_->stats;
}

int64_t DistributedStepper::first_nonfinite(int field) {
  s_->issue({Command::first_nonfinite, field, 0, 0});
  return s_->first_nonfinite;
}

void DistributedStepper::set_values(int field, const std::vector<double>& v) {
  s_->values = v;
  s_->issue({Command::set_values, field, 0, 0});
}

std::string DistributedStepper::warning() {
  s_->issue({Command::warning, 0, 0, 0});
  return std::exchange(s_->warning, {});
}

double DistributedStepper::bytes_per_step() const {
  return s_->own().bytes_per_step() * double(s_->whole().cells()) / double(s_->block().cells());
}

void DistributedStepper::open_hdf5(const Hdf5Opening& opening) {
  s_->hdf5_opening = opening;
  s_->issue({Command::hdf5_open, 0, 0, 0});
}

void DistributedStepper::write_hdf5(int64_t step, double time, const std::vector<int>& fields) {
  s_->hdf5_fields = fields;
  s_->issue({Command::hdf5_write, 0, step, time});
}

void DistributedStepper::close_hdf5(const std::string& summary) {
  s_->hdf5_summary = summary;
  s_->issue({Command::hdf5_close, 0, 0, 0});
}

nlohmann::json DistributedStepper::ranks() {
  s_->issue({Command::timing, 0, 0, 0});
  return s_->timing;
}

}  // namespace pdex
