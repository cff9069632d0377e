-- wrk script: sends each request path of the file given after "--" once, in order, and stops
-- when they run out (so no query is repeated: bench/freshqueries.py); prints the latency
-- percentiles and counts as one JSON line for bench/load.py to parse (which sees from the count
-- whether the paths ran out before the time did).
local paths = {}
local i = 0

init = function(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
end

request = function()
  i = i + 1
  if i > #paths then
    wrk.thread:stop()
    i = #paths
  end
  return wrk.format("GET", paths[i])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "duration_us": %d, "p50": %d, "p95": %d, "p99": %d, "errors": %d, "non2xx": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
