#include "eipc/scene/scene.hpp"

#include "eipc/embedding/coarsened_stiffness.hpp"
#include "eipc/embedding/contact_patch.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/elasticity/shell.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/transform.hpp"
#include "eipc/mesh/validate.hpp"
#include "eipc/tetrahedralize/tetrahedralize.hpp"
#include "eipc/util/spelling.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

namespace eipc {

using nlohmann::json;

namespace {

/// A JSON value together with its path, so every error names file and field.
class Field {
public:
  Field(const json& value, std::string path, const std::string& file) : v_(value), path_(std::move(path)), file_(file) {}

  [[noreturn]] void fail(const std::string& problem) const {
    if (path_.empty()) throw InputError(file_ + ": " + problem);  // the root: the problem names the field
    throw InputError(file_ + ": field '" + path_ + "': " + problem);
  }
  const json& value() const { return v_; }
  bool has(const char* key) const { return v_.is_object() && v_.contains(key); }
  Field at(const char* key) const {
    if (!has(key)) fail(std::string("missing required field '") + key + "'");
    return child(key);
  }
  Field child(const char* key) const { return {v_.at(key), path_.empty() ? key : path_ + "." + key, file_}; }
  Field index(std::size_t i) const { return {v_.at(i), path_ + "[" + std::to_string(i) + "]", file_}; }

  double number() const {
    if (!v_.is_number()) fail("expected a number, got " + v_.dump());
    const double x = v_.get<double>();
    if (!std::isfinite(x)) fail("expected a finite number");
    return x;
  }
  double positive() const {
    const double x = number();
    if (!(x > 0)) fail("expected a positive number, got " + v_.dump());
    return x;
  }
  double number_or(const char* key, double fallback) const { return has(key) ? child(key).number() : fallback; }
  double positive_or(const char* key, double fallback) const { return has(key) ? child(key).positive() : fallback; }
  std::string string() const {
    if (!v_.is_string()) fail("expected a string, got " + v_.dump());
    return v_.get<std::string>();
  }
  bool boolean_or(const char* key, bool fallback) const {
    if (!has(key)) return fallback;
    if (!v_.at(key).is_boolean()) child(key).fail("expected true or false");
    return v_.at(key).get<bool>();
  }
  Vec3 vec3() const {
    if (!v_.is_array() || v_.size() != 3) fail("expected an array of 3 numbers, got " + v_.dump());
    return {index(0).number(), index(1).number(), index(2).number()};
  }
  Vec3 vec3_or(const char* key, const Vec3& fallback) const { return has(key) ? child(key).vec3() : fallback; }
  void require_object() const {
    if (!v_.is_object()) fail("expected an object");
  }
  void require_array() const {
    if (!v_.is_array()) fail("expected an array");
  }
  /// Every key of this object must be one of `known` (docs/scene-format.md): a
  /// misspelt field would otherwise be ignored and its default used silently.
  void require_known_keys(const std::vector<std::string>& known) const {
    require_object();
    for (const auto& item : v_.items())
      if (std::find(known.begin(), known.end(), item.key()) == known.end())
        child(item.key().c_str()).fail("unknown field" + did_you_mean(item.key(), known));
  }

private:
  const json& v_;
  std::string path_;
  const std::string& file_;
};

Material read_material(const Field& f) {
  f.require_known_keys({"model", "youngs", "poisson", "density", "rayleigh_beta"});
  Material m;
  const Field model = f.at("model");
  try {
    m.model = parse_model_name(model.string());
  } catch (const InputError& e) {
    model.fail(e.what());
  }
  m.youngs = f.at("youngs").positive();
  m.poisson = f.at("poisson").number();
  if (!(m.poisson > -1.0 && m.poisson < 0.5)) f.child("poisson").fail("Poisson ratio must be in (-1, 0.5)");
  m.density = f.at("density").positive();
  return m;
}

Motion read_motion(const Field& f) {
  f.require_array();
  std::vector<Keyframe> keys;
  for (std::size_t i = 0; i < f.value().size(); ++i) {
    const Field k = f.index(i);
    k.require_known_keys({"t", "translation", "rotation_deg"});
    Keyframe key;
    key.t = k.at("t").number();
    key.translation = k.vec3_or("translation", Vec3::Zero());
    key.rotation_deg = k.vec3_or("rotation_deg", Vec3::Zero());
    if (!keys.empty() && !(key.t > keys.back().t)) k.child("t").fail("keyframe times must increase strictly");
    keys.push_back(key);
  }
  Motion motion(std::move(keys));
  // Keyframes move the body from where its transform puts it; a motion that
  // starts elsewhere would jump the nodes there within the first step.
  const Keyframe start = motion.at(0.0);
  if (!start.translation.isZero(0.0) || !start.rotation_deg.isZero(0.0))
    f.fail("at t = 0 the motion must leave the body where its transform puts it (translation and rotation 0), "
           "else its nodes jump in the first step; put the start pose into 'transform'");
  return motion;
}

std::vector<int> select_nodes(const Field& f, const Positions& nodes) {
  std::vector<int> out;
  if (f.value().is_string()) {
    if (f.string() != "all") f.fail("expected \"all\", {\"box\": [[lo], [hi]]} or a list of vertex indices");
    for (int i = 0; i < nodes.rows(); ++i) out.push_back(i);
  } else if (f.value().is_array()) {
    for (std::size_t i = 0; i < f.value().size(); ++i) {
      const Field e = f.index(i);
      if (!e.value().is_number_integer()) e.fail("expected a vertex index");
      const long idx = e.value().get<long>();
      if (idx < 0 || idx >= nodes.rows())
        e.fail("vertex index " + std::to_string(idx) + " out of range [0, " + std::to_string(nodes.rows()) + ")");
      out.push_back(static_cast<int>(idx));
    }
  } else if (f.value().is_object()) {
    f.require_known_keys({"box"});
    const Field box = f.at("box");
    if (!box.value().is_array() || box.value().size() != 2) box.fail("expected [[xmin, ymin, zmin], [xmax, ymax, zmax]]");
    const Vec3 lo = box.index(0).vec3(), hi = box.index(1).vec3();
    for (int i = 0; i < nodes.rows(); ++i) {
      const Vec3 p = nodes.row(i).transpose();
      if ((p.array() >= lo.array()).all() && (p.array() <= hi.array()).all()) out.push_back(i);
    }
    if (out.empty()) box.fail("the box selects no vertex of the body");
  } else {
    f.fail("expected \"all\", {\"box\": [[lo], [hi]]} or a list of vertex indices");
  }
  return out;
}

/// Scale, then rotate (XYZ Euler degrees about the mesh origin), then translate.
void apply_transform(const Field& f, Positions& x) {
  f.require_known_keys({"scale", "rotation_deg", "translation"});
  Transform t;
  t.scale = f.positive_or("scale", 1.0);
  t.rotation_deg = f.vec3_or("rotation_deg", Vec3::Zero());
  t.translation = f.vec3_or("translation", Vec3::Zero());
  x = transformed(x, t, Vec3::Zero());
}

/// The file a path field names, relative to the scene's folder; a missing one is
/// refused here, so the message names the field as well as the file.
std::string existing_file(const Field& f, const std::filesystem::path& dir) {
  const std::string path = (dir / f.string()).string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) f.fail("no such file: " + path);
  return path;
}

/// The surface vertices a "contact_patch" selects (select_nodes' forms, among the
/// body's fine vertices); a listed vertex off the surface is refused.
std::vector<int> read_contact_patch(const Field& f, const Body& full) {
  std::vector<char> on_surface(static_cast<std::size_t>(full.fine_rest.rows()), 0);
  for (const int v : surface_vertices(full.surface)) on_surface[static_cast<std::size_t>(v)] = 1;
  std::vector<int> patch;
  for (const int v : select_nodes(f, full.fine_rest)) {
    if (on_surface[static_cast<std::size_t>(v)]) patch.push_back(v);
    else if (f.value().is_array())
      f.fail("vertex " + std::to_string(v) + " is not on the body's surface; a contact patch is made of collision vertices");
  }
  std::sort(patch.begin(), patch.end());
  patch.erase(std::unique(patch.begin(), patch.end()), patch.end());
  if (patch.empty()) f.fail("selects no surface vertex of the body");
  return patch;
}

/// Replaces a full-space body's nodes by its embedding: "affine" (one enclosing
/// tet) or a mesh from `embeddings`, given in the body mesh's own frame.
Body read_embedding(const Field& f, const std::filesystem::path& dir, const Body& full, const std::string& name,
                    EmbeddingReport& report) {
  if (name == "affine") return embed_body(full, enclosing_tet(full.fine_rest), name, f.at("name").string(), &report);
  const Field entry = f.at("embeddings").child(name.c_str());
  // A path (or "affine"), or {"mesh": PATH, "split_disconnected_parts": true,
  // "coarsened_stiffness": true | FINER_TET_MESH, "coarsened_rotations": "one" | N,
  // "contact_patch": VERTICES}.
  EmbeddingOptions options;
  if (entry.value().is_object()) {
    entry.require_known_keys(
        {"mesh", "split_disconnected_parts", "coarsened_stiffness", "coarsened_rotations", "contact_patch"});
    options.split_disconnected_parts = entry.boolean_or("split_disconnected_parts", false);
  }
  const Field mesh = entry.value().is_object() ? entry.at("mesh") : entry;
  Body body;
  std::string path = f.at("name").string();
  if (mesh.string() == "affine") {
    body = embed_body(full, enclosing_tet(full.fine_rest), name, path, &report, options);
  } else {
    path = existing_file(mesh, dir);
    TetMesh emb = read_tet_mesh(path);
    if (f.has("transform")) apply_transform(f.child("transform"), emb.vertices);
    validate_tet_mesh(emb, path);
    body = embed_body(full, emb, name, path, &report, options);
  }
  int regions = 0;  // "coarsened_rotations": N regions of the fine mesh, each in its own rotation
  if (entry.value().is_object() && entry.has("coarsened_rotations")) {
    const Field rotations = entry.at("coarsened_rotations");
    if (!entry.has("coarsened_stiffness")) rotations.fail("only a coarsened stiffness has rotations to choose");
    const auto& v = rotations.value();
    if (v.is_string() && v.get<std::string>() == "one") {
      regions = 0;
    } else if (v.is_number_integer() && v.get<long long>() >= 1 && v.get<long long>() <= 1000) {
      regions = static_cast<int>(v.get<long long>());
    } else {
      rotations.fail("expected \"one\" or a number of regions from 1 to 1000, got " + v.dump());
    }
  }
  const bool patched = entry.value().is_object() && entry.has("contact_patch");
  if (patched) add_contact_patch(body, full.fine_rest, read_contact_patch(entry.at("contact_patch"), full));
  // The stiffness of a fine tet mesh condensed onto the nodes, split over `regions` when asked.
  const auto coarsen_from = [&](const Positions& rest, const Tets& tets, const NodeMap& to_nodes,
                                const std::string& source) {
    CoarsenedParts parts;
    if (regions > 0) parts.tet_part = fine_regions(rest, tets, regions);
    body.coarsened_stiffness = coarsened_stiffness(rest, tets, to_nodes, body.num_nodes(), full.material, source,
                                                   regions > 0 ? &parts : nullptr);
    body.coarsened_part_stiffness = std::move(parts.stiffness);
    body.coarsened_part_fit = std::move(parts.fit);
    if (regions == 0 && !body.patch_vertices.empty()) {  // one rotation, the embedding nodes' own
      body.coarsened_part_stiffness = {body.coarsened_stiffness};
      body.coarsened_part_fit = {embedding_rotation_fit(body)};
    }
  };
  if (entry.value().is_object() && entry.has("coarsened_stiffness")) {
    const Field coarsen = entry.at("coarsened_stiffness");
    if (coarsen.value().is_boolean()) {
      if (coarsen.value().get<bool>()) coarsen_from(full.fine_rest, full.fine_tets, body.fine_map, path);
    } else {  // a finer tet mesh of the same body, in the body mesh's frame
      if (options.split_disconnected_parts)
        coarsen.fail("a finer mesh cannot be placed in split embedding tets (their copies overlap); use true");
      const std::string fine_path = existing_file(coarsen, dir);
      TetMesh fine = read_tet_mesh(fine_path);
      if (f.has("transform")) apply_transform(f.child("transform"), fine.vertices);
      validate_tet_mesh(fine, fine_path);
      NodeMap to_nodes = locate_in_nodes(body, fine.vertices);
      bind_contact_patch(to_nodes, fine.vertices, body, full.fine_rest, fine_path);
      coarsen_from(fine.vertices, fine.tets, to_nodes, fine_path);
    }
  }
  if (patched && body.coarsened_stiffness.size() == 0)
    entry.at("contact_patch").fail("contact-patch nodes belong to no element, so only a coarsened stiffness gives "
                                   "them elasticity: add \"coarsened_stiffness\"");
  return body;
}

/// A shell driven by a coarse triangle surface from `embeddings` (embed_shell_body),
/// given in the shell mesh's own frame, and checked as a shell of its own.
Body read_shell_embedding(const Field& f, const std::filesystem::path& dir, const Body& full, const std::string& name,
                          EmbeddingReport& report) {
  if (name == "affine") f.child("embedding").fail("a shell's embedding is a coarse triangle surface; \"affine\" has none");
  const Field entry = f.at("embeddings").child(name.c_str());
  if (!entry.value().is_string())
    entry.fail("a shell's embedding is the path of a coarse triangle surface (.obj, .stl, .ply or .vtp)");
  const std::string path = existing_file(entry, dir);
  if (!is_surface_mesh_extension(mesh_file_extension(path)))
    entry.fail("a shell's embedding is a triangle surface: give .obj, .stl, .ply or .vtp");
  SurfaceMesh coarse = read_surface_mesh(path);
  if (f.has("transform")) apply_transform(f.child("transform"), coarse.vertices);
  try {
    ShellBody check(coarse.vertices, coarse.faces, full.shell_thickness, full.material);
    return embed_shell_body(full, coarse, name, path, &report);
  } catch (const InputError& e) {
    entry.fail(e.what());
  }
}

/// A soft body's surface file meshed into tets (cached beside it); what was done goes to `notes`.
TetMesh tetrahedralized(const Field& f, const std::string& mesh_path, std::vector<std::string>& notes) {
  std::optional<double> size;
  if (f.has("tet_size")) size = f.at("tet_size").positive();
  const auto start = std::chrono::steady_clock::now();
  TetrahedralizedFile t;
  try {
    t = tetrahedralize_file(mesh_path, size);
  } catch (const InputError& e) {
    f.child("mesh").fail(e.what());  // the scene and field as well as the surface's problem
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string what = fmt::format("body '{}': {} tetrahedralized (tet size {:.4g}{}): {} nodes, {} tets",
                                       f.at("name").string(), mesh_path, t.size, size ? "" : ", the default",
                                       t.mesh.num_vertices(), t.mesh.num_tets());
  if (t.from_cache) notes.push_back(what + ", read from " + t.cache_path);
  else if (t.cache_path.empty()) notes.push_back(what + fmt::format(" in {:.1f} s (not cached: its folder is not writable)", seconds));
  else notes.push_back(what + fmt::format(" in {:.1f} s, kept in {}", seconds, t.cache_path));
  return std::move(t.mesh);
}

Body read_body(const Field& f, const std::filesystem::path& dir, const SceneOverrides& overrides,
               EmbeddingReport& report, std::vector<std::string>& notes) {
  f.require_known_keys({"name", "mesh", "tet_size", "material", "transform", "velocity", "embedding", "embeddings",
                        "kinematic", "motion", "prescribed"});
  const std::string name = f.at("name").string();
  const bool kinematic = f.boolean_or("kinematic", false);
  const std::string mesh_path = existing_file(f.at("mesh"), dir);
  const std::string ext = mesh_file_extension(mesh_path);
  const bool surface_file = is_surface_mesh_extension(ext);
  if (!surface_file && !is_tet_mesh_extension(ext))
    f.child("mesh").fail("unknown mesh file extension '" + ext + "': give a tetrahedral mesh (.msh, .node/.ele, .vtk) "
                         "or a closed surface (.obj, .stl, .ply, .vtp), which is tetrahedralized (docs/mesh.md)");
  if (f.has("tet_size") && (!surface_file || kinematic))
    f.child("tet_size").fail("only a soft body given as a surface mesh (.obj .stl .ply .vtp) is tetrahedralized");
  if (kinematic && f.has("material"))
    f.child("material").fail("a kinematic body follows its motion and is never deformed, so its material would be "
                             "ignored: remove 'material', or remove \"kinematic\": true to simulate it");

  std::string embedding = f.has("embedding") ? f.at("embedding").string() : "full";
  if (overrides.embedding) {
    const bool has_named = f.has("embeddings") && f.at("embeddings").value().contains(*overrides.embedding);
    if (*overrides.embedding == "full" || has_named) embedding = *overrides.embedding;
  }
  if (embedding != "full" && embedding != "affine" &&
      !(f.has("embeddings") && f.at("embeddings").value().is_object() && f.at("embeddings").value().contains(embedding)))
    f.child("embedding").fail("unknown embedding '" + embedding + "': use \"full\", \"affine\" or a key of 'embeddings'");

  Body body;
  const bool shell = !kinematic && f.has("material") && f.child("material").value().is_object() &&
                     f.child("material").value().contains("model") &&
                     f.child("material").value()["model"] == "stvk_shell";
  if (shell) {
    if (!surface_file)
      f.child("mesh").fail("a shell (material 'stvk_shell') is a triangle surface: give .obj, .stl, .ply or .vtp");
    if (f.has("tet_size")) f.child("tet_size").fail("a shell is not tetrahedralized: remove 'tet_size'");
    const Field mf = f.child("material");
    mf.require_known_keys({"model", "youngs", "poisson", "density", "thickness"});
    Material material;
    material.youngs = mf.at("youngs").positive();
    material.poisson = mf.at("poisson").number();
    if (!(material.poisson > -1.0 && material.poisson < 0.5)) mf.child("poisson").fail("Poisson ratio must be in (-1, 0.5)");
    material.density = mf.at("density").positive();
    const double thickness = mf.at("thickness").positive();
    SurfaceMesh s = read_surface_mesh(mesh_path);
    Positions x = s.vertices;
    if (f.has("transform")) apply_transform(f.child("transform"), x);
    std::vector<char> used(x.rows(), 0);
    for (Eigen::Index t = 0; t < s.faces.rows(); ++t)
      for (int k = 0; k < 3; ++k) used[s.faces(t, k)] = 1;
    for (Eigen::Index v = 0; v < x.rows(); ++v)
      if (!used[v]) f.child("mesh").fail(fmt::format("vertex {} is in no triangle (it would have no mass)", v));
    try {
      ShellBody check(x, s.faces, thickness, material);  // manifold edges, no degenerate triangle
    } catch (const InputError& e) {
      f.child("mesh").fail(e.what());
    }
    body = make_shell_body(name, x, s.faces, thickness, material);
    if (embedding != "full") body = read_shell_embedding(f, dir, body, embedding, report);
  } else if (surface_file && kinematic) {
    SurfaceMesh s = read_surface_mesh(mesh_path);
    Positions x = s.vertices;
    if (f.has("transform")) apply_transform(f.child("transform"), x);
    body.name = name;
    body.fine_rest = x;
    body.node_rest = x;
    body.surface = s.faces;
    body.fine_map = NodeMap::identity(static_cast<int>(x.rows()));
    body.pivot = x.colwise().mean().transpose();
  } else {
    TetMesh m = surface_file ? tetrahedralized(f, mesh_path, notes) : read_tet_mesh(mesh_path);
    if (f.has("transform")) apply_transform(f.child("transform"), m.vertices);
    validate_tet_mesh(m, mesh_path);
    m = remove_unused_vertices(m);  // a vertex in no tet would have no mass
    Tris surface = boundary_faces(m.tets);
    validate_closed_surface(surface, static_cast<int>(m.vertices.rows()), mesh_path);
    Material material;
    if (f.has("material")) material = read_material(f.child("material"));
    else if (!kinematic) f.fail("missing required field 'material'");
    body = make_full_space_body(name, m.vertices, m.tets, surface, material);
    if (f.has("material")) body.rayleigh_beta = f.child("material").number_or("rayleigh_beta", 0.0);
    if (body.rayleigh_beta < 0) f.child("material").child("rayleigh_beta").fail("must be >= 0");
    if (embedding != "full") body = read_embedding(f, dir, body, embedding, report);
  }
  body.kinematic = kinematic;
  body.embedding = embedding;
  body.initial_velocity = f.vec3_or("velocity", Vec3::Zero());
  if (f.has("motion")) {
    if (!kinematic)
      f.child("motion").fail("moves only kinematic bodies (\"kinematic\": true); a deformable body's vertices "
                             "follow a motion through 'prescribed'");
    body.motion = read_motion(f.child("motion"));
  }
  if (f.has("prescribed")) {
    const Field list = f.child("prescribed");
    list.require_array();
    if (list.value().size() > 1) list.fail("one prescribed group per body is supported");
    for (std::size_t i = 0; i < list.value().size(); ++i) {
      const Field p = list.index(i);
      p.require_known_keys({"vertices", "motion"});
      body.prescribed_nodes = select_nodes(p.at("vertices"), body.node_rest);
      if (p.has("motion")) body.motion = read_motion(p.child("motion"));
    }
  }
  return body;
}

/// `--embedding NAME` switches the bodies whose `embeddings` list NAME ("full":
/// every body); a name no body lists is a typo, not a request to change nothing.
void require_listed_embedding(const std::string& name, const Field& bodies, const std::string& path) {
  if (name == "full") return;
  std::vector<std::string> listed;
  for (const json& body : bodies.value())
    if (body.is_object() && body.contains("embeddings") && body["embeddings"].is_object())
      for (const auto& item : body["embeddings"].items())
        if (std::find(listed.begin(), listed.end(), item.key()) == listed.end()) listed.push_back(item.key());
  if (std::find(listed.begin(), listed.end(), name) != listed.end()) return;
  std::string names = "full";
  for (const std::string& n : listed) names += ", " + n;
  throw InputError(path + ": --embedding '" + name + "': no body lists it under 'embeddings'" +
                   did_you_mean(name, listed) + "; this scene has: " + names);
}

/// The path of a --set key as components: "bodies[0].material.youngs" and
/// "bodies.0.material.youngs" both give {bodies, 0, material, youngs}.
std::vector<std::string> override_path(const std::string& key, const std::string& assignment) {
  std::vector<std::string> parts;
  std::string part;
  auto finish = [&](bool allow_empty) {
    if (part.empty() && !allow_empty) throw InputError("--set '" + assignment + "': empty key component");
    if (!part.empty()) parts.push_back(part);
    part.clear();
  };
  for (std::size_t i = 0; i < key.size(); ++i) {
    const char c = key[i];
    if (c == '.') {
      finish(i > 0 && key[i - 1] == ']');
    } else if (c == '[') {
      finish(i > 0 && key[i - 1] == ']');
      const auto close = key.find(']', i);
      if (close == std::string::npos || close == i + 1)
        throw InputError("--set '" + assignment + "': expected an index or a name inside [ ]");
      parts.push_back(key.substr(i + 1, close - i - 1));
      i = close;
      if (i + 1 < key.size() && key[i + 1] != '.' && key[i + 1] != '[')
        throw InputError("--set '" + assignment + "': expected '.' or '[' after ']'");
    } else {
      part += c;
    }
  }
  finish(!key.empty() && key.back() == ']');
  return parts;
}

/// The element of an array that `part` selects: an index, or the element whose "name" it is.
json& array_element(json& array, const std::string& part, const std::string& assignment) {
  const bool is_index = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (is_index) {
    // Over 9 digits no index is in range (and std::stoul could overflow).
    const std::size_t idx = part.size() <= 9 ? std::stoul(part) : array.size();
    if (idx >= array.size())
      throw InputError("--set '" + assignment + "': index " + part + " out of range (the array has " +
                       std::to_string(array.size()) + " elements)");
    return array[idx];
  }
  std::vector<std::string> names;
  for (json& element : array)
    if (element.is_object() && element.contains("name") && element["name"].is_string()) {
      if (element["name"] == part) return element;
      names.push_back(element["name"].get<std::string>());
    }
  throw InputError("--set '" + assignment + "': '" + part + "' is neither an index nor the name of an element" +
                   did_you_mean(part, names));
}

}  // namespace

void apply_override(json& doc, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set '" + assignment + "': expected key.path=value");
  const std::string text = assignment.substr(eq + 1);
  json value = json::parse(text, nullptr, false);
  if (value.is_discarded()) value = text;
  json* node = &doc;
  for (const std::string& part : override_path(assignment.substr(0, eq), assignment)) {
    if (node->is_array()) {
      node = &array_element(*node, part, assignment);
    } else {
      // A missing key is created; the scene's validation then refuses an unknown one by name.
      if (!node->is_object() && !node->is_null())
        throw InputError("--set '" + assignment + "': '" + part + "' is inside a non-object value");
      node = &(*node)[part];
    }
  }
  *node = value;
}

Scene load_scene(const std::string& path, const SceneOverrides& overrides) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open scene file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte is 1-based: the character at which the parser stopped.
    const std::size_t at = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const std::size_t line = 1 + std::count(text.begin(), text.begin() + at, '\n');
    const std::size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
    const std::size_t column = line_start == std::string::npos || at == 0 ? at + 1 : at - line_start;
    const std::string what = e.what();
    const auto detail = what.find("syntax error");
    throw InputError(fmt::format("{}:{}:{}: not valid JSON: {}", path, line, column,
                                 detail == std::string::npos ? what : what.substr(detail)));
  } catch (const json::exception& e) {  // e.g. a number out of range: no position to name
    throw InputError(path + ": not valid JSON: " + e.what());
  }
  return scene_from_json(std::move(doc), path, overrides);
}

Scene scene_from_json(nlohmann::json doc, const std::string& path, const SceneOverrides& overrides) {
  for (const std::string& s : overrides.set) apply_override(doc, s);
  if (overrides.dt) doc["dt"] = *overrides.dt;
  if (overrides.duration) doc["duration"] = *overrides.duration;

  const Field root(doc, "", path);
  root.require_object();
  if (!root.has("format") || doc["format"] != "eipc-scene") root.fail("'format' must be \"eipc-scene\"");
  if (!root.has("version")) root.fail("missing required field 'version' (expected 1)");
  if (doc["version"] != 1) root.child("version").fail("unsupported version (expected 1)");
  root.require_known_keys({"format", "version", "name", "duration", "dt", "gravity", "contact", "solver", "ground",
                           "output", "bodies"});

  Scene scene;
  scene.path = path;
  scene.name = root.has("name") ? root.at("name").string() : std::filesystem::path(path).stem().string();
  scene.duration = root.at("duration").positive();
  SimulationParams& p = scene.params;
  p.dt = root.at("dt").positive();
  if (p.dt > scene.duration) root.child("dt").fail("time step larger than the duration");
  if (!(scene.duration / p.dt <= 1e9))
    root.child("dt").fail(fmt::format("{} s gives more than 1e9 steps over {} s", p.dt, scene.duration));
  scene.steps = std::lround(scene.duration / p.dt);
  if (std::abs(scene.steps * p.dt - scene.duration) > 1e-9 * scene.duration)
    root.child("duration").fail(fmt::format("{} s is not a whole number of steps of dt = {} s", scene.duration, p.dt));
  p.gravity = root.vec3_or("gravity", p.gravity);
  if (root.has("contact")) {
    const Field c = root.child("contact");
    c.require_known_keys({"kappa", "dhat", "epsv", "friction", "friction_max_rounds", "friction_tol"});
    p.contact.kappa = c.positive_or("kappa", p.contact.kappa);
    p.contact.dhat = c.positive_or("dhat", p.contact.dhat);
    p.contact.epsv = c.positive_or("epsv", p.contact.epsv);
    p.contact.friction = c.number_or("friction", p.contact.friction);
    if (p.contact.friction < 0) c.child("friction").fail("friction coefficient must be >= 0");
    if (c.has("friction_max_rounds")) {
      const double n = c.at("friction_max_rounds").positive();
      if (n != std::floor(n) || n > 1000) c.child("friction_max_rounds").fail("expected an integer from 1 to 1000");
      p.contact.friction_max_rounds = static_cast<int>(n);
    }
    p.contact.friction_tol = c.positive_or("friction_tol", p.contact.friction_tol);
  }
  if (root.has("solver")) {
    const Field s = root.child("solver");
    s.require_known_keys({"newton_tol", "max_newton_iters", "hessian", "affine_patches"});
    p.solver.newton_tol = s.positive_or("newton_tol", p.solver.newton_tol);
    if (s.has("max_newton_iters")) {
      const double n = s.at("max_newton_iters").positive();
      if (n != std::floor(n) || n > std::numeric_limits<int>::max())
        s.child("max_newton_iters").fail("expected a positive integer up to " +
                                         std::to_string(std::numeric_limits<int>::max()));
      p.solver.max_newton_iters = static_cast<int>(n);
    }
    if (s.has("hessian")) {
      const Field h = s.child("hessian");
      if (h.string() == "exact_if_definite")
        p.solver.newton_matrix = NewtonMatrix::exact_if_definite;
      else if (h.string() == "projected")
        p.solver.newton_matrix = NewtonMatrix::projected;
      else if (h.string() == "shifted")
        p.solver.newton_matrix = NewtonMatrix::shifted;
      else
        h.fail("expected \"exact_if_definite\", \"projected\" or \"shifted\"");
    }
    p.solver.affine_patches = s.boolean_or("affine_patches", p.solver.affine_patches);
  }
  if (root.has("ground")) {
    root.child("ground").require_known_keys({"height"});
    p.ground_height = root.child("ground").number_or("height", 0.0);
  }
  if (root.has("output")) {
    root.child("output").require_known_keys({"every"});
    scene.output_every = root.child("output").positive_or("every", 0.0);
  }
  scene.output_stride = scene.output_every > 0 ? std::max(1L, std::lround(scene.output_every / p.dt)) : 1;

  const Field bodies = root.at("bodies");
  bodies.require_array();
  if (bodies.value().empty()) bodies.fail("a scene needs at least one body");
  if (overrides.embedding) require_listed_embedding(*overrides.embedding, bodies, path);
  const auto dir = std::filesystem::path(path).parent_path();
  std::set<std::string> names;
  for (std::size_t i = 0; i < bodies.value().size(); ++i) {
    EmbeddingReport report;
    scene.bodies.push_back(read_body(bodies.index(i), dir, overrides, report, scene.notes));
    scene.embedding_reports.push_back(report);
    if (!names.insert(scene.bodies.back().name).second)
      bodies.index(i).child("name").fail("duplicate body name '" + scene.bodies.back().name + "'");
  }
  if (p.ground_height)
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const Body& b = scene.bodies[i];
      if (b.kinematic) continue;
      const double lowest = b.fine_rest.col(2).minCoeff();
      if (lowest <= *p.ground_height)
        bodies.index(i).fail("body '" + b.name + "' starts at or below the ground (lowest z = " +
                             std::to_string(lowest) + ", ground at " + std::to_string(*p.ground_height) + ")");
    }
  scene.json = doc;
  return scene;
}

}  // namespace eipc
