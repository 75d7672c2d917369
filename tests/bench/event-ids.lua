-- wrk script for bench case 3: GET /events/{id} with ids drawn at random (fixed seed per
-- thread) from a file of published event ids, one per line; with "walk" as the second argument
-- the threads instead walk the list in order (thread n of THREADS takes ids n, n + THREADS, ...),
-- so a warm-up touches every id.
--   wrk ... -s event-ids.lua http://HOST/api/cal/events/v1/events -- IDS_FILE [walk THREADS]
local threads = {}
local ids = {}
local base
local walk = false
local position = 0
local stride = 1

function setup(thread)
  threads[#threads + 1] = thread
  thread:set("number", #threads)
end

function init(args)
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  if #ids == 0 then error("no ids in " .. args[1]) end
  base = wrk.path:gsub("/$", "") .. "/"
  walk = args[2] == "walk"
  position = (number or 1) - 1
  stride = tonumber(args[3] or "1")
  math.randomseed(12345 + (number or 1))
end

function request()
  local id
  if walk then
    id = ids[position % #ids + 1]
    position = position + stride
  else
    id = ids[math.random(#ids)]
  end
  return wrk.format("GET", base .. id)
end
