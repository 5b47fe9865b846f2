// The ranks of a build without MPI: one.
#include <cstdlib>
#include <string>

#include "pdex/app/ranks.hpp"
#include "pdex/core/error.hpp"

namespace pdex {

RankSession::RankSession(int&, char**&) {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (!size) size = std::getenv("PMI_SIZE");
  if (size && std::atoi(size) > 1)
    throw Error(std::string("this pdex was built without MPI but started as one of ") + size +
                " ranks: install an MPI library (Debian: libopenmpi-dev openmpi-bin) and build again, or run one process");
}
RankSession::~RankSession() = default;

int job_rank() { return 0; }
int job_size() { return 1; }

std::unique_ptr<Stepper> make_run_stepper(const RunConfig& rc) { return rc.setup->make_stepper(rc.backend, rc.precision); }

int serve_run(const RunConfig&) { return 0; }

nlohmann::json ranks_json(Stepper&) { return nullptr; }

std::unique_ptr<RanksHdf5> ranks_hdf5(Stepper&, const Hdf5Opening&) { return nullptr; }

}  // namespace pdex
