-- wrk script for the mixed workload of `make bench` (tests/bench/engine.sh): 90% visitors'
-- reads spread over many distinct queries, 10% authenticated writes, so that the response cache
-- sees what a site sees (many keys, invalidated by every write) rather than one hot URL.
--   wrk ... -s mixed.lua http://HOST/api/cal/events/v1/events -- TOKEN IDS_FILE TERMS_FILE YYYY-MM MAX_PAGE
-- IDS_FILE: published event ids, one per line. TERMS_FILE: lines "c ID" (category), "t ID" (tag),
-- "v ID" (venue). YYYY-MM: the dataset's current month (the demo spreads events over +-2 years
-- around it). MAX_PAGE: the last page (1-5) every month list surely has, so no read is a 404.
--
-- Reads (no Authorization header, what the response cache serves):
--   30% a month's list (start_date/end_date over the 47 months around YYYY-MM), page 1..MAX_PAGE
--   15% a category's list, 10% a tag's list, 10% a search for a word of the demo's titles
--   35% one event by random id
-- Writes (Bearer TOKEN): 60% POST /events; 25% PATCH of an event this thread created; 15% DELETE
-- of one (to trash). Created ids alternate between a "patch" and a "delete" pool, so a PATCH never
-- meets an event a concurrent DELETE trashed. Every created title starts with "Bench mixed ", so the
-- bench can remove them afterwards.
--
-- The cache hit rate: with [server] statement_count_header on, the service answers
-- X-Cal-Statements: 0 exactly when the answer came from the response cache (a computed read runs
-- at least one statement). done() prints one line the bench parses:
--   mixed: reads R hits H writes W posts P patches A deletes D non2xx N
local threads = {}
local ids, categories, tags, venues = {}, {}, {}, {}
local months = {}
local words = {"jazz", "rock", "yoga", "chess", "poetry", "cinema", "garden", "market", "dance", "science",
               "history", "cooking", "theatre", "football", "design", "comedy", "opera", "running", "painting",
               "coding", "beginners", "kids", "live", "outdoors", "online", "night", "weekend", "free",
               "festival", "club", "masterclass", "meetup", "workshop", "classics", "open stage"}
local base, item_base, max_page
local auth_get, auth_json
-- Per-thread counters (read by done() through thread:get).
reads, hits, writes, posts, patches, deletes, non2xx = 0, 0, 0, 0, 0, 0, 0
local patch_pool, delete_pool = {}, {}
local created = 0
local run

function setup(thread)
  threads[#threads + 1] = thread
  thread:set("number", #threads)
end

local function urlencode(s)
  return (s:gsub("[^%w%-_.~]", function(c) return string.format("%%%02X", c:byte()) end))
end

function init(args)
  local token = args[1]
  for line in io.lines(args[2]) do ids[#ids + 1] = line end
  for line in io.lines(args[3]) do
    local kind, id = line:match("^(%a)%s+(%d+)")
    if kind == "c" then categories[#categories + 1] = id
    elseif kind == "t" then tags[#tags + 1] = id
    elseif kind == "v" then venues[#venues + 1] = id end
  end
  if #ids == 0 or #categories == 0 or #tags == 0 or #venues == 0 then
    error("mixed.lua: no ids, categories, tags or venues in " .. args[2] .. " / " .. args[3])
  end
  local year, month = args[4]:match("^(%d+)-(%d+)$")
  year, month = tonumber(year), tonumber(month)
  for k = -23, 23 do
    -- os.time normalises month overflow and day 0 (the last day of the month before).
    local first = os.time({year = year, month = month + k, day = 1, hour = 12})
    local last = os.time({year = year, month = month + k + 1, day = 0, hour = 12})
    months[#months + 1] = "start_date=" .. os.date("%Y-%m-%d", first) .. "&end_date=" .. os.date("%Y-%m-%d", last)
  end
  max_page = math.max(1, math.min(5, tonumber(args[5] or "1")))
  base = wrk.path:gsub("/$", "")
  item_base = base .. "/"
  auth_get = {["Authorization"] = "Bearer " .. token}
  auth_json = {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}
  run = os.time()
  math.randomseed(4242 + (number or 1))
end

local function pick(list) return list[math.random(#list)] end

local function read_request()
  local r = math.random(100)
  local query
  if r <= 30 then
    query = pick(months) .. "&page=" .. math.random(max_page)
  elseif r <= 45 then
    query = "categories=" .. pick(categories)
  elseif r <= 55 then
    query = "tags=" .. pick(tags)
  elseif r <= 65 then
    query = "search=" .. urlencode(pick(words))
  else
    return wrk.format("GET", item_base .. pick(ids))
  end
  return wrk.format("GET", base .. "?" .. query)
end

local function write_request()
  local r = math.random(100)
  if r > 60 and r <= 85 and #patch_pool > 0 then
    return wrk.format("PATCH", item_base .. pick(patch_pool), auth_json,
                      string.format('{"description":"Patched by make bench (%d)."}', math.random(1000000)))
  end
  if r > 85 and #delete_pool > 0 then
    -- Taken out of the pool now: a second DELETE of it would be a 410.
    return wrk.format("DELETE", item_base .. table.remove(delete_pool, math.random(#delete_pool)), auth_get)
  end
  created = created + 1
  local day = math.random(-300, 300)
  local body = string.format(
    '{"title":"Bench mixed %d-%d-%d","description":"Created by make bench.",' ..
    '"start_date":"%+d days 18:00","end_date":"%+d days 20:00","categories":[%s],"venue":%s}',
    run, number or 1, created, day, day, pick(categories), pick(venues))
  return wrk.format("POST", base, auth_json, body)
end

function request()
  if math.random(100) <= 10 then return write_request() end
  return read_request()
end

-- A header's value whatever the case of its name.
local function header(headers, name)
  for k, v in pairs(headers) do
    if k:lower() == name then return v end
  end
  return nil
end

function response(status, headers, body)
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
  -- Writes are answered "private, no-store" (authenticated), visitors' reads "no-cache".
  local cc = header(headers, "cache-control") or ""
  if cc:find("private", 1, true) then
    writes = writes + 1
    if status == 201 then
      posts = posts + 1
      local id = body:match('^{"id":(%d+)')
      if id then
        if posts % 2 == 0 then patch_pool[#patch_pool + 1] = id else delete_pool[#delete_pool + 1] = id end
      end
    elseif body:find('"status":"trash"', 1, true) then
      deletes = deletes + 1
    else
      patches = patches + 1
    end
  else
    reads = reads + 1
    if header(headers, "x-cal-statements") == "0" then hits = hits + 1 end
  end
end

function done(summary, latency, requests)
  local t = {reads = 0, hits = 0, writes = 0, posts = 0, patches = 0, deletes = 0, non2xx = 0}
  for _, thread in ipairs(threads) do
    for k in pairs(t) do t[k] = t[k] + (thread:get(k) or 0) end
  end
  io.write(string.format("mixed: reads %d hits %d writes %d posts %d patches %d deletes %d non2xx %d\n",
                         t.reads, t.hits, t.writes, t.posts, t.patches, t.deletes, t.non2xx))
end
