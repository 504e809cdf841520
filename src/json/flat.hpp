#pragma once

#include "json/value.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A decoded value kept in one string to be read later: each node is a tag byte and its
// content, strings as they are (not escaped), containers with their sizes so that a reader
// steps over a member without reading it. Making it is a walk and a copy of the strings, where
// JSON text would also cost their escaping; reading it needs no parsing.
namespace opm::json {

// Makes flat values, its buffer reused from one to the next so that a value costs no
// reallocation once the buffer has grown to the largest.
class Flattener {
public:
  // The flat form of `value`, a view of the buffer valid until the next call, or nullopt when
  // one of its strings or containers does not fit the form's 32-bit sizes.
  std::optional<std::string_view> flatten(const Json& value);

private:
  std::string m_buffer;
};

struct FlatMember;

// One node of a flat value: a view into the string Flattener::flatten() made, which must outlive
// it. A default node is absent (no such member).
class FlatNode {
public:
  using Member = FlatMember;

  FlatNode() = default;
  // The root of a flat value.
  static FlatNode root(std::string_view flat) { return FlatNode(flat.data()); }

  [[nodiscard]] bool absent() const { return m_at == nullptr; }
  [[nodiscard]] bool is_null() const;
  [[nodiscard]] bool is_true() const;
  [[nodiscard]] bool is_number() const;
  // The string, or "" when the node is not one.
  [[nodiscard]] std::string_view string() const;
  // A number as nlohmann's get<long long>() reads it (a float truncated); 0 when not one.
  [[nodiscard]] long long integer() const;
  // An object's members in their order, or none when the node is not an object.
  [[nodiscard]] std::vector<Member> members() const;
  // An array's elements, or none when the node is not an array.
  [[nodiscard]] std::vector<FlatNode> elements() const;
  // The node as the value it was made from (null when absent).
  [[nodiscard]] Json to_json() const;

private:
  explicit FlatNode(const char* at) : m_at(at) {}

  const char* m_at = nullptr; // the node's tag
};

struct FlatMember {
  std::string_view key;
  FlatNode value;
};

} // namespace opm::json
