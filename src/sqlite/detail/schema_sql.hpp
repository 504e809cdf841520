#pragma once

#include <string_view>

// The statements that create the index database's tables, indexes and triggers, with the
// whitespace upstream's migrations use (tabs, stray spaces, trailing blanks). SQLite keeps
// each CREATE statement's text in sqlite_master as it was written, so `sqlite3 index.db .dump`
// of our database equals upstream's only when the text is the same to the byte. The escapes
// keep every tab and trailing blank visible.
namespace opm::sqlite::detail {

inline constexpr std::string_view k_create_migrations_table =
    "\n\tCREATE TABLE IF NOT EXISTS schema_migrations (\n"
    "\t\tversion bigint NOT NULL,\n"
    "        timestamp DATETIME DEFAULT CURRENT_TIMESTAMP\n"
    "\t);\n\t";

inline constexpr std::string_view k_step0 =
    "\n\t\tCREATE TABLE IF NOT EXISTS operatorbundle (\n"
    "\t\t\tname TEXT PRIMARY KEY,\n"
    "\t\t\tcsv TEXT UNIQUE,\n"
    "\t\t\tbundle TEXT\n"
    "\t\t);\n"
    "\t\tCREATE TABLE IF NOT EXISTS package (\n"
    "\t\t\tname TEXT PRIMARY KEY,\n"
    "\t\t\tdefault_channel TEXT,\n"
    "\t\t\tFOREIGN KEY(name, default_channel) REFERENCES channel(package_name,name)\n"
    "\t\t);\n"
    "\t\tCREATE TABLE IF NOT EXISTS channel (\n"
    "\t\t\tname TEXT,\n"
    "\t\t\tpackage_name TEXT,\n"
    "\t\t\thead_operatorbundle_name TEXT,\n"
    "\t\t\tPRIMARY KEY(name, package_name),\n"
    "\t\t\tFOREIGN KEY(package_name) REFERENCES package(name),\n"
    "\t\t\tFOREIGN KEY(head_operatorbundle_name) REFERENCES operatorbundle(name)\n"
    "\t\t);\n"
    "\t\tCREATE TABLE IF NOT EXISTS channel_entry (\n"
    "\t\t\tentry_id INTEGER PRIMARY KEY,\n"
    "\t\t\tchannel_name TEXT,\n"
    "\t\t\tpackage_name TEXT,\n"
    "\t\t\toperatorbundle_name TEXT,\n"
    "\t\t\treplaces INTEGER,\n"
    "\t\t\tdepth INTEGER,\n"
    "\t\t\tFOREIGN KEY(replaces) REFERENCES channel_entry(entry_id)  DEFERRABLE INITIALLY "
    "DEFERRED,\n"
    "\t\t\tFOREIGN KEY(channel_name, package_name) REFERENCES channel(name, package_name)\n"
    "\t\t);\n"
    "\t\tCREATE TABLE IF NOT EXISTS api (\n"
    "\t\t\tgroup_name TEXT,\n"
    "\t\t\tversion TEXT,\n"
    "\t\t\tkind TEXT,\n"
    "\t\t\tplural TEXT NOT NULL,\n"
    "\t\t\tPRIMARY KEY(group_name, version, kind)\n"
    "\t\t);\n"
    "\t\tCREATE TABLE IF NOT EXISTS api_provider (\n"
    "\t\t\tgroup_name TEXT,\n"
    "\t\t\tversion TEXT,\n"
    "\t\t\tkind TEXT,\n"
    "\t\t\tchannel_entry_id INTEGER,\n"
    "\t\t\tFOREIGN KEY(channel_entry_id) REFERENCES channel_entry(entry_id),\n"
    "\t\t\tFOREIGN KEY(group_name, version, kind) REFERENCES api(group_name, version, kind)\n"
    "\t\t);\n\t\t";

inline constexpr std::string_view k_step1 =
    "\n\t\tCREATE TABLE IF NOT EXISTS related_image (\n"
    "\t\t\timage TEXT,\n"
    "     \t\toperatorbundle_name TEXT,\n"
    "     \t\tFOREIGN KEY(operatorbundle_name) REFERENCES operatorbundle(name)\n"
    "\t\t);\n\t\t";

inline constexpr std::string_view k_step2 = "\n\t\tALTER TABLE operatorbundle \n"
                                            "\t\tADD COLUMN bundlepath TEXT;\n\t\t";

inline constexpr std::string_view k_step3 =
    "\n\t\tCREATE TABLE IF NOT EXISTS api_requirer (\n"
    "\t\t\tgroup_name TEXT,\n"
    "\t\t\tversion TEXT,\n"
    "\t\t\tkind TEXT,\n"
    "\t\t\tchannel_entry_id INTEGER,\n"
    "\t\t\tFOREIGN KEY(channel_entry_id) REFERENCES channel_entry(entry_id),\n"
    "\t\t\tFOREIGN KEY(group_name, version, kind) REFERENCES api(group_name, version, kind)\n"
    "\t\t);\n\t\t";

// Step 4 renames each table to <name>_old, creates these, copies the rows and drops the old.
inline constexpr std::string_view k_step4_operatorbundle = "\n\t\tCREATE TABLE operatorbundle (\n"
                                                           "\t\t\tname TEXT PRIMARY KEY,\n"
                                                           "\t\t\tcsv TEXT,\n"
                                                           "\t\t\tbundle TEXT,\n"
                                                           "\t\t\tbundlepath TEXT);";

inline constexpr std::string_view k_step4_package =
    "\n\t\tCREATE TABLE package (\n"
    "\t\t\tname TEXT PRIMARY KEY,\n"
    "\t\t\tdefault_channel TEXT,\n"
    "\t\t\tFOREIGN KEY(name, default_channel) REFERENCES channel(package_name,name) ON DELETE "
    "CASCADE\n"
    "\t\t);";

inline constexpr std::string_view k_step4_channel =
    "\n\t\tCREATE TABLE channel (\n"
    "\t\t\tname TEXT,\n"
    "\t\t\tpackage_name TEXT,\n"
    "\t\t\thead_operatorbundle_name TEXT,\n"
    "\t\t\tPRIMARY KEY(name, package_name),\n"
    "\t\t\tFOREIGN KEY(head_operatorbundle_name) REFERENCES operatorbundle(name) ON DELETE "
    "CASCADE\n"
    "\t\t);";

inline constexpr std::string_view k_step4_channel_entry =
    "\n\t\tCREATE TABLE channel_entry (\n"
    "\t\t\tentry_id INTEGER PRIMARY KEY,\n"
    "\t\t\tchannel_name TEXT,\n"
    "\t\t\tpackage_name TEXT,\n"
    "\t\t\toperatorbundle_name TEXT,\n"
    "\t\t\treplaces INTEGER,\n"
    "\t\t\tdepth INTEGER,\n"
    "\t\t\tFOREIGN KEY(replaces) REFERENCES channel_entry(entry_id) DEFERRABLE INITIALLY "
    "DEFERRED, \n"
    "\t\t\tFOREIGN KEY(channel_name, package_name) REFERENCES channel(name, package_name) ON "
    "DELETE CASCADE\n"
    "\t\t);";

inline constexpr std::string_view k_step4_api_provider =
    "\n\t\tCREATE TABLE api_provider (\n"
    "\t\t\tgroup_name TEXT,\n"
    "\t\t\tversion TEXT,\n"
    "\t\t\tkind TEXT,\n"
    "\t\t\tchannel_entry_id INTEGER,\n"
    "\t\t\tPRIMARY KEY(group_name, version, kind, channel_entry_id),\n"
    "\t\t\tFOREIGN KEY(channel_entry_id) REFERENCES channel_entry(entry_id) ON DELETE CASCADE,\n"
    "\t\t\tFOREIGN KEY(group_name, version, kind) REFERENCES api(group_name, version, kind)\n"
    "\t\t);";

inline constexpr std::string_view k_step4_related_image =
    "\n\t\tCREATE TABLE related_image (\n"
    "\t\t\timage TEXT,\n"
    "     \t\toperatorbundle_name TEXT,\n"
    "     \t\tFOREIGN KEY(operatorbundle_name) REFERENCES operatorbundle(name) ON DELETE "
    "CASCADE\n"
    "\t\t);";

inline constexpr std::string_view k_step4_api_requirer =
    "\n\t\tCREATE TABLE api_requirer (\n"
    "\t\t\tgroup_name TEXT,\n"
    "\t\t\tversion TEXT,\n"
    "\t\t\tkind TEXT,\n"
    "\t\t\tchannel_entry_id INTEGER,\n"
    "\t\t\tPRIMARY KEY(group_name, version, kind, channel_entry_id),\n"
    "\t\t\tFOREIGN KEY(channel_entry_id) REFERENCES channel_entry(entry_id) ON DELETE CASCADE,\n"
    "\t\t\tFOREIGN KEY(group_name, version, kind) REFERENCES api(group_name, version, kind)\n"
    "\t\t);";

inline constexpr std::string_view k_step5 = "\n\t\tALTER TABLE operatorbundle \n"
                                            "\t\tADD COLUMN skiprange TEXT;\n"
                                            "\n"
                                            "\t\tALTER TABLE operatorbundle \n"
                                            "\t\tADD COLUMN version TEXT;\n\t\t";

inline constexpr std::string_view k_step6_create =
    "\n\t\tCREATE TABLE api_provider_new (\n"
    "\t\t\tgroup_name TEXT,\n"
    "\t\t\tversion TEXT,\n"
    "\t\t\tkind TEXT,\n"
    "\t\t\toperatorbundle_name TEXT,\n"
    "\t\t\toperatorbundle_version TEXT,\n"
    "\t\t\toperatorbundle_path TEXT,\n"
    "\t\t\tFOREIGN KEY(operatorbundle_name, operatorbundle_version, operatorbundle_path) "
    "REFERENCES operatorbundle(name, version, bundlepath) ON DELETE CASCADE DEFERRABLE "
    "INITIALLY DEFERRED,\n"
    "\t\t\tFOREIGN KEY(group_name, version, kind) REFERENCES api(group_name, version, kind) ON "
    "DELETE CASCADE\n"
    "\t\t);\n"
    "\t\tCREATE TABLE api_requirer_new (\n"
    "\t\t\tgroup_name TEXT,\n"
    "\t\t\tversion TEXT,\n"
    "\t\t\tkind TEXT,\n"
    "\t\t\toperatorbundle_name TEXT,\n"
    "\t\t\toperatorbundle_version TEXT,\n"
    "\t\t\toperatorbundle_path TEXT,\n"
    "\t\t\tFOREIGN KEY(operatorbundle_name, operatorbundle_version, operatorbundle_path) "
    "REFERENCES operatorbundle(name, version, bundlepath) ON DELETE CASCADE DEFERRABLE "
    "INITIALLY DEFERRED,\n"
    "\t\t\tFOREIGN KEY(group_name, version, kind) REFERENCES api(group_name, version, kind) ON "
    "DELETE CASCADE\n"
    "\t\t);\n"
    "\t\tCREATE UNIQUE INDEX pk ON operatorbundle(name, version, bundlepath);\n\t\t";

// The trigger's WHEN clause: the requirer's copy ends its last line with a tab.
#define OPM_SCHEMA_CLEANUP_TRIGGER(TABLE, AFTER_CONDITION)                                         \
  "CREATE TRIGGER " TABLE "_cleanup\n"                                                             \
  "\t\tAFTER DELETE ON " TABLE "\n"                                                                \
  "\t\tWHEN NOT EXISTS (SELECT 1 FROM api_provider JOIN api_requirer WHERE \n"                     \
  "\t\t    (api_provider.group_name = OLD.group_name AND api_provider.version = OLD.version "      \
  "AND api_provider.kind = OLD.kind) OR \n"                                                        \
  "\t\t\t(api_requirer.group_name = OLD.group_name AND api_requirer.version = OLD.version AND "    \
  "api_requirer.kind = OLD.kind))" AFTER_CONDITION "\n"                                            \
  "\t\tBEGIN\n"                                                                                    \
  "\t\t\tDELETE FROM api WHERE group_name = OLD.group_name AND version = OLD.version AND kind "    \
  "= OLD.kind;\n"                                                                                  \
  "\t\tEND;\n"

// Step 7: two columns, then the two triggers.
inline constexpr std::string_view k_step7_columns = "\n\t\tALTER TABLE operatorbundle \n"
                                                    "\t\tADD COLUMN replaces TEXT;\n"
                                                    "\n"
                                                    "\t\tALTER TABLE operatorbundle \n"
                                                    "\t\tADD COLUMN skips TEXT;\n";
inline constexpr std::string_view k_step7_provider_trigger =
    OPM_SCHEMA_CLEANUP_TRIGGER("api_provider", "");
inline constexpr std::string_view k_step7_requirer_trigger =
    OPM_SCHEMA_CLEANUP_TRIGGER("api_requirer", "\t");

#undef OPM_SCHEMA_CLEANUP_TRIGGER

// Steps 8 and 9 create tables of the same shape.
#define OPM_SCHEMA_BUNDLE_VALUES_TABLE(TABLE)                                                      \
  "\n\t\tCREATE TABLE IF NOT EXISTS " TABLE " (\n"                                                 \
  "\t\t\ttype TEXT,\n"                                                                             \
  "\t\t\tvalue TEXT,\n"                                                                            \
  "\t\t\toperatorbundle_name TEXT,\n"                                                              \
  "\t\t\toperatorbundle_version TEXT,\n"                                                           \
  "\t\t\toperatorbundle_path TEXT,\n"                                                              \
  "\t\t\tFOREIGN KEY(operatorbundle_name, operatorbundle_version, operatorbundle_path) "           \
  "REFERENCES operatorbundle(name, version, bundlepath) ON DELETE CASCADE\n"                       \
  "\t\t);\n\t\t"

inline constexpr std::string_view k_step8 = OPM_SCHEMA_BUNDLE_VALUES_TABLE("dependencies");
inline constexpr std::string_view k_step9 = OPM_SCHEMA_BUNDLE_VALUES_TABLE("properties");

#undef OPM_SCHEMA_BUNDLE_VALUES_TABLE

inline constexpr std::string_view k_step11 = "\n\t\tALTER TABLE operatorbundle \n"
                                             "\t\tADD COLUMN substitutesfor TEXT;\n\t\t";

inline constexpr std::string_view k_step12_create =
    "\n\t\tCREATE TABLE IF NOT EXISTS deprecated (\n"
    "\t\t\toperatorbundle_name TEXT PRIMARY KEY\n"
    "\t\t);\n\t\t";

} // namespace opm::sqlite::detail
