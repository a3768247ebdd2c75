#include "eipc/friction/smooth_friction.hpp"

namespace eipc {

double friction_f1(double y, double e) { return y < e ? (2 - y / e) * y / e : 1.0; }

double friction_f0(double y, double e) { return y < e ? y * y * (1 / e - y / (3 * e * e)) + e / 3 : y; }

double friction_f1_over_y(double y, double e) { return y < e ? (2 - y / e) / e : 1 / y; }

double friction_f1_over_y_derivative_over_y(double y, double e) { return y < e ? -1 / (e * e * y) : -1 / (y * y * y); }

}  // namespace eipc
