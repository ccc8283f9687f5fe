-- wrk request script of bench/cold.mjs: each thread walks its own stripe of the paths in WRK_PATHS (one per
-- line), so that no two requests of a run name the same path until the list runs out ("wrapped"). Prints
-- one JSON line when done: requests, errors, latency percentiles (µs) and the most paths one thread used.
local threads = {}
local count = 0

function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  for line in io.lines(os.getenv("WRK_PATHS")) do
    if #line > 0 then paths[#paths + 1] = line end
  end
  stride = tonumber(os.getenv("WRK_THREADS"))
  -- The first path of this thread's stripe (a list shorter than the stripes is shared).
  first = ((id - 1) % #paths) + 1
  i = first - stride
  used = 0
  wrapped = 0
end

function request()
  i = i + stride
  if i > #paths then
    i = first
    wrapped = 1
  end
  used = used + 1
  return wrk.format(nil, paths[i])
end

function done(summary, latency, requests)
  local most, wrap = 0, 0
  for _, t in ipairs(threads) do
    local u = t:get("used") or 0
    if u > most then most = u end
    if t:get("wrapped") == 1 then wrap = 1 end
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"p50":%d,"p90":%d,"p99":%d,"max":%d,"mostPerThread":%d,"wrapped":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, most, wrap))
end
