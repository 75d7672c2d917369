// One compiled gettext catalog (a .mo file made by msgfmt from po/<lang>.po), read into a hash
// map once and then only read: lookups are safe from any number of threads.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cal {

class MessageCatalog {
 public:
  // Parses the bytes of a .mo file (either byte order, format revision 0 or 1). Entries with an
  // empty msgid (the header) or an empty translation are skipped; of a plural entry the singular
  // forms are kept; entries with a message context are skipped. Returns nullopt and sets *error
  // when the bytes are not a well-formed .mo file.
  static std::optional<MessageCatalog> parse(std::string_view bytes, std::string* error);
  // Reads and parses the .mo file at `path`; nullopt with *error set when unreadable or malformed.
  static std::optional<MessageCatalog> read(const std::string& path, std::string* error);

  // The translation of `msgid`, or nullptr when the catalog has none. The pointer stays valid as
  // long as the catalog.
  const std::string* find(std::string_view msgid) const;
  // How many translations the catalog holds.
  std::size_t size() const { return messages_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> messages_;
};

}  // namespace cal
