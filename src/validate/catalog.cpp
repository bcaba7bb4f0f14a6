// The message catalog as a constexpr table built from the X-macro in validate_catalog.hpp.
#include <algorithm>
#include <array>
#include <baton/core.hpp>
#include <baton/validate_catalog.hpp>

namespace baton::validate {

namespace {
constexpr std::array kCatalog{
#define BATON_X(e, id, name, sev, text) CatalogEntry{MessageId::e, name, Severity::sev, text},
    BATON_VALIDATE_MESSAGES(BATON_X)
#undef BATON_X
};
static_assert(std::is_sorted(kCatalog.begin(), kCatalog.end(),
                             [](const CatalogEntry& a, const CatalogEntry& b) { return a.id < b.id; }),
              "catalog rows must be in id order (and ids unique)");
}  // namespace

std::span<const CatalogEntry> catalog() {
  return kCatalog;
}

const CatalogEntry& catalog_entry(MessageId id) {
  const auto it = std::lower_bound(kCatalog.begin(), kCatalog.end(), id,
                                   [](const CatalogEntry& e, MessageId v) { return e.id < v; });
  if (it == kCatalog.end() || it->id != id) throw Error("validator: message id not in the catalog");
  return *it;
}

std::string_view to_string(Severity s) {
  return s == Severity::error ? "error" : "warning";
}

}  // namespace baton::validate
