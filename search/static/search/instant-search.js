// Instant results as you type, from /api/search/, as a WAI-ARIA 1.2 combobox: the search input
// owns a listbox of options (links), and aria-activedescendant follows the highlighted one while
// focus stays in the input. Without JavaScript the plain GET form works as it is.
//
// Keys: ArrowDown/ArrowUp move through the options (wrapping), Enter opens the highlighted result
// (or submits the form when none is highlighted), Escape closes the list and a second Escape
// clears the box, Tab leaves; "/" elsewhere on the page focuses the box. The correction and the
// result count go to a polite live region. A correction offered but not searched is the first
// option ("Did you mean cool?"). Each result shows its date and, when its title marks nothing, why
// it is there; the last option is "See all N results" (the results page's count).
//
// Safety: titles are plain text and set with textContent. A title highlight is HTML that
// Elasticsearch already escaped, with only <mark> added: it is parsed (inert, never inserted as
// HTML) and rebuilt from its text nodes and <mark> elements alone, so "Q&amp;A" shows as "Q&A".
(function () {
  "use strict";
  var input = document.getElementById("search-input");
  var popup = document.getElementById("instant-results");
  var listbox = document.getElementById("instant-listbox");
  var note = document.getElementById("instant-note");
  var status = document.getElementById("instant-status");
  if (!input || !popup || !listbox || !note || !status) return;

  var DEBOUNCE_MS = 150;
  var MIN_LENGTH = 2;
  var MAX_OPTIONS = 6;
  var api = input.getAttribute("data-api");
  // The site's own word for a reply (search/box.html, the WORDS setting); the API's `matched`
  // value stays "comment" whatever the site calls it.
  var REPLY = input.getAttribute("data-reply") || "comment";
  // The words of the dropdown in the site's language (search/templatetags/search_words.py,
  // instant_texts): each a template with {named} places; English when the page sends none.
  var TEXTS = {
    months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    date: "j M Y", reply_by: "{reply} by {author} on ", reply_on: "{reply} on ",
    found_as: "found as \u201c{spelling}\u201d", in_reply: "a {reply}", in_text: "the text",
    together: "the words together in {where}", every_word: "every word, in the title or {where}",
    some_words: "some of the words, in {where}", result_one: "{n} result", result_other: "{n} results",
    result_more: "{n}+ results", zero_is_one: false, see_all: "See all {count}", see_all_results: "See all results",
    did_you_mean: "Did you mean {suggestion}?", showing_for: "Showing results for {shown}",
    no_results: "No results for {query}", shown: "{n} shown",
    arrows: "Use the up and down arrow keys to choose one", arrow_down: "Use the down arrow key to choose it"
  };
  try {
    var given = JSON.parse(input.getAttribute("data-texts") || "{}");
    Object.keys(given).forEach(function (key) { TEXTS[key] = given[key]; });
  } catch (e) { /* English, as without the attribute */ }
  function t(key, values) {
    return String(TEXTS[key]).replace(/\{(\w+)\}/g, function (all, name) {
      return values && name in values ? values[name] : all;
    });
  }
  var timer = null;
  var issued = 0;       // number of the latest request sent
  var lastQuery = null; // the query whose answer is on screen (or on its way)
  var active = -1;      // index of the highlighted option, -1 for none
  // The search log counts a typing burst as one search: each request of a burst carries the
  // burst's random id and a sequence number, and the server keeps only the burst's latest query.
  // A pause longer than BURST_IDLE_MS (or clearing the box) starts a new burst.
  var BURST_IDLE_MS = parseInt(input.getAttribute("data-burst-idle-ms"), 10) || 2000;
  var burst = null, seq = 0, lastSent = 0;
  var shownQueryId = null;  // the query id of the answer on screen, quoted when a result is opened

  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", listbox.id);
  input.setAttribute("aria-expanded", "false");

  function options() { return listbox.querySelectorAll("[role=option]"); }

  function isOpen() { return !popup.hidden; }

  function highlight(index) {
    var opts = options();
    active = opts.length ? index : -1;
    for (var i = 0; i < opts.length; i++) {
      opts[i].setAttribute("aria-selected", i === active ? "true" : "false");
    }
    if (active >= 0) {
      input.setAttribute("aria-activedescendant", opts[active].id);
      opts[active].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function open() {
    if (note.hidden && !options().length) return;  // nothing to show yet
    popup.hidden = false;
    input.setAttribute("aria-expanded", options().length ? "true" : "false");
  }

  function close() {
    popup.hidden = true;
    input.setAttribute("aria-expanded", "false");
    highlight(-1);
  }

  function settled() { listbox.removeAttribute("aria-busy"); input.form.classList.remove("loading"); }
  function busy() { listbox.setAttribute("aria-busy", "true"); input.form.classList.add("loading"); }

  function clearResults() {
    settled();
    close();
    listbox.textContent = "";
    listbox.hidden = true;
    note.textContent = "";
    note.hidden = true;
    status.textContent = "";
  }

  // A marked word that completes the unfinished last word: the typed part stays a plain mark, the
  // completed rest gets a mark of its own kind ("fire" of "Firefox" typed, "fox" completed).
  function markCompletion(mark, prefix) {
    var text = mark.textContent;
    if (!prefix || text.length <= prefix.length || text.slice(0, prefix.length).toLowerCase() !== prefix) return;
    mark.textContent = text.slice(0, prefix.length);
    var rest = document.createElement("span");
    rest.className = "completed";
    rest.textContent = text.slice(prefix.length);
    mark.appendChild(rest);
  }

  // Copies the text and <mark> elements of already-escaped highlight HTML into `target`.
  function appendMarkedText(target, html, prefix) {
    var parsed = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html").body;
    (function copy(from, to) {
      for (var node = from.firstChild; node; node = node.nextSibling) {
        if (node.nodeType === Node.TEXT_NODE) {
          to.appendChild(document.createTextNode(node.nodeValue));
        } else if (node.nodeType === Node.ELEMENT_NODE && node.nodeName === "MARK") {
          var mark = to.appendChild(document.createElement("mark"));
          copy(node, mark);
          markCompletion(mark, prefix);
        } else if (node.nodeType === Node.ELEMENT_NODE) {
          copy(node, to);  // anything else: keep its text only
        }
      }
    })(parsed, target);
  }

  function option(hit, index, prefix) {
    var a = document.createElement("a");
    a.id = "instant-option-" + index;
    a.href = hit.url;
    a.className = "instant-hit";
    a.setAttribute("role", "option");
    a.setAttribute("aria-selected", "false");
    a.tabIndex = -1;  // focus stays in the input; the options are reached with the arrow keys
    // One option per entry; where only a reply put the entry here, say so before its title.
    if (hit.matched === "comment") {
      var kind = document.createElement("span");
      kind.className = "kind";
      var by = hit.comments && hit.comments.length && hit.comments[0].author;
      kind.textContent = by ? t("reply_by", { reply: REPLY, author: by }) : t("reply_on", { reply: REPLY });
      a.appendChild(kind);
    }
    var title = document.createElement("span");
    title.className = "title";
    if (hit.title_highlight) { appendMarkedText(title, hit.title_highlight, prefix); } else { title.textContent = hit.title; }
    a.appendChild(title);
    var meta = document.createElement("span");
    meta.className = "instant-meta";
    meta.textContent = [shortDate(hit.pub_date), why(hit)].filter(Boolean).join(" · ");
    if (meta.textContent) a.appendChild(meta);
    return a;
  }

  // Dates as every page writes them ("8 Dec 2016", Django's "j M Y" in English), from the ISO
  // text: the format's j, M and Y as Django's date filter writes them, the rest as it stands.
  function shortDate(iso) {
    var m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso || "");
    if (!m) return "";
    var parts = { j: String(parseInt(m[3], 10)), M: TEXTS.months[parseInt(m[2], 10) - 1], Y: m[1] };
    return TEXTS.date.replace(/[jMY]/g, function (c) { return parts[c]; });
  }

  // Why a hit is there when its title shows no marked word: from the tier it reached (already in
  // every answer: no highlighting of the bodies, which the keystroke requests never ask for).
  function why(hit) {
    if (hit.spelling) return t("found_as", { spelling: hit.spelling });
    var where = hit.matched === "comment" ? t("in_reply", { reply: REPLY }) : t("in_text");
    var tier = hit.tier || "";
    if (tier.indexOf("title.") === 0) return "";
    if (/^body\..*phrase$/.test(tier)) return t("together", { where: where });
    if (tier === "all.words") return t("every_word", { where: where });
    if (tier === "some.words") return t("some_words", { where: where });
    return "";
  }

  // Whether the answer's total is the count of the one spelling it stands for, the number the
  // results page shows: the server counts spellings apart unless told not to (serving.instant_counts),
  // and then the dropdown shows no number rather than one the results page will not show.
  function exactTotal(data) {
    return data.counted !== false || (data.search_terms || []).length <= 1;
  }

  // Past serving.count_bound the server stops counting (total_exact false): "1000+ results".
  function countText(data) {
    if (data.total_exact === false) return t("result_more", { n: data.total });
    var one = data.total === 1 || (TEXTS.zero_is_one && data.total === 0);
    return t(one ? "result_one" : "result_other", { n: data.total });
  }

  // The last row: the results page of the query, with the count the page will show.
  function seeAll(data, index) {
    var a = document.createElement("a");
    a.id = "instant-option-" + index;
    // The text as sent: a space after the last word says it is finished, for the page as for this answer.
    a.href = (input.form.getAttribute("action") || "") + "?q=" + encodeURIComponent(lastQuery || data.query);
    a.className = "instant-all";
    a.setAttribute("role", "option");
    a.setAttribute("aria-selected", "false");
    a.tabIndex = -1;
    a.textContent = exactTotal(data) ? t("see_all", { count: countText(data) }) : t("see_all_results");
    return a;
  }

  // The first row when the server offers a correction it did not search ("Did you mean cool?"):
  // an option like the others, which opens the results page of the correction.
  function suggestion(data, index) {
    var a = document.createElement("a");
    a.id = "instant-option-" + index;
    a.href = (input.form.getAttribute("action") || "") + "?q=" + encodeURIComponent(data.did_you_mean);
    a.className = "instant-suggestion";
    a.setAttribute("role", "option");
    a.setAttribute("aria-selected", "false");
    a.tabIndex = -1;
    var meant = document.createElement("strong");
    meant.textContent = data.did_you_mean;
    var around = String(TEXTS.did_you_mean).split("{suggestion}");
    a.appendChild(document.createTextNode(around[0]));
    a.appendChild(meant);
    a.appendChild(document.createTextNode(around.slice(1).join("")));
    return a;
  }

  // A line of the live region as a sentence: "Did you mean cool?" takes no period after it.
  function sentence(line) { return /[.?!\u2026]$/.test(line) ? line : line + "."; }

  function render(data) {
    var hits = (data.results || []).slice(0, MAX_OPTIONS);
    shownQueryId = data.query_id || null;
    listbox.textContent = "";
    // The query's words as the server splits them (whitespace, a dot or a colon: suggestions.words()),
    // so that "node.j" marks "js" as "j" typed and "s" completed.
    var words = (data.query || "").toLowerCase().match(/[^\s.:]+/g) || [];
    var prefix = data.completing && words.length ? words[words.length - 1] : "";
    var offered = data.did_you_mean ? 1 : 0;
    if (offered) listbox.appendChild(suggestion(data, 0));
    hits.forEach(function (hit, i) { listbox.appendChild(option(hit, i + offered, prefix)); });
    if (hits.length) listbox.appendChild(seeAll(data, hits.length + offered));
    listbox.hidden = !options().length;
    var lines = [];
    if (data.note) lines.push(data.note);
    // A corrected start the search completes is shown as one: "mozilla fire…", not "mozilla fire".
    if (data.showing_for) lines.push(t("showing_for", { shown: data.showing_for + (data.showing_start ? "\u2026" : "") }));
    if (!hits.length) lines.push(t("no_results", { query: data.query }));
    note.textContent = lines.join(" · ");
    note.hidden = lines.length === 0;
    if (offered) lines.push(t("did_you_mean", { suggestion: data.did_you_mean }));
    lines.push(exactTotal(data) ? countText(data) : t("shown", { n: hits.length }));
    if (hits.length) {
      lines.push(t("arrows"));
    } else if (offered) {
      lines.push(t("arrow_down"));
    }
    status.textContent = lines.map(sentence).join(" ");
    settled();
    highlight(-1);
    if (document.activeElement === input) { open(); } else { close(); }
  }

  function query() {
    // A space after the last word says it is finished (no completions): it is sent as typed.
    var typed = input.value.replace(/^\s+/, "").replace(/\s+$/, function (space) { return space ? " " : ""; });
    var q = typed.trim();
    if (typed === lastQuery) { settled(); open(); return; }
    lastQuery = typed;
    var number = ++issued;
    if (q.length < MIN_LENGTH) { clearResults(); return; }
    var now = Date.now();
    if (!burst || now - lastSent > BURST_IDLE_MS) { burst = newBurstId(); seq = 0; }
    lastSent = now;
    // No body snippets: the options show titles only (a third of the search's Elasticsearch time).
    var url = api + "?q=" + encodeURIComponent(typed) + "&snippets=0&burst=" + burst + "&seq=" + (++seq);
    fetch(url, { headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      // Only the answer to the latest request is shown: an older one arriving late is dropped.
      .then(function (data) { if (number === issued) { if (data) { render(data); } else { settled(); } } })
      .catch(function () { if (number === issued) settled(); /* offline: the form still works */ });
  }

  function newBurstId() {
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // Tells the log which result of the answer on screen was opened (never delays the navigation).
  function opened(option) {
    if (option.className !== "instant-hit") return;  // "See all" and "Did you mean": the results page logs its own search
    var index = Array.prototype.indexOf.call(listbox.querySelectorAll(".instant-hit"), option);
    if (window.searchClicks && index >= 0) window.searchClicks.send(shownQueryId, index + 1, option.getAttribute("href"));
  }

  function move(step) {
    var count = options().length;
    if (!count) return;
    if (!isOpen()) { open(); }
    var next = active < 0 ? (step > 0 ? 0 : count - 1) : (active + step + count) % count;
    highlight(next);
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    if (input.value.trim() !== lastQuery) busy();  // an answer is due: the listbox is busy, the box shows a bar
    timer = setTimeout(query, DEBOUNCE_MS);
  });

  input.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        move(1);
        break;
      case "ArrowUp":
        e.preventDefault();
        move(-1);
        break;
      case "Enter":
        if (isOpen() && active >= 0) {
          e.preventDefault();
          opened(options()[active]);
          window.location.assign(options()[active].href);
        }
        break;
      case "Escape":
        e.preventDefault();  // a search input would clear itself on the first Escape
        if (isOpen()) {
          close();
        } else {
          clearTimeout(timer);
          input.value = "";
          lastQuery = null;
          burst = null;  // what is typed next is a new search
          issued++;  // forget any answer still on its way
          clearResults();
        }
        break;
      case "Tab":
        close();
        break;
    }
  });

  // Clicks and taps on an option must not blur the input first (that would close the list).
  listbox.addEventListener("mousedown", function (e) { e.preventDefault(); });
  listbox.addEventListener("mousemove", function (e) {
    var opt = e.target.closest ? e.target.closest("[role=option]") : null;
    if (opt) highlight(Array.prototype.indexOf.call(options(), opt));
  });
  listbox.addEventListener("click", function (e) {
    var opt = e.target.closest ? e.target.closest("[role=option]") : null;
    if (opt) opened(opt);
  });
  // "/" anywhere but in a field focuses the box (as on DocSearch, GitHub, MDN).
  input.setAttribute("aria-keyshortcuts", "/");
  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.nodeName))) return;
    e.preventDefault();
    input.focus();
    input.select();
  });
  input.addEventListener("blur", close);
  window.addEventListener("pageshow", close);  // back from a result: no list left open from before
  input.addEventListener("focus", function () { if (input.value.trim() === lastQuery) open(); });
})();
