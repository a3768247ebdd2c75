// Regression tests for scene-loader bugs found by fuzz_scene (solver/fuzz): each
// malformed scene must be an InputError naming the file and the field, never
// another exception.
#include "scene_dir.hpp"

#include <catch2/catch.hpp>

using namespace eipc;
using Catch::Matchers::Contains;

namespace {

const std::string kBody =
    R"("bodies": [{"name": "a", "mesh": "cube.msh",
       "material": {"model": "linear_corotated", "youngs": 1e5, "poisson": 0.3, "density": 1000}}])";

}  // namespace

TEST_CASE("fuzz_scene: a scene without 'version' is an InputError, not a JSON exception", "[scene][fuzz]") {
  test::SceneDir d("scene_fuzz");
  REQUIRE(d.error_of(R"({"format": "eipc-scene", "version": 1, "duration": 1, "dt": 0.1, )" + kBody + "}") == "");
  const std::string msg = d.error_of(R"({"format": "eipc-scene", "versioq": 1, "duration": 1, "dt": 0.1, )" + kBody + "}");
  CHECK_THAT(msg, Contains("scene.json") && Contains("missing required field 'version'"));
  CHECK_THAT(d.error_of(R"({"format": "eipc-scene", "version": 2, "duration": 1, "dt": 0.1, )" + kBody + "}"),
             Contains("field 'version'") && Contains("unsupported version"));
}

TEST_CASE("fuzz_scene: a huge solver.max_newton_iters is an InputError, not an overflowing cast", "[scene][fuzz]") {
  test::SceneDir d("scene_fuzz");
  const std::string head = R"({"format": "eipc-scene", "version": 1, "duration": 1, "dt": 0.1, "solver": )";
  REQUIRE(d.error_of(head + R"({"max_newton_iters": 2147483647}, )" + kBody + "}") == "");
  CHECK_THAT(d.error_of(head + R"({"max_newton_iters": 1e300}, )" + kBody + "}"),
             Contains("field 'solver.max_newton_iters'") && Contains("positive integer"));
  CHECK_THAT(d.error_of(head + R"({"max_newton_iters": 2147483648}, )" + kBody + "}"),
             Contains("field 'solver.max_newton_iters'"));
}

TEST_CASE("solver.hessian takes exact_if_definite or projected, nothing else", "[scene]") {
  test::SceneDir d("scene_fuzz");
  const std::string head = R"({"format": "eipc-scene", "version": 1, "duration": 1, "dt": 0.1, "solver": )";
  CHECK(d.error_of(head + R"({"hessian": "exact_if_definite"}, )" + kBody + "}") == "");
  CHECK(d.error_of(head + R"({"hessian": "projected"}, )" + kBody + "}") == "");
  CHECK_THAT(d.error_of(head + R"({"hessian": "exact"}, )" + kBody + "}"),
             Contains("field 'solver.hessian'") && Contains("projected"));
  CHECK_THAT(d.error_of(head + R"({"hessian": 1}, )" + kBody + "}"), Contains("solver.hessian"));
}

TEST_CASE("solver.affine_patches is true or false", "[scene]") {
  test::SceneDir d("scene_fuzz");
  const std::string head = R"({"format": "eipc-scene", "version": 1, "duration": 1, "dt": 0.1, "solver": )";
  CHECK(d.error_of(head + R"({"affine_patches": false}, )" + kBody + "}") == "");
  CHECK(d.error_of(head + R"({"affine_patches": true}, )" + kBody + "}") == "");
  CHECK_THAT(d.error_of(head + R"({"affine_patches": 0}, )" + kBody + "}"),
             Contains("field 'solver.affine_patches'") && Contains("true or false"));
}

TEST_CASE("contact.friction_max_rounds is an integer from 1 to 1000, friction_tol positive", "[scene]") {
  test::SceneDir d("scene_fuzz");
  const std::string head = R"({"format": "eipc-scene", "version": 1, "duration": 1, "dt": 0.1, "contact": )";
  CHECK(d.error_of(head + R"({"friction_max_rounds": 1, "friction_tol": 1e-3}, )" + kBody + "}") == "");
  CHECK_THAT(d.error_of(head + R"({"friction_max_rounds": 2.5}, )" + kBody + "}"),
             Contains("field 'contact.friction_max_rounds'") && Contains("integer"));
  CHECK_THAT(d.error_of(head + R"({"friction_max_rounds": 0}, )" + kBody + "}"),
             Contains("contact.friction_max_rounds"));
  CHECK_THAT(d.error_of(head + R"({"friction_max_rounds": 1e300}, )" + kBody + "}"),
             Contains("contact.friction_max_rounds"));
  CHECK_THAT(d.error_of(head + R"({"friction_tol": 0}, )" + kBody + "}"), Contains("contact.friction_tol"));
}
