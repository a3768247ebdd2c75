#include "eipc/util/spelling.hpp"

#include <algorithm>

namespace eipc {

int edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment distance: Levenshtein plus adjacent transpositions.
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
  const int allowed = word.size() <= 4 ? 1 : word.size() <= 8 ? 2 : 3;
  std::string best;
  int best_distance = allowed + 1;
  for (const std::string& c : candidates) {
    // A prefix ("lo" for "low") is a likely slip too, however many letters are missing.
    const int distance = c.size() > word.size() && !word.empty() && c.compare(0, word.size(), word) == 0
                             ? 1
                             : edit_distance(word, c);
    if (distance < best_distance) {
      best = c;
      best_distance = distance;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string best = closest_name(word, candidates);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

}  // namespace eipc
