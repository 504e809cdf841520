#include "json/flat.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

namespace opm::json {

namespace {

// A node: its tag, then for numbers their 8 bytes, for a string its size and bytes, for a
// container its count, the size of its contents and the contents (an object's members each a
// key, as a string without a tag, and a node).
enum class Tag : char { null, no, yes, integer, unsigned_integer, floating, string, array, object };

constexpr std::size_t k_largest = std::numeric_limits<std::uint32_t>::max();
constexpr std::size_t k_container_header = 1 + 4 + 4;

template <typename T> T get(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

Tag tag_of(const char* at) { return static_cast<Tag>(*at); }

// Writes a flat value into a Flattener's buffer, which grows by doubling.
class FlatWriter {
public:
  explicit FlatWriter(std::string& buffer) : m_buffer(buffer) {
    m_buffer.resize(m_buffer.capacity());
  }

  bool write(const Json& value);
  [[nodiscard]] std::string_view made() const { return {m_buffer.data(), m_used}; }

private:
  // `size` bytes to write at the end of what is written.
  char* room(std::size_t size) {
    if (m_buffer.size() - m_used < size) [[unlikely]] {
      grow(size);
    }
    char* at = m_buffer.data() + m_used;
    m_used += size;
    return at;
  }
  // The bytes past m_used are written before they are read: growing leaves them as they come.
  [[gnu::noinline]] void grow(std::size_t size) {
    m_buffer.resize_and_overwrite(std::max(2 * m_buffer.size(), m_used + size),
                                  [](char*, std::size_t n) { return n; });
  }
  void tag(Tag tag) { *room(1) = static_cast<char>(tag); }
  // A number node: its tag and 8 bytes.
  template <typename T> void number(Tag tag, T value) {
    static_assert(sizeof value == 8);
    char* at = room(1 + sizeof value);
    *at = static_cast<char>(tag);
    std::memcpy(at + 1, &value, sizeof value);
  }
  // A string's size and bytes, after `tag` unless it is a key (no tag).
  bool text(std::string_view text, std::optional<Tag> tag = std::nullopt) {
    if (text.size() > k_largest) {
      return false;
    }
    char* at = room((tag ? 1 : 0) + 4 + text.size());
    if (tag) {
      *at++ = static_cast<char>(*tag);
    }
    const auto size = static_cast<std::uint32_t>(text.size());
    std::memcpy(at, &size, 4);
    std::memcpy(at + 4, text.data(), text.size());
    return true;
  }
  // A container's tag and count, then its contents' size, filled in once they are written.
  template <typename Items, typename Write>
  bool container(Tag tag, const Items& items, Write write);

  std::string& m_buffer;
  std::size_t m_used = 0;
};

template <typename Items, typename Write>
bool FlatWriter::container(Tag container_tag, const Items& items, Write write) {
  if (items.size() > k_largest) {
    return false;
  }
  char* at = room(k_container_header);
  *at = static_cast<char>(container_tag);
  const auto count = static_cast<std::uint32_t>(items.size());
  std::memcpy(at + 1, &count, sizeof count);
  const std::size_t size_at = m_used - sizeof(std::uint32_t);
  for (const auto& item : items) {
    if (!write(item)) {
      return false;
    }
  }
  const std::size_t size = m_used - size_at - sizeof(std::uint32_t);
  if (size > k_largest) {
    return false;
  }
  const auto size32 = static_cast<std::uint32_t>(size);
  std::memcpy(m_buffer.data() + size_at, &size32, sizeof size32);
  return true;
}

bool FlatWriter::write(const Json& value) {
  using Type = Json::value_t;
  switch (value.type()) {
  case Type::boolean:
    tag(value.get<bool>() ? Tag::yes : Tag::no);
    return true;
  case Type::number_integer:
    number(Tag::integer, value.get<std::int64_t>());
    return true;
  case Type::number_unsigned:
    number(Tag::unsigned_integer, value.get<std::uint64_t>());
    return true;
  case Type::number_float:
    number(Tag::floating, value.get<double>());
    return true;
  case Type::string:
    return text(value.get_ref<const std::string&>(), Tag::string);
  case Type::array:
    return container(Tag::array, value.get_ref<const Json::array_t&>(),
                     [this](const Json& element) { return write(element); });
  case Type::object:
    return container(
        Tag::object, value.get_ref<const Json::object_t&>(),
        [this](const auto& member) { return text(member.first) && write(member.second); });
  default: // null; decoders make no binary or discarded values
    tag(Tag::null);
    return true;
  }
}

// Where the node at `at` ends.
const char* after(const char* at) {
  switch (tag_of(at)) {
  case Tag::integer:
  case Tag::unsigned_integer:
  case Tag::floating:
    return at + 1 + 8;
  case Tag::string:
    return at + 1 + 4 + get<std::uint32_t>(at + 1);
  case Tag::array:
  case Tag::object:
    return at + k_container_header + get<std::uint32_t>(at + 1 + 4);
  default:
    return at + 1;
  }
}

std::string_view text_at(const char* at) { return {at + 4, get<std::uint32_t>(at)}; }

} // namespace

std::optional<std::string_view> Flattener::flatten(const Json& value) {
  FlatWriter writer(m_buffer);
  if (!writer.write(value)) {
    return std::nullopt;
  }
  return writer.made();
}

bool FlatNode::is_null() const { return m_at != nullptr && tag_of(m_at) == Tag::null; }

bool FlatNode::is_true() const { return m_at != nullptr && tag_of(m_at) == Tag::yes; }

bool FlatNode::is_number() const {
  if (m_at == nullptr) {
    return false;
  }
  const Tag tag = tag_of(m_at);
  return tag == Tag::integer || tag == Tag::unsigned_integer || tag == Tag::floating;
}

std::string_view FlatNode::string() const {
  return m_at != nullptr && tag_of(m_at) == Tag::string ? text_at(m_at + 1) : std::string_view();
}

long long FlatNode::integer() const {
  if (!is_number()) {
    return 0;
  }
  switch (tag_of(m_at)) {
  case Tag::integer:
    return get<std::int64_t>(m_at + 1);
  case Tag::unsigned_integer:
    return static_cast<long long>(get<std::uint64_t>(m_at + 1));
  default:
    return static_cast<long long>(get<double>(m_at + 1));
  }
}

std::vector<FlatNode::Member> FlatNode::members() const {
  std::vector<Member> out;
  if (m_at == nullptr || tag_of(m_at) != Tag::object) {
    return out;
  }
  const std::uint32_t count = get<std::uint32_t>(m_at + 1);
  out.reserve(count);
  const char* at = m_at + k_container_header;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::string_view key = text_at(at);
    const FlatNode value(key.data() + key.size());
    out.push_back({key, value});
    at = after(value.m_at);
  }
  return out;
}

std::vector<FlatNode> FlatNode::elements() const {
  std::vector<FlatNode> out;
  if (m_at == nullptr || tag_of(m_at) != Tag::array) {
    return out;
  }
  const std::uint32_t count = get<std::uint32_t>(m_at + 1);
  out.reserve(count);
  const char* at = m_at + k_container_header;
  for (std::uint32_t i = 0; i < count; ++i) {
    out.push_back(FlatNode(at));
    at = after(at);
  }
  return out;
}

Json FlatNode::to_json() const {
  if (m_at == nullptr) {
    return nullptr;
  }
  switch (tag_of(m_at)) {
  case Tag::no:
    return false;
  case Tag::yes:
    return true;
  case Tag::integer:
    return get<std::int64_t>(m_at + 1);
  case Tag::unsigned_integer:
    return get<std::uint64_t>(m_at + 1);
  case Tag::floating:
    return get<double>(m_at + 1);
  case Tag::string:
    return std::string(string());
  case Tag::array: {
    Json out = Json::array();
    for (const FlatNode& element : elements()) {
      out.push_back(element.to_json());
    }
    return out;
  }
  case Tag::object: {
    Json out = Json::object();
    for (const Member& member : members()) {
      out[std::string(member.key)] = member.value.to_json();
    }
    return out;
  }
  default:
    return nullptr;
  }
}

} // namespace opm::json
