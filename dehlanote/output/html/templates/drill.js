/* The drill page: each costly position as its player saw it; the card chosen is checked against
   the judgement. Every string reaches the page through textContent. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("drill-data").textContent);
  var LIST = DATA.positions || [];
  var SUIT = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var SUITNAME = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
  var RANKNAME = {A: "ace", K: "king", Q: "queen", J: "jack"};
  var at = 0;

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
  function spoken(c) { return (RANKNAME[rank(c)] || rank(c)) + " of " + (SUITNAME[suit(c)] || suit(c)); }
  function cardSpan(c) {
    var s = el("span", "d-card suit-" + suit(c), show(c));
    s.setAttribute("aria-label", spoken(c));
    return s;
  }
  function units(n, unit) {
    var one = unit.slice(0, -1);
    return n.toFixed(2) + " " + (Math.abs(n - 1) < 1e-9 ? one : unit);
  }
  function judged(p, c) {
    for (var i = 0; i < p.cards.length; i++) { if (p.cards[i].card === c) { return p.cards[i]; } }
    return null;
  }

  function render() {
    var p = LIST[at];
    $("d-count").textContent = "position " + (at + 1) + " of " + LIST.length;
    $("d-prev").disabled = at === 0;
    $("d-next").disabled = at === LIST.length - 1;
    $("d-where").textContent = p.where;
    var s = p.seen;
    $("d-you").textContent = "You are " + p.seat + (p.player ? " (" + p.player + ")" : "") + ", " +
      (s.trick.length ? "card " + (s.trick.length + 1) + " of the trick" : "to lead") + ".";
    var facts = $("d-facts");
    facts.textContent = "";
    facts.appendChild(el("li", "", s.trump_note));
    facts.appendChild(el("li", "", "centre: " + s.centre + " cards, " + s.centre_tens + " tens"));
    Object.keys(s.tens).forEach(function (side) { facts.appendChild(el("li", "", side + " has won " + s.tens[side] + " tens")); });
    facts.appendChild(el("li", "", s.tricks_done + " tricks played"));
    var trick = $("d-trick");
    trick.textContent = "";
    if (!s.trick.length) { trick.appendChild(el("span", "none", "no card yet: you lead")); }
    s.trick.forEach(function (pc) {
      var one = el("span", "d-played");
      one.appendChild(el("span", "seat", pc[0] + " "));
      one.appendChild(cardSpan(pc[1]));
      trick.appendChild(one);
    });
    var earlier = $("d-earlier");
    earlier.textContent = "";
    s.earlier.forEach(function (t) {
      var li = el("li", "", t[0] + " led: ");
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
      b.setAttribute("aria-label", spoken(c) + (legal ? "" : " (not allowed: follow suit)"));
      b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", function () { answer(c); });
      hand.appendChild(b);
    });
    $("d-answer").textContent = "";
    $("d-answer").className = "d-answer";
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
      verdict = "Kept: " + show(c) + " is the best card here" + (also.length ? " (as good: " + also.join(", ") + ")" : "") + ".";
      cls = "best";
    } else if (!j.mark) {
      verdict = "Kept: " + show(c) + " is expected to lose " + units(j.loss, p.unit) + ", within the judgement's error. The best: " + best.join(", ") + ".";
      cls = "kept";
    } else {
      verdict = "Not kept: " + show(c) + " is expected to lose " + units(j.loss, p.unit) + " (" + j.mark + "). The best: " + best.join(", ") + ".";
      cls = "lost";
    }
    if (c !== p.played) { verdict += " In the game " + p.seat + " played " + show(p.played) + "."; }
    else { verdict += " This is what was played in the game."; }
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
      tr.appendChild(el("td", "", units(x.loss, p.unit) + (p.worlds > 1 && x.loss > 1e-9 ? " \u00b1" + x.stderr.toFixed(2) : "")));
      tr.appendChild(el("td", "", x.mark));
      tr.appendChild(el("td", "", (x.card === c ? "your choice" : "") + (x.card === c && x.card === p.played ? ", " : "") + (x.card === p.played ? "played in the game" : "")));
      body.appendChild(tr);
    });
    $("d-losses").querySelector("caption").textContent = "Every legal card, judged " +
      (p.worlds > 1 ? (p.exact ? "over all " + p.worlds + " deals " : "over " + p.worlds + " sampled deals ") + p.seat + " could not tell apart" : "double dummy");
    $("d-after").hidden = false;
  }

  function go(k) { if (k >= 0 && k < LIST.length && k !== at) { at = k; render(); $("d-where").focus(); } }

  if (!LIST.length) { $("d-none").hidden = false; return; }
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
