#pragma once

#include <string_view>

// The common table expressions behind every "one row per bundle per channel" query (ListBundles
// and the conversion to a file-based catalog). A channel's rows in channel_entry are inbound
// upgrade edges. The main chain is what is reachable along `replaces` from the entries at the
// smallest depth (the heads); a bundle's single replaces is the bundle its main-chain entry
// points to, and every other edge out of its entries is a skip. Properties and dependencies
// come as JSON arrays of {type, value}.
//
//   bundle_replaces (entry_id, operatorbundle_name, package_name, channel_name, replaces)
//   bundle_skips (operatorbundle_name, package_name, channel_name, skips)  -- comma-joined
//   bundle_properties (name, list), bundle_dependencies (name, list)
namespace opm::sqlite::detail {

constexpr std::string_view k_bundle_edges = R"(
WITH RECURSIVE
head_depth (depth) AS (
  SELECT min(depth) FROM channel_entry
),
main_chain (entry_id, replaces) AS (
  SELECT entry_id, replaces FROM channel_entry
    INNER JOIN head_depth ON channel_entry.depth = head_depth.depth
  UNION
  SELECT next.entry_id, next.replaces FROM channel_entry AS next
    INNER JOIN main_chain ON next.entry_id = main_chain.replaces
),
bundle_replaces (entry_id, operatorbundle_name, package_name, channel_name, replaces) AS (
  SELECT min(entry.entry_id), entry.operatorbundle_name, entry.package_name, entry.channel_name,
         max(target.operatorbundle_name)
    FROM channel_entry AS entry
      LEFT OUTER JOIN main_chain ON entry.entry_id = main_chain.entry_id
      LEFT OUTER JOIN channel_entry AS target ON main_chain.replaces = target.entry_id
    GROUP BY entry.operatorbundle_name, entry.package_name, entry.channel_name
),
skip_edges (entry_id, skipped) AS (
  SELECT entry_id, replaces FROM channel_entry WHERE replaces IS NOT NULL
  EXCEPT
  SELECT entry_id, replaces FROM main_chain
),
bundle_skips (operatorbundle_name, package_name, channel_name, skips) AS (
  SELECT entry.operatorbundle_name, entry.package_name, entry.channel_name,
         group_concat(target.operatorbundle_name, ',')
    FROM skip_edges
      INNER JOIN channel_entry AS entry ON skip_edges.entry_id = entry.entry_id
      INNER JOIN channel_entry AS target ON skip_edges.skipped = target.entry_id
    GROUP BY entry.operatorbundle_name, entry.package_name, entry.channel_name
),
bundle_properties (name, list) AS (
  SELECT operatorbundle_name,
         json_group_array(json_object('type', CAST(type AS TEXT), 'value', CAST(value AS TEXT)))
    FROM properties GROUP BY operatorbundle_name
),
bundle_dependencies (name, list) AS (
  SELECT operatorbundle_name,
         json_group_array(json_object('type', CAST(type AS TEXT), 'value', CAST(value AS TEXT)))
    FROM dependencies GROUP BY operatorbundle_name
)
)";

} // namespace opm::sqlite::detail
