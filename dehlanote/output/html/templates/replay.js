/* dehlanote replay page: steps through the replay facts embedded in #dpn-data.
   Every string from the record is put in the page with textContent, never as markup. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("dpn-data").textContent);
  var GAMES = DATA.games;
  /* the page's words: the message catalog of its language (English: the messages themselves) */
  var WORDS = DATA.words || {};
  function _(s) { return Object.prototype.hasOwnProperty.call(WORDS, s) && WORDS[s] ? WORDS[s] : s; }
  if (!GAMES.length) {
    /* a file of notes alone: its comments are data, shown as the record's words are */
    var notes = DATA.comments || [];
    document.getElementById("where").textContent = notes.length ? _("this record holds no game, only comments:")
      : _("this record holds no game");
    notes.forEach(function (c) {
      var p = document.createElement("p");
      p.className = "comment";
      p.textContent = String(c).replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "\ufffd");
      document.getElementById("notes").appendChild(p);
    });
    /* nothing to step through, choose or show: no control that would do nothing */
    ["controls", "story"].forEach(function (id) { document.getElementById(id).hidden = true; });
    ["deal", "view", "four"].forEach(function (id) { document.getElementById(id).parentNode.hidden = true; });
    document.documentElement.setAttribute("data-ready", "1");
    return;
  }
  var NS = "http://www.w3.org/2000/svg";
  function fmt(s, o) { return s.replace(/\{(\w+)\}/g, function (m, k) { return o[k] !== undefined ? String(o[k]) : m; }); }
  var RANKS = {A: _("ace"), K: _("king"), Q: _("queen"), J: _("jack"), "10": _("ten"), "9": _("nine"), "8": _("eight"),
    "7": _("seven"), "6": _("six"), "5": _("five"), "4": _("four"), "3": _("three"), "2": _("two")};
  var SUITS = {S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs")};
  var SYMBOL = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var ORDER = "AKQJ1098765432";
  var SUIT_ORDER = "SHDC";
  var LAYOUT4 = {A: "s", B: "e", C: "n", D: "w"};
  var LAYOUT6 = {A: "s", B: "se", C: "ne", D: "n", E: "nw", F: "sw"};
  var CAPTURE_WORDS = {"two-in-a-row": _("two in a row"), "last-trick": _("the last trick"), "trick": _("the trick")};
  var KOT_WORDS = {"all-tens": _("all the tens"), "streak": _("a streak"), "all-tricks": _("every trick")};

  var pos = {g: 0, d: 0, p: 0};
  var view = "open";
  var timer = null;
  var lastStory = null;
  /* what-if (whatif.js): hooks.deal is the line played on from the game, drawn in place of the
     record's deal; after runs when the page is drawn, left when the page leaves the deal */
  var hooks = {deal: null, version: 0, after: null, left: null};

  function $(id) { return document.getElementById(id); }

  /* the bidi controls (overrides, isolates, marks) of record text shown as \ufffd, as the terminal
     shows them (dehlanote/text.py): a name or a comment never reorders what the page says */
  var BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function visible(s) { return String(s).replace(BIDI, "\ufffd"); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = visible(text); }
    return e;
  }

  function svg(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { e.setAttribute(k, attrs[k]); } }
    return e;
  }

  function rank(c) { return c.slice(0, -1); }
  function suit(c) { return c.slice(-1); }
  function cardName(c) { return fmt(_("{rank} of {suit}"), {rank: RANKS[rank(c)] || rank(c), suit: SUITS[suit(c)] || suit(c)}); }
  function cardKey(c) { return SUIT_ORDER.indexOf(suit(c)) * 20 + ORDER.indexOf(rank(c) === "10" ? "1" : rank(c)); }
  function sorted(cards) { return cards.slice().sort(function (a, b) { return cardKey(a) - cardKey(b); }); }
  function isTen(c) { return rank(c) === "10"; }
  var PLURALS = {card: [_("1 card"), _("{n} cards")], ten: [_("1 ten"), _("{n} tens")], kot: [_("1 kot"), _("{n} kots")],
    error: [_("1 error"), _("{n} errors")]};
  function plural(n, word) {
    var forms = PLURALS[word];
    if (forms) { return fmt(n === 1 ? forms[0] : forms[1], {n: n}); }
    return n + " " + word + (n === 1 ? "" : "s");
  }

  /* a card face (or back) as inline SVG with its name for screen readers */
  function card(c, extra) {
    var s = svg("svg", {viewBox: "0 0 40 56", role: "img"});
    var cls = "card";
    if (c === null) {
      s.setAttribute("aria-label", extra && extra.label ? extra.label : _("a card not shown"));
      s.setAttribute("class", "card back" + (extra && extra.cls ? " " + extra.cls : ""));
      s.appendChild(svg("rect", {x: 1, y: 1, width: 38, height: 54, rx: 4, "class": "face"}));
      s.appendChild(svg("rect", {x: 5, y: 5, width: 30, height: 46, rx: 2, "class": "weave"}));
      return s;
    }
    var st = suit(c);
    cls += " suit-" + st + (isTen(c) ? " ten" : "");
    if (extra && extra.cls) { cls += " " + extra.cls; }
    s.setAttribute("class", cls);
    s.setAttribute("data-card", c);
    s.setAttribute("aria-label", cardName(c) + (extra && extra.note ? ", " + extra.note : ""));
    s.appendChild(svg("rect", {x: 1, y: 1, width: 38, height: 54, rx: 4, "class": "face"}));
    /* a ten's "10" squeezed into the width a fanned hand leaves showing */
    var t = svg("text", isTen(c) ? {x: 3, y: 15, "class": "rank", textLength: 13, lengthAdjust: "spacingAndGlyphs"}
      : {x: 4, y: 15, "class": "rank"});
    t.textContent = rank(c);
    s.appendChild(t);
    s.appendChild(svg("use", {href: "#suit-" + st, x: 4, y: 18, width: 10, height: 10, "class": "pip"}));
    s.appendChild(svg("use", {href: "#suit-" + st, x: 15, y: 25, width: 22, height: 22, "class": "pip"}));
    return s;
  }

  /* a card in running text: "10♥", with its name for screen readers */
  function cardText(c, mark) {
    var span = el("span", "ct suit-" + suit(c) + (isTen(c) ? " ten" : ""));
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", cardName(c) + (mark ? " " + mark : ""));
    span.textContent = rank(c) + SYMBOL[suit(c)] + (mark || "");
    return span;
  }

  /* the double-dummy analysis (dehlanote html --analyse): d.an = {note, t: {trick: [value, [[k, glyph, sentence]]]}} */
  function analysisOf(d, t) { return d.an && t ? d.an.t[String(t.n)] || null : null; }
  function markOf(d, t, k) {
    var a = analysisOf(d, t);
    if (!a) { return null; }
    for (var i = 0; i < a[1].length; i++) { if (a[1][i][0] === k) { return a[1][i]; } }
    return null;
  }
  /* the analysis glyph, unless the record already carries it (a record written by annotate --analyse) */
  function markSpan(mark, recorded) {
    var span = el("span", "an-mark", recorded === mark[1] ? "" : mark[1]);
    span.title = visible(mark[2]);
    span.setAttribute("role", "note");
    span.setAttribute("aria-label", fmt(_("analysis: lost value. {advice}"), {advice: mark[2]}));
    return span;
  }

  function game() { return GAMES[pos.g]; }
  function deal() { return hooks.deal || game().deals[pos.d]; }

  function ends(d) {
    var out = [0];
    for (var i = 0; i < d.tricks.length; i++) { out.push(out[i] + d.tricks[i].p.length); }
    return out;
  }

  function seatName(g, s) { return g.players[s] ? s + " \u00b7 " + g.players[s] : s; }

  /* the table after pos.p cards of the deal: pure bookkeeping over the engine's facts */
  function table(g, d, p) {
    var e = ends(d);
    var hands = {}, i, k, s;
    for (s in d.hands) { if (Object.prototype.hasOwnProperty.call(d.hands, s)) { hands[s] = d.hands[s].slice(); } }
    var piles = {};
    g.sides.forEach(function (side) { piles[side] = {cards: 0, tens: []}; });
    var out = {ti: -1, shown: 0, complete: false, hands: hands, piles: piles, centre: [0, []], run: null,
      trump: d.open, event: null, done: 0, ends: e};
    var played = 0;
    var counted = {};   /* d.sk: the cards of tricks of the wrong size, played before the trick at i */
    (d.sk || []).forEach(function (c) { counted[c[0]] = c[1]; });
    for (i = 0; i < d.tricks.length && played < p; i++) {
      var t = d.tricks[i];
      out.ti = i;
      (counted[i] || []).forEach(function (c) {
        for (var hs in hands) {
          if (Object.prototype.hasOwnProperty.call(hands, hs) && hands[hs].indexOf(c) >= 0) {
            hands[hs].splice(hands[hs].indexOf(c), 1);
            break;
          }
        }
      });
      out.shown = 0;
      for (k = 0; k < t.p.length && played < p; k++) {
        played++;
        out.shown++;
        var seat = t.o.charAt(k), c = t.p[k][0];
        var h = hands[seat] || [];
        var at = h.indexOf(c);
        if (at >= 0) { h.splice(at, 1); }
      }
      out.complete = out.shown === t.p.length && !t.u;  /* t.u: a trick under way (dehlanote serve) */
      if (out.complete) {
        out.done = i + 1;
        out.centre = t.c;
        out.run = [t.w, t.r];
        if (t.x) {
          piles[t.x[1]].cards += t.x[2];
          piles[t.x[1]].tens = piles[t.x[1]].tens.concat(t.x[3]);
        }
      }
    }
    if (d.claim && p === e[e.length - 1]) {
      var cl = d.claim;
      piles[cl[1]].cards += cl[3];
      piles[cl[1]].tens = piles[cl[1]].tens.concat(cl[4]);
      out.centre = [0, []];
      out.claimed = true;
    }
    d.tk.forEach(function (ch) { if (ch[0] <= p) { out.trump = ch[1]; } });
    if (out.ti >= 0) {
      var start = e[out.ti];
      d.ev.forEach(function (ev) { if (ev[0] > start && ev[0] <= p) { out.event = ev[1]; } });
    }
    return out;
  }

  /* ---- drawing ------------------------------------------------------------------------- */

  function hand(g, d, seat, cards, unknown, faceUp, next) {
    var box = el("section", "seat seat-" + (g.seats.length === 6 ? LAYOUT6 : LAYOUT4)[seat]);
    box.setAttribute("aria-label", fmt(_("seat {seat}"), {seat: seatName(g, seat)}));
    if (next) { box.className += " to-play"; }
    var head = el("h3", "seat-head");
    head.appendChild(el("span", "seat-letter", seat));
    if (g.players[seat]) { head.appendChild(el("span", "seat-name", g.players[seat])); }
    head.appendChild(el("span", "badge side side-" + g.sideOf[seat], g.sideOf[seat]));
    if (d.dealer === seat) { head.appendChild(el("span", "badge dealer", _("dealer"))); }
    if (next) { head.appendChild(el("span", "badge next", _("to play"))); }
    box.appendChild(head);
    var row = el("div", "hand");
    var total = cards.length + unknown;
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", fmt(_("hand of {seat}: {cards}"), {seat: seat, cards: plural(total, "card")}));
    if (faceUp) {
      sorted(cards).forEach(function (c) { row.appendChild(card(c)); });
      if (unknown > 0) {
        row.appendChild(card(null, {label: fmt(_("{cards} the record does not show"), {cards: plural(unknown, "card")})}));
        row.appendChild(el("span", "more", fmt(_("and {n} more never seen"), {n: unknown})));
      }
    } else if (total > 0) {
      row.appendChild(card(null, {label: fmt(_("{cards} held, not shown in this view"), {cards: plural(total, "card")})}));
      row.appendChild(el("span", "more", plural(total, "card")));
    }
    if (total === 0) { row.appendChild(el("span", "more", _("no cards left"))); }
    box.appendChild(row);
    if (faceUp && d.recorded.indexOf(seat) < 0 && total > 0) {
      box.appendChild(el("p", "note", fmt(_("The record does not write this hand: these are the cards {seat} plays later."),
        {seat: seat})));
    }
    return box;
  }

  /* the seat to play next, or null at the end of the deal */
  function nextSeat(d, st) {
    var t = st.ti >= 0 ? d.tricks[st.ti] : null;
    if (t && !st.complete) { return t.o.charAt(st.shown) || null; }
    if (t && st.complete && st.ti + 1 < d.tricks.length) { return d.tricks[st.ti + 1].l; }
    if (!t && d.tricks.length) { return d.tricks[0].l; }
    return null;
  }

  function drawSeats(g, d, st) {
    var box = $("seats");
    box.textContent = "";
    $("table").className = g.seats.length === 6 ? "six" : "four";
    var next = nextSeat(d, st);
    $("turn").textContent = next ? visible(fmt(_("{seat} to play"), {seat: seatName(g, next)})) : "";
    for (var i = 0; i < g.seats.length; i++) {
      var s = g.seats.charAt(i);
      var faceUp = view === "open" || view === s;
      box.appendChild(hand(g, d, s, st.hands[s] || [], d.unknown[s] || 0, faceUp, next === s));
    }
  }

  function drawTrick(g, d, st) {
    var box = $("trick");
    box.textContent = "";
    box.className = "trick " + (g.seats.length === 6 ? "six" : "four");
    var t = st.ti >= 0 ? d.tricks[st.ti] : null;
    var layout = g.seats.length === 6 ? LAYOUT6 : LAYOUT4;
    for (var i = 0; i < g.seats.length; i++) {
      var s = g.seats.charAt(i);
      var slot = el("div", "slot slot-" + layout[s]);
      var k = t ? t.o.indexOf(s) : -1;
      if (t && k >= 0 && k < st.shown) {
        var win = st.complete && t.w === s;
        var play = t.p[k];
        var note = fmt(t.l === s ? (win ? _("led by {seat}, wins the trick") : _("led by {seat}"))
          : (win ? _("played by {seat}, wins the trick") : _("played by {seat}")), {seat: s});
        var mark = view === "open" ? markOf(d, t, k) : null;
        if (mark) { note = fmt(_("{note}, lost value ({mark}): {advice}"), {note: note, mark: mark[1], advice: mark[2]}); }
        slot.appendChild(card(play[0], {cls: win ? "winner" : "", note: note}));
        var lab = el("span", "slot-label", s + (t.l === s ? " " + _("leads") : "") + (win ? " \u2713 " + _("wins") : ""));
        if (play[1]) { lab.textContent += " " + visible(play[1]); }
        if (play[1] && play[2]) { lab.title = visible(play[2]); }     /* the record's glyph, with its comment */
        if (mark) {
          if (play[1] !== mark[1]) { lab.appendChild(document.createTextNode(" ")); }
          lab.appendChild(markSpan(mark, play[1]));
          lab.title = visible(mark[2]);
        }
        slot.appendChild(lab);
        if (play[3] && play[3].length) {
          slot.appendChild(el("span", "slot-label withdrawn", fmt(_("withdrew {cards}"), {cards: play[3].join(" ")})));
        }
      } else {
        slot.appendChild(el("span", "slot-empty", s));
      }
      box.appendChild(slot);
    }
  }

  function tensRow(label, tens) {
    var p = el("p", "tens-row");
    p.appendChild(el("span", "label", label));
    if (!tens.length) { p.appendChild(el("span", "none", _("no tens"))); }
    tens.forEach(function (c) { p.appendChild(card(c, {cls: "mini"})); });
    return p;
  }

  function drawInfo(g, d, st) {
    var e = st.ends;
    var t = st.ti >= 0 ? d.tricks[st.ti] : null;
    /* g.last: the last deal of the match when the page holds only some of its deals (a shared deal) */
    var where = fmt(_("Deal {n} of {all}"), {n: d.n,
      all: typeof g.last === "number" ? g.last : game().deals[game().deals.length - 1].n});
    /* d.all: a what-if line's tricks to come; else the last trick's number (a trick of the wrong
       size is counted, not replayed, so the tricks shown can be one fewer) */
    var all = d.all || (d.tricks.length ? d.tricks[d.tricks.length - 1].n : 0);
    if (!t) { where += " \u00b7 " + fmt(_("dealt, before trick 1 of {all}"), {all: all}); }
    else {
      where += " \u00b7 " + fmt(_("trick {n} of {all}"), {n: t.n, all: all}) + " \u00b7 " +
        fmt(_("card {n} of {all}"), {n: st.shown, all: t.u || t.p.length});
    }
    $("where").textContent = where;
    var tr = $("trump");
    tr.textContent = "";
    var known = st.trump;
    if (!known && d.closed && view === d.closed && d.secret) {
      known = d.secret;
      tr.appendChild(el("span", "", _("trump (your secret):") + " "));
    }
    if (known) {
      if (!tr.firstChild) { tr.appendChild(el("span", "", _("trump:") + " ")); }
      var sym = el("span", "suit-" + known + " trump-suit", SYMBOL[known] + " " + SUITS[known]);
      tr.appendChild(sym);
    } else {
      tr.textContent = d.closed ? _("trump: closed, not yet revealed") : _("trump: not yet known");
    }
    $("event").textContent = visible(st.event || "");
    var cap = $("capture");
    cap.textContent = "";
    if (t && st.complete) {
      var bits = fmt(_("{seat} wins the trick"), {seat: t.w});
      if (t.r > 1) { bits += " " + fmt(_("({n} in a row)"), {n: t.r}); }
      cap.appendChild(el("span", "", bits));
      if (t.x) {
        var x = t.x;
        cap.appendChild(el("span", "take", " \u2014 " + fmt(x[4] === "two-in-a-row" ? _("{seat} sweeps {cards} to {side} ({why})")
          : _("{seat} takes {cards} to {side} ({why})"), {seat: x[0], cards: plural(x[2], "card"), side: x[1], why: CAPTURE_WORDS[x[4]]})));
      }
      t.s.forEach(function (s) {
        if (s[0] === "cross") { cap.appendChild(el("span", "crossed", "\u2020 " + s[1])); }
      });
    }
    if (st.claimed) {
      cap.appendChild(el("span", "claim", d.claim[5]));
    }
    var errs = $("trick-errors");
    errs.textContent = "";
    if (t && t.e) {
      t.e.forEach(function (er) { errs.appendChild(errorLine(er)); });
    }
    drawNotes(d, t, st);
    drawAnalysis(d, t, st);
    var centre = $("centre-pile");
    centre.textContent = "";
    if (g.centre) {
      var h = el("p", "centre-count", _("Centre pile:") + " " + plural(st.centre[0], "card"));
      centre.appendChild(h);
      centre.appendChild(tensRow(_("tens in it:"), st.centre[1]));
    }
    var piles = $("piles");
    piles.textContent = "";
    g.sides.forEach(function (side) {
      var box = el("div", "pile side-" + side);
      box.appendChild(el("h3", "", fmt(_("{side} captured {cards}"), {side: side, cards: plural(st.piles[side].cards, "card")})));
      box.appendChild(tensRow(plural(st.piles[side].tens.length, "ten") + ":", st.piles[side].tens));
      piles.appendChild(box);
    });
    var res = $("result");
    res.textContent = "";
    var atEnd = st.done === all && (st.ti < 0 || st.complete) && pos.p === e[e.length - 1];
    if (atEnd && d.tricks.length) {
      res.appendChild(el("h3", "", fmt(_("Deal {n} result"), {n: d.n})));
      d.result.forEach(function (line) { res.appendChild(el("p", "", line)); });
      (d.ec || []).forEach(function (c) { res.appendChild(el("p", "comment", c)); });
      if (d.kot) { res.appendChild(el("p", "kot", fmt(_("Kot for {side}: {why}"), {side: d.kot[0], why: KOT_WORDS[d.kot[1]] || d.kot[1]}))); }
    }
    var score = atEnd ? d.score : (pos.d > 0 ? game().deals[pos.d - 1].score : null);
    var sc = $("score");
    var parts = g.sides.map(function (side) {
      var n = score ? (score[side] || 0) : 0;
      return side + " " + plural(n, "kot");
    });
    var text = (atEnd ? _("Match score after this deal:") : _("Match score before this deal:")) + " " + parts.join(" \u00b7 ");
    var pts = atEnd ? d.points : (pos.d > 0 ? game().deals[pos.d - 1].points : null);
    if (pts) { text += " \u00b7 " + _("deals won") + " " + g.sides.map(function (s) { return s + " " + (pts[s] || 0); }).join(" "); }
    if (st.run && st.run[1] > 1) { text += " \u00b7 " + fmt(_("{seat} has won {n} tricks in a row"), {seat: st.run[0], n: st.run[1]}); }
    sc.textContent = text;
  }

  /* the record's glyphs and comments of the cards shown so far, and the trick's note once it is complete */
  function drawNotes(d, t, st) {
    var box = $("notes");
    box.textContent = "";
    if (!t) { return; }
    for (var k = 0; k < st.shown; k++) {
      var play = t.p[k];
      if (!play[1] && !play[2]) { continue; }
      var p = el("p", "card-note");
      p.appendChild(el("span", "who", t.o.charAt(k) + " "));
      p.appendChild(cardText(play[0], play[1] ? visible(play[1]) : ""));
      if (play[2]) { p.appendChild(el("bdi", "said", " " + play[2])); }
      box.appendChild(p);
    }
    if (st.complete || st.shown === t.p.length) {
      (t.m || []).forEach(function (c) {
        var p = el("p", "trick-note");
        p.appendChild(el("span", "who", fmt(_("Trick {n}:"), {n: t.n}) + " "));
        p.appendChild(el("bdi", "said", c));
        box.appendChild(p);
      });
    }
  }

  /* the value under best play before the trick shown, and the cards of it that lost value */
  function drawAnalysis(d, t, st) {
    var box = $("analysis");
    box.textContent = "";
    if (!d.an) { return; }
    if (view !== "open") {
      box.appendChild(el("p", "an-note", _("analysis hidden in a seat view (it sees every hand)")));
      return;
    }
    var shown = t || d.tricks[0];
    var a = analysisOf(d, shown);
    if (!a) {
      box.appendChild(el("p", "an-note", d.an.note || _("not analysed")));
      return;
    }
    box.appendChild(el("p", "an-value", fmt(_("Before trick {n}, {value}"), {n: shown.n, value: a[0]})));
    a[1].forEach(function (m) {
      if (!t || m[0] >= st.shown) { return; }
      var p = el("p", "an-line");
      p.appendChild(el("span", "an-glyph", shown.o.charAt(m[0]) + " " + rank(shown.p[m[0]][0]) +
        SYMBOL[suit(shown.p[m[0]][0])] + m[1]));
      p.appendChild(document.createTextNode(" " + visible(m[2])));
      box.appendChild(p);
    });
  }

  function errorLine(er) {
    var p = el("p", "error");
    p.appendChild(el("span", "error-mark", "\u26a0 " + _("error")));
    p.appendChild(el("span", "", " " + (er[2] ? fmt(_("{code} line {line}:{column}: {message}"),
      {code: er[0], line: er[2], column: er[3], message: er[1]}) : er[0] + ": " + er[1])));
    return p;
  }

  function link(g, d, trick) {
    return "#game=" + g.n + "&deal=" + d.n + "&trick=" + trick;
  }

  function copyText(text, button) {
    function done(ok) {
      button.textContent = ok ? _("copied") : _("copy failed");
      setTimeout(function () { button.textContent = _("copy link"); }, 1500);
    }
    try {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(fallback(text)); });
        return;
      }
    } catch (err) { /* fall through */ }
    done(fallback(text));
  }

  function fallback(text) {
    var area = el("textarea", "offscreen");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }

  function pageUrl() { return location.href.split("#")[0]; }

  function trickCards(t, crossed, d) {
    var span = el("span", "cards");
    t.p.forEach(function (play, k) {
      var seat = t.o.charAt(k);
      var mark = (t.w === seat ? "*" : "") + (crossed.indexOf(play[0]) >= 0 ? "\u2020" : "") + (play[1] || "");
      var c = cardText(play[0], mark);
      c.title = fmt(_("{seat} plays {card}"), {seat: seat, card: cardName(play[0])});
      if (t.w === seat) { c.className += " won"; }
      span.appendChild(c);
      var lost = d ? markOf(d, t, k) : null;
      if (lost) {
        c.title += " \u2014 " + visible(lost[2]);
        span.appendChild(markSpan(lost, play[1]));
      }
      span.appendChild(document.createTextNode(" "));
    });
    return span;
  }

  /* errors that only the deal's end shows (told with the result, not ahead of the play) */
  var END_CODES = {"tens-mismatch": 1, "incomplete-deal": 1};

  /* the story of the deal: one entry per trick, from the engine's facts */
  function drawStory(g, d) {
    var key = pos.g + ":" + pos.d + (hooks.deal ? ":" + hooks.version : "");
    if (lastStory === key) { return; }
    lastStory = key;
    var body = $("story-body");
    body.textContent = "";
    $("story-head").textContent = fmt(_("Deal {n}: the story"), {n: d.n});
    body.appendChild(el("p", "head", d.head));
    (d.comments || []).forEach(function (c) { body.appendChild(el("p", "comment", c)); });
    /* a deal's end-of-deal errors (a wrong tens line: it gives the split away) are told with its result */
    d.errors.forEach(function (er) { if (!END_CODES[er[0]]) { body.appendChild(errorLine(er)); } });
    if (d.an && d.an.note) { body.appendChild(el("p", "an an-note", fmt(_("Analysis: {note}"), {note: d.an.note}))); }
    var list = el("ol", "timeline");
    var ends_ = ends(d);
    // tens that changed sides: marked † in the trick they were won in
    var lost = {};
    d.tricks.forEach(function (t) {
      t.s.forEach(function (s) {
        if (s[0] === "cross") {
          var m = /in trick (\d+)/.exec(s[1]);
          if (m) { (lost[m[1]] = lost[m[1]] || []).push(s[1].split(" ")[0]); }
        }
      });
    });
    d.tricks.forEach(function (t, i) {
      if (!t.p.length) { return; }        /* a what-if line's next trick, not begun */
      var li = el("li", "entry");
      li.id = "story-" + t.n;
      li.setAttribute("data-end", String(ends_[i + 1]));
      var head = el("div", "entry-head");
      var go = el("button", "go", fmt(_("Trick {n}"), {n: t.n}));
      go.type = "button";
      go.setAttribute("aria-label", fmt(_("show trick {n}"), {n: t.n}));
      go.addEventListener("click", function () { stop(); move(pos.g, pos.d, ends_[i + 1]); });
      head.appendChild(go);
      head.appendChild(el("span", "lead", fmt(_("{seat} leads:"), {seat: t.l}) + " "));
      head.appendChild(trickCards(t, lost[String(t.n)] || [], d));
      li.appendChild(head);
      var ul = el("ul", "facts");
      t.s.forEach(function (s) {
        var item = el("li", "fact fact-" + s[0]);
        if (s[0] === "cross") { item.appendChild(el("span", "mark", "\u2020 " + _("ten changed sides:") + " ")); }
        if (s[0] === "sweep") { item.appendChild(el("span", "mark", "\u21bb ")); }
        if (s[0] === "trump") { item.appendChild(el("span", "mark", "\u2605 ")); }
        item.appendChild(document.createTextNode(visible(s[1])));
        ul.appendChild(item);
      });
      ul.appendChild(el("li", "fact fact-tens", _("tens") + " " + g.sides.map(function (s) { return s + " " + t.d[s]; }).join(" ")));
      var an = analysisOf(d, t);
      if (an) {
        ul.appendChild(el("li", "fact an an-value", fmt(_("before the trick, {value}"), {value: an[0]})));
        an[1].forEach(function (m) {
          var item = el("li", "fact an an-line");
          item.appendChild(el("span", "an-glyph", t.o.charAt(m[0]) + " " + rank(t.p[m[0]][0]) + SYMBOL[suit(t.p[m[0]][0])] + m[1]));
          item.appendChild(document.createTextNode(" " + visible(m[2])));
          ul.appendChild(item);
        });
      }
      (t.m || []).forEach(function (c) { ul.appendChild(el("li", "fact comment", c)); });
      t.p.forEach(function (play, k) {
        var said = markOf(d, t, k);
        /* a sentence the record already carries (annotate --analyse) is not said twice */
        var note = (play[2] || "").split(" \u00b7 ").filter(function (c) { return !said || c !== said[2]; }).join(" \u00b7 ");
        if (note) { ul.appendChild(el("li", "fact comment", t.o.charAt(k) + " " + play[0] + ": " + note)); }
      });
      li.appendChild(ul);
      (t.e || []).forEach(function (er) { li.appendChild(errorLine(er)); li.className += " has-error"; });
      var a = el("a", "link", _("link"));
      a.href = link(g, d, t.n);
      a.tabIndex = -1;  /* keyboard users have the trick button and "copy link": fewer stops */
      a.setAttribute("aria-label", fmt(_("link to trick {n}"), {n: t.n}));
      li.appendChild(a);
      var copy = el("button", "copy", _("copy link"));
      copy.type = "button";
      copy.setAttribute("aria-label", fmt(_("copy a link to trick {n}"), {n: t.n}));
      copy.addEventListener("click", function () { copyText(pageUrl() + link(g, d, t.n), copy); });
      li.appendChild(copy);
      list.appendChild(li);
    });
    if (d.claim) {
      var cli = el("li", "entry claim");
      cli.appendChild(el("span", "", fmt(_("Claim after trick {n}: {claim}"), {n: d.claim[2] - 1, claim: d.claim[5]})));
      list.appendChild(cli);
    }
    d.unplayed.forEach(function (u) {
      var li = el("li", "entry unplayed");
      li.appendChild(el("span", "", fmt(_("Trick {n} (not replayed): {cards}"), {n: u[0], cards: u[1].join(" ")})));
      list.appendChild(li);
    });
    body.appendChild(list);
    var res = el("div", "story-result");
    d.errors.forEach(function (er) { if (END_CODES[er[0]]) { res.appendChild(errorLine(er)); } });
    d.result.forEach(function (line) { res.appendChild(el("p", "", line)); });
    (d.ec || []).forEach(function (c) { res.appendChild(el("p", "comment", c)); });
    body.appendChild(res);
    if (pos.d === game().deals.length - 1) {
      g.result.forEach(function (line) { body.appendChild(el("p", "match-result", line)); });
    }
  }

  function markStory(st) {
    var rest = $("story-body").querySelectorAll("li.entry.claim, li.entry.unplayed");
    for (var r = 0; r < rest.length; r++) { rest[r].classList.toggle("future", !document.body.classList.contains("at-end")); }
    var items = $("story-body").querySelectorAll("li.entry[data-end]");
    var current = null;
    for (var i = 0; i < items.length; i++) {
      var li = items[i];
      var end = Number(li.getAttribute("data-end"));
      /* a trick is told once its last card is down: the story never says who wins a trick to come */
      var isCurrent = st.ti === i && end <= pos.p;
      li.classList.toggle("current", isCurrent);
      li.classList.toggle("future", end > pos.p);
      if (isCurrent) { li.setAttribute("aria-current", "step"); current = li; } else { li.removeAttribute("aria-current"); }
    }
    var box = $("story");
    if (current && box.scrollHeight > box.clientHeight) {
      var top = current.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top + current.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = Math.max(0, top - 40);
      }
    }
  }

  /* the deal as a diagram with its trick list, for the print stylesheet */
  function drawPrint(g, d) {
    var box = $("print");
    box.textContent = "";
    box.appendChild(el("h2", "", d.head));
    var grid = el("div", "print-hands " + (g.seats.length === 6 ? "six" : "four"));
    var layout = g.seats.length === 6 ? LAYOUT6 : LAYOUT4;
    for (var i = 0; i < g.seats.length; i++) {
      var s = g.seats.charAt(i);
      var cell = el("div", "ph ph-" + layout[s]);
      cell.appendChild(el("strong", "", d.dealer === s ? fmt(_("{seat} (dealer)"), {seat: seatName(g, s)}) : seatName(g, s)));
      var cards = sorted(d.hands[s] || []);
      SUIT_ORDER.split("").forEach(function (su) {
        var ranks = cards.filter(function (c) { return suit(c) === su; }).map(rank);
        cell.appendChild(el("div", "", SYMBOL[su] + " " + (ranks.join(" ") || "\u2014")));
      });
      if (d.unknown[s]) { cell.appendChild(el("div", "", fmt(_("{cards} not recorded"), {cards: plural(d.unknown[s], "card")}))); }
      grid.appendChild(cell);
    }
    box.appendChild(grid);
    var tbl = el("table", "print-tricks");
    var hr = el("tr");
    /* the record's words: each card's comment, then the trick's notes */
    function said(t) {
      var out = [];
      t.p.forEach(function (p, k) { if (p[2]) { out.push(t.o.charAt(k) + " " + p[0] + ": " + p[2]); } });
      return out.concat(t.m || []).join(" \u00b7 ");
    }
    var notes = d.tricks.some(function (t) { return said(t) !== ""; });
    ["#", _("leader"), _("cards (winner *)"), _("won"), g.centre ? _("centre") : "", _("capture"), _("tens"),
      notes ? _("notes") : ""].forEach(function (h) {
      if (h !== "") { hr.appendChild(el("th", "", h)); }
    });
    tbl.appendChild(hr);
    d.tricks.forEach(function (t) {
      var tr = el("tr");
      tr.appendChild(el("td", "", t.n));
      tr.appendChild(el("td", "", t.l));
      tr.appendChild(el("td", "", t.p.map(function (p, k) {
        var m = markOf(d, t, k);
        return rank(p[0]) + SYMBOL[suit(p[0])] + (t.o.charAt(k) === t.w ? "*" : "") + (p[1] || "") +
          (m && m[1] !== p[1] ? m[1] : "");
      }).join(" ")));
      tr.appendChild(el("td", "", t.w));
      if (g.centre) { tr.appendChild(el("td", "", t.c[0] + (t.c[1].length ? " (" + t.c[1].join(" ") + ")" : ""))); }
      tr.appendChild(el("td", "", t.x ? t.x[0] + " " + t.x[2] + (t.x[3].length ? " " + t.x[3].join(" ") : "") : ""));
      tr.appendChild(el("td", "", g.sides.map(function (s) { return s + " " + t.d[s]; }).join(" ")));
      if (notes) { tr.appendChild(el("td", "print-note", said(t))); }
      tbl.appendChild(tr);
    });
    box.appendChild(tbl);
    d.result.forEach(function (line) { box.appendChild(el("p", "", line)); });
    (d.ec || []).forEach(function (c) { box.appendChild(el("p", "comment", c)); });
  }

  /* ---- moving ---------------------------------------------------------------------------- */

  var lastChoosers = null;

  function choosers() {
    var g = game();
    var key = String(pos.g);
    if (lastChoosers === key) { $("deal").value = String(pos.d); return; }
    lastChoosers = key;
    var sel = $("deal");
    sel.textContent = "";
    g.deals.forEach(function (d, i) {
      var o = el("option", "", fmt(_("Deal {n}"), {n: d.n}) + (d.dealer ? " \u00b7 " + fmt(_("dealer {seat}"), {seat: d.dealer}) : "") +
        (d.errors.length || d.tricks.some(function (t) { return t.e; }) ? " \u26a0" : ""));
      o.value = String(i);
      sel.appendChild(o);
    });
    sel.value = String(pos.d);
    var vs = $("view");
    vs.textContent = "";
    var o = el("option", "", _("open table (all hands)"));
    o.value = "open";
    vs.appendChild(o);
    for (var i = 0; i < g.seats.length; i++) {
      var s = g.seats.charAt(i);
      var opt = el("option", "", fmt(_("as {seat}"), {seat: seatName(g, s)}));
      opt.value = s;
      vs.appendChild(opt);
    }
    if (view !== "open" && g.seats.indexOf(view) < 0) { view = "open"; }
    vs.value = view;
    $("game").value = String(pos.g);
    var sub = [];
    var names = [];
    for (var j = 0; j < g.seats.length; j++) {
      var seat = g.seats.charAt(j);
      if (g.players[seat]) { names.push(seat + " " + g.players[seat]); }
    }
    if (names.length) { sub.push(names.join(", ")); }
    sub.push(g.rules);
    g.result.forEach(function (line) { sub.push(line); });
    $("subtitle").textContent = visible(sub.join(" \u00b7 "));
    $("title").textContent = visible(g.title);
    /* the record's own words on the game: its comments and those on its tags (they were on no page) */
    var said = $("game-comments");
    said.textContent = "";
    (g.comments || []).forEach(function (c) { said.appendChild(el("p", "comment", c)); });
    (g.tag_comments || []).forEach(function (tc) { said.appendChild(el("p", "comment", tc[0] + ": " + tc[1])); });
    var errs = $("record-errors");
    errs.textContent = "";
    if (g.errors.length) {
      errs.hidden = false;
      var loose = g.errors.filter(function (er) { return er[4] === null || er[4] === undefined; });
      var atTricks = g.errors.length - loose.length;
      /* one line, the errors themselves behind it: a few are shown open on a wide screen, a long
         list (or any list on a phone, where the table comes first) waits to be opened */
      var det = el("details", "error-list");
      det.appendChild(el("summary", "error-head", fmt(atTricks
        ? _("This game has {errors}; those in a deal are flagged \u26a0 at their trick and in the deal chooser (e / E: next / previous):")
        : _("This game has {errors}:"), {errors: plural(g.errors.length, "error")})));
      g.errors.forEach(function (er) { det.appendChild(errorLine(er)); });
      det.open = g.errors.length <= 3 && !(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
      errs.appendChild(det);
    } else {
      errs.hidden = true;
    }
    (g.notes || []).forEach(function (n) { errs.hidden = false; errs.appendChild(el("p", "note", n)); });
  }

  function render() {
    var g = game();
    if (!g.deals.length) {
      choosers();
      $("where").textContent = _("this game has no deal that could be replayed");
      $("seats").textContent = "";
      $("story-body").textContent = "";
      return;
    }
    var d = deal();
    var st = table(g, d, pos.p);
    choosers();
    drawSeats(g, d, st);
    drawTrick(g, d, st);
    drawInfo(g, d, st);
    drawStory(g, d);
    document.body.classList.toggle("seat-view", view !== "open");
    document.body.classList.toggle("at-end", pos.p === st.ends[st.ends.length - 1]);
    markStory(st);
    $("flash").textContent = flash;
    flash = "";
    var sc = $("scrubber");
    sc.max = String(st.ends[st.ends.length - 1]);
    sc.value = String(pos.p);
    sc.setAttribute("aria-valuetext", $("where").textContent);
    if ($("print").getAttribute("data-key") !== pos.g + ":" + pos.d) {
      drawPrint(g, d);
      $("print").setAttribute("data-key", pos.g + ":" + pos.d);
    }
    if (!hooks.deal) { writeHash(st); }
    if (hooks.after) { hooks.after(st); }
  }

  function fragment(st) {
    var g = game(), d = deal();
    var trick = st.ti < 0 ? 0 : d.tricks[st.ti].n;
    var h = "#game=" + g.n + "&deal=" + d.n + "&trick=" + trick;
    if (st.ti >= 0 && !st.complete) { h += "&card=" + st.shown; }
    if (view !== "open") { h += "&view=" + view; }
    return h;
  }

  var writing = false;

  function writeHash(st) {
    var h = fragment(st);
    if (location.hash === h) { return; }
    try {
      writing = true;
      history.replaceState(null, "", h);
    } catch (err) {
      /* some browsers refuse replaceState on file:// pages; the position still shows */
    } finally {
      writing = false;
    }
  }

  function move(g, d, p) {
    if (hooks.deal && (g !== pos.g || d !== pos.d)) { leaveLine(); }
    pos.g = g; pos.d = d; pos.p = p;
    render();
  }

  function leaveLine() {
    hooks.deal = null;
    hooks.version++;
    if (hooks.left) { hooks.left(); }
  }

  function total(d) { var e = ends(d); return e[e.length - 1]; }

  var moves = {
    next: function () {
      if (pos.p < total(deal())) { move(pos.g, pos.d, pos.p + 1); return true; }
      if (pos.d + 1 < game().deals.length) { move(pos.g, pos.d + 1, 0); return true; }
      return false;
    },
    prev: function () {
      if (pos.p > 0) { move(pos.g, pos.d, pos.p - 1); return true; }
      if (pos.d > 0) { move(pos.g, pos.d - 1, total(game().deals[pos.d - 1])); return true; }
      return false;
    },
    nextTrick: function () {
      var e = ends(deal());
      for (var i = 0; i < e.length; i++) { if (e[i] > pos.p) { move(pos.g, pos.d, e[i]); return true; } }
      if (pos.d + 1 < game().deals.length) { move(pos.g, pos.d + 1, 0); return true; }
      return false;
    },
    prevTrick: function () {
      var e = ends(deal());
      for (var i = e.length - 1; i >= 0; i--) { if (e[i] < pos.p) { move(pos.g, pos.d, e[i]); return true; } }
      if (pos.d > 0) { move(pos.g, pos.d - 1, total(game().deals[pos.d - 1])); return true; }
      return false;
    },
    nextDeal: function () {
      if (pos.d + 1 < game().deals.length) { move(pos.g, pos.d + 1, 0); return true; }
      return false;
    },
    prevDeal: function () {
      if (pos.p > 0) { move(pos.g, pos.d, 0); return true; }
      if (pos.d > 0) { move(pos.g, pos.d - 1, 0); return true; }
      return false;
    },
    start: function () { if (pos.p === 0) { return false; } move(pos.g, pos.d, 0); return true; },
    end: function () { var n = total(deal()); if (pos.p === n) { return false; } move(pos.g, pos.d, n); return true; }
  };

  /* the errors of the game in order, each as the position that shows it: a trick's errors at the
     end of that trick, a deal's own errors (a wrong tens line, a claim) at its end */
  function errorStops() {
    var out = [];
    game().deals.forEach(function (d, di) {
      var e = ends(d);
      d.tricks.forEach(function (t, i) { if (t.e) { out.push([di, e[i + 1]]); } });
      if (d.errors.length) { out.push([di, e[e.length - 1]]); }
    });
    return out;
  }

  var flash = "";

  /* e / E: the next or previous error, as in the terminal stepper (dehlanote/output/keys.py) */
  function stepError(forward) {
    var stops = errorStops();
    if (!stops.length) { flash = _("no errors in this game"); render(); return true; }
    var i, at = null;
    if (forward) {
      for (i = 0; i < stops.length && at === null; i++) {
        if (stops[i][0] > pos.d || (stops[i][0] === pos.d && stops[i][1] > pos.p)) { at = stops[i]; }
      }
      if (at === null) { at = stops[0]; flash = _("no error after this: back to the first"); }
    } else {
      for (i = stops.length - 1; i >= 0 && at === null; i--) {
        if (stops[i][0] < pos.d || (stops[i][0] === pos.d && stops[i][1] < pos.p)) { at = stops[i]; }
      }
      if (at === null) { flash = _("no error before this"); render(); return true; }
    }
    move(pos.g, at[0], at[1]);
    return true;
  }

  function jumpTo(n) {
    var d = deal(), e = ends(d);
    for (var i = 0; i < d.tricks.length; i++) {
      if (d.tricks[i].n === n) { move(pos.g, pos.d, e[i + 1]); return true; }
    }
    if (n === 0) { move(pos.g, pos.d, 0); return true; }
    return false;
  }

  /* #game=2&deal=3&trick=7[&card=2][&view=B] */
  function readHash() {
    var h = location.hash.replace(/^#/, "");
    if (!h) { return false; }
    var q = {};
    h.split("&").forEach(function (part) {
      var kv = part.split("=");
      /* a part that is not a key and a value, or whose % escapes are malformed (#trick=%), is
         left out: the rest of the link still opens the nearest position */
      if (kv.length !== 2) { return; }
      try { q[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1]); } catch (err) { /* ignored */ }
    });
    var gi = 0;
    if (q.game) {
      for (var i = 0; i < GAMES.length; i++) { if (String(GAMES[i].n) === q.game) { gi = i; } }
    }
    var g = GAMES[gi];
    var di = 0;
    if (q.deal) {
      for (var j = 0; j < g.deals.length; j++) { if (String(g.deals[j].n) === q.deal) { di = j; } }
    }
    if (q.view && (q.view === "open" || g.seats.indexOf(q.view) >= 0)) { view = q.view; }
    var p = 0;
    var d = g.deals[di];
    if (d && q.trick) {
      var e = ends(d);
      for (var k = 0; k < d.tricks.length; k++) {
        if (String(d.tricks[k].n) === q.trick) {
          p = e[k + 1];
          if (q.card) {
            var c = parseInt(q.card, 10);
            if (c >= 0 && c < d.tricks[k].p.length) { p = e[k] + c; }
          }
        }
      }
    }
    pos.g = gi; pos.d = di; pos.p = p;
    return true;
  }

  /* ---- autoplay -------------------------------------------------------------------------- */

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    var b = $("b-play");
    b.textContent = "\u25b6 " + _("autoplay");
    b.setAttribute("aria-pressed", "false");
  }

  function play() {
    if (timer !== null) { stop(); return; }
    var b = $("b-play");
    b.textContent = "\u275a\u275a " + _("pause");
    b.setAttribute("aria-pressed", "true");
    timer = setInterval(function () { if (!moves.next()) { stop(); } }, Number($("speed").value) || 1000);
  }

  /* ---- wiring ---------------------------------------------------------------------------- */

  function button(id, fn) {
    $(id).addEventListener("click", function () { stop(); fn(); });
  }

  button("b-next", moves.next);
  button("b-prev", moves.prev);
  button("b-next-trick", moves.nextTrick);
  button("b-prev-trick", moves.prevTrick);
  button("b-next-deal", moves.nextDeal);
  button("b-prev-deal", moves.prevDeal);
  button("b-start", moves.start);
  button("b-end", moves.end);
  $("b-play").addEventListener("click", play);
  $("speed").addEventListener("change", function () { if (timer !== null) { stop(); play(); } });
  $("b-help").addEventListener("click", toggleHelp);
  $("b-story-all").addEventListener("click", function () {
    var all = !document.body.classList.contains("story-all");
    document.body.classList.toggle("story-all", all);
    this.setAttribute("aria-pressed", all ? "true" : "false");
    this.textContent = all ? _("hide the rest of the deal") : _("show the rest of the deal");
  });
  $("scrubber").addEventListener("input", function () { stop(); move(pos.g, pos.d, Number($("scrubber").value)); });
  $("deal").addEventListener("change", function () { stop(); move(pos.g, Number($("deal").value), 0); });
  $("game").addEventListener("change", function () { stop(); lastStory = null; move(Number($("game").value), 0, 0); });
  $("view").addEventListener("change", function () { view = $("view").value; render(); });
  $("four").addEventListener("change", function () { document.body.classList.toggle("four-colour", $("four").checked); });
  $("jump").addEventListener("keydown", function (ev) {
    if (ev.key === "Enter") {
      ev.preventDefault();
      var n = parseInt($("jump").value, 10);
      if (!isNaN(n)) { stop(); jumpTo(n); }
      $("jump").blur();
    } else if (ev.key === "Escape") {
      $("jump").blur();
    }
  });
  window.addEventListener("hashchange", function () {
    if (writing) { return; }
    if (readHash()) { stop(); lastStory = null; if (hooks.deal) { leaveLine(); } render(); }
  });

  function toggleHelp() {
    var help = $("help");
    help.hidden = !help.hidden;
    $("b-help").setAttribute("aria-expanded", help.hidden ? "false" : "true");
    /* the list is at the foot of the page, below the table and the story: bring it into sight */
    if (!help.hidden) { help.scrollIntoView({block: "nearest"}); }
  }

  var KEYS = {
    ArrowRight: moves.next, n: moves.next, l: moves.next, " ": moves.next,
    ArrowLeft: moves.prev, p: moves.prev, h: moves.prev,
    ArrowDown: moves.nextTrick, N: moves.nextTrick, j: moves.nextTrick,
    ArrowUp: moves.prevTrick, P: moves.prevTrick, k: moves.prevTrick,
    "]": moves.nextDeal, PageDown: moves.nextDeal, "[": moves.prevDeal, PageUp: moves.prevDeal,
    Home: moves.start, g: moves.start, End: moves.end, G: moves.end,
    e: function () { return stepError(true); }, E: function () { return stepError(false); }
  };

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    if (tag === "BUTTON" || tag === "A") {
      if (ev.key === " " || ev.key === "Enter") { return; }
    }
    if (ev.key === "?") { toggleHelp(); ev.preventDefault(); return; }
    if (ev.key === "Escape") { $("help").hidden = true; $("b-help").setAttribute("aria-expanded", "false"); stop(); return; }
    if (ev.key === "a") { play(); ev.preventDefault(); return; }
    if (ev.key === "t" || /^[0-9]$/.test(ev.key)) {
      var j = $("jump");
      j.value = ev.key === "t" ? "" : ev.key;
      j.focus();
      ev.preventDefault();
      return;
    }
    var fn = KEYS[ev.key];
    if (!GAMES[pos.g].deals.length) { return; }
    if (fn) { stop(); fn(); ev.preventDefault(); }
  });

  /* the game chooser: only when the page holds several games */
  (function () {
    var sel = $("game");
    GAMES.forEach(function (g, i) {
      var s = g.summary;
      var o = el("option", "", s.n + ". " + s.title + " \u00b7 " + s.result + (s.errors ? " \u00b7 \u26a0 " + plural(s.errors, "error") : ""));
      o.value = String(i);
      sel.appendChild(o);
    });
    $("game-label").hidden = GAMES.length < 2;
  }());

  if (DATA.four) { $("four").checked = true; document.body.classList.add("four-colour"); }
  readHash();
  /* what-if: whatif.js plays on from a position with the page's own means of drawing it */
  var api = {pos: pos, hooks: hooks, game: game, recorded: function () { return game().deals[pos.d]; }, move: move,
    render: render, _: _, fmt: fmt, el: el, cardText: cardText, view: function () { return view; }};
  if (window.DPN_WHATIF) { window.DPN_WHATIF.attach(api); } else { window.DPN_REPLAY = api; }
  render();
  document.documentElement.setAttribute("data-ready", "1");
}());
