-- wrk request script of the cold benchmarks: each thread walks its own stripe of the lines in WRK_PATHS (one
-- per line, from line WRK_OFFSET + 1 on), so that no two requests of a run name the same line until the list
-- runs out ("wrapped"). A line is a path (GET), or with WRK_METHOD=POST a request body posted to the URL's path
-- as JSON (WRK_AUTH, if set, its Authorization header: a node's JSON-RPC). With WRK_FAIL_MATCH set, an answer
-- whose body contains that string counts as failed (for servers that answer errors with 200). Prints one JSON
-- line when done: requests, errors, latency percentiles (µs), the most lines one thread used and the failed.
local threads = {}
local count = 0
local failMatch = os.getenv("WRK_FAIL_MATCH")
failed = 0

function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  local skip = tonumber(os.getenv("WRK_OFFSET") or "0") or 0
  local n = 0
  for line in io.lines(os.getenv("WRK_PATHS")) do
    if #line > 0 then
      n = n + 1
      if n > skip then paths[#paths + 1] = line end
    end
  end
  if #paths == 0 then
    -- Every line was asked before: walk them all again, and say so.
    for line in io.lines(os.getenv("WRK_PATHS")) do
      if #line > 0 then paths[#paths + 1] = line end
    end
    exhausted = true
  end
  stride = tonumber(os.getenv("WRK_THREADS"))
  -- The first line of this thread's stripe (a list shorter than the stripes is shared).
  first = ((id - 1) % #paths) + 1
  i = first - stride
  used = 0
  wrapped = exhausted and 1 or 0
  post = os.getenv("WRK_METHOD") == "POST"
  if post then
    headers = { ["Content-Type"] = "application/json" }
    local auth = os.getenv("WRK_AUTH")
    if auth and #auth > 0 then headers["Authorization"] = auth end
  end
end

function request()
  i = i + stride
  if i > #paths then
    i = first
    wrapped = 1
  end
  used = used + 1
  if post then return wrk.format("POST", nil, headers, paths[i]) end
  return wrk.format(nil, paths[i])
end

-- Only defined when asked for: with a response() wrk reads every body.
if failMatch and #failMatch > 0 then
  function response(status, headers, body)
    if body and string.find(body, failMatch, 1, true) then failed = failed + 1 end
  end
end

function done(summary, latency, requests)
  local most, wrap, fails = 0, 0, 0
  for _, t in ipairs(threads) do
    local u = t:get("used") or 0
    if u > most then most = u end
    if t:get("wrapped") == 1 then wrap = 1 end
    fails = fails + (t:get("failed") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"p50":%d,"p90":%d,"p99":%d,"max":%d,"mostPerThread":%d,"wrapped":%d,"failed":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, most, wrap, fails))
end
