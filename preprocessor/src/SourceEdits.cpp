#include "SourceEdits.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace vcmon::preprocessor {

void SourceEdits::open(std::uint32_t offset, std::uint64_t order, std::string text) {
  edits_.push_back({offset, true, order, std::move(text)});
}

void SourceEdits::close(std::uint32_t offset, std::uint64_t order, std::string text) {
  edits_.push_back({offset, false, order, std::move(text)});
}

std::string SourceEdits::apply(std::string_view source) const {
  std::vector<const Edit*> sorted;
  sorted.reserve(edits_.size());
  std::size_t added = 0;
  for (const Edit& e : edits_) {
    if (e.offset > source.size()) {
      throw std::out_of_range("edit at offset " + std::to_string(e.offset) +
                              " lies past the end of the source");
    }
    sorted.push_back(&e);
    added += e.text.size();
  }
  const auto key = [](const Edit* e) {
    // Closings (opening == false) sort first; innermost closings have the largest order.
    const std::uint64_t rank = e->opening ? e->order : ~e->order;
    return std::make_tuple(e->offset, e->opening, rank);
  };
  std::ranges::stable_sort(sorted, {}, key);

  std::string out;
  out.reserve(source.size() + added);
  std::size_t copied = 0;
  for (const Edit* e : sorted) {
    out.append(source.substr(copied, e->offset - copied));
    copied = e->offset;
    out.append(e->text);
  }
  out.append(source.substr(copied));
  return out;
}

} // namespace vcmon::preprocessor
