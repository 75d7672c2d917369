// Event records reused from the fragment cache (see cal/api/events/event_fragments.h).
#include "cal/api/events/event_fragments.h"

#include "cal/api/terms/term_records.h"
#include "cal/store/read_set.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

namespace cal {
namespace {

// Which rendering of an event a fragment holds.
enum class Shape : char {
  kList = 'L',    // a list's record: the masked view, no json_ld
  kSingle = 'S',  // a single read's: the full view with json_ld
};

// Everything of the request a record's JSON depends on besides its rows: the shape, the language,
// and the URL bases its links are written with (the host a request names, the mount point).
std::string fragment_key(const RequestContext& ctx, long long id, Shape shape) {
  std::string key = "event|";
  key += std::to_string(id);
  key += '|';
  key += static_cast<char>(shape);
  key += '|';
  key += ctx.locale.name;
  key += '|';
  key += ctx.site_url;
  key += '|';
  key += ctx.rest_root;
  return key;
}

void add_unique(std::vector<long long>& ids, long long id) {
  if (id > 0 && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
}

template <typename Map>
const typename Map::mapped_type* found_in(const Map& map, long long key) {
  const auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

// The venues, organizers, terms and images records are rendered from, kept beside the records
// (cal/store/event_relations.h): as the rows read, under keys of their own (the same whatever the
// language or host), each dropped by a logged change of a record it shows, as a record is.
class FragmentRowKeeper final : public LinkedRowKeeper {
 public:
  explicit FragmentRowKeeper(const FragmentUse& use) : use_(use) {}

  std::shared_ptr<const KeptVenue> venue(long long id) override { return find<KeptVenue>('v', id); }
  std::shared_ptr<const KeptOrganizer> organizer(long long id) override {
    return find<KeptOrganizer>('o', id);
  }
  std::shared_ptr<const KeptTerm> term(long long id) override { return find<KeptTerm>('t', id); }
  std::shared_ptr<const Image> image(long long id) override { return find<Image>('i', id); }

  // Each reads what it needs of `row` before handing it on: arguments have no order.
  void keep(std::shared_ptr<const KeptVenue> row) override {
    const PostRow& post = row->venue.post;
    const std::vector<long long> posts{post.id, row->image ? row->image->id : 0};
    const std::size_t bytes = post_bytes(post, sizeof(KeptVenue));
    store('v', posts.front(), posts, {}, bytes, std::move(row));
  }
  void keep(std::shared_ptr<const KeptOrganizer> row) override {
    const PostRow& post = row->organizer.post;
    const std::vector<long long> posts{post.id, row->image ? row->image->id : 0};
    const std::size_t bytes = post_bytes(post, sizeof(KeptOrganizer));
    store('o', posts.front(), posts, {}, bytes, std::move(row));
  }
  void keep(std::shared_ptr<const KeptTerm> row) override {
    const Term& term = row->term;
    const long long id = term.id;
    const std::size_t bytes = sizeof(KeptTerm) + term.name.size() + term.slug.size() +
                              term.description.size() + row->sort_key.size();
    store('t', id, {}, {id}, bytes, std::move(row));
  }
  void keep(std::shared_ptr<const Image> row) override {
    const long long id = row->id;
    const std::size_t bytes = sizeof(Image) + row->url.size();
    store('i', id, {id}, {}, bytes, std::move(row));
  }

 private:
  static std::string key(char kind, long long id) {
    return std::string("row|") + kind + '|' + std::to_string(id);
  }

  // A venue's or organizer's size: its texts beside the fixed part (the details' short fields
  // counted as a post's).
  static std::size_t post_bytes(const PostRow& post, std::size_t fixed) {
    return fixed + 2 * (post.title.size() + post.content.size() + post.excerpt.size() + post.slug.size());
  }

  template <typename T>
  std::shared_ptr<const T> find(char kind, long long id) {
    const std::shared_ptr<const Fragment> f = use_.cache->find_row(key(kind, id));
    return f ? std::static_pointer_cast<const T>(f->source) : nullptr;
  }

  void store(char kind, long long id, const std::vector<long long>& posts, std::vector<long long> terms,
             std::size_t bytes, std::shared_ptr<const void> row) {
    Fragment f;
    for (long long post : posts) add_unique(f.posts, post);
    f.terms = std::move(terms);
    f.source = std::move(row);
    f.source_bytes = bytes;
    use_.cache->store(key(kind, id), use_.epoch, std::move(f));
  }

  FragmentUse use_;
};

// The buffer a writer writes to, which rapidjson keeps protected (a derived class may name it).
struct WriterBuffer : JsonWriter {
  static JsonBuffer& of(JsonWriter& w) { return *(w.*&WriterBuffer::os_); }
};

void append(JsonBuffer& out, std::string_view bytes) {
  std::memcpy(out.Push(bytes.size()), bytes.data(), bytes.size());
}

// Writes `f`'s JSON as the next value of `w`, with the term records written into its splices in
// the order `terms_of(splice)` gives. The bytes go straight to the buffer, the separator and state
// through the writer: its RawValue copies a byte at a time, a tenth of a list's CPU.
template <typename TermsOf>
void write_spliced(JsonWriter& w, const RequestContext& ctx, const Fragment& f, TermsOf terms_of) {
  w.RawValue("", 0, rapidjson::kObjectType);
  JsonBuffer& out = WriterBuffer::of(w);
  const std::string_view json = f.json;
  JsonWriter term(out);
  std::size_t from = 0;
  for (const TermSplice& splice : f.splices) {
    append(out, json.substr(from, splice.at - from));
    from = splice.at;
    bool first = true;
    for (const Term* t : terms_of(splice)) {
      if (!first) out.Put(',');
      first = false;
      term.Reset(out);
      write_term(term, ctx, *t);
    }
  }
  append(out, json.substr(from));
}

// A record just rendered: its terms as it was rendered from them, in that order.
std::vector<const Term*> rendered_terms(const TermSplice& splice, const Event& event,
                                        const EventRelations& rel) {
  std::vector<const Term*> out;
  for (long long id : splice.ids)
    for (const auto* terms : {found_in(rel.categories, event.post.id), found_in(rel.tags, event.post.id)})
      if (terms)
        for (const Term& t : *terms)
          if (t.id == id) out.push_back(&t);
  return out;
}

}  // namespace

TermRows current_terms(RequestContext& ctx, const std::vector<const Fragment*>& fragments) {
  FragmentRowKeeper keeper(ctx.fragments);
  TermRows rows;
  std::vector<long long> missing;
  for (const Fragment* f : fragments)
    for (const TermSplice& splice : f->splices)
      for (long long id : splice.ids)
        if (const auto [it, added] = rows.emplace(id, nullptr); added) {
          it->second = keeper.term(id);
          if (!it->second) missing.push_back(id);
        }
  for (KeptTerm& found : find_kept_terms(ctx.db, missing)) {
    auto row = std::make_shared<const KeptTerm>(std::move(found));
    rows[row->term.id] = row;
    keeper.keep(std::move(row));
  }
  return rows;
}

std::vector<const Term*> current_order(const TermSplice& splice, const TermRows& rows) {
  std::vector<const KeptTerm*> found;
  for (long long id : splice.ids)
    if (const auto it = rows.find(id); it != rows.end() && it->second) found.push_back(it->second.get());
  std::sort(found.begin(), found.end(), [](const KeptTerm* a, const KeptTerm* b) {
    return a->sort_key != b->sort_key ? a->sort_key < b->sort_key : a->term.id < b->term.id;
  });
  std::vector<const Term*> out;
  for (const KeptTerm* k : found) out.push_back(&k->term);
  return out;
}

namespace {

// Writes a kept record as it reads now: with its terms' current records.
void write_kept(JsonWriter& w, const RequestContext& ctx, const Fragment& f, const TermRows& terms) {
  write_spliced(w, ctx, f, [&](const TermSplice& splice) { return current_order(splice, terms); });
}

// Renders `event`'s record to keep into `f`: its JSON with the term arrays left empty.
void render_fragment(const RequestContext& ctx, const Event& event, const EventRelations& rel, EventView view,
                     bool single, Fragment& f) {
  JsonBuffer buffer;
  JsonWriter writer(buffer);
  TermSlots slots{buffer, {}};
  write_event(writer, ctx, event, rel, view, single, &slots);
  f.json.assign(buffer.GetString(), buffer.GetSize());
  f.splices = std::move(slots.splices);
}

// Writes `event`'s record, its terms from `rel`, and renders it to keep into `f`.
void render_to_keep(JsonWriter& w, const RequestContext& ctx, const Event& event, const EventRelations& rel,
                    EventView view, bool single, Fragment& f) {
  render_fragment(ctx, event, rel, view, single, f);
  write_spliced(w, ctx, f, [&](const TermSplice& splice) { return rendered_terms(splice, event, rel); });
}

// Keeps `f`, the full record of `event` with what it shows, for single reads.
void store_single(RequestContext& ctx, const Event& event, Fragment f) {
  // What the checks read (type, status, author, password), without the texts the JSON holds.
  auto row = std::make_shared<PostRow>(event.post);
  row->title.clear();
  row->content.clear();
  row->excerpt.clear();
  f.source_bytes = sizeof(PostRow) + row->password.size() + row->slug.size();
  f.source = std::move(row);
  ctx.fragments.cache->store(fragment_key(ctx, event.post.id, Shape::kSingle), ctx.fragments.epoch,
                             std::move(f));
}

}  // namespace

bool collect_shown(const Event& event, const EventRelations& rel, Fragment& f) {
  const auto post = [&f](const PostRow& row) {
    add_unique(f.posts, row.id);
    add_unique(f.posts, row.image_id);
    return row.status != "future";
  };
  if (!post(event.post)) return false;
  add_unique(f.posts, event.venue_id);
  if (const Venue* v = found_in(rel.venues, event.venue_id); v && !post(v->post)) return false;
  if (const auto* ids = found_in(rel.organizer_ids, event.post.id))
    for (long long id : *ids) {
      add_unique(f.posts, id);
      if (const Organizer* o = found_in(rel.organizers, id); o && !post(o->post)) return false;
    }
  return true;
}

void note_fragment_read(const Fragment& fragment) {
  for (long long id : fragment.posts) note_post_read(id);
  for (long long id : fragment.terms) note_term_read(id);
  for (const TermSplice& splice : fragment.splices)
    for (long long id : splice.ids) note_term_read(id);
}

namespace {

// The fragment keys of a page's list records.
std::vector<std::string> list_keys(const RequestContext& ctx, const std::vector<long long>& ids) {
  std::vector<std::string> keys;
  keys.reserve(ids.size());
  for (long long id : ids) keys.push_back(fragment_key(ctx, id, Shape::kList));
  return keys;
}

}  // namespace

void write_event_list(JsonWriter& w, RequestContext& ctx, const std::vector<Event>& events) {
  FragmentCache* cache = ctx.fragments.cache;
  if (!cache) {
    const EventRelations relations = load_event_relations(ctx.db, events);
    for (const Event& e : events) write_event(w, ctx, e, relations, EventView::kMasked, false);
    return;
  }
  ListedRecords list;
  std::vector<long long> ids;
  for (const Event& e : events) ids.push_back(e.post.id);
  list.keys = list_keys(ctx, ids);
  list.kept = cache->find_all(list.keys);
  std::vector<Event> missing;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (!list.kept[i]) missing.push_back(events[i]);
  FragmentRowKeeper kept(ctx.fragments);
  if (!missing.empty()) list.relations = load_event_relations(ctx.db, missing, RelationParts{.kept = &kept});
  list.events = events;
  write_event_list(w, ctx, list);
}

std::optional<ListedRecords> gather_event_list(RequestContext& ctx, const std::vector<ListedEventKey>& keys) {
  FragmentCache* cache = ctx.fragments.cache;
  if (!cache) return std::nullopt;
  ListedRecords list;
  std::vector<long long> ids;
  for (const ListedEventKey& k : keys) ids.push_back(k.id);
  list.keys = list_keys(ctx, ids);
  list.kept = cache->find_all(list.keys);
  list.events.resize(keys.size());
  if (std::all_of(list.kept.begin(), list.kept.end(), [](const auto& f) { return f != nullptr; }))
    return list;
  FragmentRowKeeper kept(ctx.fragments);
  std::optional<UnkeptEvents> unkept =
      read_unkept_events(ctx, keys, list.kept, RelationParts{.events = true, .kept = &kept});
  if (!unkept) return std::nullopt;
  std::size_t next = 0;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!list.kept[i]) list.events[i] = std::move(unkept->events[next++]);
  list.relations = std::move(unkept->relations);
  return list;
}

std::optional<UnkeptEvents> read_unkept_events(RequestContext& ctx, const std::vector<ListedEventKey>& keys,
                                               const std::vector<std::shared_ptr<const Fragment>>& kept,
                                               RelationParts parts) {
  std::vector<long long> missing;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!kept[i]) missing.push_back(keys[i].id);
  UnkeptEvents out;
  if (missing.empty()) return out;
  parts.events = true;
  EventRelationRows rows = find_event_relations(ctx.db, missing, parts);
  std::unordered_map<long long, Event> by_id;
  for (Event& e : rows.events) by_id.emplace(e.post.id, std::move(e));
  rows.events.clear();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (kept[i]) continue;
    auto it = by_id.find(keys[i].id);
    if (it == by_id.end() || !lists_as(it->second, keys[i])) return std::nullopt;
    out.events.push_back(std::move(it->second));
  }
  out.relations = keyed_event_relations(std::move(rows));
  return out;
}

void write_event_list(JsonWriter& w, RequestContext& ctx, const ListedRecords& list) {
  FragmentCache* cache = ctx.fragments.cache;
  std::vector<const Fragment*> kept;
  for (const auto& f : list.kept)
    if (f) kept.push_back(f.get());
  const TermRows terms = current_terms(ctx, kept);
  for (std::size_t i = 0; i < list.keys.size(); ++i) {
    if (list.kept[i]) {
      note_fragment_read(*list.kept[i]);
      write_kept(w, ctx, *list.kept[i], terms);
      continue;
    }
    const Event& event = list.events[i];
    Fragment f;
    // Lists never show a protected event's content (docs/api.md §3.5).
    render_to_keep(w, ctx, event, list.relations, EventView::kMasked, false, f);
    if (!collect_shown(event, list.relations, f)) continue;
    // A visitor who reads one event mostly found it in a list: its single read's record is kept
    // too, from the same rows, when nothing in it is masked.
    if (event.post.password.empty()) {
      Fragment single;
      single.posts = f.posts;
      render_fragment(ctx, event, list.relations, EventView::kFull, true, single);
      store_single(ctx, event, std::move(single));
    }
    cache->store(list.keys[i], ctx.fragments.epoch, std::move(f));
  }
}

std::unique_ptr<LinkedRowKeeper> fragment_row_keeper(RequestContext& ctx) {
  return fragment_row_keeper(ctx.fragments);
}

std::unique_ptr<LinkedRowKeeper> fragment_row_keeper(const FragmentUse& fragments) {
  if (!fragments.cache) return nullptr;
  return std::make_unique<FragmentRowKeeper>(fragments);
}

std::shared_ptr<const Fragment> find_single_event(RequestContext& ctx, long long id) {
  if (!ctx.fragments.cache) return nullptr;
  return ctx.fragments.cache->find(fragment_key(ctx, id, Shape::kSingle));
}

void write_kept_single_event(JsonWriter& w, RequestContext& ctx, const Fragment& kept) {
  write_kept(w, ctx, kept, current_terms(ctx, {&kept}));
}

void keep_single_event(JsonWriter& w, RequestContext& ctx, const Event& event,
                       const EventRelations& relations) {
  Fragment f;
  render_to_keep(w, ctx, event, relations, EventView::kFull, true, f);
  if (ctx.fragments.cache && collect_shown(event, relations, f)) store_single(ctx, event, std::move(f));
}

}  // namespace cal
