// The sync token of GET /changes (docs/sync.md): a position in the change log, opaque to clients.
// It holds the 16 shard counters the answer was read up to (schema.sql data_version: each shard's
// log is gap-free and in commit order, so "shard s up to V" is an exact position) and the
// database clock of the read (for the retention and for scheduled posts that come due). Encoded
// as base64url of "1.<16 counters>.<clock>.<checksum>", so that a mangled token is told from an
// old one (400, not 410).
#pragma once

#include "cal/store/data_version.h"

#include <optional>
#include <string>
#include <string_view>

namespace cal {

struct SyncToken {
  ShardVersions shards{};
  long long at = 0;  // the database clock when the position was read, Unix seconds
};

std::string encode_sync_token(const SyncToken& token);

// nullopt for anything encode_sync_token did not produce (bad characters, wrong shape, negative
// numbers, a checksum that does not match).
std::optional<SyncToken> decode_sync_token(std::string_view text);

// Whether the token is older than the retention at `now` (database clock, Unix seconds): the log
// it points into may be pruned, so the client must resync (410).
bool sync_token_expired(const SyncToken& token, long long now, double retention_days);

}  // namespace cal
