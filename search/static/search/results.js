// The results page on a narrow screen: the filters start closed above the results (a "Filters"
// control), so the first result and the pager are not below some thirty facet links. Wide screens
// and pages without JavaScript keep them open (the <details> element's own default here).
(function () {
  "use strict";
  var filters = document.getElementById("filters");
  if (filters && window.matchMedia("(max-width: 48rem)").matches) filters.open = false;
})();
