/* The drill page: each costly position as its player saw it; the card chosen is checked against
   the judgement. Every string reaches the page through textContent; the words come from the
   page's catalog (English when it has none). */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("drill-data").textContent);
  var LIST = DATA.positions || [];
  var WORDS = DATA.words || {};
  function _(s) { return Object.prototype.hasOwnProperty.call(WORDS, s) && WORDS[s] ? WORDS[s] : s; }
  function fmt(s, o) { return s.replace(/\{(\w+)\}/g, function (m, k) { return o[k] !== undefined ? String(o[k]) : m; }); }
  var SUIT = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var SUITNAME = {S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs")};
  var RANKNAME = {A: _("ace"), K: _("king"), Q: _("queen"), J: _("jack"), "10": _("ten"), "9": _("nine"),
    "8": _("eight"), "7": _("seven"), "6": _("six"), "5": _("five"), "4": _("four"), "3": _("three"), "2": _("two")};
  var UNITS = {tens: [_("{n} ten"), _("{n} tens")], points: [_("{n} point"), _("{n} points")],
    tricks: [_("{n} trick"), _("{n} tricks")]};
  var at = 0;

  /* record text (a name, a file name) with its bidi controls shown as \ufffd, as the replay page
     shows them; a name inside a sentence is also isolated (FSI ... PDI, the text form of <bdi>):
     a name written right to left never reorders the sentence around it */
  var BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function visible(s) { return String(s).replace(BIDI, "\ufffd"); }
  function iso(s) { return "\u2068" + visible(s) + "\u2069"; }
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function suit(c) { return c.charAt(c.length - 1); }
  function rank(c) { return c.slice(0, -1); }
  function show(c) { return rank(c) + (SUIT[suit(c)] || suit(c)); }
  function spoken(c) { return fmt(_("{rank} of {suit}"), {rank: RANKNAME[rank(c)] || rank(c), suit: SUITNAME[suit(c)] || suit(c)}); }
  function cardSpan(c) {
    var s = el("span", "d-card suit-" + suit(c), show(c));
    s.setAttribute("aria-label", spoken(c));
    return s;
  }
  function units(n, unit) {
    var forms = UNITS[unit] || UNITS.tens;
    return fmt(Math.abs(n - 1) < 1e-9 ? forms[0] : forms[1], {n: n.toFixed(2)});
  }
  function count(n, one, many) { return fmt(n === 1 ? one : many, {n: n}); }
  function judged(p, c) {
    for (var i = 0; i < p.cards.length; i++) { if (p.cards[i].card === c) { return p.cards[i]; } }
    return null;
  }
  function trumpNote(s) {
    var name = s.trump ? SUITNAME[s.trump] || s.trump : "";
    switch (s.trump_how) {
      case "set": return fmt(_("trump: {suit}"), {suit: name});
      case "closed-own": return fmt(_("closed trump: {suit}, set by you, not yet revealed"), {suit: name});
      case "closed-hidden": return fmt(_("closed trump set by {seat}, not yet revealed"), {seat: s.setter});
      case "closed-unchosen": return _("closed trump, its setter not yet known");
      case "first-void": return _("no trump yet: the first player who cannot follow suit sets it");
      default: return _("no trump");
    }
  }

  function render() {
    var p = LIST[at];
    $("d-count").textContent = fmt(_("position {n} of {all}"), {n: at + 1, all: LIST.length});
    $("d-prev").disabled = at === 0;
    $("d-next").disabled = at === LIST.length - 1;
    $("d-where").textContent = visible(p.where);
    var s = p.seen;
    var who = p.player ? fmt(_("{seat} ({name})"), {seat: p.seat, name: iso(p.player)}) : p.seat;
    $("d-you").textContent = s.trick.length ? fmt(_("You are {seat}, card {n} of the trick."), {seat: who, n: s.trick.length + 1})
      : fmt(_("You are {seat}, to lead."), {seat: who});
    var facts = $("d-facts");
    facts.textContent = "";
    facts.appendChild(el("li", "", trumpNote(s)));
    facts.appendChild(el("li", "", fmt(_("centre: {cards}, {tens}"), {cards: count(s.centre, _("{n} card"), _("{n} cards")),
      tens: count(s.centre_tens, _("{n} ten"), _("{n} tens"))})));
    Object.keys(s.tens).forEach(function (side) {
      facts.appendChild(el("li", "", fmt(_("{side} has won {tens}"), {side: side, tens: count(s.tens[side], _("{n} ten"), _("{n} tens"))})));
    });
    facts.appendChild(el("li", "", fmt(_("{n} tricks played"), {n: s.tricks_done})));
    var trick = $("d-trick");
    trick.textContent = "";
    if (!s.trick.length) { trick.appendChild(el("span", "none", _("no card yet: you lead"))); }
    s.trick.forEach(function (pc) {
      var one = el("span", "d-played");
      one.appendChild(el("span", "seat", pc[0] + " "));
      one.appendChild(cardSpan(pc[1]));
      trick.appendChild(one);
    });
    var earlier = $("d-earlier");
    earlier.textContent = "";
    s.earlier.forEach(function (t) {
      var li = el("li", "", fmt(_("{seat} led:"), {seat: t[0]}) + " ");
      t[1].forEach(function (c, k) { if (k) { li.appendChild(document.createTextNode(" ")); } li.appendChild(cardSpan(c)); });
      earlier.appendChild(li);
    });
    $("d-earlier-box").hidden = !s.earlier.length;
    var hand = $("d-hand");
    hand.textContent = "";
    s.hand.forEach(function (c) {
      var b = el("button", "d-choice suit-" + suit(c), show(c));
      b.type = "button";
      b.setAttribute("data-card", c);
      var legal = s.legal.indexOf(c) >= 0;
      b.disabled = !legal;
      b.setAttribute("aria-label", legal ? spoken(c) : fmt(_("{card} (not allowed: follow suit)"), {card: spoken(c)}));
      b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", function () { answer(c); });
      hand.appendChild(b);
    });
    $("d-answer").textContent = "";
    $("d-answer").className = "d-answer";
    $("d-answer").removeAttribute("data-verdict");
    $("d-after").hidden = true;
    $("d-replay").href = p.link || "#";
  }

  function answer(c) {
    var p = LIST[at], j = judged(p, c);
    if (!j) { return; }
    Array.prototype.forEach.call($("d-hand").querySelectorAll("button"), function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-card") === c ? "true" : "false");
    });
    var best = p.cards.filter(function (x) { return x.loss <= 1e-9; }).map(function (x) { return show(x.card); });
    var verdict, cls;
    if (j.loss <= 1e-9) {
      var also = best.filter(function (x) { return x !== show(c); });
      verdict = also.length ? fmt(_("Kept: {card} is a best card here (as good: {others})."), {card: show(c), others: also.join(", ")})
        : fmt(_("Kept: {card} is the best card here."), {card: show(c)});
      cls = "best";
    } else if (!j.mark) {
      verdict = fmt(_("Kept: {card} is expected to lose {loss}, within the judgement's error. The best: {best}."),
        {card: show(c), loss: units(j.loss, p.unit), best: best.join(", ")});
      cls = "kept";
    } else {
      verdict = fmt(_("Not kept: {card} is expected to lose {loss} ({mark}). The best: {best}."),
        {card: show(c), loss: units(j.loss, p.unit), mark: j.mark, best: best.join(", ")});
      cls = "lost";
    }
    verdict += " " + (c !== p.played ? fmt(_("In the game {seat} played {card}."), {seat: p.seat, card: show(p.played)})
      : _("This is the card played in the game."));
    var a = $("d-answer");
    a.textContent = verdict;
    a.className = "d-answer " + cls;
    a.setAttribute("data-verdict", cls);
    var body = $("d-losses").querySelector("tbody");
    body.textContent = "";
    p.cards.slice().sort(function (x, y) { return x.loss - y.loss; }).forEach(function (x) {
      var tr = el("tr");
      tr.setAttribute("data-card", x.card);
      var td = el("td");
      td.appendChild(cardSpan(x.card));
      tr.appendChild(td);
      tr.appendChild(el("td", "", units(x.loss, p.unit) + (p.single && !p.exact && x.loss > 1e-9 ? " \u00b1" + x.stderr.toFixed(2) : "")));
      tr.appendChild(el("td", "", x.mark));
      var notes = [];
      if (x.card === c) { notes.push(_("your choice")); }
      if (x.card === p.played) { notes.push(_("played in the game")); }
      tr.appendChild(el("td", "", notes.join(", ")));
      body.appendChild(tr);
    });
    var how = !p.single ? _("Every legal card, judged double dummy")
      : p.exact && p.worlds === 1 ? fmt(_("Every legal card, judged on the only deal {seat} could not tell apart"), {seat: p.seat})
      : p.exact ? fmt(_("Every legal card, judged over all {n} deals {seat} could not tell apart"), {n: p.worlds, seat: p.seat})
      : p.worlds === 1 ? _("Every legal card, judged on 1 sampled deal")
      : fmt(_("Every legal card, judged over {n} sampled deals {seat} could not tell apart"), {n: p.worlds, seat: p.seat});
    $("d-losses").querySelector("caption").textContent = how;
    $("d-after").hidden = false;
  }

  function go(k) { if (k >= 0 && k < LIST.length && k !== at) { at = k; render(); $("d-where").focus(); } }

  if (!LIST.length) { $("d-none").hidden = false; document.documentElement.setAttribute("data-ready", "1"); return; }
  $("drill-box").hidden = false;
  $("d-where").tabIndex = -1;
  $("d-prev").addEventListener("click", function () { go(at - 1); });
  $("d-next").addEventListener("click", function () { go(at + 1); });
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    if (ev.key === "ArrowRight" || ev.key === "n") { go(at + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft" || ev.key === "p") { go(at - 1); ev.preventDefault(); }
  });
  var h = /(?:^#|&)position=(\d+)/.exec(location.hash);
  if (h) { var n = parseInt(h[1], 10) - 1; if (n >= 0 && n < LIST.length) { at = n; } }
  render();
  document.documentElement.setAttribute("data-ready", "1");
}());
