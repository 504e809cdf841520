#include "dockerfile/index.hpp"

#include <fmt/format.h>

namespace opm::dockerfile {

std::string index_dockerfile(std::string_view binary_image, std::string_view database_path) {
  if (binary_image.empty()) {
    binary_image = k_default_index_binary_image;
  }
  return fmt::format("FROM {0}\n"
                     "LABEL {1}={2}\n"
                     "ADD {3} {2}\n"
                     "EXPOSE 50051\n"
                     "ENTRYPOINT [\"/bin/opm\"]\n"
                     "CMD [\"registry\", \"serve\", \"--database\", \"{2}\"]\n",
                     binary_image, k_index_database_label, k_index_database_location,
                     database_path);
}

} // namespace opm::dockerfile
