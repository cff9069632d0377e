// Reports which result a reader opened from a logged search, without ever delaying navigation:
// navigator.sendBeacon hands the report to the browser, which sends it in the background.
//
// The results page links go through /search/click when the log is on, so they record the click
// without JavaScript too; here, with sendBeacon available, each link gets its own URL back
// (data-href) and the click is sent as a beacon instead. The instant results use send() below.
// A report holds the query id the server issued for that search, the position and the URL:
// nothing about the reader.
(function () {
  "use strict";
  var input = document.getElementById("search-input");
  var endpoint = input ? input.getAttribute("data-click") : null;
  var canSend = !!(endpoint && navigator.sendBeacon && window.URLSearchParams);

  function send(queryId, position, url) {
    if (!canSend || !queryId) return;
    try {
      navigator.sendBeacon(endpoint, new URLSearchParams({ id: queryId, pos: String(position), to: url }));
    } catch (e) { /* a lost report must never stand in the way of the reader */ }
  }
  window.searchClicks = { send: send };

  var list = document.querySelector("ol.results[data-query-id]");
  if (!list || !canSend) return;
  var queryId = list.getAttribute("data-query-id");
  var links = list.querySelectorAll("a[data-href]");
  for (var i = 0; i < links.length; i++) links[i].setAttribute("href", links[i].getAttribute("data-href"));

  function report(e) {
    var a = e.target.closest ? e.target.closest("a[data-href]") : null;
    if (a) send(queryId, a.getAttribute("data-position"), a.getAttribute("data-href"));
  }
  list.addEventListener("click", report);
  list.addEventListener("auxclick", function (e) { if (e.button === 1) report(e); });  // middle click: new tab
})();
