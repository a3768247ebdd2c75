// Small scenes built in code for the simulation tests.
#pragma once

#include "eipc/dynamics/time_stepper.hpp"

#include <vector>

namespace eipc::test {

/// An elastic box body on a regular n^3 grid of tets.
Body make_box(const std::string& name, const Vec3& lo, const Vec3& hi, int n, const Material& material);
/// A kinematic box (its tets are ignored) following `motion`.
Body make_kinematic_box(const std::string& name, const Vec3& lo, const Vec3& hi, Motion motion);
Material material(ElasticModel model, double youngs, double poisson, double density);

/// Centre of mass (mean of full-resolution vertices, uniform for a regular box) of a body.
Vec3 body_centroid(const TimeStepper& sim, int body);
/// Exact (CGAL) check that the current configuration is intersection free.
bool intersection_free(const TimeStepper& sim);

}  // namespace eipc::test
