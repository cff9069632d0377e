-- wrk script: cycles through the request paths in the file given after "--", and prints the
-- latency percentiles and counts as one JSON line for bench/load.py to parse.
local paths = {}
local i = 0

init = function(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  i = tonumber(args[2] or "0") % #paths
end

request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "duration_us": %d, "p50": %d, "p95": %d, "p99": %d, "errors": %d, "non2xx": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
