// The processes of one MPI launch (mpirun, srun) that share a sweep, or this process
// alone. MPI is initialized only when an MPI launcher started us and meshsync was built
// with MPI (CMake found it), so a plain `meshsync sweep` never touches MPI.
#pragma once

namespace meshsync {

class Ranks {
 public:
  Ranks();
  ~Ranks();
  Ranks(const Ranks&) = delete;
  Ranks& operator=(const Ranks&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Ranks sharing this machine (for the default number of workers).
  int local_size() const { return local_size_; }
  void barrier() const;
  // The largest `v` over all ranks.
  int max(int v) const;
  // Ends every rank at once (an error only this rank saw would leave the others waiting).
  [[noreturn]] void abort(int code) const;

 private:
  int rank_ = 0, size_ = 1, local_size_ = 1;
  bool mpi_ = false;
};

}  // namespace meshsync
