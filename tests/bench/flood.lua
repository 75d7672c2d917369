-- wrk script for the bulkhead probe (tests/bench/flood.sh): GET /events?search=-WORD, excluding a
-- word no event holds and no other request sends (thread number and a counter): no index can
-- narrow it, so every search misses the response cache and tests every event of the window.
--   wrk ... -s flood.lua http://HOST/api/cal/events/v1/events
local threads = {}
local counter = 0

function setup(thread)
  threads[#threads + 1] = thread
  thread:set("number", #threads)
end

function request()
  counter = counter + 1
  return wrk.format("GET", wrk.path .. "?search=-zqflood" .. (number or 1) .. "x" .. counter .. "x" .. os.time())
end
