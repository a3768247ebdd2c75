// What a user mistypes in a scene or on the command line is refused by name
// (issue 42): unknown fields, --set paths that do not resolve, unknown embedding
// names, JSON syntax errors, missing mesh files.
#include "scene_dir.hpp"
#include "eipc/util/spelling.hpp"

#include <catch2/catch.hpp>

using namespace eipc;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

json cube_scene() {
  return json::parse(R"({"format": "eipc-scene", "version": 1, "duration": 0.02, "dt": 0.01,
    "contact": {"kappa": 1e4},
    "bodies": [{"name": "cube", "mesh": "cube.msh", "embeddings": {"coarse": "affine"},
                "material": {"model": "linear_corotated", "youngs": 1e5, "poisson": 0.3, "density": 1000}}]})");
}

}  // namespace

TEST_CASE("spelling: edit distance and the closest likely name", "[scene][spelling]") {
  CHECK(edit_distance("kapa", "kappa") == 1);
  CHECK(edit_distance("yuongs", "youngs") == 1);  // a swap counts once
  CHECK(edit_distance("", "abc") == 3);
  CHECK(closest_name("kapa", {"kappa", "dhat", "epsv"}) == "kappa");
  CHECK(closest_name("lo", {"full", "low", "medium"}) == "low");  // a prefix
  CHECK(closest_name("zzzzzz", {"kappa", "dhat"}).empty());
  CHECK(did_you_mean("frction", {"friction", "friction_tol"}) == " (did you mean 'friction'?)");
}

TEST_CASE("unknown scene fields are refused by path, with the likely intended one", "[scene]") {
  test::SceneDir d("scene_mistakes");
  const json good = cube_scene();
  CHECK(d.error_of(good.dump()).empty());
  const struct {
    const char* pointer;  // where the misspelt key goes
    const char* key;
    const char* message;
  } cases[] = {
      {"", "durration", "field 'durration': unknown field (did you mean 'duration'?)"},
      {"/contact", "kapa", "field 'contact.kapa': unknown field (did you mean 'kappa'?)"},
      {"/bodies/0", "materail", "field 'bodies[0].materail': unknown field (did you mean 'material'?)"},
      {"/bodies/0/material", "yongs", "field 'bodies[0].material.yongs': unknown field (did you mean 'youngs'?)"},
      {"", "colour", "field 'colour': unknown field"},
  };
  for (const auto& c : cases) {
    json doc = good;
    doc[json::json_pointer(c.pointer)][c.key] = 1;
    INFO(c.key);
    CHECK_THAT(d.error_of(doc.dump()), Contains("scene.json") && Contains(c.message));
  }
  // A motion on a deformable body was ignored before; now it is named.
  json moving = good;
  moving["bodies"][0]["motion"] = json::parse(R"([{"t": 0, "translation": [0, 0, 0]}])");
  CHECK_THAT(d.error_of(moving.dump()), Contains("field 'bodies[0].motion': moves only kinematic bodies"));
}

TEST_CASE("an --embedding name no body lists is refused, not ignored", "[scene]") {
  test::SceneDir d("scene_mistakes");
  const std::string text = cube_scene().dump();
  CHECK(d.error_of(text, {std::nullopt, std::nullopt, std::string("coarse")}).empty());
  CHECK(d.error_of(text, {std::nullopt, std::nullopt, std::string("full")}).empty());
  CHECK_THAT(d.error_of(text, {std::nullopt, std::nullopt, std::string("coarze")}),
             Contains("--embedding 'coarze'") && Contains("did you mean 'coarse'?") && Contains("full, coarse"));
  // "affine" is built in, but switches only the bodies that list it (docs/scene-format.md).
  CHECK_THAT(d.error_of(text, {std::nullopt, std::nullopt, std::string("affine")}), Contains("--embedding 'affine'"));
}

TEST_CASE("a --set path resolves the form errors print, indices and body names", "[scene]") {
  for (const char* key : {"bodies[0].material.youngs", "bodies.0.material.youngs", "bodies.cube.material.youngs",
                          "bodies[cube].material.youngs"}) {
    json doc = cube_scene();
    apply_override(doc, std::string(key) + "=2e5");
    INFO(key);
    CHECK(doc["bodies"][0]["material"]["youngs"] == 2e5);
    CHECK(doc.size() == cube_scene().size());  // no top-level key "bodies[0]" appears
  }
  json doc = cube_scene();
  apply_override(doc, "ground.height=0.5");  // a missing object is created
  CHECK(doc["ground"]["height"] == 0.5);
  const auto error_of = [](const std::string& assignment) {
    json d = cube_scene();
    try {
      apply_override(d, assignment);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error_of("bodies.cub.material.youngs=1"), Contains("'cub' is neither an index nor the name") &&
                                                        Contains("did you mean 'cube'?"));
  CHECK_THAT(error_of("bodies[3].name=x"), Contains("index 3 out of range (the array has 1 elements)"));
  CHECK_THAT(error_of("bodies[99999999999999999999999].name=x"), Contains("out of range (the array has 1 elements)"));
  CHECK_THAT(error_of("bodies[].name=x"), Contains("expected an index or a name inside [ ]"));
  CHECK_THAT(error_of("contact..kappa=1"), Contains("empty key component"));
  CHECK_THAT(error_of("dt.x=1"), Contains("'x' is inside a non-object value"));
  // A new key that is not a scene field is stored, then refused by the scene's check.
  test::SceneDir d("scene_mistakes");
  CHECK_THAT(d.error_of(cube_scene().dump(), {std::nullopt, std::nullopt, std::nullopt, {"contact.kapa=1"}}),
             Contains("field 'contact.kapa': unknown field (did you mean 'kappa'?)"));
}

TEST_CASE("JSON syntax errors name line and column; a missing mesh names its field", "[scene]") {
  test::SceneDir d("scene_mistakes");
  CHECK_THAT(d.error_of("{\n  \"format\": \"eipc-scene\",\n  \"version\": 1,,\n}"),
             Contains("scene.json:3:16: not valid JSON"));  // the second comma
  json doc = cube_scene();
  doc["bodies"][0]["mesh"] = "nothing.msh";
  CHECK_THAT(d.error_of(doc.dump()), Contains("field 'bodies[0].mesh': no such file") && Contains("nothing.msh"));
  doc = cube_scene();
  doc["bodies"][0]["embeddings"]["coarse"] = "gone.msh";
  CHECK_THAT(d.error_of(doc.dump(), {std::nullopt, std::nullopt, std::string("coarse")}),
             Contains("field 'bodies[0].embeddings.coarse': no such file"));
}

TEST_CASE("a coarsened embedding loads from the scene; its mistakes are named", "[scene]") {
  test::SceneDir d("scene_coarsened");
  write_msh((d.dir / "fine.msh").string(), box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2));
  const SceneOverrides coarse{std::nullopt, std::nullopt, std::string("coarse"), {}};
  json doc = cube_scene();
  doc["bodies"][0]["embeddings"]["coarse"] = json::parse(R"({"mesh": "affine", "coarsened_stiffness": true})");
  CHECK(load_scene(d.write(doc.dump()), coarse).bodies[0].coarsened_stiffness.rows() == 12);
  doc["bodies"][0]["embeddings"]["coarse"]["coarsened_stiffness"] = "fine.msh";
  CHECK(load_scene(d.write(doc.dump()), coarse).bodies[0].coarsened_stiffness.rows() == 12);
  doc["bodies"][0]["embeddings"]["coarse"]["split_disconnected_parts"] = true;
  CHECK_THAT(d.error_of(doc.dump(), coarse),
             Contains("field 'bodies[0].embeddings.coarse.coarsened_stiffness': a finer mesh cannot be placed"));
  doc["bodies"][0]["embeddings"]["coarse"] =
      json::parse(R"({"mesh": "affine", "coarsened_stiffness": true, "coarsened_rotations": 2})");
  const Scene per_part = load_scene(d.write(doc.dump()), coarse);
  CHECK(per_part.bodies[0].coarsened_part_stiffness.size() == 2);
  CHECK(per_part.bodies[0].coarsened_part_fit.size() == 2);
  doc["bodies"][0]["embeddings"]["coarse"]["coarsened_rotations"] = "per_tet";
  CHECK_THAT(d.error_of(doc.dump(), coarse),
             Contains("field 'bodies[0].embeddings.coarse.coarsened_rotations': expected \"one\" or a number of regions"));
  doc["bodies"][0]["embeddings"]["coarse"] = json::parse(R"({"mesh": "affine", "coarsened_rotations": "one"})");
  CHECK_THAT(d.error_of(doc.dump(), coarse), Contains("only a coarsened stiffness has rotations"));
  doc["bodies"][0]["embeddings"]["coarse"] = json::parse(R"({"mesh": "affine", "coarsened_stiffness": 3})");
  CHECK_THAT(d.error_of(doc.dump(), coarse),
             Contains("field 'bodies[0].embeddings.coarse.coarsened_stiffness': expected a string"));
}

TEST_CASE("contact-patch nodes load from the scene; their mistakes are named", "[scene]") {
  test::SceneDir d("scene_patch");
  write_msh((d.dir / "fine.msh").string(), box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2));
  const SceneOverrides coarse{std::nullopt, std::nullopt, std::string("coarse"), {}};
  json doc = cube_scene();
  auto& entry = doc["bodies"][0]["embeddings"]["coarse"];
  entry = json::parse(R"({"mesh": "affine", "coarsened_stiffness": "fine.msh",
                          "contact_patch": {"box": [[-1, -1, 0.09], [1, 1, 1]]}})");
  const Body top = load_scene(d.write(doc.dump()), coarse).bodies[0];
  CHECK(top.num_nodes() == 4 + 4);  // the cube's four top corners
  CHECK(top.patch_vertices.size() == 4);
  CHECK(top.coarsened_stiffness.rows() == 3 * 8);
  CHECK(top.coarsened_part_fit.size() == 1);  // one rotation, fitted on the affine nodes only
  entry["contact_patch"] = json::array({0, 0, 7});
  CHECK(load_scene(d.write(doc.dump()), coarse).bodies[0].patch_vertices == std::vector<int>{0, 7});
  entry["contact_patch"] = json::parse(R"({"box": [[2, 2, 2], [3, 3, 3]]})");
  CHECK_THAT(d.error_of(doc.dump(), coarse), Contains("field 'bodies[0].embeddings.coarse.contact_patch.box': the box "
                                                      "selects no vertex"));
  entry.erase("coarsened_stiffness");
  entry["contact_patch"] = "all";
  CHECK_THAT(d.error_of(doc.dump(), coarse), Contains("field 'bodies[0].embeddings.coarse.contact_patch'") &&
                                                 Contains("only a coarsened stiffness gives them elasticity"));
  // A vertex inside the body is not a collision vertex: the 2x2x2 mesh's centre, 13.
  write_msh((d.dir / "cube.msh").string(), box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2));
  entry = json::parse(R"({"mesh": "affine", "coarsened_stiffness": true, "contact_patch": [13]})");
  CHECK_THAT(d.error_of(doc.dump(), coarse), Contains("vertex 13 is not on the body's surface"));
}
