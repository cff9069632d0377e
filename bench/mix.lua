-- wrk script: sends the request paths of the file given after "--", from the offset given next;
-- with a third argument "once" each path is sent once and the thread stops when they run out
-- (fresh queries, bench/freshqueries.py), otherwise they are cycled through. Prints the latency
-- percentiles and counts as one JSON line for bench/load.py to parse.
local paths = {}
local i = 0
local once = false

init = function(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  once = args[3] == "once"
  i = once and 0 or tonumber(args[2] or "0") % #paths
end

request = function()
  i = i + 1
  if once then
    if i > #paths then
      wrk.thread:stop()
      i = #paths
    end
    return wrk.format("GET", paths[i])
  end
  return wrk.format("GET", paths[(i % #paths) + 1])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "duration_us": %d, "p50": %d, "p95": %d, "p99": %d, "errors": %d, "non2xx": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
