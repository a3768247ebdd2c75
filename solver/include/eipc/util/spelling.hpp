// "Did you mean ...?" for names typed by a user (scene fields, embeddings, flags).
#pragma once

#include <string>
#include <vector>

namespace eipc {

/// Edit distance (insertions, deletions, substitutions; a swap of two
/// neighbouring letters counts once) between two words.
int edit_distance(const std::string& a, const std::string& b);

/// The candidate closest to `word` when it is close enough to be a likely typo
/// (at most 1 edit for words up to 4 letters, 2 up to 8, else 3); "" otherwise.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

/// " (did you mean 'x'?)" for the closest candidate, or "" when none is close.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace eipc
