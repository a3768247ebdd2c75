#include "eipc/geometry/aabb_tree.hpp"

#include <algorithm>
#include <stdexcept>

namespace eipc {

namespace {
constexpr int kLeafSize = 8;
}

AabbTree::AabbTree(std::vector<Aabb> boxes) : boxes_(std::move(boxes)) {
  order_.resize(boxes_.size());
  std::vector<Eigen::Array3d> centres(boxes_.size());  // lo + hi: twice the centres, the splits only compare them
  for (int i = 0; i < size(); ++i) {
    order_[i] = i;
    centres[i] = boxes_[i].lo + boxes_[i].hi;
  }
  nodes_.reserve(2 * boxes_.size() / kLeafSize + 2);
  if (!boxes_.empty()) split(0, size(), centres);
  fit_node_boxes();
}

int AabbTree::split(int begin, int end, const std::vector<Eigen::Array3d>& centres) {
  const int id = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  nodes_[id].begin = begin;
  nodes_[id].end = end;
  if (end - begin <= kLeafSize) {
    leaves_.push_back(id);
    return id;
  }
  Eigen::Array3d lo = centres[order_[begin]], hi = lo;
  for (int i = begin + 1; i < end; ++i) {
    lo = lo.min(centres[order_[i]]);
    hi = hi.max(centres[order_[i]]);
  }
  int axis;
  (hi - lo).maxCoeff(&axis);
  const int mid = begin + (end - begin) / 2;
  // Ties broken by index so the split is the same on every platform.
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end, [&](int a, int b) {
    const double ca = centres[a][axis], cb = centres[b][axis];
    return ca < cb || (ca == cb && a < b);
  });
  const int left = split(begin, mid, centres);
  const int right = split(mid, end, centres);
  nodes_[id].left = left;
  nodes_[id].right = right;
  return id;
}

void AabbTree::refit(std::vector<Aabb> boxes) {
  if (boxes.size() != boxes_.size()) throw std::invalid_argument("AabbTree::refit: a different number of boxes");
  boxes_ = std::move(boxes);
  fit_node_boxes();
}

void AabbTree::fit_node_boxes() {
  // Children come after their parent (split numbers nodes in preorder).
  for (int id = static_cast<int>(nodes_.size()) - 1; id >= 0; --id) {
    Node& n = nodes_[std::size_t(id)];
    Aabb box;
    if (n.left < 0) {
      for (int i = n.begin; i < n.end; ++i) box.extend(boxes_[std::size_t(order_[std::size_t(i)])]);
    } else {
      box = nodes_[std::size_t(n.left)].box;
      box.extend(nodes_[std::size_t(n.right)].box);
    }
    n.box = box;
  }
}

void AabbTree::query(const Aabb& q, std::vector<int>& out, int from_leaf) const {
  if (nodes_.empty()) return;
  // Leaves are numbered in order_ order: those before from_leaf end by `from`.
  const int from = from_leaf < num_leaves() ? nodes_[std::size_t(leaves_[std::size_t(from_leaf)])].begin : size();
  int stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[std::size_t(stack[--top])];
    if (n.end <= from || !n.box.overlaps(q)) continue;
    if (n.left < 0) {
      // Gathered without a branch (Aabb::overlaps), appended at once.
      int found[kLeafSize];
      int count = 0;
      for (int i = n.begin; i < n.end; ++i) {
        const int b = order_[std::size_t(i)];
        found[count] = b;
        count += int(boxes_[std::size_t(b)].overlaps(q));
      }
      if (count > 0) out.insert(out.end(), found, found + count);
    } else {
      stack[top++] = n.left;
      stack[top++] = n.right;
    }
  }
}

}  // namespace eipc
