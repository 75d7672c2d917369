-- wrk script for bench case 3: GET /events/{id} with ids drawn at random (fixed seed per
-- thread) from a file of published event ids, one per line.
--   wrk ... -s event-ids.lua http://HOST/api/cal/events/v1/events -- IDS_FILE
local ids = {}
local base

function init(args)
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  if #ids == 0 then error("no ids in " .. args[1]) end
  base = wrk.path:gsub("/$", "") .. "/"
  math.randomseed(12345 + #ids)
end

function request()
  return wrk.format("GET", base .. ids[math.random(#ids)])
end
