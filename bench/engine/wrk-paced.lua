-- wrk script: offers a fixed number of requests a second (an open load, as autocannon -R does),
-- spread evenly over each wrk thread's connections, and prints a JSON summary for the bench.
-- wrk asks delay() before every request of a connection (in milliseconds, whole ones); each call
-- takes the thread's next slot on a clock of its own, so the rate holds whatever the latency.
-- Args after `--`: <requests a second in all> <wrk threads>.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } wrk_timespec;
  int clock_gettime(int clk_id, wrk_timespec *tp);
]]
local ts = ffi.new("wrk_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local period_ms, next_at

function init(args)
  local rate, threads = tonumber(args[1]), tonumber(args[2])
  period_ms = threads * 1000 / rate
end

function delay()
  local t = now_ms()
  -- behind by more than a second (the server fell back): start the clock again rather than burst
  if next_at == nil or next_at < t - 1000 then next_at = t end
  local at = next_at
  next_at = next_at + period_ms
  local d = at - t
  if d <= 0 then return 0 end
  return math.floor(d)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"p99_us":%d,"errors":%d,"non2xx":%d}\n',
    summary.requests, summary.duration, latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
