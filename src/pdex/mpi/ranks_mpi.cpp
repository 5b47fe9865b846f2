// The ranks of a build with MPI (app/ranks.hpp).
#include <mpi.h>

#include <csignal>
#include <cstdlib>
#include <string>

#include "pdex/app/ranks.hpp"
#include "pdex/app/simulation.hpp"
#include "pdex/mpi/block_service.hpp"
#include "pdex/mpi/mpi_halo.hpp"

namespace pdex {

namespace {

bool started = false;

// mpirun (OpenMPI), srun and Hydra (MPICH) say so in the environment of every rank they start.
bool launched_as_ranks() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_STEP_NUM_TASKS"})
    if (std::getenv(v)) return true;
  return false;
}

ProcessGrid process_grid(const RunConfig& rc) {
  const Extents2 e = rc.grid().extents();
  if (rc.ranks.empty()) return choose_process_grid(e, job_size());
  ProcessGrid pg;
  for (std::size_t a = 0; a < rc.ranks.size(); ++a) pg.p[a] = rc.ranks[a];
  check_process_grid(e, pg, job_size());
  return pg;
}

// What runs over ranks today, refused on every rank alike before any rank builds its block.
void check_ranks_take(const RunConfig& rc) {
  if (rc.retry_on_blowup)
    throw InputError(rc.file + ": key 'time.on_blowup': \"retry\" runs in one process; over MPI ranks a blow-up stops the run");
}

// This rank's block of the run; on rank 0 inside the collective check, so that a failure on any rank
// ends every rank's set-up with its message.
std::unique_ptr<BlockService> block_service(const RunConfig& rc) {
  const ProcessGrid pg = process_grid(rc);
  check_ranks_take(rc);
  const Block b = block_of(rc.grid().extents(), pg, job_rank());
  BlockRun run;
  if (!all_ranks_ok(MPI_COMM_WORLD, [&] {
        run.halo = std::make_unique<MpiHalo>(MPI_COMM_WORLD, rc.grid().extents(), pg, b);
        run.setup = rc.setup->block(pg, b, *run.halo);
        run.own = run.setup->make_stepper(rc.backend, rc.precision);
        run.schedule = run.setup->schedule(rc.backend, rc.precision);
      }))
    return nullptr;
  return std::make_unique<BlockService>(MPI_COMM_WORLD, rc.grid().extents(), pg, std::move(run));
}

}  // namespace

RankSession::RankSession(int& argc, char**& argv) {
  if (!launched_as_ranks()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  started = true;
  // One GPU per rank: the ranks on a node take its devices in turn (before any CUDA call picks one).
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  setenv("PDEX_CUDA_DEVICE", std::to_string(local).c_str(), 0);
}

RankSession::~RankSession() {
  if (started) MPI_Finalize();
}

int job_rank() {
  int r = 0;
  if (started) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int job_size() {
  int n = 1;
  if (started) MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

std::unique_ptr<Stepper> make_run_stepper(const RunConfig& rc) {
  if (job_size() == 1) return rc.setup->make_stepper(rc.backend, rc.precision);
  return std::make_unique<DistributedStepper>(block_service(rc));
}

int serve_run(const RunConfig& rc) {
  // Rank 0 takes the interrupt and ends the run (a checkpoint needs every block): the others wait for it.
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  try {
    check_stability(rc);  // rank 0 checks before its stepper: refuse alike
  } catch (const Error&) {
    return 1;
  }
  std::unique_ptr<BlockService> service;
  try {
    service = block_service(rc);
  } catch (const Error&) {  // rank 0 reports it
    return 1;
  }
  if (!service) return 1;
  service->serve();
  return 0;
}

namespace {
class BlocksHdf5 final : public RanksHdf5 {
 public:
  explicit BlocksHdf5(DistributedStepper& d) : d_(d) {}
  void write(int64_t step, double time, const std::vector<int>& fields) override { d_.write_hdf5(step, time, fields); }
  void close(const std::string& summary) override { d_.close_hdf5(summary); }

 private:
  DistributedStepper& d_;
};
}  // namespace

std::unique_ptr<RanksHdf5> ranks_hdf5(Stepper& stepper, const Hdf5Opening& opening) {
  auto* d = dynamic_cast<DistributedStepper*>(&stepper);
  if (!d || !io::writes_over_ranks()) return nullptr;
  d->open_hdf5(opening);
  return std::make_unique<BlocksHdf5>(*d);
}

nlohmann::json ranks_json(Stepper& stepper) {
  auto* d = dynamic_cast<DistributedStepper*>(&stepper);
  return d ? d->ranks() : nlohmann::json();
}

}  // namespace pdex
