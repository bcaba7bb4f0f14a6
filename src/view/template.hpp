// The page template of `baton view`, embedded at build time from tools/baton/view/ by
// cmake/embed_view.cmake (the generated view_template.cpp defines these).
#pragma once

#include <string_view>

namespace baton::view::detail {

extern const std::string_view kViewHtml;
extern const std::string_view kViewCss;
extern const std::string_view kViewJs;

}  // namespace baton::view::detail
