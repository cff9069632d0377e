// Instant results as you type, from /api/search/. The plain form keeps working without JavaScript.
// Results are built with textContent, except the highlight, which the API returns HTML-escaped
// by Elasticsearch with only <mark> added; it is re-escaped here all the same and only <mark>
// tags are restored.
(function () {
  "use strict";
  var input = document.getElementById("search-input");
  var box = document.getElementById("instant-results");
  if (!input || !box) return;
  var api = input.getAttribute("data-api");
  var timer = null;
  var controller = null;
  var lastQuery = "";

  function markOnly(html) {
    var div = document.createElement("div");
    div.textContent = html;  // escape everything
    return div.innerHTML.replace(/&lt;(\/?)mark&gt;/g, "<$1mark>");
  }

  function hide() { box.hidden = true; box.textContent = ""; }

  function render(data) {
    box.textContent = "";
    if (!data.results || data.results.length === 0) {
      var none = document.createElement("div");
      none.className = "instant-empty";
      none.textContent = "No results for " + data.query;
      box.appendChild(none);
    }
    if (data.showing_for) {
      var note = document.createElement("div");
      note.className = "instant-note";
      note.textContent = "Showing results for " + data.showing_for;
      box.appendChild(note);
    }
    data.results.slice(0, 6).forEach(function (r) {
      var a = document.createElement("a");
      a.href = r.url;
      a.className = "instant-hit";
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = r.type === "comment" ? "comment on " : "";
      var title = document.createElement("span");
      if (r.title_highlight) { title.innerHTML = markOnly(r.title_highlight); } else { title.textContent = r.title; }
      a.appendChild(kind);
      a.appendChild(title);
      box.appendChild(a);
    });
    box.hidden = false;
  }

  function query() {
    var q = input.value.trim();
    if (q === lastQuery) return;
    lastQuery = q;
    if (q.length < 2) { hide(); return; }
    if (controller) controller.abort();
    controller = new AbortController();
    fetch(api + "?q=" + encodeURIComponent(q), { signal: controller.signal, headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && input.value.trim() === q) render(data); })
      .catch(function () { /* aborted or offline: the form still works */ });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(query, 150);
  });
  input.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
  document.addEventListener("click", function (e) { if (!box.contains(e.target) && e.target !== input) hide(); });
})();
