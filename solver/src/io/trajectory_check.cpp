// Consistency of a trajectory header (see trajectory_check.hpp).
#include "eipc/io/trajectory_check.hpp"

#include "eipc/io/trajectory_schema.hpp"

#include <set>
#include <string>

namespace eipc {
namespace {

std::string shape_text(long rows, long cols) {
  return "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
}

// Every entry of `indices` lies in [0, bound).
template <typename M>
void check_indices(const M& indices, long bound, const std::string& dataset) {
  for (Eigen::Index i = 0; i < indices.size(); ++i) {
    long v = indices.data()[i];
    if (v < 0 || v >= bound)
      throw InputError(dataset + ": index " + std::to_string(v) + " out of range [0, " +
                       std::to_string(bound) + ")");
  }
}

void check_embedding(const EmbeddingData& e, long full_vertices, const std::string& group) {
  const std::string g = group + "/" + trajectory_schema::embedding_group;
  check_indices(e.tets, e.vertices.rows(), g + "/tets");
  if (e.vertex_tet.size() != full_vertices)
    throw InputError(g + "/vertex_tet: has " + std::to_string(e.vertex_tet.size()) +
                     " entries, expected one per full-resolution vertex (" +
                     std::to_string(full_vertices) + ")");
  check_indices(e.vertex_tet, e.tets.rows(), g + "/vertex_tet");
  if (e.weights.rows() != full_vertices)
    throw InputError(g + "/weights: shape " + shape_text(e.weights.rows(), 4) + ", expected " +
                     shape_text(full_vertices, 4));
}

}  // namespace

void check_trajectory_header(const TrajectoryHeader& header) {
  std::set<std::string> names;
  for (const TrajectoryBody& body : header.bodies) {
    const std::string group = trajectory_schema::body_group(body.name);
    if (body.name.empty() || body.name == "." || body.name == ".." ||
        body.name.find('/') != std::string::npos)
      throw InputError("body name '" + body.name + "' cannot name an HDF5 group (" + group + ")");
    if (!names.insert(body.name).second) throw InputError(group + ": duplicate body name");
    const long n = body.rest.rows();
    check_indices(body.surface, n, group + "/" + trajectory_schema::surface_triangles);
    check_indices(body.tets, n, group + "/" + trajectory_schema::tets);
    if (body.embedding_data) check_embedding(*body.embedding_data, n, group);
  }
}

}  // namespace eipc
