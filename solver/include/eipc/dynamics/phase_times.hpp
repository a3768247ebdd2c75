// Where a run's wall time goes: seconds per phase of the Newton solves.
#pragma once

#include <chrono>

namespace eipc {

/// Wall seconds spent in each phase of the Newton solves, summed over all steps.
struct PhaseTimes {
  double broad_phase = 0;   ///< candidate pairs (barrier and swept CCD boxes)
  double assembly = 0;      ///< gradient and Hessian (elasticity, contact, friction, J^T H J)
  double linear_solve = 0;  ///< sparse Cholesky
  double ccd = 0;           ///< collision-free step size
  double line_search = 0;   ///< energy evaluations
};

/// Adds the wall time of its lifetime to a counter.
class ScopedTimer {
public:
  explicit ScopedTimer(double& total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

private:
  double& total_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace eipc
