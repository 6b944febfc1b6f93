/* dehlanote replay page, "what if": play on from any position of a deal whose hands are known.
   DPN_WHATIF.rules is the per-card rules (a port of dehlanote/replay/core.py for known hands:
   legal cards, trick winner, trump set by the first void or revealed, capture, the deal's
   result), DPN_WHATIF.solver a double-dummy search of the tens (after dehlanote/analysis/search.py),
   run in a Web Worker with a time budget. The replay script (replay.js) draws the line. */
var DPN_WHATIF = (function () {
  "use strict";
  var RANKS = "AKQJ098765432";            /* deck order within a suit: A high ... 2 low ("0" the ten) */
  var SUITS = "SHDC";
  function rankOf(c) { var r = c.slice(0, -1); return r === "10" ? "0" : r; }
  function strength(c) { return 12 - RANKS.indexOf(rankOf(c)); }
  function deckIndex(c) { return SUITS.indexOf(c.slice(-1)) * 13 + RANKS.indexOf(rankOf(c)); }
  function isTen(c) { return c.slice(0, -2) === "1"; }
  function byDeck(a, b) { return deckIndex(a) - deckIndex(b); }

  /* ---- the rules -------------------------------------------------------------------------
     R (from the page data, made in Python by dehlanote/output/html/whatif.py): n seats, decks,
     tricks a deal, imm (each trick to its winner), score (tens | points | tricks), level
     ("none": an equal split has no winner), void (the first void sets trump), five (the
     five-card phase), secret (closed trump), svoid (closed trump chosen by the first void).
     A deal: dealer (index), hands [[cards]] as dealt, trump (known from the start), hidden
     (closed trump's suit), setter (index of the closed trump's chooser, null: the first void),
     drawn (the suit drawn after five followed opening tricks). States are never changed. */

  function start(R, deal) {
    var sides = R.n === 6 ? ["ACE", "BDF"] : ["AC", "BD"];
    return {R: R, sides: sides, dealer: deal.dealer, hands: deal.hands.map(function (h) { return h.slice().sort(byDeck); }),
      leader: (deal.dealer + 1) % R.n, cur: [], trump: deal.trump || null, hidden: deal.hidden || null,
      setter: deal.setter === undefined ? null : deal.setter, revealed: false, drawn: deal.drawn || null,
      fv: !!R.void && !deal.trump, phase: !!R.five && !deal.trump, last: null, run: 0, centre: 0, ctens: [],
      cards: [0, 0], tens: [[], []], won: [0, 0], done: 0, tricks: [], tf: deal.tf || null,
      sk: deal.sk || null, five: deal.five ? deal.five.map(function (h) { return h ? h.slice() : null; }) : null};
  }

  function toPlay(st) { return st.done >= st.R.tricks ? null : (st.leader + st.cur.length) % st.R.n; }

  /* the cards the seat to play may play, in deck order (the suit led first, as the core lists
     them): its cards of the suit led when it has any (in the five-card phase, of its first five
     cards when the record writes them; else any card) */
  function legal(st) {
    var seat = toPlay(st);
    if (seat === null) { return []; }
    var five = st.phase && st.five ? st.five[seat] : null;
    var hand = (five ? five.slice().sort(byDeck) : st.hands[seat]).filter(function (c, i, h) { return i === 0 || h[i - 1] !== c; });
    if (!st.cur.length) { return hand; }
    var led = st.cur[0].slice(-1);
    var follow = hand.filter(function (c) { return c.slice(-1) === led; });
    if (follow.length && (!st.phase || five)) { return follow; }
    return follow.concat(hand.filter(function (c) { return c.slice(-1) !== led; }));
  }

  function copy(st) {
    var o = {};
    for (var k in st) { if (Object.prototype.hasOwnProperty.call(st, k)) { o[k] = st[k]; } }
    return o;
  }

  /* play card c for the seat to play: the new state and what happened
     ({trick: the finished trick's facts or null, trump: [how, suit, seat] or null});
     null when the seat does not hold the card */
  /* the trump fact ({suit, by, at, drawn}: what the record's trump line states) after a change */
  function trumpFact(tf, change) {
    var o = {suit: null, by: null, at: null, drawn: null}, k;
    for (k in tf) { if (Object.prototype.hasOwnProperty.call(tf, k)) { o[k] = tf[k]; } }
    for (k in change) { if (Object.prototype.hasOwnProperty.call(change, k)) { o[k] = change[k]; } }
    return o;
  }

  function play(st, c) {
    var seat = toPlay(st), R = st.R;
    if (seat === null || st.hands[seat].indexOf(c) < 0) { return null; }
    var s = copy(st), k = st.cur.length, happened = {trick: null, trump: null};
    s.hands = st.hands.slice();
    s.hands[seat] = st.hands[seat].slice();
    s.hands[seat].splice(s.hands[seat].indexOf(c), 1);
    if (st.phase && st.five && st.five[seat] && st.five[seat].indexOf(c) >= 0) {
      s.five = st.five.slice();
      s.five[seat] = st.five[seat].filter(function (x, i, h) { return i !== h.indexOf(c); });
    }
    s.cur = st.cur.concat([c]);
    if (k && c.slice(-1) !== st.cur[0].slice(-1)) {
      var number = st.done + 1;
      if (s.fv) {                                   /* the first void sets trump, at once */
        s.trump = c.slice(-1); s.fv = false; happened.trump = ["first-void", s.trump, seat];
        s.tf = trumpFact(null, {suit: s.trump, by: seat, at: number});
      } else if (R.secret && !R.svoid && !s.revealed && seat === s.setter) {
        s.trump = s.hidden; s.revealed = true; happened.trump = ["revealed", s.trump, seat];
        s.tf = trumpFact(s.tf, {at: number});
      } else if (R.svoid && !s.revealed && s.tf) {
        if (s.setter === null) { s.setter = seat; happened.trump = ["secret", null, seat]; s.tf = trumpFact(s.tf, {by: seat}); }
        else if (seat === s.setter) {
          s.trump = s.hidden; s.revealed = true; happened.trump = ["revealed", s.trump, seat];
          s.tf = trumpFact(s.tf, {at: number});
        }
      }
    }
    if (s.cur.length === R.n) { happened.trick = finish(s); }
    return {st: s, happened: happened};
  }

  /* the trick in s.cur is complete: its winner (of equal cards the first played), the capture */
  function finish(s) {
    var R = s.R, cards = s.cur, best = 0, i;
    for (i = 1; i < cards.length; i++) {
      var c = cards[i], b = cards[best];
      if (c.slice(-1) === b.slice(-1)) { if (strength(c) > strength(b)) { best = i; } }
      else if (c.slice(-1) === s.trump) { best = i; }
    }
    var winner = (s.leader + best) % R.n, side = winner % 2, number = s.done + 1;
    var ttens = cards.filter(isTen);
    s.run = s.last === winner ? s.run + 1 : 1;
    var capture = null, moved, tens, reason;
    if (R.imm) { moved = R.n; tens = ttens; reason = "trick"; }
    else if (s.run === 2 || number === R.tricks) {
      moved = s.centre + R.n; tens = s.ctens.concat(ttens); reason = s.run === 2 ? "two-in-a-row" : "last-trick";
      if (s.run === 2) { s.run = 0; }
    }
    if (moved !== undefined) {
      capture = [winner, side, moved, tens, reason];
      s.cards = s.cards.slice(); s.tens = s.tens.slice(); s.won = s.won.slice();
      s.cards[side] += moved; s.tens[side] = s.tens[side].concat(tens); s.won[side] += moved / R.n;
      s.centre = 0; s.ctens = [];
    } else {
      s.centre += R.n; s.ctens = s.ctens.concat(ttens);
    }
    var fact = {n: number, leader: s.leader, cards: cards, winner: winner, centre: s.centre, ctens: s.ctens,
      capture: capture, run: s.run, trump: s.trump};
    s.tricks = s.tricks.concat([fact]);
    s.leader = s.last = winner;
    s.done = number;
    s.cur = [];
    if (s.phase && (s.trump !== null || number === 5)) {    /* the five-card phase ends */
      s.phase = false;
      if (s.trump === null && s.drawn) {
        s.trump = s.drawn.slice(-1); s.fv = false; s.tf = trumpFact(null, {suit: s.trump, at: 6, drawn: s.drawn});
      }
    }
    return fact;
  }

  /* each side's score in the rules' unit (tens; points: a ten 2, any other card 1; tricks) */
  function totals(st) {
    return [0, 1].map(function (i) {
      var tens = st.tens[i].length;
      return st.R.score === "points" ? st.cards[i] + tens : st.R.score === "tricks" ? st.won[i] : tens;
    });
  }

  /* the deal's result once every trick is played: {tens, totals, winner (side index or null), kot}
     (deal.sk: whether each side's win would be a streak kot, from the match before the deal;
     alone: the deal as a match of its own, no streak before it) */
  function result(st, alone) {
    var R = st.R, t = totals(st), winner = null, kot = null;
    if (2 * t[0] > t[0] + t[1]) { winner = 0; }
    else if (2 * t[1] > t[0] + t[1]) { winner = 1; }
    else if (R.level !== "none") { winner = 1 - st.dealer % 2; }
    for (var i = 0; i < 2; i++) {
      if (R.score === "tricks" ? st.won[i] === R.tricks : st.tens[i].length === 4 * R.decks) {
        kot = [i, R.score === "tricks" ? "all-tricks" : "all-tens"]; winner = i;
      }
    }
    if (!kot && !alone && winner !== null && st.sk && st.sk[winner]) { kot = [winner, "streak"]; }
    return {tens: [st.tens[0].length, st.tens[1].length], totals: t, winner: winner, kot: kot};
  }

  var rules = {start: start, toPlay: toPlay, legal: legal, play: play, totals: totals, result: result,
    byDeck: byDeck, isTen: isTen};

  /* ---- the double-dummy search -----------------------------------------------------------
     In a function of its own so that a Web Worker can run the same code (its source goes into
     the worker's Blob). The value of a position is side 0's final score under best play
     (alpha-beta, fail-soft, a transposition table at each trick's start keyed by what the
     rest of the deal depends on: the hands, the leader, a sweep pending, the centre, trump). */
  function solverCode(out) {
    var STOP = {};
    function Search(P) {
      /* P: {n, decks, tricks, imm, score, hands [[ints]], leader, cur [ints], trump (-1 none),
             hidden, setter (-1 none yet), fv, last, run, ctricks, ctens, done, budget (ms)}
         a card is suit * 16 + rank (0 the two .. 12 the ace; 8 the ten) */
      var n = P.n, T = P.tricks, imm = P.imm, score = P.score;
      var wT = score === "tricks" ? 0 : 1, wK = score === "points" ? n : score === "tricks" ? 1 : 0;
      var hands = P.hands.map(function (h) { return h.slice().sort(function (a, b) { return a - b; }); });
      var cur = P.cur.slice(), leader = P.leader, trump = P.trump, setter = P.setter, fv = P.fv;
      var last = P.last, run = P.run, ctricks = P.ctricks, ctens = P.ctens, done = P.done;
      var tt = P.table || new Map(), nodes = 0, deadline = Date.now() + P.budget;
      var tensLeft = 0;
      hands.forEach(function (h) { h.forEach(function (c) { if ((c & 15) === 8) { tensLeft++; } }); });
      cur.forEach(function (c) { if ((c & 15) === 8) { tensLeft++; } });

      function key() {
        var sweep = !imm && last === leader && run === 1 ? 1 : 0;
        return hands.map(function (h) { return h.join("."); }).join("|") + "|" + leader + sweep + "|" + ctens + "," +
          (wK ? ctricks : 0) + "|" + trump + "," + setter + (fv ? "v" : "");
      }
      function has(h, suit) { for (var i = 0; i < h.length; i++) { if ((h[i] >> 4) === suit) { return true; } } return false; }

      /* the legal cards of seat as one card of each class of equivalent ones (one deck: cards
         of a suit with no card still out between them, never a ten with another when tens score) */
      function moves(seat) {
        var h = hands[seat], led = cur.length ? cur[0] >> 4 : -1;
        var follow = led >= 0 && has(h, led);
        var cand = [], i;
        for (i = 0; i < h.length; i++) {
          if ((!follow || (h[i] >> 4) === led) && (i === 0 || h[i - 1] !== h[i])) { cand.push(h[i]); }
        }
        if (P.decks !== 1) { return cand; }
        var outs = {}, s;
        for (s = 0; s < n; s++) { if (s !== seat) { hands[s].forEach(function (c) { outs[c] = 1; }); } }
        cur.forEach(function (c) { outs[c] = 1; });
        var reps = [];
        for (i = 0; i < cand.length; i++) {
          var c = cand[i], prev = cand[i - 1];
          if (i > 0 && (prev >> 4) === (c >> 4) && (wT === 0 || ((c & 15) !== 8 && (prev & 15) !== 8))) {
            var gap = false;
            for (var r = (prev & 15) + 1; r < (c & 15); r++) { if (outs[(c & ~15) | r]) { gap = true; break; } }
            if (!gap) { continue; }                 /* the same as the card below it */
          }
          reps.push(c);
        }
        return reps;
      }

      /* the card winning the trick so far (index in cur), of equal cards the first played */
      function winning() {
        var b = 0;
        for (var i = 1; i < cur.length; i++) {
          var c = cur[i], w = cur[b];
          if ((c >> 4) === (w >> 4)) { if ((c & 15) > (w & 15)) { b = i; } }
          else if ((c >> 4) === trump) { b = i; }
        }
        return b;
      }
      function beats(c, w) { return (c >> 4) === (w >> 4) ? (c & 15) > (w & 15) : (c >> 4) === trump && trump >= 0; }

      /* move ordering: a follower wins as cheaply as it can when the other side is winning and
         plays low when its partner is; a lead tries the stored best lead, then high cards */
      function order(seat, ms, hint) {
        if (!cur.length) {
          ms.sort(function (a, b) { return (b & 15) - (a & 15); });
          var at = ms.indexOf(hint);
          if (at > 0) { ms.splice(at, 1); ms.unshift(hint); }
          return ms;
        }
        var w = cur[winning()], mine = ((leader + winning()) % n) % 2 === seat % 2;
        function cost(c) {
          var ten = (c & 15) === 8 && wT ? 20 : 0;
          if (!mine && beats(c, w)) { return (c & 15) + ((c >> 4) === trump ? 13 : 0); }
          if (mine) { return 30 + (c & 15) - ten; }
          return 60 + (c & 15) + ten + ((c >> 4) === trump ? 13 : 0);
        }
        return ms.sort(function (a, b) { return cost(a) - cost(b); });
      }

      function take(seat, c) {
        var h = hands[seat];
        h.splice(h.indexOf(c), 1);
        var undo = [trump, setter, fv];
        if (cur.length && (c >> 4) !== (cur[0] >> 4) && trump < 0) {
          if (fv) { trump = c >> 4; fv = false; }
          else if (P.hidden >= 0 && setter < 0 && P.svoid) { setter = seat; }
          else if (P.hidden >= 0 && setter === seat) { trump = P.hidden; }
        }
        cur.push(c);
        return undo;
      }
      function put(seat, c, undo) {
        cur.pop();
        trump = undo[0]; setter = undo[1]; fv = undo[2];
        var h = hands[seat], i = 0;
        while (i < h.length && h[i] < c) { i++; }
        h.splice(i, 0, c);
      }

      /* side 0's gain (its captures from here on) under best play, fail-soft within alpha, beta */
      function ab(alpha, beta) {
        if (++nodes % 4096 === 0 && Date.now() > deadline) { throw STOP; }
        var k = null, entry = null, a0 = alpha, b0 = beta;
        if (!cur.length) {
          if (done === T) { return 0; }
          var upper = (tensLeft + ctens) * wT + (ctricks + T - done) * wK;
          if (upper <= alpha) { return upper; }
          if (beta <= 0) { return 0; }
          k = key();
          entry = tt.get(k);
          if (entry) {
            if (entry[0] >= beta) { return entry[0]; }
            if (entry[1] <= alpha) { return entry[1]; }
            if (entry[0] > alpha) { alpha = entry[0]; }
            if (entry[1] < beta) { beta = entry[1]; }
          }
        }
        var seat = (leader + cur.length) % n, max = seat % 2 === 0;
        var ms = order(seat, moves(seat), entry ? entry[2] : -1);
        var best = max ? -1 : 1e9, bestMove = ms[0];
        for (var i = 0; i < ms.length; i++) {
          var c = ms[i], undo = take(seat, c), v;
          try {
            v = cur.length === n ? trickEnd(alpha, beta) : ab(alpha, beta);
          } finally { put(seat, c, undo); }
          if (max ? v > best : v < best) { best = v; bestMove = c; }
          if (max) { if (best > alpha) { alpha = best; } } else if (best < beta) { beta = best; }
          if (alpha >= beta) { break; }
        }
        if (k !== null) {
          var lo = entry ? entry[0] : 0, hi = entry ? entry[1] : 1e9;
          if (best > a0 && best < b0) { lo = hi = best; }
          else if (best >= b0) { lo = Math.max(lo, best); }
          else { hi = Math.min(hi, best); }
          tt.set(k, [lo, hi, bestMove]);
        }
        return best;
      }

      /* the trick is complete: its winner leads on; the gain of side 0's capture, if any */
      function trickEnd(alpha, beta) {
        var b = winning(), winner = (leader + b) % n, side = winner % 2;
        var tt_ = 0, i;
        for (i = 0; i < n; i++) { if ((cur[i] & 15) === 8) { tt_++; } }
        var saved = [leader, last, run, ctricks, ctens, done, cur];
        var gain = 0;
        run = last === winner ? run + 1 : 1;
        done++;
        tensLeft -= tt_;
        if (imm) { gain = side === 0 ? tt_ * wT + wK : 0; }
        else {
          ctricks++; ctens += tt_;
          if (run === 2 || done === T) {
            if (run === 2) { run = 0; }
            gain = side === 0 ? ctens * wT + ctricks * wK : 0;
            ctricks = 0; ctens = 0;
          }
        }
        leader = last = winner;
        cur = [];
        try {
          return gain + ab(alpha - gain, beta - gain);
        } finally {
          tensLeft += tt_;
          leader = saved[0]; last = saved[1]; run = saved[2]; ctricks = saved[3]; ctens = saved[4]; done = saved[5];
          cur = saved[6];
        }
      }

      /* the best card for the seat to play and the value after it (side 0's final score is
         P.base plus the gain); values: every legal card's exact value (slower: for tests) */
      this.best = function () {
        var seat = (leader + cur.length) % n, max = seat % 2 === 0, ms = order(seat, moves(seat), -1);
        var best = null, value = 0;
        for (var i = 0; i < ms.length; i++) {
          var c = ms[i], undo = take(seat, c), v;
          try {
            var a = best === null ? -1 : max ? value : -1, b = best === null ? 1e9 : max ? 1e9 : value;
            v = cur.length === n ? trickEnd(a, b) : ab(a, b);
          } finally { put(seat, c, undo); }
          if (best === null || (max ? v > value : v < value)) { best = c; value = v; }
        }
        return {card: best, value: value, nodes: nodes};
      };
      this.values = function () {
        var seat = (leader + cur.length) % n, out = {};
        var h = hands[seat], led = cur.length ? cur[0] >> 4 : -1, follow = led >= 0 && has(h, led);
        h.filter(function (c, i) { return (!follow || (c >> 4) === led) && h.indexOf(c) === i; }).forEach(function (c) {
          var undo = take(seat, c);
          try { out[c] = cur.length === n ? trickEnd(-1, 1e9) : ab(-1, 1e9); } finally { put(seat, c, undo); }
        });
        return out;
      };
      this.table = tt;
    }

    /* P as above; answers {card, value} or {stopped: true} when the budget ran out */
    out.solve = function (P) {
      try {
        return new Search(P).best();
      } catch (e) {
        if (e === STOP) { return {stopped: true}; }
        throw e;
      }
    };
    out.values = function (P) { return new Search(P).values(); };
  }

  var solver = {};
  solverCode(solver);

  /* the position of a rules state as the search takes it (cards as integers) */
  var RANK_INT = {A: 12, K: 11, Q: 10, J: 9, "0": 8, "9": 7, "8": 6, "7": 5, "6": 4, "5": 3, "4": 2, "3": 1, "2": 0};
  function toInt(c) { return SUITS.indexOf(c.slice(-1)) * 16 + RANK_INT[rankOf(c)]; }
  var INT_RANK = "23456789", FACES = ["10", "J", "Q", "K", "A"];
  function toCard(i) { var r = i & 15; return (r < 8 ? INT_RANK.charAt(r) : FACES[r - 8]) + SUITS.charAt(i >> 4); }
  function position(st, budget) {
    var R = st.R, t = totals(st);
    return {n: R.n, decks: R.decks, tricks: R.tricks, imm: !!R.imm, score: R.score,
      hands: st.hands.map(function (h) { return h.map(toInt); }), leader: st.leader, cur: st.cur.map(toInt),
      trump: st.trump === null ? -1 : SUITS.indexOf(st.trump),
      hidden: R.secret && !st.revealed && st.hidden ? SUITS.indexOf(st.hidden) : -1,
      setter: st.setter === null ? -1 : st.setter, svoid: !!R.svoid, fv: st.fv,
      last: st.last === null ? -1 : st.last, run: st.run, ctricks: st.centre / R.n, ctens: st.ctens.length,
      done: st.done, base: t[0], budget: budget || 3000};
  }

  /* ---- saving the line as DPN ------------------------------------------------------------ */

  /* the what-if record of a line (docs/analysis.md, "What-if: the record's text, exactly"),
     the same bytes as dehlanote.replay.whatif.whatif_record: g the game's page data, d the
     deal's, states the engine's states along the line (states[i]: before card i), line its
     cards, note the saver's comment; null while the line has not left the game */
  function comments(list) { return list.map(function (c) { return " {" + c.replace(/\}/g, ")") + "}"; }).join(""); }
  function escapeTag(v) { return v.replace(/\\/g, "\\\\").replace(/"/g, "\\\"").replace(/\n/g, " "); }

  function record(g, d, states, line, note) {
    var R = g.wr, n = R.n, seats = g.seats, W = d.wh || {}, rec = [], out = [];
    d.tricks.forEach(function (t) { if (!t.u) { t.p.forEach(function (p) { rec.push(p[0]); }); } });
    var from = 0;
    while (from < line.length && from < rec.length && line[from] === rec[from]) { from++; }
    if (from === line.length) { return null; }
    var st = states[line.length], K = Math.floor(from / n) + 1, J = from % n + 1;
    var who = seats.charAt(toPlay(states[from]));
    var result = "*";
    if (st.done === R.tricks) {
      var r = rules.result(st, true), fin = null;      /* a match of this deal alone */
      if (r.winner !== null && R.mp && R.mp <= 1) { fin = st.sides[r.winner]; }
      if (r.kot && (R.match || (R.kots && R.kots <= 1))) { fin = st.sides[r.kot[0]]; }
      if (fin === null && R.kots === 0) { fin = r.kot ? st.sides[r.kot[0]] : "="; }
      if (fin !== null) { result = fin; }
    }
    out.push(g.wt.replace(/(^|\n)\[Result "\*"\]/, "$1[Result \"" + result + "\"]"));
    out.push("[WhatIf \"" + escapeTag("deal " + d.n + ", trick " + K + ", card " + J) + "\"]");
    out.push("");
    var said = ["what-if on deal " + d.n + ": left the game at trick " + K + ", card " + J + ": " + who + " plays " +
      line[from] + (from < rec.length ? " where the game has " + rec[from] : " where the record stops")];
    if (note) { said.push(note); }
    if (st.cur.length) {
      said.push("trick " + (st.done + 1) + " in progress: " + st.cur.map(function (c, k) {
        return seats.charAt((st.leader + k) % n) + " " + c; }).join(" "));
    }
    out.push("deal 1 dealer " + seats.charAt(st.dealer) + comments(said));
    if (W.mis) { out.push(W.mis); }
    seats.split("").forEach(function (s, i) {        /* by suit S H D C, high to low; the | kept */
      var hand = d.hands[s], first = W.split && W.split[i];
      var text = first ? first.slice().sort(byDeck).join(" ") + " | " + hand.filter(function (c) {
        return first.indexOf(c) < 0; }).sort(byDeck).join(" ") : hand.slice().sort(byDeck).join(" ");
      out.push((i ? "      " : "hands ") + s + ": " + text);
    });
    var whole = states[line.length - st.cur.length];   /* the trump line states what the whole tricks did */
    var tl = trumpLine(R, whole.tf, seats, whole.hidden);
    if (tl !== null) { out.push(tl[0] + (W.tw && W.tw[0] === tl[1] ? W.tw[1] : "")); }
    var written = W.tricks || {};
    st.tricks.forEach(function (t, i) {
      var start = i * n, w = written[String(i)] || [null, {}], whole = start + n <= from;
      var head = whole && w[0] ? w[0] : (t.n < 10 ? " " : "") + t.n + " " + seats.charAt(t.leader) + ":";
      out.push(head + " " + t.cards.map(function (c, k) { return start + k < from && w[1][String(k)] ? w[1][String(k)] : c; }).join(" "));
    });
    (W.rv || []).forEach(function (v) { if (v[0] < K || (v[0] === K && v[1] < J)) { out.push(v[2]); } });
    if (st.done === R.tricks) { out.push("tens " + st.sides[0] + " " + st.tens[0].length + " " + st.sides[1] + " " + st.tens[1].length); }
    return out.join("\n") + "\n";
  }

  /* the trump line the line states, and its key (to keep the game's comments when it is the game's) */
  function trumpLine(R, tf, seats, hidden) {
    if (!tf) { return null; }
    var by = tf.by === null || tf.by === undefined ? null : typeof tf.by === "number" ? seats.charAt(tf.by) : tf.by;
    var key = function (suit, b, at, closed, drawn) { return (suit || "") + "|" + (b || "") + "|" + (at || "") + "|" + (closed ? "c" : "") + "|" + (drawn || ""); };
    if (tf.drawn) { return ["trump drawn " + tf.drawn, key(null, null, null, false, tf.drawn)]; }
    if (R.secret) {
      var suit = hidden || tf.suit;
      if (!suit) { return null; }
      return ["trump " + suit + (by ? " by " + by : "") + (tf.at ? " at " + tf.at : "") + " closed", key(suit, by, tf.at, true, null)];
    }
    if (!tf.suit) { return null; }
    var at = R.void && tf.at ? tf.at : null;
    return ["trump " + tf.suit + (by ? " by " + by : "") + (at ? " at " + at : ""), key(tf.suit, by, at, false, null)];
  }

  /* ---- the page ------------------------------------------------------------------------
     api (from replay.js): pos, game(), recorded() (the record's deal at pos), hooks, move(g, d, p),
     render(), words _ and fmt, el, cardText, view(). hooks.deal is the what-if line as a deal of
     the page data (the record's tricks before it leaves the game, then the line's). */
  var BUDGET = 3000;
  var W = {api: null, on: false, line: [], by: [], begun: 0, st: null, states: [], auto: true, token: 0, busy: false, note: "",
    worker: null, waiting: null, value: null};

  function seatsOf(g) { return g.seats; }
  function recordCards(d) {
    var out = [];
    d.tricks.forEach(function (t) { if (!t.u) { t.p.forEach(function (p) { out.push(p[0]); }); } });
    return out;
  }

  /* the engine's state after the first p cards of the record's deal d, or a sentence why none */
  function replayed(g, d, cards) {
    var R = g.wr, wi = d.wi;
    if (!R || !wi) { return {why: _("what-if is not offered on this page")}; }
    if (typeof wi === "string") { return {why: _(wi)}; }
    var st = start(R, {dealer: wi.dealer, hands: g.seats.split("").map(function (s) { return d.hands[s]; }),
      trump: wi.trump, hidden: wi.hidden, setter: wi.setter, drawn: wi.drawn, five: wi.five, sk: wi.sk,
      tf: wi.tf ? {suit: wi.tf[0], by: wi.tf[1] ? g.seats.indexOf(wi.tf[1]) : null, at: wi.tf[2], drawn: wi.tf[3]} : null});
    var states = [st], rv = (d.wh && d.wh.rv) || [];
    for (var i = 0; i < cards.length; i++) {
      var r = play(st, cards[i]);
      if (r === null) { return {why: _("the record plays a card its player does not hold: what-if stops there"), states: states}; }
      /* a revoke the record does not rule on would be in the line's record, which validate refuses */
      if (legal(st).indexOf(cards[i]) < 0 && !rv.some(function (v) { return v[0] === st.done + 1 && v[1] === st.cur.length + 1; })) {
        return {why: _("the record plays a card the rules do not allow there (a revoke): what-if stops there"), states: states};
      }
      st = r.st;
      states.push(st);
    }
    return {st: st, states: states};
  }

  function whyNot(g, d, p) {
    if (W.api.view() !== "open") { return _("what-if sees every hand: it is offered in the open table view"); }
    if (d.claim && p >= recordCards(d).length) { return _("the deal ended with a claim here"); }
    var r = replayed(g, d, recordCards(d).slice(0, p));
    if (r.why) { return r.why; }
    if (toPlay(r.st) === null) { return _("the deal is over: step back to play on from an earlier card"); }
    if (r.st.phase) { return _("what-if starts after the five-card phase (following suit there is judged on the first five cards)"); }
    return null;
  }

  /* the line as page data: a deal like the record's, its tricks made from the engine's facts */
  function lineDeal(g, d, states, line) {
    var api = W.api, _ = api._, fmt = api.fmt, seats = g.seats, n = seats.length;
    var rec = recordCards(d), from = common(line, rec), out = {};
    for (var k in d) { if (Object.prototype.hasOwnProperty.call(d, k)) { out[k] = d[k]; } }
    var st = states[states.length - 1];
    var tricks = [], played = 0, tens = {};
    g.sides.forEach(function (s) { tens[s] = 0; });
    var changes = [], events = [], told = {}, trumpNow = states[0].trump;
    var SUIT = {S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs")};
    for (var i = 1; i < states.length; i++) {
      var was = states[i - 1], now = states[i], who = seats.charAt(toPlay(was)), said = null;
      if (now.trump !== trumpNow && now.trump !== null) {
        trumpNow = now.trump;
        changes.push([i, trumpNow]);
        said = fmt(g.wr.secret ? _("{seat} cannot follow: trump revealed, {suit}") : _("{seat} cannot follow: trump set, {suit}"),
          {seat: who, suit: SUIT[trumpNow]});
      } else if (g.wr.svoid && was.setter === null && now.setter !== null) {
        said = fmt(_("{seat} cannot follow: chooses trump in secret"), {seat: who});
      }
      /* the trump event of a card of the line (the game's own are in d.ev) */
      if (said && i > from) { events.push([i, said]); told[Math.floor((i - 1) / n)] = said; }
    }
    d.ev.forEach(function (e) { if (e[0] <= from) { events.unshift(e); } });
    st.tricks.forEach(function (t, ti) {
      var first = played;
      played += n;
      if (played <= from && d.tricks[ti]) { tricks.push(d.tricks[ti]); tens = copyTens(d.tricks[ti].d); return; }
      var order = "";
      for (var j = 0; j < n; j++) { order += seats.charAt((t.leader + j) % n); }
      var cap = t.capture, story = [["win", fmt(_("{seat} wins"), {seat: seats.charAt(t.winner)})]];
      if (told[ti]) { story.push(["trump", told[ti]]); }
      if (cap) {
        g.sides.forEach(function (s, si) { if (si === cap[1]) { tens[s] += cap[3].length; } });
        var by = seats.charAt(cap[0]), said = cap[4] === "trick" ? fmt(_("{seat} takes the trick"), {seat: by})
          : cap[4] === "last-trick" ? fmt(_("{seat} takes the last {n} cards (last trick)"), {seat: by, n: cap[2]})
          : fmt(_("{seat} sweeps {n} cards (two in a row)"), {seat: by, n: cap[2]});
        story.push([cap[4] === "two-in-a-row" ? "sweep" : "capture", said + (cap[3].length ? ": " + cap[3].join(" ") : "")]);
      }
      var before = d.tricks[ti];
      tricks.push({n: t.n, l: seats.charAt(t.leader), o: order,
        p: t.cards.map(function (c, j) { return first + j < from && before ? before.p[j] : [c]; }),
        w: seats.charAt(t.winner), c: [t.centre, t.ctens], r: t.run, t: t.trump, s: story, d: copyTens(tens),
        x: cap ? [seats.charAt(cap[0]), g.sides[cap[1]], cap[2], cap[3], cap[4]] : null, wi: true});
    });
    /* the complete tricks' tens so far, for the tricks taken from the record */
    if (st.cur.length) {
      var order2 = "";
      for (var m = 0; m < n; m++) { order2 += seats.charAt((st.leader + m) % n); }
      var bt = d.tricks[st.done], f0 = st.done * n;
      tricks.push({n: st.done + 1, l: seats.charAt(st.leader), o: order2, u: n, w: "", c: [st.centre, st.ctens],
        x: null, r: 0, t: st.trump, s: [], d: lastTens(tricks, g),
        p: st.cur.map(function (c, j) { return f0 + j < from && bt ? bt.p[j] : [c]; }), wi: true});
    }
    if (!st.cur.length && toPlay(st) !== null) {     /* the next trick, not begun: who leads it */
      var order3 = "";
      for (var q = 0; q < n; q++) { order3 += seats.charAt((st.leader + q) % n); }
      tricks.push({n: st.done + 1, l: seats.charAt(st.leader), o: order3, u: n, w: "", c: [st.centre, st.ctens], x: null,
        r: 0, t: st.trump, s: [], d: lastTens(tricks, g), p: [], wi: true});
    }
    out.all = g.wr.tricks;
    out.tricks = tricks;
    out.tk = changes;
    out.ev = events;
    out.unplayed = [];
    out.claim = null;
    out.an = null;
    out.errors = [];
    out.result = [];
    out.kot = null;
    var di = W.api.pos.d, prev = di > 0 ? g.deals[di - 1] : null;
    out.score = prev ? prev.score : {};
    out.points = prev ? prev.points : null;
    if (toPlay(st) === null) {
      var r = result(st), sides = g.sides;
      var words = sides[0] + " " + r.tens[0] + " \u00b7 " + sides[1] + " " + r.tens[1];
      out.result = [fmt(_("what-if: tens {split}"), {split: words}) + (g.wr.score !== "tens" ?
        " (" + sides[0] + " " + r.totals[0] + ", " + sides[1] + " " + r.totals[1] + " " + g.wr.score + ")" : ""),
        r.winner === null ? _("what-if: no side wins the deal") : fmt(_("what-if: {side} wins the deal"), {side: sides[r.winner]})];
      if (r.kot) { out.kot = [sides[r.kot[0]], r.kot[1]]; }
    }
    out.wiFrom = from;
    return out;
  }
  function copyTens(t) { var o = {}; for (var k in t) { if (Object.prototype.hasOwnProperty.call(t, k)) { o[k] = t[k]; } } return o; }
  function lastTens(tricks, g) {
    if (tricks.length) { return copyTens(tricks[tricks.length - 1].d); }
    var o = {}; g.sides.forEach(function (s) { o[s] = 0; }); return o;
  }
  function common(a, b) { var i = 0; while (i < a.length && i < b.length && a[i] === b[i]) { i++; } return i; }

  /* the what-if line changed: the deal drawn is the line, at its last card */
  function show(line, by) {
    var api = W.api, g = api.game(), d = api.recorded();
    var r = replayed(g, d, line);
    if (r.why) { W.note = r.why; return false; }
    W.line = line;
    W.by = by;
    W.st = r.st;
    W.states = r.states;
    W.value = null;
    api.hooks.deal = lineDeal(g, d, r.states, line);
    api.hooks.version++;
    api.move(api.pos.g, api.pos.d, line.length);
    return true;
  }

  function begin() {
    var api = W.api, g = api.game(), d = api.recorded(), why = whyNot(g, d, api.pos.p);
    if (why) { W.note = why; api.render(); return; }
    W.on = true;
    W.note = "";
    var prefix = recordCards(d).slice(0, api.pos.p);
    W.begun = prefix.length;
    show(prefix, prefix.map(function () { return false; }));
    focusFirst();
  }

  function leave() {
    var api = W.api, back = api.hooks.deal ? Math.min(api.pos.p, api.hooks.deal.wiFrom) : api.pos.p;
    stopThinking();
    W.on = false;
    W.line = [];
    W.by = [];
    api.hooks.deal = null;
    api.hooks.version++;
    api.move(api.pos.g, api.pos.d, back);
  }

  /* the seat to play plays c (from the position shown: a later part of the line is dropped) */
  function choose(c) {
    if (!W.on) { return; }
    stopThinking();
    var line = W.line.slice(0, W.api.pos.p);
    W.begun = Math.min(W.begun, line.length);
    var r = replayed(W.api.game(), W.api.recorded(), line);
    if (r.why || legal(r.st).indexOf(c) < 0) { return; }
    var by = W.by.slice(0, line.length);
    while (by.length < line.length) { by.push(false); }
    show(line.concat([c]), by.concat([false]));
    if (W.auto) { think(true); }
  }

  function undo() {
    if (!W.on || W.api.pos.p === 0) { return; }
    stopThinking();
    show(W.line.slice(0, W.api.pos.p - 1), W.by.slice(0, W.api.pos.p - 1));
    W.begun = Math.min(W.begun, W.line.length);
  }

  /* ---- the solver, in a worker ---------------------------------------------------------- */

  function worker() {
    if (W.worker !== null) { return W.worker; }
    try {
      var src = "(" + solverCode.toString() + ")(self);var tables={};self.onmessage=function(e){var P=e.data.P;" +
        "var t=tables[e.data.key];if(!t||t.size>1500000){t=tables[e.data.key]=new Map();}P.table=t;" +
        "self.postMessage({id:e.data.id,r:self.solve(P)});};";
      var url = URL.createObjectURL(new Blob([src], {type: "text/javascript"}));
      W.worker = new Worker(url);
      W.worker.onmessage = function (e) { if (W.waiting && W.waiting.id === e.data.id) { var f = W.waiting.f; W.waiting = null; f(e.data.r); } };
      W.worker.onerror = function () { W.worker = false; };
    } catch (err) {
      W.worker = false;   /* no worker (a browser that refuses one from a file): the search runs in time slices below */
    }
    return W.worker;
  }

  var SYNC_TABLE = new Map();
  function ask(st, then) {
    var P = position(st, BUDGET), id = ++W.token, w = worker();
    var key = W.api.pos.g + ":" + W.api.pos.d;
    if (w) {
      W.waiting = {id: id, f: then};
      w.postMessage({id: id, key: key, P: P});
    } else {
      P.budget = 800;                 /* on the page's own thread: a short budget keeps it answering */
      P.table = SYNC_TABLE;
      setTimeout(function () { if (W.token === id) { then(solver.solve(P)); } }, 0);
    }
  }

  function stopThinking() { W.token++; W.waiting = null; W.busy = false; }

  /* the solver plays the seat to play (once; on and on when going is true and auto is on) */
  function think(going) {
    var api = W.api;
    if (!W.on || api.pos.p !== W.line.length || toPlay(W.st) === null) { draw(); return; }
    W.busy = true;
    W.note = "";
    draw();
    var at = W.line.length, started = Date.now();
    ask(W.st, function (r) {
      W.busy = false;
      if (!W.on || W.line.length !== at) { return; }
      if (r.stopped) {
        W.note = say(_("the solver could not finish within {s} s here: choose the card for {seat}"),
          {s: BUDGET / 1000, seat: api.game().seats.charAt(toPlay(W.st))});
        draw();
        return;
      }
      var c = toCard(r.card), total = sideTotal(W.st);
      W.value = [r.value + position(W.st).base, total];
      setTimeout(function () {
        if (!W.on || W.line.length !== at) { return; }
        var before = W.value;
        show(W.line.concat([c]), W.by.concat([true]));
        W.value = before;
        if (going && W.auto && toPlay(W.st) !== null) { think(true); } else { draw(); }
      }, Math.max(0, 350 - (Date.now() - started)));
    });
  }

  function sideTotal(st) {
    var R = st.R;
    return R.score === "points" ? 56 * R.decks : R.score === "tricks" ? R.tricks : 4 * R.decks;
  }
  /* the page's words (the catalog of its language): _ marks them for the catalog tool */
  function _(s) { return W.api._(s); }
  function say(s, o) { return W.api.fmt(s, o); }

  /* ---- the record of the line ----------------------------------------------------------- */

  function text() {
    var api = W.api, g = api.game(), d = api.recorded();
    var line = W.line.slice(0, api.pos.p), r = replayed(g, d, line);
    return record(g, d, r.states, line, note(line.length));
  }
  /* who played the line since the what-if began: the note on the record's deal line, in the
     stepper's words ("the line: 1 card chosen by hand, 3 played by the double-dummy solver") */
  function note(upTo) {
    var hand = 0, solver = 0;
    for (var i = W.begun; i < upTo; i++) { if (W.by[i]) { solver++; } else { hand++; } }
    var parts = [];
    if (hand) { parts.push(hand + " card" + (hand !== 1 ? "s" : "") + " chosen by hand"); }
    if (solver) { parts.push(solver + (hand ? "" : " card" + (solver !== 1 ? "s" : "")) + " played by the double-dummy solver"); }
    return "the line: " + parts.join(", ");
  }

  function save() {
    var saved = W.on ? text() : null;
    if (saved === null) { return; }
    var blob = new Blob([saved], {type: "text/plain"}), a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "what-if-deal-" + W.api.recorded().n + ".dpn";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  /* ---- the panel ------------------------------------------------------------------------ */

  function button(label, title, fn, cls) {
    var b = W.api.el("button", cls || "", label);
    b.type = "button";
    if (title) { b.title = title; }
    b.addEventListener("click", fn);
    return b;
  }

  function focusFirst() {
    var b = document.querySelector("#whatif .wi-cards button");
    if (b) { b.focus(); }
  }

  function draw() {
    var api = W.api, box = document.getElementById("whatif"), _ = api._;
    if (!box) { return; }
    box.textContent = "";
    var g = api.game();
    if (!g.deals.length) { return; }
    var d = api.recorded();
    document.body.classList.toggle("what-if", W.on);
    if (!W.on) {
      var why = whyNot(g, d, api.pos.p);
      var b = button(_("play on from here"), _("what if?") + " (w)", begin, "wi-start");
      b.setAttribute("aria-describedby", "wi-why");
      if (why) { b.disabled = true; }
      box.appendChild(b);
      var note = W.note || why;
      if (note) { var p = api.el("p", "wi-note", note); p.id = "wi-why"; box.appendChild(p); }
      return;
    }
    if (api.view() !== "open") {
      box.appendChild(api.el("p", "wi-note", _("what-if sees every hand: it is offered in the open table view")));
      box.appendChild(button(_("back to the game"), "(w)", leave, "wi-leave"));
      return;
    }
    var left = common(W.line.slice(0, api.pos.p), recordCards(d)) < api.pos.p;
    var head = api.el("p", "wi-head", left ? say(_("What if: the line leaves the game after {n} cards"),
      {n: api.hooks.deal.wiFrom}) : _("What if: choose another card than the game's (marked \u2022)"));
    box.appendChild(head);
    var r = replayed(g, d, W.line.slice(0, api.pos.p)), st = r.st, seat = toPlay(st);
    if (seat !== null) {
      var cards = api.el("div", "wi-cards");
      cards.setAttribute("role", "group");
      var who = g.seats.charAt(seat), rec = recordCards(d), p0 = api.pos.p;
      cards.setAttribute("aria-label", say(_("cards {seat} may play"), {seat: who}));
      cards.appendChild(api.el("span", "wi-who", say(_("{seat} plays:"), {seat: who}) + " "));
      legal(st).forEach(function (c) {
        var games = common(W.line.slice(0, p0), rec) === p0 && rec[p0] === c;
        var b = button("", games ? _("the card played in the game") : "", function () { choose(c); }, "wi-card");
        b.appendChild(api.cardText(c, games ? "\u2022" : ""));
        b.setAttribute("data-card", c);
        cards.appendChild(b);
      });
      box.appendChild(cards);
    }
    var row = api.el("div", "wi-row");
    var auto = api.el("label", "wi-auto");
    var check = document.createElement("input");
    check.type = "checkbox";
    check.checked = W.auto;
    check.addEventListener("change", function () { W.auto = check.checked; if (W.auto) { think(true); } else { stopThinking(); draw(); } });
    auto.appendChild(check);
    auto.appendChild(document.createTextNode(" " + _("the solver plays every seat")));
    row.appendChild(auto);
    var best = button(_("solver's card"), "(b)", function () { think(false); });
    best.disabled = W.busy || seat === null;
    row.appendChild(best);
    var un = button(_("undo"), "(u)", undo);
    un.disabled = api.pos.p === 0;
    row.appendChild(un);
    var sv = button(_("save as DPN"), "", save, "wi-save");
    sv.disabled = !left;                    /* nothing to save while the line is the game's */
    row.appendChild(sv);
    row.appendChild(button(_("back to the game"), "(w)", leave, "wi-leave"));
    box.appendChild(row);
    var status = W.busy ? _("the solver is thinking\u2026") : W.note;
    if (!status && W.value && api.pos.p === W.line.length) {
      status = say(_("with best play from here: {a} {x}, {b} {y}"), {a: g.sides[0], x: W.value[0], b: g.sides[1], y: W.value[1] - W.value[0]});
    }
    var s = api.el("p", "wi-status", status || "");
    s.setAttribute("role", "status");
    box.appendChild(s);
  }

  /* the cards of the seat to play in its hand on the table: a click plays one (starting the
     what-if there when none is on); the panel's buttons are the keyboard's way */
  function handCards() {
    var api = W.api, g = api.game();
    if (!g.deals.length || (!W.on && whyNot(g, api.recorded(), api.pos.p))) { return; }
    var st = W.on ? replayed(g, api.recorded(), W.line.slice(0, api.pos.p)).st
      : replayed(g, api.recorded(), recordCards(api.recorded()).slice(0, api.pos.p)).st;
    if (!st || toPlay(st) === null) { return; }
    var ok = legal(st), cards = document.querySelectorAll("#seats .seat.to-play svg.card[data-card]");
    Array.prototype.forEach.call(cards, function (e) {
      var c = e.getAttribute("data-card");
      if (ok.indexOf(c) < 0) { return; }
      e.classList.add("wi-playable");
      e.addEventListener("click", function () {
        if (!W.on) { begin(); }
        choose(c);
      });
    });
  }

  function attach(api) {
    W.api = api;
    api.hooks.after = function () { draw(); handCards(); };
    api.hooks.left = function () { stopThinking(); W.on = false; W.line = []; W.note = ""; };
    document.addEventListener("keydown", function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
      var tag = ev.target && ev.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
      if (ev.key === "w") { if (W.on) { leave(); } else { begin(); } ev.preventDefault(); }
      else if (ev.key === "u" && W.on) { undo(); ev.preventDefault(); }
      else if (ev.key === "b" && W.on) { think(false); ev.preventDefault(); }
    });
    draw();
    handCards();
  }

  var out = {rules: rules, solver: solver, solverCode: solverCode, position: position, toInt: toInt, toCard: toCard,
    attach: attach, text: function () { return text(); }, state: W,
    /* the engine's states along line from the start of deal d of game g (page data), or why not */
    replay: function (g, d, line) { return replayed(g, d, line); },
    record: function (g, d, line, note) { var r = replayed(g, d, line); return r.why ? null : record(g, d, r.states, line, note); }};
  if (window.DPN_REPLAY) { attach(window.DPN_REPLAY); }
  return out;
}());
