-- wrk script for bench case 5: POST /events as an administrator, each request a new event with
-- a title no other run uses (run start time, thread, counter), two categories by id and a venue
-- id (ids of the seeded dataset in its fresh database: the 12 top-level categories are 1-12, the
-- ids after them have gaps; venues are 1-31, one per demo city, as `calendarctl demo` makes no
-- more below 15,500 events. Any other id is a 400).
--   wrk ... -s post-event.lua http://HOST/api/cal/events/v1/events -- TOKEN
local counter = 0
local thread_number = 0
local threads = {}

function setup(thread)
  thread:set("number", #threads + 1)
  threads[#threads + 1] = thread
end

local headers
local run

function init(args)
  thread_number = number or 1
  run = os.time()
  headers = {
    ["Authorization"] = "Bearer " .. args[1],
    ["Content-Type"] = "application/json",
  }
end

function request()
  counter = counter + 1
  local day = 1 + counter % 300
  local body = string.format(
    '{"title":"Bench post %d-%d-%d","description":"Created by make bench.",' ..
    '"start_date":"+%d days 10:00","end_date":"+%d days 12:00",' ..
    '"categories":[%d,%d],"venue":%d}',
    run, thread_number, counter, day, day, 1 + counter % 12, 1 + (counter + 7) % 12, 1 + counter % 31)
  return wrk.format("POST", nil, headers, body)
end
