// Reads compiled gettext catalogs (see cal/core/i18n/message_catalog.h). The .mo layout (GNU gettext
// manual, "The Format of GNU MO Files"): a magic number, a revision, the number of strings N,
// the offsets of the original and the translation tables; each table holds N (length, offset)
// pairs pointing at NUL-terminated strings.
#include "cal/core/i18n/message_catalog.h"

#include <cstddef>
#include <cstdint>
#include <fstream>

namespace cal {
namespace {

constexpr std::uint32_t kMagic = 0x950412de;
constexpr std::uint32_t kMagicSwapped = 0xde120495;

// Reads little- or big-endian 32-bit words at byte offsets, refusing reads past the end.
class WordReader {
 public:
  WordReader(std::string_view bytes, bool swapped) : bytes_(bytes), swapped_(swapped) {}

  std::optional<std::uint32_t> at(std::size_t offset) const {
    if (offset > bytes_.size() || bytes_.size() - offset < 4) return std::nullopt;
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const auto byte = static_cast<std::uint32_t>(
          static_cast<unsigned char>(bytes_[offset + static_cast<std::size_t>(i)]));
      v |= swapped_ ? byte << (8 * (3 - i)) : byte << (8 * i);
    }
    return v;
  }

  // The string described by the (length, offset) pair at `entry`.
  std::optional<std::string_view> string(std::size_t entry) const {
    const auto length = at(entry);
    const auto offset = at(entry + 4);
    if (!length || !offset || *offset > bytes_.size() || bytes_.size() - *offset < *length)
      return std::nullopt;
    return bytes_.substr(*offset, *length);
  }

 private:
  std::string_view bytes_;
  bool swapped_;
};

std::optional<std::uint32_t> read_magic(std::string_view bytes) {
  if (bytes.size() < 4) return std::nullopt;
  return WordReader(bytes, false).at(0);
}

}  // namespace

std::optional<MessageCatalog> MessageCatalog::parse(std::string_view bytes, std::string* error) {
  auto fail = [error](const char* why) {
    if (error) *error = why;
    return std::nullopt;
  };
  const auto magic = read_magic(bytes);
  if (!magic || (*magic != kMagic && *magic != kMagicSwapped))
    return fail("not a .mo file (bad magic number)");
  const WordReader words(bytes, *magic == kMagicSwapped);
  const auto revision = words.at(4);
  const auto count = words.at(8);
  const auto originals = words.at(12);
  const auto translations = words.at(16);
  if (!revision || !count || !originals || !translations) return fail("truncated .mo header");
  if ((*revision >> 16) > 1) return fail("unsupported .mo format revision");
  MessageCatalog catalog;
  catalog.messages_.reserve(*count);
  for (std::uint32_t i = 0; i < *count; ++i) {
    const auto msgid = words.string(static_cast<std::size_t>(*originals) + 8u * i);
    const auto msgstr = words.string(static_cast<std::size_t>(*translations) + 8u * i);
    if (!msgid || !msgstr) return fail("truncated .mo string table");
    if (msgid->empty() || msgstr->empty()) continue;              // the header; untranslated
    if (msgid->find('\x04') != std::string_view::npos) continue;  // msgctxt: not used here
    // Plural entries hold "singular\0plural" and "form0\0form1...": keep the singular forms.
    const std::string_view key = msgid->substr(0, msgid->find('\0'));
    const std::string_view value = msgstr->substr(0, msgstr->find('\0'));
    if (!value.empty()) catalog.messages_.emplace(std::string(key), std::string(value));
  }
  return catalog;
}

std::optional<MessageCatalog> MessageCatalog::read(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot read " + path;
    return std::nullopt;
  }
  // One read of the whole file: a CGI process reads every catalog per request, and reading
  // through istreambuf_iterator a byte at a time was most of the catalogs' cost.
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  std::string bytes(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  if (size < 0 || !in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    if (error) *error = "cannot read " + path;
    return std::nullopt;
  }
  std::string why;
  auto catalog = parse(bytes, &why);
  if (!catalog && error) *error = path + ": " + why;
  return catalog;
}

const std::string* MessageCatalog::find(std::string_view msgid) const {
  const auto it = messages_.find(msgid);
  return it == messages_.end() ? nullptr : &it->second;
}

}  // namespace cal
