// The page of `baton view`: the template (tools/baton/view/, embedded at build time) with the style,
// the script and the frame's JSON put in place. Nothing is fetched at view time.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "baton/view.hpp"
#include "template.hpp"

namespace baton::view {
namespace {

// JSON inside <script>: no string may close the element ("</script>"), open a comment ("<!--",
// which changes how the script element ends) or a CDATA section, and U+2028/U+2029 end a line in
// older JavaScript. Every '<', '>', '&', U+2028 and U+2029 becomes its \u escape. In JSON these
// characters appear only inside strings, where the escape means the same character, so the data is
// unchanged and the text stays valid JSON.
std::string script_safe(const std::string& json) {
  std::string out;
  out.reserve(json.size() + 16);
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else if (c == '\xe2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
             (json[i + 2] == '\xa8' || json[i + 2] == '\xa9')) {
      out += json[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string html_text(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string render_html(const Frame& f, Api initial) {
  const std::string_view tpl = detail::kViewHtml;
  struct Slot {
    std::string_view marker;
    std::string text;
    size_t at = std::string_view::npos;
  };
  std::vector<Slot> slots = {
      {"BATON_VIEW_TITLE", html_text(f.source)},
      {"/*BATON_VIEW_CSS*/", std::string(detail::kViewCss)},
      {"/*BATON_VIEW_JS*/", std::string(detail::kViewJs)},
      {"/*BATON_VIEW_DATA*/",
       script_safe(
           frame_json(f, initial).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace))},
  };
  // Markers are found in the template alone, so no inserted text (a file name, a resource name) can
  // be mistaken for one.
  for (Slot& s : slots) {
    s.at = tpl.find(s.marker);
    if (s.at == std::string_view::npos)
      throw Error("baton view: the page template lacks " + std::string(s.marker));
  }
  std::sort(slots.begin(), slots.end(), [](const Slot& a, const Slot& b) { return a.at < b.at; });
  std::string page;
  size_t from = 0;
  for (const Slot& s : slots) {
    page.append(tpl.substr(from, s.at - from));
    page += s.text;
    from = s.at + s.marker.size();
  }
  page.append(tpl.substr(from));
  return page;
}

}  // namespace baton::view
