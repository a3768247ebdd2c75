#include "eipc/elasticity/material.hpp"

#include "eipc/common.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

TEST_CASE("Lame parameters from Young's modulus and Poisson ratio", "[elasticity][material]") {
  // Paper's teddy: E = 5e4 Pa, nu = 0.45.
  const Lame l = lame_from_youngs(5e4, 0.45);
  CHECK(l.mu == Approx(5e4 / 2.9).epsilon(1e-14));
  CHECK(l.lambda == Approx(5e4 * 0.45 / (1.45 * 0.1)).epsilon(1e-12));
  // Round trip with the textbook inverse relations.
  for (double nu : {-0.5, 0.0, 0.25, 0.3, 0.49}) {
    const double E = 1.7e6;
    const Lame p = lame_from_youngs(E, nu);
    CHECK(p.mu * (3 * p.lambda + 2 * p.mu) / (p.lambda + p.mu) == Approx(E).epsilon(1e-12));
    CHECK(p.lambda / (2 * (p.lambda + p.mu)) == Approx(nu).margin(1e-12));
  }
  CHECK(lame_from_youngs(1.0, 0.0).lambda == 0.0);
  CHECK(lame_from_youngs(1.0, 0.0).mu == 0.5);
  CHECK(abd_stiffness(1e7, 0.0) == Approx(1e7 / 8.0));
  CHECK(abd_stiffness(1e4, 0.45) == Approx(lame_from_youngs(1e4, 0.45).mu / 4.0));
}

TEST_CASE("invalid elastic constants are input errors", "[elasticity][material]") {
  CHECK_THROWS_AS(lame_from_youngs(0.0, 0.3), InputError);
  CHECK_THROWS_AS(lame_from_youngs(-1.0, 0.3), InputError);
  CHECK_THROWS_AS(lame_from_youngs(1.0, 0.5), InputError);
  CHECK_THROWS_AS(lame_from_youngs(1.0, -1.0), InputError);
  Material m;
  m.density = 0.0;
  CHECK_THROWS_AS(validate(m), InputError);
  m.density = 10.0;
  CHECK_NOTHROW(validate(m));
}

TEST_CASE("model names parse and unknown names list the valid ones", "[elasticity][material]") {
  CHECK(parse_model_name("linear_corotated") == ElasticModel::linear_corotated);
  CHECK(parse_model_name("neo_hookean") == ElasticModel::neo_hookean);
  CHECK(parse_model_name("abd") == ElasticModel::abd);
  for (ElasticModel m : {ElasticModel::linear_corotated, ElasticModel::neo_hookean, ElasticModel::abd})
    CHECK(parse_model_name(model_name(m)) == m);
  try {
    parse_model_name("corotated");
    FAIL("no exception");
  } catch (const InputError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("'corotated'") != std::string::npos);
    CHECK(msg.find("linear_corotated") != std::string::npos);
    CHECK(msg.find("neo_hookean") != std::string::npos);
    CHECK(msg.find("abd") != std::string::npos);
  }
}
