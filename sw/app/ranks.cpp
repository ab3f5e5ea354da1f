#include "ranks.hpp"

#include <cstdlib>
#include <initializer_list>

#ifdef MESHSYNC_HAVE_MPI
#include <mpi.h>
#endif

namespace meshsync {

#ifdef MESHSYNC_HAVE_MPI
namespace {
// Open MPI's mpirun, PMIx (srun, mpirun) and PMI (MPICH, srun) each set one of these.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}
}  // namespace
#endif

Ranks::Ranks() {
#ifdef MESHSYNC_HAVE_MPI
  if (!launched_by_mpi()) return;
  MPI_Init(nullptr, nullptr);
  mpi_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &local_size_);
  MPI_Comm_free(&local);
#endif
}

Ranks::~Ranks() {
#ifdef MESHSYNC_HAVE_MPI
  if (mpi_) MPI_Finalize();
#endif
}

void Ranks::barrier() const {
#ifdef MESHSYNC_HAVE_MPI
  if (mpi_) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

int Ranks::max(int v) const {
  int out = v;
#ifdef MESHSYNC_HAVE_MPI
  if (mpi_) MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#endif
  return out;
}

void Ranks::abort(int code) const {
#ifdef MESHSYNC_HAVE_MPI
  if (mpi_) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

}  // namespace meshsync
