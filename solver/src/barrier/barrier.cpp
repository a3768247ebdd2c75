#include "eipc/barrier/barrier.hpp"

#include <cmath>
#include <limits>

namespace eipc {

double barrier(double d, double dhat) {
  if (d >= dhat) return 0.0;
  if (d <= 0) return std::numeric_limits<double>::infinity();
  return -(d - dhat) * (d - dhat) * std::log(d / dhat);
}

double barrier_first_derivative(double d, double dhat) {
  if (d >= dhat) return 0.0;
  return -2 * (d - dhat) * std::log(d / dhat) - (d - dhat) * (d - dhat) / d;
}

double barrier_second_derivative(double d, double dhat) {
  if (d >= dhat) return 0.0;
  const double r = (d - dhat) / d;
  return -2 * std::log(d / dhat) - 4 * r + r * r;
}

double barrier_sq_first_derivative(double s, double dhat, double offset) {
  const double d = std::sqrt(s);
  return barrier_first_derivative(d - offset, dhat) / (2 * d);
}

double barrier_sq_second_derivative(double s, double dhat, double offset) {
  const double d = std::sqrt(s);
  return (barrier_second_derivative(d - offset, dhat) - barrier_first_derivative(d - offset, dhat) / d) / (4 * s);
}

}  // namespace eipc
