// The index's game filter: rows whose text holds every word typed stay, the others hide.
// Record text is only read (textContent), never written back as HTML.
(function () {
  "use strict";
  var box = document.getElementById("filter-box");
  var input = document.getElementById("filter");
  var table = document.getElementById("games");
  var shown = document.getElementById("shown");
  if (!box || !input || !table) { return; }
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
  box.hidden = false;
  function apply() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row, i) {
      var keep = words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      row.hidden = !keep;
      if (keep) { count += 1; }
    });
    /* the words come with the page, in its language: "{n} of {m} games", "{m} games" */
    var said = words.length ? shown.getAttribute("data-some") : shown.getAttribute("data-all");
    shown.textContent = (said || "{n} / {m}").replace("{n}", String(count)).replace("{m}", String(rows.length));
  }
  input.addEventListener("input", apply);
  apply();
}());
