#include "eipc/optim/block_ldlt.hpp"

#include "eipc/optim/node_ordering.hpp"
#include "eipc/util/parallel.hpp"
#include "eipc/util/small_product.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace eipc {

namespace {

/// fn(i) for every node i of the reach of row k of L: the tree paths from the
/// rows of column k of A (upper triangle) up to k, each node once (mark[i] == k
/// afterwards; mark holds no k beforehand).
template <class Fn>
void for_each_in_reach(int k, const std::vector<int>& col_start, const std::vector<int>& rows,
                       const std::vector<int>& parent, std::vector<int>& mark, Fn&& fn) {
  mark[k] = k;
  for (int p = col_start[k]; p < col_start[k + 1]; ++p)
    for (int i = rows[p]; mark[i] != k; i = parent[i]) {
      fn(i);
      mark[i] = k;
    }
}

}  // namespace

void BlockLdlt::analyzePattern(const Eigen::SparseMatrix<double>& a) {
  if (a.rows() != a.cols() || a.rows() % 3 != 0 || !a.isCompressed())
    throw std::invalid_argument("BlockLdlt: matrix must be compressed, square, with a size that is a multiple of 3");
  nodes_ = static_cast<int>(a.rows() / 3);
  const int n = nodes_;
  info_ = Eigen::InvalidInput;

  // The node graph, its AMD ordering (new -> old) and the inverse.
  const Eigen::SparseMatrix<double> graph = node_graph(a);
  NodeAmdOrdering::PermutationType node_perm;
  Eigen::AMDOrdering<int>()(graph, node_perm);
  perm_.assign(node_perm.indices().data(), node_perm.indices().data() + n);
  std::vector<int> inverse(n);
  for (int k = 0; k < n; ++k) inverse[perm_[k]] = k;

  // Upper block triangle of the permuted matrix, by column: the graph is
  // symmetric, so walking its columns in the new order hands each permuted
  // column its rows in ascending order (counted first, then placed).
  const int* g_start = graph.outerIndexPtr();
  const int* g_node = graph.innerIndexPtr();
  a_col_start_.assign(n + 1, 0);
  for (int row = 0; row < n; ++row)
    for (int p = g_start[perm_[row]]; p < g_start[perm_[row] + 1]; ++p)
      if (row <= inverse[g_node[p]]) ++a_col_start_[inverse[g_node[p]] + 1];
  for (int k = 0; k < n; ++k) a_col_start_[k + 1] += a_col_start_[k];
  a_row_.resize(a_col_start_[n]);
  std::vector<int> next(a_col_start_.begin(), a_col_start_.end() - 1);
  for (int row = 0; row < n; ++row)
    for (int p = g_start[perm_[row]]; p < g_start[perm_[row] + 1]; ++p) {
      const int col = inverse[g_node[p]];
      if (row <= col) a_row_[next[col]++] = row;
    }
  a_blocks_.resize(a_row_.size());  // zeroed by each factorize()

  // Where each stored scalar of the upper block triangle goes: the slot of
  // each block row of a column, looked up directly (set at the node's first
  // scalar column; every row found there is in that column's list).
  scatter_.clear();
  scatter_.reserve(std::size_t(a.nonZeros()));
  std::vector<int> slot_of(n, -1);
  for (int c = 0; c < a.outerSize(); ++c) {
    const int col = inverse[c / 3];
    if (c % 3 == 0)
      for (int p = a_col_start_[col]; p < a_col_start_[col + 1]; ++p) slot_of[a_row_[p]] = p;
    for (int v = a.outerIndexPtr()[c]; v < a.outerIndexPtr()[c + 1]; ++v) {
      const int r = a.innerIndexPtr()[v];
      const int row = inverse[r / 3];
      if (row > col) continue;
      scatter_.emplace_back(v, 9 * slot_of[row] + r % 3 + 3 * (c % 3));
    }
  }

  // Elimination tree of the node graph (with path compression through `ancestor`).
  parent_.assign(n, -1);
  std::vector<int> ancestor(n, -1);
  for (int k = 0; k < n; ++k)
    for (int p = a_col_start_[k]; p < a_col_start_[k + 1]; ++p)
      for (int i = a_row_[p]; i != -1 && i < k;) {
        const int next = ancestor[i];
        ancestor[i] = k;
        if (next == -1) parent_[i] = k;
        i = next;
      }

  // Column counts of L: row k of L has an entry in every column on the tree
  // paths from the rows of column k of A up to k.
  std::vector<int> count(n, 0), mark(n, -1);
  for (int k = 0; k < n; ++k) for_each_in_reach(k, a_col_start_, a_row_, parent_, mark, [&](int i) { ++count[i]; });
  l_col_start_.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) l_col_start_[k + 1] = l_col_start_[k] + count[k];
  // Each factorize() writes every entry of L and D^-1 before reading it.
  row_.resize(l_col_start_[n]);
  l_.resize(l_col_start_[n]);
  d_inv_.resize(n);
  fill_.assign(n, 0);
  plan_tasks(detail::force_parallel() ? std::max(2, max_threads()) : max_threads());
  std::vector<char> in_task(n, 0);
  for (const std::vector<int>& rows : tasks_)
    for (int k : rows) in_task[k] = 1;
  top_.clear();
  for (int k = 0; k < n; ++k)
    if (!in_task[k]) top_.push_back(k);
  scratch_.resize(std::max<std::size_t>(1, tasks_.size()));
  for (Scratch& s : scratch_) {
    s.work.assign(n, Mat3::Zero());
    s.mark.assign(n, -1);
    s.stack.assign(n, 0);
  }
}

void BlockLdlt::plan_tasks(int threads) {
  const int n = nodes_;
  tasks_.clear();
  if (threads < 2 || n == 0) return;
  // Cost of row k: its triangular solve updates, for each column i in its
  // reach, the entries of column i (bounded by the final column count).
  std::vector<double> subtree(n, 0.0);
  std::vector<int> mark(n, -1);
  for (int k = 0; k < n; ++k) {
    subtree[k] += 1.0;
    for_each_in_reach(k, a_col_start_, a_row_, parent_, mark,
                      [&](int i) { subtree[k] += 1.0 + (l_col_start_[i + 1] - l_col_start_[i]); });
  }
  std::vector<std::vector<int>> children(n);
  std::vector<int> frontier;
  for (int k = 0; k < n; ++k) {
    if (parent_[k] >= 0) {
      subtree[parent_[k]] += subtree[k];  // children precede parents
      children[parent_[k]].push_back(k);
    } else {
      frontier.push_back(k);
    }
  }
  double total = 0.0;
  for (int r : frontier) total += subtree[r];
  // Greedy: cut the costliest subtree of the frontier (its root joins the top)
  // while that helps; pack the frontier largest first into `threads` bins.
  // Keep the cut with the smallest estimate of top + fullest bin. The frontier
  // is kept in packing order (costliest first), so a cut is a few insertions
  // instead of a sort of the whole frontier.
  auto before = [&](int a, int b) { return subtree[a] > subtree[b] || (subtree[a] == subtree[b] && a < b); };
  std::sort(frontier.begin(), frontier.end(), before);
  auto pack = [&](const std::vector<int>& roots, std::vector<std::vector<int>>* bins) {
    std::vector<double> load(std::size_t(threads), 0.0);
    if (bins) bins->assign(std::size_t(threads), {});
    for (int r : roots) {
      const std::size_t b = std::size_t(std::min_element(load.begin(), load.end()) - load.begin());
      load[b] += subtree[r];
      if (bins) (*bins)[b].push_back(r);
    }
    return *std::max_element(load.begin(), load.end());
  };
  double top_cost = 0.0, best = total;
  std::vector<int> best_frontier;
  for (int cuts = 0; cuts < n; ++cuts) {
    const double estimate = top_cost + pack(frontier, nullptr);
    if (estimate < best) {
      best = estimate;
      best_frontier = frontier;
    }
    const int r = frontier.front();  // the costliest
    if (children[r].empty() || subtree[r] * threads < total - top_cost) break;  // balanced enough, or a leaf
    double own = subtree[r];
    for (int c : children[r]) own -= subtree[c];
    top_cost += own;
    frontier.erase(frontier.begin());
    for (int c : children[r]) frontier.insert(std::lower_bound(frontier.begin(), frontier.end(), c, before), c);
  }
  if (best > 0.9 * total) return;  // not worth a task per thread
  std::vector<std::vector<int>> bins;
  pack(best_frontier, &bins);
  for (const std::vector<int>& roots : bins) {
    std::vector<int> rows, todo = roots;
    while (!todo.empty()) {
      const int k = todo.back();
      todo.pop_back();
      rows.push_back(k);
      todo.insert(todo.end(), children[k].begin(), children[k].end());
    }
    std::sort(rows.begin(), rows.end());
    if (!rows.empty()) tasks_.push_back(std::move(rows));
  }
}

void BlockLdlt::factorize(const Eigen::SparseMatrix<double>& a) {
  const int n = nodes_;
  info_ = Eigen::NumericalIssue;
  std::fill(a_blocks_.begin(), a_blocks_.end(), Mat3::Zero());
  double* blocks = a_blocks_.data()->data();
  const double* values = a.valuePtr();
  for (const auto& [from, to] : scatter_) blocks[to] = values[from];

  for (Scratch& s : scratch_) std::fill(s.mark.begin(), s.mark.end(), -1);
  for (int k = 0; k < n; ++k) fill_[k] = l_col_start_[k];
  std::atomic<bool> ok{true};
  parallel_for_each(tasks_.size(), 1, [&](std::size_t t) {
    for (int k : tasks_[t])
      if (!ok.load(std::memory_order_relaxed) || !factorize_row(k, scratch_[t])) {
        ok = false;
        return;
      }
  });
  if (!ok) return;
  for (int k : top_)
    if (!factorize_row(k, scratch_[0])) return;
  info_ = Eigen::Success;
}

bool BlockLdlt::factorize_row(int k, Scratch& s) {
  const int n = nodes_;
  // Scatter column k of A (above the diagonal) into the work blocks and
  // collect the pattern of row k of L in topological order in stack[top, n).
  Mat3 d = Mat3::Zero();
  int top = n;
  s.mark[k] = k;
  for (int p = a_col_start_[k]; p < a_col_start_[k + 1]; ++p) {
    int i = a_row_[p];
    if (i == k) {
      d = a_blocks_[p];
      continue;
    }
    s.work[i] = a_blocks_[p];
    int length = 0;
    for (; s.mark[i] != k; i = parent_[i]) {
      s.stack[length++] = i;
      s.mark[i] = k;
    }
    while (length > 0) s.stack[--top] = s.stack[--length];
  }
  // Sparse triangular solve w = L^-1 A(:, k); then L(k, i) = w_i^T D_i^-1.
  for (int t = top; t < n; ++t) {
    const int i = s.stack[t];
    const Mat3 w = s.work[i];
    s.work[i].setZero();
    const SubtractTimesBlock subtract_times_w(w);
    const int end = fill_[i];  // locals: the kernel's stores may alias the members
    const Mat3* l = l_.data();
    const int* rows = row_.data();
    Mat3* work = s.work.data();
    for (int p = l_col_start_[i]; p < end; ++p) subtract_times_w(work[rows[p]], l[p]);
    const Mat3 lki = w.transpose() * d_inv_[i];
    d.noalias() -= lki * w;
    row_[fill_[i]] = k;
    l_[fill_[i]++] = lki;
  }
  const Eigen::LLT<Mat3> llt(d);
  if (llt.info() != Eigen::Success || !d.allFinite()) return false;
  d_inv_[k] = spd_inverse_from_cholesky(llt.matrixLLT());
  return true;
}

VecX BlockLdlt::solve(const VecX& b) const {
  const int n = nodes_;
  std::vector<Vec3> y(n);
  for (int k = 0; k < n; ++k) y[k] = b.segment<3>(3 * perm_[k]);
  for (int i = 0; i < n; ++i) {
    const SubtractTimesVector subtract_times_yi(y[i]);  // y_i broadcast once for its column
    const int end = l_col_start_[i + 1];
    for (int p = l_col_start_[i]; p < end; ++p) subtract_times_yi(y[row_[p]].data(), l_[p].data());
  }
  for (int i = 0; i < n; ++i) y[i] = d_inv_[i] * y[i];
  for (int i = n - 1; i >= 0; --i)
    for (int p = l_col_start_[i]; p < l_col_start_[i + 1]; ++p) y[i].noalias() -= l_[p].transpose() * y[row_[p]];
  VecX x(b.size());
  for (int k = 0; k < n; ++k) x.segment<3>(3 * perm_[k]) = y[k];
  return x;
}

}  // namespace eipc
