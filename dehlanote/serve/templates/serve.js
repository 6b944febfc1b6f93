/* dehlanote serve: the index, the new-table form and the phone page of a table.
   Every string from a record is put in the page with textContent, never as markup.
   Words come from the message catalog in the page's data (_("...") marks them). */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("serve-data").textContent);
  var W = D.words || {};
  var NS = "http://www.w3.org/2000/svg";
  function _(s) { return Object.prototype.hasOwnProperty.call(W, s) && W[s] ? W[s] : s; }
  function fmt(s, o) { return s.replace(/\{(\w+)\}/g, function (m, k) { return o[k] !== undefined ? String(o[k]) : m; }); }
  function $(id) { return document.getElementById(id); }
  /* record text (a name) with its bidi controls shown as \ufffd, as the replay page shows it, and
     isolated (FSI ... PDI) where it is part of a sentence: a name cannot reorder the words around it */
  var BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function visible(s) { return String(s).replace(BIDI, "\ufffd"); }
  function iso(s) { return "\u2068" + visible(s) + "\u2069"; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function button(text, onClick, cls, tool) {
    var b = el("button", cls || "", text);
    b.type = "button";
    b.addEventListener("click", onClick);
    if (tool) { b.setAttribute("data-tool", tool); }     /* (where the keyboard goes back after a redraw) */
    return b;
  }
  var SUIT_WORDS = {S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs")};
  var RANK_SHOWN = {A: _("A"), K: _("K"), Q: _("Q"), J: _("J")};
  function sym(s) {
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "sym");
    svg.setAttribute("aria-hidden", "true");
    var use = document.createElementNS(NS, "use");
    use.setAttribute("href", "#suit-" + s);
    svg.appendChild(use);
    return svg;
  }
  function rankOf(c) { return c.slice(0, -1); }
  function suitOf(c) { return c.slice(-1); }
  function cardLabel(c) { return (RANK_SHOWN[rankOf(c)] || rankOf(c)); }
  function cardWords(c) { return fmt(_("{rank} of {suit}"), {rank: rankName(rankOf(c)), suit: SUIT_WORDS[suitOf(c)]}); }
  function rankName(r) {
    return ({A: _("ace"), K: _("king"), Q: _("queen"), J: _("jack"), "10": _("ten")})[r] || r;
  }
  function cardFace(c, cls) {
    var e = el("span", (cls || "") + " s-" + suitOf(c));
    e.appendChild(el("span", "", cardLabel(c)));
    e.appendChild(sym(suitOf(c)));
    e.setAttribute("aria-label", cardWords(c));
    e.setAttribute("data-card", c);
    return e;
  }
  function inline(cards) {
    var span = el("span", "tens");
    cards.forEach(function (c, i) {
      if (i) { span.appendChild(document.createTextNode(" ")); }
      var s = el("span", "s-" + suitOf(c), cardLabel(c));
      s.appendChild(sym(suitOf(c)));
      span.appendChild(s);
    });
    return span;
  }

  /* addresses: the key (in --lan) and the language travel with every link */
  function qs(extra) {
    var p = [];
    if (D.lan) { p.push("key=" + encodeURIComponent(D.key)); }
    p.push("lang=" + encodeURIComponent(D.lang));
    if (extra) { p.push(extra); }
    return "?" + p.join("&");
  }
  function link(path, text) {
    var a = el("a", "", text);
    a.href = path + qs();
    return a;
  }
  var device = (function () {
    var id = null;
    try { id = localStorage.getItem("dehlanote-device"); } catch (e) { id = null; }
    if (!id || !/^[A-Za-z0-9_-]{1,40}$/.test(id)) {
      var a = new Uint8Array(12);
      (window.crypto || window.msCrypto).getRandomValues(a);
      id = Array.prototype.map.call(a, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
      try { localStorage.setItem("dehlanote-device", id); } catch (e) { /* private mode: one id a page */ }
    }
    return id;
  }());

  function api(path, body, done) {
    var opts = {method: body ? "POST" : "GET", cache: "no-store", credentials: "same-origin", headers: {}};
    if (body) {
      opts.headers["Content-Type"] = "application/json";
      opts.headers["X-Dehlanote-Key"] = D.key;
      body.device = device;
      opts.body = JSON.stringify(body);
    }
    /* a table's state says whether this phone entered the trick waiting for a confirmation */
    fetch(path + qs(body ? "" : "device=" + encodeURIComponent(device)), opts).then(function (r) {
      return r.json().then(function (j) { return {ok: r.ok, j: j}; });
    }).then(function (a) {
      setTimeout(function () { done(a.ok, a.j); }, 0);   /* a fault in drawing is not "no answer" */
    }, function () {
      done(false, {code: "offline", sentence: _("No answer from the server: check the connection, then try again.")});
    });
  }

  var toastTimer = null;
  function toast(text, good, code, detail) {
    var t = $("toast");
    t.textContent = "";
    t.className = good ? "good" : "";
    t.appendChild(el("span", "", text));
    if (code) {
      t.appendChild(document.createTextNode(" "));
      t.appendChild(el("code", "", code));
    }
    if (detail && detail !== text) { t.appendChild(el("div", "muted-toast", visible(detail))); }
    t.hidden = false;
    if (toastTimer) { clearTimeout(toastTimer); }
    toastTimer = setTimeout(function () { t.hidden = true; }, good ? 1500 : 6000);
  }
  /* a tap on the message puts it away: it lies over the bottom of the page (on a phone, the
     new-table form's button) and took every tap there for six seconds */
  $("toast").addEventListener("click", function () { $("toast").hidden = true; });
  function refused(j) { toast(j.sentence || j.message || _("That was refused."), false, j.code, j.message); }

  function listen(onChange) {
    var since = -1;
    function poll() { onChange(null); }
    if (!window.EventSource) { setInterval(poll, 1000); return; }
    var src = new EventSource("/api/events" + qs("since=" + since));
    src.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      onChange(msg);
    };
    setInterval(poll, 10000);   /* a safety net if the stream is cut by the network */
  }

  var app = $("app");

  /* ---- the picture of the seats ------------------------------------------------------------ */
  function picture(names, dealer, six) {
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 300 230");
    svg.setAttribute("class", "picture");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", six ? _("Who sits where: A at the bottom, then anticlockwise B and C on A's right, D opposite A, E and F on A's left; play goes A, B, C, D, E, F; A, C and E are partners, B, D and F are partners.")
      : _("Who sits where: A at the bottom, B on A's right, C opposite A, D on A's left; play goes A, B, C, D, anticlockwise; A and C are partners, B and D are partners."));
    function add(tag, attrs, text) {
      var e = document.createElementNS(NS, tag);
      Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
      if (text !== undefined) { e.textContent = text; }
      svg.appendChild(e);
      return e;
    }
    add("rect", {x: 70, y: 45, width: 160, height: 130, rx: 18, fill: "#1f6b45"});
    add("path", {d: "M150 160 A 55 45 0 0 0 205 110 M205 110 A55 45 0 0 0 150 65 M150 65 A55 45 0 0 0 95 110 M95 110 A55 45 0 0 0 150 160",
      fill: "none", stroke: "#ffd24a", "stroke-width": 2, "stroke-dasharray": "5 4"});
    add("path", {d: "M200 124 l5 -14 l7 13 z M163 66 l-14 -1 l10 -9 z M100 97 l-5 14 l-7 -13 z M137 159 l14 1 l-10 9 z", fill: "#ffd24a"});
    add("text", {x: 150, y: 116, "text-anchor": "middle", fill: "#fff"}, _("play goes"));
    add("text", {x: 150, y: 132, "text-anchor": "middle", fill: "#fff", "font-size": six ? 11 : 13},
      six ? "A → B → C → D → E → F" : "A → B → C → D");
    var at = six ? {A: [150, 205], B: [265, 150], C: [265, 70], D: [150, 28], E: [35, 70], F: [35, 150]}
      : {A: [150, 205], B: [265, 114], C: [150, 28], D: [35, 114]};
    Object.keys(at).forEach(function (s, i) {
      var p = at[s];
      var up = i % 2 === 0;     /* A's side: A and C (and E); the other: B and D (and F) */
      add("text", {x: p[0], y: p[1], "text-anchor": "middle", fill: up ? "#0b5394" : "#b3261e"},
        s + (dealer === s ? " ●" : ""));
      add("text", {x: p[0], y: p[1] + 16, "text-anchor": "middle", fill: "#1d1d1b", "class": "name",
        "data-width": p[0] === 150 ? 292 : 64}, visible((names && names[s]) || ""));
    });
    return svg;
  }

  /* each name of a picture in the page cut to fit its place (the whole name is in its field): a
     long one ran over the table, its arrows and off the picture */
  function fit(svg) {
    Array.prototype.forEach.call(svg.querySelectorAll("text.name"), function (t) {
      var most = Number(t.getAttribute("data-width"));
      var chars = Array.from(t.textContent);
      while (chars.length > 1 && t.getComputedTextLength() > most) {
        chars.pop();
        t.textContent = chars.join("") + "…";
      }
    });
  }

  /* ---- the index ------------------------------------------------------------------------------ */
  function indexPage() {
    app.textContent = "";
    var head = el("div", "head full");
    head.appendChild(el("h1", "", _("Tables tonight")));
    head.appendChild(button(_("Start a table"), function () { location.href = "/new" + qs(); }, "primary"));
    app.appendChild(head);
    var list = el("ul", "tables full");
    list.id = "tables";
    app.appendChild(list);
    function draw(tables) {
      list.textContent = "";
      if (!tables.length) { list.appendChild(el("li", "muted", _("No table yet: start one."))); }
      tables.forEach(function (t) {
        var li = el("li");
        li.setAttribute("data-table", String(t.table));
        var who = ["A", "B", "C", "D", "E", "F"].filter(function (s) { return t.names[s]; })
          .map(function (s) { return s + " " + iso(t.names[s]); }).join(", ");
        li.appendChild(el("b", "", fmt(_("Table {n}"), {n: t.table})));
        li.appendChild(document.createTextNode(" · " + t.rules + (who ? " · " + who : "")));
        var sides = Object.keys(t.score.won);
        var score = sides.map(function (s) { return s + " " + t.score.won[s]; }).join(" – ");
        var kots = sides.map(function (s) { return s + " " + t.score.kots[s]; }).join(" – ");
        var line = el("div", "score", fmt(_("deals won {score} · kots {kots}"), {score: score, kots: kots}));
        li.appendChild(line);
        if (t.unreadable) {     /* its record was edited on disk into errors: the table takes nothing */
          var bad = el("div", "warn", _("The record was changed on the organiser's computer and cannot be read now: tell the organiser."));
          bad.setAttribute("data-unreadable", "1");
          li.appendChild(bad);
        }
        li.appendChild(el("div", "muted", t.over ? resultWords(t.score.result) :
          fmt(_("deal {deal}, {tricks} tricks played"), {deal: t.deal, tricks: t.tricks})));
        var links = el("div", "links");
        if (!t.over) { links.appendChild(link("/t/" + t.table, _("enter the play"))); }
        links.appendChild(link("/t/" + t.table + "/replay", _("watch")));
        /* (the record holds a closed trump's suit until its reveal: it is not served then) */
        if (!t.trump_secret) { links.appendChild(link("/t/" + t.table + "/record.dpn", _("record"))); }
        li.appendChild(links);
        list.appendChild(li);
      });
    }
    function load() { api("/api/tables", null, function (ok, j) { if (ok) { draw(j.tables); } }); }
    load();
    listen(load);
  }

  function resultWords(result) {
    if (!result) { return _("unfinished"); }
    if (result === "=") { return _("the match is level"); }
    return fmt(_("{side} win the match"), {side: result});
  }

  /* ---- a new table ---------------------------------------------------------------------------- */
  function newPage() {
    app.textContent = "";
    app.appendChild(el("h1", "full", _("Start a table")));
    var form = el("div", "");
    var rules = el("select");
    rules.id = "rules";
    (D.profiles || ["standard"]).forEach(function (p) { var o = el("option", "", p); o.value = p; rules.appendChild(o); });
    if ((D.profiles || []).indexOf("standard") >= 0) { rules.value = "standard"; }
    var rulesRow = el("label", "row");
    rulesRow.appendChild(el("span", "", _("Rules")));
    rulesRow.appendChild(rules);
    form.appendChild(rulesRow);
    var extra = el("input");
    extra.type = "text";
    extra.id = "options";
    extra.placeholder = _("options, e.g. streak=5");
    extra.maxLength = 120;
    var extraRow = el("label", "row");
    extraRow.appendChild(el("span", "", _("Options")));
    extraRow.appendChild(extra);
    form.appendChild(extraRow);
    form.appendChild(el("h2", "", _("Players")));
    var names = {};
    var rows = {};
    var dealer = null;
    var pic = el("div");
    /* six players (the six-player option): two more names and dealers, and their own picture;
       the form had four names only, and drew four seats for a table of six */
    function six() { return /(^|\s)six-player(\s|$)/i.test(extra.value); }     /* in any case, as the rules are read */
    function seatsNow() { return six() ? ["A", "B", "C", "D", "E", "F"] : ["A", "B", "C", "D"]; }
    var HINTS = {A: _("A: sits at the bottom"), B: _("B: on A's right"), C: _("C: opposite A, A's partner"),
      D: _("D: on A's left, B's partner")};
    var HINTS6 = {A: _("A: sits at the bottom"), B: _("B: on A's right"), C: _("C: on B's right, A's partner"),
      D: _("D: opposite A"), E: _("E: on D's right, A's partner"), F: _("F: on A's left")};
    function redraw() {
      pic.textContent = "";
      var n = {};
      seatsNow().forEach(function (s) { n[s] = names[s].value; });
      fit(pic.appendChild(picture(n, dealer, six())));
    }
    ["A", "B", "C", "D", "E", "F"].forEach(function (s) {
      var row = el("label", "row");
      row.appendChild(el("span", "", s));
      var input = el("input");
      input.type = "text";
      input.id = "name-" + s;
      input.maxLength = D.name_limit || 60;     /* the table's limit: a longer name was cut here at 40 */
      input.placeholder = HINTS[s] || HINTS6[s];
      input.addEventListener("input", redraw);
      names[s] = input;
      rows[s] = row;
      row.appendChild(input);
      form.appendChild(row);
    });
    form.appendChild(pic);
    var rule4 = form.appendChild(el("p", "muted", _("Play goes A, B, C, D: anticlockwise, each player's right-hand neighbour plays next. Partners sit opposite: A with C, B with D.")));
    var rule6 = form.appendChild(el("p", "muted", _("Play goes A, B, C, D, E, F: anticlockwise, each player's right-hand neighbour plays next. Partners sit one seat apart: A, C and E against B, D and F.")));
    form.appendChild(el("h2", "", _("First dealer")));
    var pick = el("div", "seatpick");
    var picks = {};
    function layout() {
      var many = six();
      ["E", "F"].forEach(function (s) { rows[s].hidden = !many; picks[s].hidden = !many; });
      ["A", "B", "C", "D", "E", "F"].forEach(function (s) { names[s].placeholder = (many ? HINTS6 : HINTS)[s] || ""; });
      rule4.hidden = many;
      rule6.hidden = !many;
      if (seatsNow().indexOf(dealer) < 0) {
        dealer = null;
        Array.prototype.forEach.call(pick.children, function (c) { c.classList.remove("on"); });
      }
      redraw();
    }
    extra.addEventListener("input", layout);
    ["A", "B", "C", "D", "E", "F"].forEach(function (s) {
      var b = button(s, function () {
        dealer = s;
        Array.prototype.forEach.call(pick.children, function (c) { c.classList.toggle("on", c === b); });
        redraw();
      });
      b.id = "dealer-" + s;
      picks[s] = b;
      pick.appendChild(b);
    });
    form.appendChild(pick);
    function check(id, text) {
      var row = el("label", "check");
      var box = el("input");
      box.type = "checkbox";
      box.id = id;
      row.appendChild(box);
      row.appendChild(el("span", "", text));
      form.appendChild(row);
      return box;
    }
    var hands = check("want-hands", _("Enter the hands before the cards (only legal cards can then be tapped)"));
    var confirm = check("want-confirm", _("The other side confirms each trick on a second phone"));
    var go = button(_("Start the table"), function () {
      if (go.disabled) { return; }
      go.disabled = true;     /* one table a tap: a second tap while the first is sent started a second table */
      var label = rules.value + (extra.value.trim() ? " " + extra.value.trim() : "");
      var body = {rules: label, names: {}, dealer: dealer, hands: hands.checked, confirm: confirm.checked};
      seatsNow().forEach(function (s) { body.names[s] = names[s].value; });
      api("/api/tables", body, function (ok, j) {
        if (!ok) { go.disabled = false; refused(j); return; }
        location.href = "/t/" + j.table + qs();
      });
    }, "primary");
    go.id = "start";
    form.appendChild(el("div", "bar")).appendChild(go);
    app.appendChild(form);
    layout();
  }

  /* ---- a table -------------------------------------------------------------------------------- */
  function tablePage() {
    var T = D.table;
    var st = null;
    var mode = "play";          /* play | hands | claim | comment | tens | line */
    var handSeat = "A";
    var picked = {};
    var tens = {};
    var busy = false;
    var secretOpen = null;      /* the version at which the setter asked for the closed trump's suits */
    var skipHands = null;       /* the deal whose hands the scorer chose not to enter */
    var draft = {comment: "", line: ""};   /* what is typed, kept when another phone's change redraws the page */

    function send(body, kept) {
      if (busy) { return; }
      busy = true;
      if (st) { body.version = st.version; }    /* the state this tap was made on (a stale one is refused) */
      api("/api/t/" + T, body, function (ok, j) {
        busy = false;
        if (!ok) { refused(j); if (j.code === "offline") { return; } load(); return; }
        if (kept) { kept(); }       /* what follows a change the table took (and only then) */
        if (body.do === "comment" || body.do === "line") { draft[body.do] = ""; }   /* kept: typed no more */
        var same = st && st.version === j.version;    /* the other phones' news came first */
        st = j;
        if (mode !== "hands" || !st.can_hands) { mode = same && mode === "hands" ? mode : "play"; }
        if (!same || body.do === "hands") { draw(); }
      });
    }
    function load() {
      api("/api/t/" + T, null, function (ok, j) {
        if (!ok) { refused(j); return; }
        if (st && st.version === j.version) { return; }   /* nothing new: the page stays as it is */
        st = j;
        draw();
      });
    }
    function name(s) { return st.names[s] ? s + " " + iso(st.names[s]) : s; }
    function sideOf(s) { return st.sides[0].indexOf(s) >= 0 ? st.sides[0] : st.sides[1]; }

    function statusText() {
      var e = st.expect;
      if (st.over) { return resultWords(st.result); }
      if (st.awaiting) { return fmt(_("Trick entered: the other side confirms it on their phone"), {}); }
      if (e.kind === "dealer") { return _("Who deals first?"); }
      if (e.kind === "trump") { return fmt(_("{seat} names trump"), {seat: e.seat ? name(e.seat) : "?"}); }
      if (e.kind === "drawn") { return _("Which card was drawn for trump? Type it as a line: trump drawn CARD"); }
      if (e.kind === "card") {
        var t = st.trick;
        var leading = !t || t.complete;
        return fmt(leading ? _("{seat} leads") : _("{seat} plays"), {seat: name(e.seat)});
      }
      return e.text;
    }

    function drawTable() {
      var box = el("div", "tablebox" + (st.seats.length === 6 ? " six" : ""));   /* (E and F had no place) */
      box.id = "tablebox";
      st.seats.forEach(function (s) {
        var seat = el("div", "seat pos-" + s);
        seat.id = "seat-" + s;
        if (st.expect.seat === s && st.expect.kind !== "over") { seat.classList.add("turn"); }
        if (st.dealer === s) { seat.classList.add("dealer"); }
        seat.appendChild(el("b", "", s));
        if (st.names[s]) { seat.appendChild(el("div", "name", visible(st.names[s]))); }
        box.appendChild(seat);
      });
      var t = st.trick;
      if (t) {
        t.cards.forEach(function (pc) {
          var c = cardFace(pc[1], "played at-" + pc[0] + (t.complete && t.winner === pc[0] ? " won" : ""));
          box.appendChild(c);
        });
      }
      return box;
    }

    function drawInfo() {
      var head = el("div", "head");
      var deal = st.deal ? fmt(_("Deal {n}"), {n: st.deal}) : "";
      var title = el("h1", "", fmt(_("Table {n}"), {n: st.table}) + (deal ? " · " + deal : ""));
      head.appendChild(title);
      var trump = el("span", "trump");
      trump.id = "trump";
      if (st.trump) {
        trump.appendChild(document.createTextNode(_("trump") + " "));
        var s = el("span", "s-" + st.trump, SUIT_WORDS[st.trump] + " ");
        s.appendChild(sym(st.trump));
        trump.appendChild(s);
      } else if (st.trump_secret) {    /* a closed trump: its suit is the setter's secret until the reveal */
        trump.textContent = fmt(_("closed trump set by {seat}, not yet revealed"), {seat: st.trump_secret});
      } else { trump.textContent = _("trump not named yet"); }
      head.appendChild(trump);
      var out = el("div");
      out.appendChild(head);
      var sides = st.sides;
      var score = el("div", "score");
      score.id = "score";
      score.textContent = fmt(_("deals won {score} · kots {kots}"), {
        score: sides.map(function (x) { return x + " " + st.score.won[x]; }).join(" – "),
        kots: sides.map(function (x) { return x + " " + st.score.kots[x]; }).join(" – ")});
      if (st.score.streak) { score.textContent += " · " + fmt(_("streak {side} {n}"), {side: st.score.streak[0], n: st.score.streak[1]}); }
      out.appendChild(score);
      return out;
    }

    function drawPiles() {
      var p = el("div", "piles");
      p.id = "piles";
      var c = el("div");
      c.appendChild(el("b", "", _("centre")));
      c.appendChild(document.createTextNode(fmt(_("{n} cards"), {n: st.centre.cards}) + " "));
      c.appendChild(inline(st.centre.tens));
      if (st.capture === "centre") { p.appendChild(c); }
      st.sides.forEach(function (side) {
        var d = el("div");
        d.id = "pile-" + side;
        d.appendChild(el("b", "", side));
        d.appendChild(document.createTextNode(fmt(_("{n} cards"), {n: st.piles[side] || 0}) + " "));
        var tens = st.tens[side] || [];
        d.appendChild(tens.length ? inline(tens) : el("span", "muted", _("no ten")));
        p.appendChild(d);
      });
      return p;
    }

    function drawCards() {
      var wrap = el("div", "cards");
      wrap.id = "cards";
      var bySuit = {}, order = [];
      st.legal.forEach(function (c) {
        var s = suitOf(c);
        if (!bySuit[s]) { bySuit[s] = []; order.push(s); }
        bySuit[s].push(c);
      });
      order.forEach(function (s) {
        var row = el("div", "suitrow");
        bySuit[s].forEach(function (c) {
          var b = button("", function () { send({do: "card", card: c}); }, "card s-" + s);
          b.appendChild(el("span", "", cardLabel(c)));
          b.appendChild(sym(s));
          b.setAttribute("aria-label", cardWords(c));
          b.setAttribute("data-card", c);
          b.disabled = !!st.awaiting;
          row.appendChild(b);
        });
        wrap.appendChild(row);
      });
      return wrap;
    }

    function drawTrump() {
      if (st.trump_method === "closed" && secretOpen !== st.version) {
        /* a closed trump is chosen in secret: the suits are shown only when the setter asks for
           them on the phone in their hand, never to whoever looks at the table's page */
        var panel = el("div", "panel");
        panel.id = "secret-trump";
        panel.appendChild(el("p", "", fmt(_("Closed trump: hand the phone to {seat}, who taps the suit unseen by the others."),
          {seat: st.expect.seat ? name(st.expect.seat) : "?"})));
        var open = button(_("Enter the secret suit"), function () { secretOpen = st.version; draw(); }, "primary");
        open.id = "enter-secret";
        panel.appendChild(open);
        return panel;
      }
      var row = el("div", "suits");
      row.id = "suits";
      ["S", "H", "D", "C"].forEach(function (s) {
        var b = button("", function () { send({do: "trump", suit: s}); }, "s-" + s);
        b.appendChild(sym(s));
        b.appendChild(el("span", "", SUIT_WORDS[s]));
        b.setAttribute("data-suit", s);
        row.appendChild(b);
      });
      return row;
    }

    function drawDealer() {
      var row = el("div", "seatpick");
      st.seats.forEach(function (s) {
        var b = button(name(s), function () { send({do: "dealer", seat: s}); });
        b.setAttribute("data-seat", s);
        row.appendChild(b);
      });
      return row;
    }

    function drawHands() {
      var panel = el("div", "panel");
      panel.id = "hands-panel";
      panel.appendChild(el("h2", "", _("The hands")));
      var tabs = el("div", "seatpick");
      st.seats.forEach(function (s) {
        var held = (st.hands[s] || []).length;
        var b = button(s + (held ? " ✓" : ""), function () { handSeat = s; picked = {}; draw(); }, handSeat === s ? "on" : "",
          "hand-" + s);
        tabs.appendChild(b);
      });
      panel.appendChild(tabs);
      /* with several decks (six players: three) a card is there more than once: a hand may
         hold it twice, and a card in one hand is still there for the others (the picker took
         each card once, and a card held anywhere as gone: a table of six could not be dealt) */
      var decks = st.decks || 1;
      var held = {};
      st.seats.forEach(function (s) {
        if (s !== handSeat) { (st.hands[s] || []).forEach(function (c) { held[c] = (held[c] || 0) + 1; }); }
      });
      function free(c) { return decks - (held[c] || 0); }
      var count = 0;
      Object.keys(picked).forEach(function (c) { count += picked[c]; });
      panel.appendChild(el("p", "status", fmt(_("{seat}: {n} of {size} cards picked"), {seat: name(handSeat), n: count, size: st.hand_size})));
      var wrap = el("div", "cards");
      ["S", "H", "D", "C"].forEach(function (s) {
        var row = el("div", "suitrow");
        ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"].forEach(function (r) {
          var c = r + s;
          var b = button("", function () {
            picked[c] = (picked[c] || 0) + 1;          /* each tap one copy more, then none */
            if (picked[c] > free(c)) { delete picked[c]; }
            draw();
          }, "card s-" + s + (picked[c] ? " sel" : "") + (free(c) <= 0 ? " taken" : ""));
          b.appendChild(el("span", "", cardLabel(c)));
          b.appendChild(sym(s));
          if (picked[c] > 1) { b.appendChild(el("span", "copies", "×" + picked[c])); }
          b.setAttribute("aria-label", cardWords(c) + (picked[c] > 1 ? " ×" + picked[c] : ""));
          b.setAttribute("data-card", c);
          b.disabled = free(c) <= 0;
          row.appendChild(b);
        });
        wrap.appendChild(row);
      });
      panel.appendChild(wrap);
      var bar = el("div", "bar");
      var others = st.seats.filter(function (s) { return s !== handSeat && (st.hands[s] || []).length; });
      if (others.length === st.seats.length - 1) {
        bar.appendChild(button(_("The rest of the deck"), function () {
          picked = {};
          ["S", "H", "D", "C"].forEach(function (s) {
            ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"].forEach(function (r) {
              if (free(r + s) > 0) { picked[r + s] = free(r + s); }
            });
          });
          draw();
        }));
      }
      var save = button(_("Save this hand"), function () {
        var seat = handSeat;
        /* the cards picked are let go when the hand is saved: a save refused (the connection
           lost, another phone first) lost the thirteen taps and went on to the next seat */
        var cards = [];
        Object.keys(picked).forEach(function (c) { for (var k = 0; k < picked[c]; k++) { cards.push(c); } });
        send({do: "hands", seat: seat, cards: cards}, function () {
          picked = {};
          if (handSeat === seat) { handSeat = st.seats[(st.seats.indexOf(seat) + 1) % st.seats.length]; }
        });
      }, "primary");
      save.id = "save-hand";
      save.disabled = count !== st.hand_size;
      bar.appendChild(save);
      bar.appendChild(button(_("Done"), function () { mode = "play"; skipHands = st.deal; draw(); }));
      panel.appendChild(bar);
      return panel;
    }

    function drawTens() {
      var panel = el("div", "panel");
      panel.id = "tens-panel";
      panel.appendChild(el("h2", "", fmt(_("Tens check, deal {n}"), {n: st.tens_due})));
      panel.appendChild(el("p", "muted", _("Each side counts the tens in its pile.")));
      st.sides.forEach(function (side) {
        if (tens[side] === undefined) { tens[side] = 0; }
        var row = el("div", "bar");
        row.appendChild(el("b", "", side));
        row.appendChild(button("−", function () { tens[side] = Math.max(0, tens[side] - 1); draw(); }, "", "less-" + side));
        var v = el("span", "score", String(tens[side]));
        v.id = "tens-" + side;
        row.appendChild(v);
        row.appendChild(button("+", function () { tens[side] = Math.min(12, tens[side] + 1); draw(); }, "", "more-" + side));
        panel.appendChild(row);
      });
      /* the counts are let go when the table took them: a count refused (it does not match the
         tricks, the connection lost) went back to 0 for both sides */
      var b = button(_("Check the tens"), function () { send({do: "tens", tens: tens}, function () { tens = {}; }); },
        "primary");
      b.id = "check-tens";
      panel.appendChild(b);
      return panel;
    }

    function drawClaim() {
      var panel = el("div", "panel");
      panel.appendChild(el("h2", "", _("Who claims the rest of the tricks?")));
      var row = el("div", "seatpick");
      st.seats.forEach(function (s) { row.appendChild(button(name(s), function () { send({do: "claim", seat: s}); }, "", "claim-" + s)); });
      panel.appendChild(row);
      panel.appendChild(button(_("Cancel"), function () { mode = "play"; draw(); }));
      return panel;
    }

    function drawText(kind) {
      var panel = el("div", "panel");
      panel.appendChild(el("h2", "", kind === "comment" ? _("A comment on the play") : _("A line of the record (DPN)")));
      var input = el("input");
      input.type = "text";
      input.maxLength = 280;
      input.id = kind + "-text";
      input.value = draft[kind];
      input.addEventListener("input", function () { draft[kind] = input.value; });
      panel.appendChild(input);
      var bar = el("div", "bar");
      function add() {
        if (!input.value.trim()) { return; }
        send(kind === "comment" ? {do: "comment", text: input.value} : {do: "line", line: input.value});
      }
      input.addEventListener("keydown", function (ev) {     /* Enter adds, as the button does */
        if (ev.key === "Enter" && !ev.isComposing) { ev.preventDefault(); add(); }
      });
      bar.appendChild(button(_("Add"), add, "primary"));
      bar.appendChild(button(_("Cancel"), function () { mode = "play"; draft[kind] = ""; draw(); }));
      panel.appendChild(bar);
      setTimeout(function () { if (document.activeElement !== input) { input.focus(); } }, 0);
      return panel;
    }

    function drawTools() {
      var bar = el("div", "bar");
      bar.id = "tools";
      var undo = button(_("Undo"), function () { send({do: "undo"}); });
      undo.id = "undo";
      bar.appendChild(undo);
      if (!st.over) {
        var mis = button(_("Misdeal"), function () {
          if (window.confirm(_("Record a misdeal? The same dealer deals again."))) { send({do: "misdeal"}); }
        });
        mis.id = "misdeal";
        mis.disabled = !st.can_hands;
        bar.appendChild(mis);
        if (st.can_hands) { bar.appendChild(button(_("Hands"), function () { mode = "hands"; draw(); }, "", "hands")); }
        if (st.can_claim) { bar.appendChild(button(_("Claim"), function () { mode = "claim"; draw(); }, "", "claim")); }
        if (st.tens_due) { bar.appendChild(button(_("Tens"), function () { mode = "tens"; draw(); }, "", "tens")); }
      }
      var comment = button(_("Comment"), function () { mode = "comment"; draw(); });
      comment.setAttribute("data-tool", "comment");
      bar.appendChild(comment);
      var line = button(_("DPN line"), function () { mode = "line"; draw(); });
      line.setAttribute("data-tool", "line");
      bar.appendChild(line);
      return bar;
    }

    function drawConfirm() {
      var panel = el("div", "panel confirm");
      panel.id = "confirm-panel";
      if (st.entered_here) {
        /* this phone entered the trick: the table takes the confirmation from another phone only */
        panel.appendChild(el("p", "", _("This phone entered the trick: it is confirmed on another phone, by the other side.")));
        return panel;
      }
      panel.appendChild(el("p", "", _("The other side checks the trick on the table and confirms it here.")));
      var b = button(_("Confirm the trick"), function () { send({do: "confirm"}); }, "primary");
      b.id = "confirm";
      panel.appendChild(b);
      return panel;
    }

    function drawLastDeal() {
      var d = st.last_deal;
      if (!d) { return null; }
      var p = el("p", "panel");
      var tensText = st.sides.map(function (s) { return s + " " + (d.tens[s] || 0); }).join(" – ");
      p.textContent = fmt(_("Deal {n}: tens {tens}"), {n: d.n, tens: tensText}) + " · " +
        (d.winner ? fmt(_("{side} win the deal"), {side: d.winner}) : _("no side wins the deal")) +
        (d.kot ? " · " + fmt(_("kot to {side}"), {side: d.kot}) : "");
      return p;
    }

    /* where the keyboard was: the page is drawn anew at each change, and the focus went back to
       the top of the page after each card played with the keyboard */
    function focusKey() {
      var a = document.activeElement;
      if (!a || a === app || !app.contains(a)) { return null; }
      if (a.id) { return "#" + a.id; }
      var keys = ["data-card", "data-suit", "data-seat", "data-tool"];
      for (var i = 0; i < keys.length; i++) {
        var v = a.getAttribute(keys[i]);
        if (v && /^[A-Za-z0-9-]+$/.test(v)) { return "button[" + keys[i] + "=\"" + v + "\"]"; }
      }
      return "";
    }
    function refocus(key) {
      if (key === null || app.contains(document.activeElement) && document.activeElement !== app) { return; }
      var e = (key && app.querySelector(key)) ||
        app.querySelector("#cards button:not([disabled]), #suits button, .seatpick button, #tools button");
      if (e && !e.disabled) { e.focus({preventScroll: true}); }
    }

    function draw() {
      if (!st) { return; }
      var key = focusKey();
      app.textContent = "";
      var left = el("div");
      left.appendChild(drawInfo());
      left.appendChild(drawTable());
      var status = el("p", "status", statusText());
      status.id = "status";
      /* the page is drawn anew at each change: the whole of it was the live region, read out
         again after every card; now only the status line is said, when it changes */
      if ($("say").textContent !== status.textContent) { $("say").textContent = status.textContent; }
      left.appendChild(status);
      left.appendChild(drawPiles());
      app.appendChild(left);
      var right = el("div");
      var last = drawLastDeal();
      if (last) { right.appendChild(last); }
      if (st.unreadable) {
        var bad = el("p", "panel warn", _("The record was changed on the organiser's computer and cannot be read now: tell the organiser."));
        bad.id = "unreadable";
        right.appendChild(bad);
      }
      if (st.awaiting) { right.appendChild(drawConfirm()); }
      if (st.over) {
        right.appendChild(el("p", "over", resultWords(st.result)));
        var links = el("div", "bar");
        links.appendChild(link("/t/" + st.table + "/replay", _("watch the replay")));
        links.appendChild(link("/t/" + st.table + "/record.dpn", _("the record")));
        right.appendChild(links);
      } else if (st.can_hands && (mode === "hands" || mode === "play" && st.hands_wanted && skipHands !== st.deal &&
          Object.keys(st.hands).length < st.seats.length)) {
        right.appendChild(drawHands());
      } else if (mode === "claim") {
        right.appendChild(drawClaim());
      } else if (mode === "comment" || mode === "line") {
        right.appendChild(drawText(mode));
      } else if (st.tens_due && mode === "play" && st.expect.kind !== "card" || st.tens_due && mode === "tens") {
        right.appendChild(drawTens());
        if (st.expect.kind === "trump") { right.appendChild(drawTrump()); }
      } else if (st.expect.kind === "dealer") {
        right.appendChild(drawDealer());
      } else if (st.expect.kind === "trump") {
        right.appendChild(drawTrump());
      } else if (st.expect.kind === "card") {
        right.appendChild(drawCards());
      }
      right.appendChild(drawTools());
      var nav = el("div", "bar");
      nav.appendChild(link("/", _("all tables")));
      nav.appendChild(link("/t/" + st.table + "/replay", _("watch")));
      right.appendChild(nav);
      app.appendChild(right);
      document.documentElement.setAttribute("data-version", String(st.version));
      document.documentElement.setAttribute("data-ready", "1");
      refocus(key);
    }

    load();
    listen(function (msg) {
      if (!msg || !st || !msg.tables || msg.tables[String(T)] !== st.version) { load(); }
    });
    if (D.lang) { document.documentElement.lang = D.lang; }
    window.addEventListener("pageshow", function () { if (st) { load(); } });
  }

  if (D.page === "index") { indexPage(); } else if (D.page === "new") { newPage(); } else if (D.page === "table") { tablePage(); }
}());
