#include "pdex/mpi/block_service.hpp"

#include <chrono>
#include <limits>
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
    : comm_(comm), rank_(rank_of(comm)), size_(size_of(comm)), whole_(whole), pg_(pg), run_(std::move(run)) {
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
    int head[3] = {int(a.name.size()), int(a.values.size()), a.per_cell};
    MPI_Bcast(head, 3, MPI_INT, 0, comm_);
    a.name.resize(std::size_t(head[0]));
    MPI_Bcast(a.name.data(), head[0], MPI_CHAR, 0, comm_);
    a.per_cell = head[2];
    if (a.per_cell == 0) {
      a.values.resize(std::size_t(head[1]));
      MPI_Bcast(a.values.data(), head[1], MPI_DOUBLE, 0, comm_);
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
  timing = {{"count", size_}, {"process_grid", pg_.p}, {"per_rank", per_rank}};
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

nlohmann::json DistributedStepper::ranks() {
  s_->issue({Command::timing, 0, 0, 0});
  return s_->timing;
}

}  // namespace pdex
