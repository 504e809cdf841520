#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// Literal block scalars ("|", "|-", "|+") and one-line text read as libyaml's scanner reads
// them, for the readers that go around libyaml where the layout is plain. Only yaml/ includes
// this.
namespace opm::yaml::detail {

enum class Chomping { clip, strip, keep };

// A literal block header: "|", then a chomping indicator and an indentation indicator
// (1-9, how much deeper than its collection the text sits), each optional, in either order.
struct LiteralHeader {
  Chomping chomping = Chomping::clip;
  std::size_t increment = 0; // 0: taken from the first line of text
};
std::optional<LiteralHeader> literal_header(std::string_view value);

// Whether libyaml reads `s` as the text of one line: characters its reader accepts, no line
// break of any kind (\r, NEL, LS, PS), no control character but tab (and no tab either
// unless `tabs`).
bool one_line_text(std::string_view s, bool tabs = true);

// Where the line of `s` from `pos` ends (its "\n", or the end of `s`) when all of it is text
// libyaml reads on one line (as one_line_text()); nullopt otherwise.
std::optional<std::size_t> text_line_end(std::string_view s, std::size_t pos, bool tabs);

// A literal block scalar whose header ends the line before `from`, in a collection whose
// entries sit at `key_column`: where its last line ends (before that line's break) and its
// value, as libyaml's scanner takes them. nullopt where the layout is not plain enough to be
// sure.
struct LiteralBlock {
  std::size_t end = 0;
  std::string value;
};
std::optional<LiteralBlock> literal_block(std::string_view body, std::size_t from,
                                          std::size_t key_column, LiteralHeader header);

} // namespace opm::yaml::detail
