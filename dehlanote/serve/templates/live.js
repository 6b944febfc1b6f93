/* dehlanote serve: the replay page follows the table. When the table changes (server-sent
   events from this server), the page is loaded again and shows the newest card. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("dpn-data").textContent);
  var live = DATA.live;
  if (!live) { return; }
  var follow = true;
  var newest = live.version;     /* the table's newest version heard of, shown or not */
  try { follow = sessionStorage.getItem("dehlanote-follow") !== "0"; } catch (e) { /* private mode */ }
  var words = DATA.words || {};
  function _(s) { return words[s] || s; }
  var bar = document.createElement("p");
  bar.id = "live";
  bar.className = "live";
  var box = document.createElement("input");
  box.type = "checkbox";
  box.id = "live-follow";
  box.checked = follow;
  var label = document.createElement("label");
  label.appendChild(box);
  label.appendChild(document.createTextNode(" " + _("follow the play")));
  bar.appendChild(label);
  var header = document.getElementById("top");
  header.appendChild(bar);
  box.addEventListener("change", function () {
    follow = box.checked;
    try { sessionStorage.setItem("dehlanote-follow", follow ? "1" : "0"); } catch (e) { /* private mode */ }
    if (follow && newest !== live.version) {
      /* the table moved on while the page was not following: the page was left showing the end
         of what it had, and the cards played meanwhile came only with the next card */
      location.reload();
    } else if (follow) { toEnd(); }
  });
  function toEnd() {
    var games = DATA.games;
    if (!games.length || !games[0].deals.length) { return; }
    var d = games[0].deals[games[0].deals.length - 1];
    var h = "#deal=" + d.n;
    if (d.tricks.length) { h += "&trick=" + d.tricks[d.tricks.length - 1].n; }
    if (location.hash !== h) { location.hash = h; }
  }
  if (follow) { toEnd(); }
  document.documentElement.setAttribute("data-live-version", String(live.version));
  if (!window.EventSource) { return; }
  var src = new EventSource("/api/events?since=-1" + (live.key ? "&key=" + encodeURIComponent(live.key) : ""));
  src.onmessage = function (ev) {
    var msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    var v = msg.tables && msg.tables[String(live.table)];
    if (v !== undefined) { newest = v; }
    if (v !== undefined && v !== live.version && follow) {
      src.close();
      location.reload();
    }
  };
}());
