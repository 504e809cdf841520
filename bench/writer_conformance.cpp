// Checks the JSON and YAML writers against upstream's renders of a whole catalog and times
// them. Reads <dir>/render.json (upstream `opm render <catalog> -o json`) and
// <dir>/render.yaml (the same with -o yaml):
//   1. every object of render.json, written with append_yaml and prefixed with "---\n",
//      must give render.yaml byte for byte;
//   2. the objects turned back into a DeclarativeConfig and written with write() must give
//      render.json and render.yaml byte for byte.
// Usage: writer_conformance <dir> [repeats]
#include "catalog/write.hpp"
#include "yaml/value.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Go's encoder ends each indented object with "\n}\n".
using opm::Json;

std::vector<Json> split_objects(const std::string& text) {
  std::vector<Json> objects;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find("\n}\n", start);
    end = end == std::string::npos ? text.size() : end + 3;
    objects.push_back(Json::parse(text.begin() + static_cast<std::ptrdiff_t>(start),
                                  text.begin() + static_cast<std::ptrdiff_t>(end)));
    start = end;
  }
  return objects;
}

std::string base64_decode(const std::string& in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z')
      return c - 'A';
    if (c >= 'a' && c <= 'z')
      return c - 'a' + 26;
    if (c >= '0' && c <= '9')
      return c - '0' + 52;
    if (c == '+')
      return 62;
    if (c == '/')
      return 63;
    return -1;
  };
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char c : in) {
    const int v = value(c);
    if (v < 0)
      continue;
    bits = (bits << 6) | static_cast<unsigned>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

std::string str(const Json& o, const char* key) {
  auto it = o.find(key);
  return it == o.end() || !it->is_string() ? std::string() : it->get<std::string>();
}

std::vector<opm::catalog::Property> properties(const Json& o) {
  std::vector<opm::catalog::Property> out;
  if (auto it = o.find("properties"); it != o.end()) {
    for (const Json& p : *it) {
      out.push_back({p.at("type").get<std::string>(), p.at("value")});
    }
  }
  return out;
}

opm::catalog::DeclarativeConfig to_config(const std::vector<Json>& objects) {
  opm::catalog::DeclarativeConfig cfg;
  for (const Json& o : objects) {
    const std::string schema = str(o, "schema");
    if (schema == "olm.package") {
      opm::catalog::Package p;
      p.name = str(o, "name");
      p.default_channel = str(o, "defaultChannel");
      p.description = str(o, "description");
      if (auto it = o.find("icon"); it != o.end()) {
        opm::catalog::Icon icon;
        if (!it->at("base64data").is_null()) {
          icon.data = base64_decode(it->at("base64data").get<std::string>());
        }
        icon.mediatype = str(*it, "mediatype");
        p.icon = icon;
      }
      p.properties = properties(o);
      cfg.packages.push_back(std::move(p));
    } else if (schema == "olm.channel") {
      opm::catalog::Channel c;
      c.name = str(o, "name");
      c.package = str(o, "package");
      if (!o.at("entries").is_null()) {
        c.entries.emplace();
        for (const Json& e : o.at("entries")) {
          opm::catalog::ChannelEntry entry;
          entry.name = str(e, "name");
          entry.replaces = str(e, "replaces");
          entry.skip_range = str(e, "skipRange");
          if (auto it = e.find("skips"); it != e.end()) {
            entry.skips = it->get<std::vector<std::string>>();
          }
          c.entries->push_back(std::move(entry));
        }
      }
      c.properties = properties(o);
      cfg.channels.push_back(std::move(c));
    } else if (schema == "olm.bundle") {
      opm::catalog::Bundle b;
      b.name = str(o, "name");
      b.package = str(o, "package");
      b.image = str(o, "image");
      b.properties = properties(o);
      if (auto it = o.find("relatedImages"); it != o.end()) {
        for (const Json& r : *it) {
          b.related_images.push_back({str(r, "name"), str(r, "image")});
        }
      }
      cfg.bundles.push_back(std::move(b));
    } else if (schema == "olm.deprecations") {
      opm::catalog::Deprecation d;
      d.package = str(o, "package");
      if (!o.at("entries").is_null()) {
        d.entries.emplace();
        for (const Json& e : o.at("entries")) {
          d.entries->push_back({{str(e.at("reference"), "schema"), str(e.at("reference"), "name")},
                                str(e, "message")});
        }
      }
      cfg.deprecations.push_back(std::move(d));
    } else {
      cfg.others.push_back({schema, str(o, "package"), str(o, "name"), o, {}});
    }
  }
  return cfg;
}

bool same(const std::string& what, const std::string& got, const std::string& want) {
  if (got == want) {
    std::cout << what << ": identical (" << got.size() << " bytes)\n";
    return true;
  }
  const auto diff = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
  const std::size_t at = static_cast<std::size_t>(diff.first - got.begin());
  const std::size_t line = static_cast<std::size_t>(std::count(got.begin(), diff.first, '\n')) + 1;
  const std::size_t from = at > 300 ? at - 300 : 0;
  std::cout << what << ": DIFFERS at byte " << at << " (line " << line << ")\n--- got:\n"
            << got.substr(from, 500) << "\n--- want:\n"
            << want.substr(from, 500) << "\n";
  return false;
}

template <typename F> double best_seconds(int repeats, F f) {
  double best = 1e9;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: writer_conformance <dir with render.json and render.yaml> [repeats]\n";
    return 2;
  }
  const std::string dir = argv[1];
  const int repeats = argc > 2 ? std::stoi(argv[2]) : 5;
  const std::string want_json = read_file(dir + "/render.json");
  const std::string want_yaml = read_file(dir + "/render.yaml");
  const std::vector<Json> objects = split_objects(want_json);

  bool ok = true;
  std::string yaml;
  for (const Json& o : objects) {
    yaml += "---\n";
    opm::yaml::append(yaml, o);
  }
  ok = same("append_yaml of each object", yaml, want_yaml) && ok;

  const opm::catalog::DeclarativeConfig cfg = to_config(objects);
  std::ostringstream json_out;
  opm::catalog::write(cfg, opm::catalog::Format::json, json_out);
  ok = same("write json", json_out.str(), want_json) && ok;
  std::ostringstream yaml_out;
  opm::catalog::write(cfg, opm::catalog::Format::yaml, yaml_out);
  ok = same("write yaml", yaml_out.str(), want_yaml) && ok;

  const double json_s = best_seconds(repeats, [&] {
    std::ostringstream s;
    opm::catalog::write(cfg, opm::catalog::Format::json, s);
  });
  const double yaml_s = best_seconds(repeats, [&] {
    std::ostringstream s;
    opm::catalog::write(cfg, opm::catalog::Format::yaml, s);
  });
  std::cout << "write json: " << json_s << " s, write yaml: " << yaml_s << " s (best of " << repeats
            << ", " << objects.size() << " objects)\n";
  return ok ? 0 : 1;
}
