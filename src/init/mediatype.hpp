#pragma once

#include "util/error.hpp"

#include <string>
#include <string_view>

// Icon media type detection, by leading bytes only, as upstream opm does it
// (h2non/filetype's matcher order, as alpha/action/init.go uses it): SVG first, then application,
// image, video, audio, font, document and archive signatures, first match wins.
namespace opm::init {

// The MIME type of `data` ("image/png", "application/pdf"), or "" when no signature
// matches. Fails with "Empty buffer" when `data` is empty.
Result<std::string> detect_mediatype(std::string_view data);

// The SVG test: the first 24 bytes look like text, and once every <!-- ... --> comment
// is removed the whole content is an <svg ...> ... </svg> element, case-insensitively,
// with optional XML declaration, doctype and surrounding whitespace, and no '*'
// anywhere after the opening tag.
bool is_svg(std::string_view data);

} // namespace opm::init
