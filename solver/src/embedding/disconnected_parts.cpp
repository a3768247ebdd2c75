#include "eipc/embedding/disconnected_parts.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace eipc {

namespace {

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void unite(int a, int b) { parent[find(a)] = find(b); }
};

/// Pairs of tets that share a face.
std::vector<std::pair<int, int>> face_neighbours(const Tets& tets) {
  std::vector<std::pair<std::array<int, 3>, int>> faces;
  faces.reserve(4 * static_cast<std::size_t>(tets.rows()));
  for (int t = 0; t < tets.rows(); ++t)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> f;
      for (int j = 0, k = 0; j < 4; ++j)
        if (j != skip) f[k++] = tets(t, j);
      std::sort(f.begin(), f.end());
      faces.push_back({f, t});
    }
  std::sort(faces.begin(), faces.end());
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i + 1 < faces.size(); ++i)
    if (faces[i].first == faces[i + 1].first) pairs.push_back({faces[i].second, faces[i + 1].second});
  return pairs;
}

}  // namespace

int split_disconnected_parts(const Positions& fine_rest, const Tets& fine_tets, TetMesh& embedding,
                             std::vector<int>& quarter_tet, std::vector<TetLocation>& vertex_loc) {
  const int num_fine = static_cast<int>(fine_tets.rows()), num_tets = embedding.num_tets();

  // Pieces: the (fine tet, embedding tet) pairs holding at least one quarter;
  // the pieces of fine tet f are piece_begin[f] .. piece_begin[f + 1] - 1.
  std::vector<int> piece_tet, piece_fine, piece_begin(num_fine + 1, 0), quarter_piece(quarter_tet.size());
  for (int f = 0; f < num_fine; ++f) {
    piece_begin[f] = static_cast<int>(piece_tet.size());
    for (int j = 0; j < 4; ++j) {
      const int t = quarter_tet[4 * f + j];
      int p = piece_begin[f];
      while (p < static_cast<int>(piece_tet.size()) && piece_tet[p] != t) ++p;
      if (p == static_cast<int>(piece_tet.size())) {
        piece_tet.push_back(t);
        piece_fine.push_back(f);
      }
      quarter_piece[4 * f + j] = p;
    }
  }
  piece_begin[num_fine] = static_cast<int>(piece_tet.size());
  const std::vector<std::pair<int, int>> neighbours = face_neighbours(fine_tets);
  // Calls fn(p, q) for every pair of pieces whose fine tets are one tet or face neighbours.
  auto for_touching_pieces = [&](auto&& fn) {
    for (int f = 0; f < num_fine; ++f)
      for (int p = piece_begin[f]; p < piece_begin[f + 1]; ++p)
        for (int q = p + 1; q < piece_begin[f + 1]; ++q) fn(p, q);
    for (const auto& [f, g] : neighbours)
      for (int p = piece_begin[f]; p < piece_begin[f + 1]; ++p)
        for (int q = piece_begin[g]; q < piece_begin[g + 1]; ++q) fn(p, q);
  };

  // Parts: touching pieces in one embedding tet.
  UnionFind parts(piece_tet.size());
  for_touching_pieces([&](int p, int q) {
    if (piece_tet[p] == piece_tet[q]) parts.unite(p, q);
  });
  // Copies, in the order of the original tets, then of the parts' first pieces.
  std::vector<std::vector<int>> roots_in_tet(num_tets);
  for (std::size_t p = 0; p < piece_tet.size(); ++p) {
    std::vector<int>& roots = roots_in_tet[piece_tet[p]];
    const int root = parts.find(static_cast<int>(p));
    if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(root);
  }
  std::vector<int> copy_tet, first_copy(num_tets), copy_of_root(piece_tet.size(), -1);
  for (int t = 0; t < num_tets; ++t) {
    first_copy[t] = static_cast<int>(copy_tet.size());
    if (roots_in_tet[t].empty()) copy_tet.push_back(t);
    for (int root : roots_in_tet[t]) {
      copy_of_root[root] = static_cast<int>(copy_tet.size());
      copy_tet.push_back(t);
    }
  }
  auto copy_of_piece = [&](int p) { return copy_of_root[parts.find(p)]; };

  // Nodes: the corners (copy, j), joined where touching pieces of two copies meet
  // at a shared embedding vertex.
  const int num_copies = static_cast<int>(copy_tet.size());
  UnionFind corners(4 * static_cast<std::size_t>(num_copies));
  for_touching_pieces([&](int p, int q) {
    const int a = copy_of_piece(p), b = copy_of_piece(q);
    if (a == b) return;
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k)
        if (embedding.tets(copy_tet[a], j) == embedding.tets(copy_tet[b], k)) corners.unite(4 * a + j, 4 * b + k);
  });
  TetMesh split;
  split.tets.resize(num_copies, 4);
  std::vector<int> node_of_class(corners.parent.size(), -1);
  std::vector<int> source_vertex;
  for (int c = 0; c < num_copies; ++c)
    for (int j = 0; j < 4; ++j) {
      int& node = node_of_class[corners.find(4 * c + j)];
      if (node < 0) {
        node = static_cast<int>(source_vertex.size());
        source_vertex.push_back(embedding.tets(copy_tet[c], j));
      }
      split.tets(c, j) = node;
    }
  split.vertices.resize(static_cast<Eigen::Index>(source_vertex.size()), 3);
  for (std::size_t i = 0; i < source_vertex.size(); ++i)
    split.vertices.row(static_cast<Eigen::Index>(i)) = embedding.vertices.row(source_vertex[i]);

  // Fine vertices and quarters onto the copies.
  std::vector<std::vector<int>> incident(vertex_loc.size());
  for (int f = 0; f < num_fine; ++f)
    for (int j = 0; j < 4; ++j) incident[fine_tets(f, j)].push_back(f);
  for (std::size_t v = 0; v < vertex_loc.size(); ++v) {
    TetLocation& loc = vertex_loc[v];
    int copy = -1;
    for (int f : incident[v])
      for (int p = piece_begin[f]; p < piece_begin[f + 1] && copy < 0; ++p)
        if (piece_tet[p] == loc.tet) copy = copy_of_piece(p);
    if (copy >= 0 || incident[v].empty()) {
      loc.tet = copy >= 0 ? copy : first_copy[loc.tet];
      continue;
    }
    const int f = incident[v].front();
    int corner = 0;
    while (fine_tets(f, corner) != static_cast<int>(v)) ++corner;
    copy = copy_of_piece(quarter_piece[4 * f + corner]);
    loc = locate_points(split.vertices, split.tets.row(copy), fine_rest.row(static_cast<Eigen::Index>(v)))[0];
    loc.tet = copy;
  }
  for (std::size_t k = 0; k < quarter_tet.size(); ++k) quarter_tet[k] = copy_of_piece(quarter_piece[k]);
  embedding = std::move(split);
  return num_copies - num_tets;
}

}  // namespace eipc
