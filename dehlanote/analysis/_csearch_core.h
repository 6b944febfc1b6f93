/* The search itself, included twice by _csearch.c:
 *
 *   variant _p: four players, one deck; a hand is one bit a rank (RB 1) and the table is
 *               the partition table (an answer stored with only the top ranks it needed);
 *   variant _x: any other game (six players with three decks); a hand holds a count of
 *               each rank in two bits (RB 2), and the table is a partition table too: an entry
 *               keeps each hand's count of the top ranks it needed, under an outline of the
 *               lengths and tens (the Python search keeps exact positions with several decks).
 *
 * Both keep the cards each answer depended on (s->relv): the partition tables store them, and
 * the move loop tries the small cards of a suit once (play).
 *
 * Before each inclusion _csearch.c defines FN(name) (the variant's names), NS (the number
 * of seats), RB (bits a rank) and EXACT.  Everything else is the same code, step by step
 * the Python search of search.py: see there for the reasoning behind each part.
 */

#if RB == 1
#define CNT(m, r) (((m) >> (r)) & 1u)
#define RBIT(r) (1u << (r))
#define TOPR(m) top_of(m)
#define LEN(m) ((int)POP[m])
#define HLEN(i) LEN(s->H[i])     /* the number of cards of hand mask s->H[i] */
#else
#define CNT(m, r) (((m) >> (2 * (r))) & 3u)
#define RBIT(r) (1u << (2 * (r)))
#define TOPR(m) (top_of(m) >> 1)
#define LEN(m) len2(m)
#define HLEN(i) (s->L[i])
#endif

static int FN(trick)(S *s, int leader, int run, int ctens, int ctricks, int left, int target);

/* How many tricks the leader surely wins running one suit (up to need), and in *xt the most
 * tens such a run surely brings to the centre (tens scoring): the leader's own tens among
 * its sure winners (it can lead them), and the tens of a hand that holds too few other
 * cards of the suit to keep them back (it must follow). *rel: the lowest card of the run
 * the answer needed (every rank above it matters); the lengths and the ten's owner are
 * the table's key. */
static int FN(sure)(S *s, int leader, int need, uint64_t *rel, int *xt) {
    int best = 0, bestx = -1;
    for (int su = 0; su < 4; su++) {
        uint32_t m = s->H[leader * 4 + su];
        if (!m) continue;
        uint32_t rs = s->R[su];
        int top_rank = TOPR(rs);
        if (!CNT(m, top_rank)) continue;
        int t = 0, low = top_rank, own = 0, lowx = top_rank;
        for (int r = top_rank; r >= 0; r--) {
            unsigned c = CNT(rs, r);
            if (!c) continue;
            unsigned mine = CNT(m, r);
            if (mine == c) {
                if (t < need) {
                    low = r;
                    t += (int)mine;
                }
                if (r == TEN && s->tens_score) {
                    own = (int)mine;
                    lowx = r;
                }
                if (t >= need && (!s->tens_score || r <= TEN)) break;
                continue;
            }
            if (t == 0) {
                t = 1;
                low = r;
            }
            break;
        }
        if (t > need) t = need;
        /* who may beat the run by ruffing: a trump holder; with trump still to be set by play, anyone
         * void in the suit (the first void sets trump), or closed trump's setter once void (the
         * closed suit's own top cards stay the highest; no setter yet: the first void becomes it,
         * revealing from the next trick on) */
        if (s->trump >= 0 ? su != s->trump : s->fv || (s->closed_pending && su != s->hidden)) {
            int late = s->closed_pending && s->setter < 0;
            for (int o = 0; o < NS; o++) {
                if (o == leader || (s->trump >= 0 ? !s->H[o * 4 + s->trump]
                                                  : s->closed_pending && s->setter >= 0 && o != s->setter))
                    continue;
                int length = HLEN(o * 4 + su) + late;
                if (length < t) t = length;
            }
        }
        if (t < need) {
            if (t > best) best = t;
            continue;
        }
        int x = 0;
        if (s->tens_score) {
            x = own < need ? own : need;
            for (int o = 0; o < NS && own < (int)CNT(rs, TEN); o++) {
                if (o == leader) continue;
                uint32_t om = s->H[o * 4 + su];
                int tens = (int)CNT(om, TEN);
                if (!tens) continue;
                int length = HLEN(o * 4 + su), plays = length < need ? length : need;
                if (plays - (length - tens) > 0) x += plays - (length - tens);
            }
        }
        best = t;
        if (x > bestx) {
            bestx = x;
            *rel = 1ULL << (16 * su + (own && x && lowx < low ? lowx : low));
            if (!s->tens_score) break;
        }
    }
    *xt = bestx < 0 ? 0 : bestx;
    return best;
}

/* Whether the leader wins every trick left: each card it holds is above every other card out of
 * its suit (several decks: or equal, the first played winning), and no other hand can ruff it
 * (it holds no trump, or has cards enough to follow the suit as long as the leader leads it;
 * with trump still to be set by play, every other hand must have them). Then one player takes
 * everything left. *rel: the leader's lowest card of each suit it holds (every rank above it
 * matters; the lengths, which hands hold trump and the ten's owner are the table's key). */
static int FN(takes_all)(const S *s, int leader, uint64_t *rel) {
    uint64_t bits = 0;
    for (int su = 0; su < 4; su++) {
        uint32_t m = s->H[leader * 4 + su];
        if (!m) continue;
        uint32_t others = s->R[su] - m;
        int low = __builtin_ctz(m) / RB;
        if (others && TOPR(others) > low) return 0;
        int n = HLEN(leader * 4 + su);
        for (int o = 0; o < NS; o++) {
            if (o == leader || HLEN(o * 4 + su) >= n) continue;
            if (s->trump >= 0 ? su != s->trump && s->H[o * 4 + s->trump] : s->fv || s->closed_pending) return 0;
        }
        if (others) bits |= 1ULL << (16 * su + low);     /* with no other card out, no rank matters */
    }
    *rel = bits;
    return 1;
}

/* One move per class of equivalent cards of holding m among the cards out rs (high to low):
 * a rank held only in part (several decks) is a class of its own. */
static int FN(classes)(const S *s, uint32_t m, uint32_t rs, int *out) {
    /* a loop over the ranks held only: a rank whose every copy out is held ("full") joins the
     * run of the full rank held above it unless a rank out elsewhere lies between them */
#if RB == 1
    uint32_t held = m, part = 0, others = rs & ~m;
#else
    uint32_t x = m ^ rs, nzr = (rs | rs >> 1) & 0x1555555u;
    uint32_t full = ~(x | x >> 1) & nzr, held = (m | m >> 1) & 0x1555555u;
    uint32_t part = held & ~full, others = nzr & ~full;
#endif
    int n = 0, rep = 0, above = 13 * RB;
    while (held) {
        int p = top_of(held), r = p / RB;
        held ^= 1u << p;
        if (others & ((1u << above) - 1) & ~((2u << p) - 1)) rep = 0;
        above = p;
        if (part >> p & 1) {
            /* held in part (several decks): a class of its own, and the run ends */
            out[n++] = r;
            rep = 0;
        } else if (r == TEN && s->tens_score) {
            out[n++] = r;
        } else if (!rep) {
            out[n++] = r;
            rep = 1;
        }
    }
    return n;
}

/* Whether the card winning the trick so far (suit bs, rank br) surely wins it: no player after
 * seat (the k-th to play) can beat it, by following higher or by ruffing (with the trump still
 * to be set by the first void, anyone void may turn out to ruff; under closed trump, any void
 * when the setter is still to play this trick, void and holding the closed suit: its reveal makes
 * every card of that suit in the trick trump; with no setter yet, nobody: the first void only
 * becomes it). Only the order of the moves uses it. */
static int FN(holds)(const S *s, int seat, int k, int led, int bs, int br) {
    int o = seat, reveal = 0;
    if (s->closed_pending && s->setter >= 0) {
        int p = s->setter, after = p - seat < 0 ? p - seat + NS : p - seat;
        reveal = after >= 1 && after < NS - k && !s->H[p * 4 + led] && s->H[p * 4 + s->hidden];
    }
    for (int j = k + 1; j < NS; j++) {
        o = o + 1 == NS ? 0 : o + 1;
        uint32_t m = s->H[o * 4 + led];
        if (m) {
            if (bs == led && TOPR(m) > br) return 0;
        } else if (s->trump >= 0) {
            uint32_t t = s->H[o * 4 + s->trump];
            if (t && (bs != s->trump || TOPR(t) > br)) return 0;
        } else if (s->fv || reveal) {
            return 0;
        }
    }
    return 1;
}

static int FN(finish)(S *s, int bk, int bs, int br, int ttens, int target, int leader, int run, int ctens,
                      int ctricks, int left) {
    int winner = (leader + bk) % NS;
    int side = winner & 1;
    int base = s->sp - NS;
    /* the winning card matters, and so do the cards of its hand equivalent to it (the search
     * tried one of them only): the lowest of them is kept */
    int low = br;
    int same = 0;
    for (int i = 0; i < NS; i++) same += s->ss[base + i] == bs;
    if (same == 1) {
        /* the only card of its suit in the trick (a ruff, or all the others discarded) */
        low = -1;
    } else if (br != s->tenx) {
        uint32_t wm = s->H[winner * 4 + bs], rs = s->R[bs];
        for (int r = br - 1; r >= 0; r--) {
            unsigned c = CNT(rs, r);
            if (!c) continue;
            if (CNT(wm, r) != c) break;
            if (r != s->tenx) low = r;
        }
    }
    uint64_t wbit = low >= 0 ? 1ULL << (16 * bs + low) : 0;
    int gain, nrun, ctens2, ctricks2;
    if (s->immediate) {
        gain = ttens * s->wT + s->wK;
        nrun = ctens2 = ctricks2 = 0;
    } else {
        ctens2 = ctens + ttens;
        ctricks2 = ctricks + 1;
        nrun = winner == leader ? run + 1 : 1;
        if (nrun == 2 || left == 1) {
            gain = ctens2 * s->wT + ctricks2 * s->wK;
            ctens2 = ctricks2 = nrun = 0;
        } else {
            gain = 0;
        }
    }
    if (side) gain = 0;
    if (left == 1 || target <= gain) {
        s->relv = wbit;
        return gain;
    }
    int cs[MAXSEATS];
    uint32_t cb[MAXSEATS];
    for (int i = 0; i < NS; i++) {
        cs[i] = s->ss[base + i];
        cb[i] = RBIT(s->sr[base + i]);
        s->R[cs[i]] -= cb[i];
    }
    int res = FN(trick)(s, winner, nrun, ctens2, ctricks2, left - 1, target - gain);
    for (int i = 0; i < NS; i++) s->R[cs[i]] += cb[i];
    s->relv |= wbit;
    return res + gain;
}

static int FN(play)(S *s, int k, int seat, int led, int bk, int bsuit, int brank, int ttens, int target, int leader,
                    int run, int ctens, int ctricks, int left, int hint) {
    s->count++;
    int base = seat * 4;
    int ac = !(seat & 1);
    int tenx = s->tenx;
    int moves[MAXMOVES], nm = 0;
    int cls[13], nc;
    if (k) {
        uint32_t held = s->H[base + led];
        if (held) {
            if (!(held & (held - 1))) {
                /* one card of the suit (or copies of one rank): no choice */
                moves[nm++] = MV(led, TOPR(held));
            } else {
                nc = FN(classes)(s, held, s->R[led], cls);
                if (nc < 2) {
                    moves[nm++] = MV(led, cls[0]);
                } else {
                    int partner = !((leader + bk - seat) & 1);
                    int has_ten = 0;
                    for (int i = 0; i < nc; i++) has_ten |= cls[i] == tenx;
                    if (partner) {
                        /* the ten to partner's trick first when it is swept at once, or when partner's
                         * card surely wins the trick */
                        int sweeping = s->immediate || left == 1 || (run && (leader + bk) % NS == leader)
                                       || (has_ten && FN(holds)(s, seat, k, led, bsuit, brank));
                        if (has_ten && sweeping) moves[nm++] = MV(led, TEN);
                        for (int i = nc - 1; i >= 0; i--)
                            if (cls[i] != tenx) moves[nm++] = MV(led, cls[i]);
                        if (has_ten && !sweeping) moves[nm++] = MV(led, TEN);
                        if (k == NS - 2 && bsuit == led) {
                            /* third hand high when the last player would beat partner's card */
                            uint32_t nxm = s->H[(seat + 1) % NS * 4 + led];
                            if (nxm) {
                                int ntop = TOPR(nxm);
                                if (ntop > brank && cls[0] > ntop) {
                                    int tmp[MAXMOVES], nt = 0;
                                    for (int i = 0; i < nm; i++)
                                        if ((moves[i] & 15) > ntop) tmp[nt++] = moves[i];
                                    for (int i = 0; i < nm; i++)
                                        if ((moves[i] & 15) <= ntop) tmp[nt++] = moves[i];
                                    memcpy(moves, tmp, sizeof(int) * nm);
                                }
                            }
                        }
                    } else if (bsuit == led) {
                        /* the other side winning: first the ten when it surely wins the trick, else
                         * the lowest card that surely does; then the others that beat, lowest first */
                        int lead = -1;
                        if (has_ten && TEN > brank && FN(holds)(s, seat, k, led, led, TEN)) {
                            lead = TEN;
                        } else {
                            for (int i = nc - 1; i >= 0 && lead < 0; i--)
                                if (cls[i] > brank && FN(holds)(s, seat, k, led, led, cls[i])) lead = cls[i];
                        }
                        if (lead >= 0) moves[nm++] = MV(led, lead);
                        for (int i = nc - 1; i >= 0; i--)
                            if (cls[i] > brank && cls[i] != lead) moves[nm++] = MV(led, cls[i]);
                        for (int i = nc - 1; i >= 0; i--)
                            if (cls[i] <= brank && cls[i] != tenx) moves[nm++] = MV(led, cls[i]);
                        if (has_ten && TEN <= brank) moves[nm++] = MV(led, TEN);
                    } else {
                        for (int i = nc - 1; i >= 0; i--)
                            if (cls[i] != tenx) moves[nm++] = MV(led, cls[i]);
                        if (has_ten) moves[nm++] = MV(led, TEN);
                    }
                }
            }
        } else {
            /* a void: ruff when the other side is winning, else throw low cards */
            int obk = bk, obs = bsuit, obr = brank;
            int reveal = s->closed_pending && seat == s->setter;
            if (reveal) {
                /* closed trump's setter, void: whatever it plays reveals trump, for the whole trick,
                 * so its cards are ordered as with trump known, against the card then winning */
                s->trump = s->hidden;
                s->closed_pending = 0;
                trick_winner(s, s->sp - k, k, &bk, &bsuit, &brank);
            }
            int partner = !((leader + bk - seat) & 1);
            int lows[4], nl = 0, ruffs[13], nr = 0, tens[4], nt = 0, highs[MAXMOVES], nh = 0, tlow = -1;
            int psure = partner && FN(holds)(s, seat, k, led, bsuit, brank);
            int secure = -1;    /* partner's card may yet be beaten: the lowest trump that surely wins, first */
            for (int su = 0; su < 4; su++) {
                uint32_t m = s->H[base + su];
                if (!m) continue;
                nc = FN(classes)(s, m, s->R[su], cls);
                if (su == s->trump && !partner) {
                    /* the lowest ruff first, but the ten of trump when it surely wins the trick */
                    int tr10 = s->tens_score && CNT(m, TEN) && (bsuit != s->trump || TEN > brank)
                               && FN(holds)(s, seat, k, led, su, TEN) ? TEN : -1;
                    if (tr10 >= 0) ruffs[nr++] = MV(su, TEN);
                    for (int i = nc - 1; i >= 0; i--) {
                        if (cls[i] == tr10) continue;
                        if (bsuit != s->trump || cls[i] > brank) ruffs[nr++] = MV(su, cls[i]);
                        else highs[nh++] = MV(su, cls[i]);
                    }
                    continue;
                }
                if (su == s->trump && !psure)
                    for (int i = nc - 1; i >= 0 && secure < 0; i--)
                        if ((bsuit != su || cls[i] > brank) && FN(holds)(s, seat, k, led, su, cls[i])) secure = cls[i];
                int first = 1;
                for (int i = nc - 1; i >= 0; i--) {
                    if (su == s->trump && cls[i] == secure) continue;
                    if (cls[i] == TEN && s->tens_score) tens[nt++] = MV(su, cls[i]);
                    else if (first && su == s->trump) { tlow = MV(su, cls[i]); first = 0; }
                    else if (first) { lows[nl++] = MV(su, cls[i]); first = 0; }
                    else highs[nh++] = MV(su, cls[i]);
                }
            }
            if (!s->immediate) {
                /* the low cards to throw: holding trump (or with closed trump still hidden), from the
                 * shortest suit first (a void to ruff with later); else from the longest first. Under
                 * immediate capture the suits' order (measured: by length in either direction cost
                 * 2 to 5 % more card plays there) */
                int w[4], shortest = (s->trump >= 0 && s->H[base + s->trump]) || s->closed_pending;
                for (int i = 0; i < nl; i++) {
                    int len = HLEN(base + (lows[i] >> 4));
                    w[i] = shortest ? -len : len;
                }
                heaviest_first(lows, w, nl);
            }
            /* on partner's trick, a low trump would take the trick from partner: after the others */
            if (tlow >= 0) lows[nl++] = tlow;
            int sweeping = partner && (s->immediate || left == 1 || (run && (leader + bk) % NS == leader)
                                       || (nt && psure));
            if (sweeping) {
                for (int i = 0; i < nt; i++) moves[nm++] = tens[i];
                if (secure >= 0) moves[nm++] = MV(s->trump, secure);
                for (int i = 0; i < nl; i++) moves[nm++] = lows[i];
                for (int i = 0; i < nh; i++) moves[nm++] = highs[i];
            } else {
                for (int i = 0; i < nr; i++) moves[nm++] = ruffs[i];
                if (secure >= 0) moves[nm++] = MV(s->trump, secure);
                for (int i = 0; i < nl; i++) moves[nm++] = lows[i];
                for (int i = 0; i < nh; i++) moves[nm++] = highs[i];
                for (int i = 0; i < nt; i++) moves[nm++] = tens[i];
            }
            if (reveal) {
                s->trump = -1;
                s->closed_pending = 1;
                bk = obk; bsuit = obs; brank = obr;
            }
        }
    } else {
        int tops[4], ntp = 0, tens[4], nt = 0, lows[MAXMOVES], nl = 0, tp[MAXMOVES], np = 0;
        int pbase = (seat + 2) % NS * 4;
        for (int su = 0; su < 4; su++) {
            uint32_t m = s->H[base + su];
            if (!m) continue;
            nc = FN(classes)(s, m, s->R[su], cls);
            int top_rank = TOPR(s->R[su]);
            /* a low lead to a suit partner heads: partner wins it */
            int into_partner = CNT(s->H[pbase + su], top_rank) != 0
                               || (NS == 6 && CNT(s->H[(seat + 4) % NS * 4 + su], top_rank) != 0);
            for (int i = 0; i < nc; i++) {
                int r = cls[i];
                /* the highest card out first (a ten too: it wins), then the leads into partner's
                 * suits (a ten first: partner wins it), then the other tens last */
                if (i == 0 && r == top_rank) tops[ntp++] = MV(su, r);
                else if (r == TEN && s->tens_score && !into_partner) tens[nt++] = MV(su, r);
                else if (into_partner) tp[np++] = MV(su, r);
                else lows[nl++] = MV(su, r);
            }
        }
        /* a leader not one win from a sweep (at the deal's start or just after one: nothing in the
         * centre): its top card would win the trick but sweep nothing; a lead to a suit partner
         * heads wins it for the side as well and keeps the leader's top cards for a trick that
         * sweeps: those leads first */
        int late_tops = !run && !s->immediate;
        if (!late_tops)
            for (int i = 0; i < ntp; i++) moves[nm++] = tops[i];
        for (int i = 0; i < np && s->tens_score; i++)
            if ((tp[i] & 15) == TEN) moves[nm++] = tp[i];
        for (int i = np - 1; i >= 0; i--)
            if ((tp[i] & 15) != TEN || !s->tens_score) moves[nm++] = tp[i];
        if (late_tops)
            for (int i = 0; i < ntp; i++) moves[nm++] = tops[i];
        for (int i = nl - 1; i >= 0; i--) moves[nm++] = lows[i];
        for (int i = 0; i < nt; i++) moves[nm++] = tens[i];
        /* closed trump not yet revealed: only its setter can ruff, by revealing it */
        int tr = s->trump >= 0 ? s->trump : s->closed_pending && s->setter >= 0 ? s->hidden : -1;
        if (tr >= 0 && nm > 1) {
            /* weighted: a lead an opponent can ruff (void in it, holding trump) goes after all the
             * others, one only partner can ruff before them (the order kept otherwise) */
            int w[MAXMOVES];
            unsigned opp_ruff = 0, pa_ruff = 0;
            for (int o = 0; o < NS; o++) {
                if (o == seat || !s->H[o * 4 + tr] || (s->trump < 0 && o != s->setter)) continue;
                for (int su = 0; su < 4; su++) {
                    if (su == tr || s->H[o * 4 + su]) continue;
                    if ((o ^ seat) & 1) opp_ruff |= 1u << su;
                    else pa_ruff |= 1u << su;
                }
            }
            if (opp_ruff | pa_ruff) {
                for (int i = 0; i < nm; i++) {
                    int su = moves[i] >> 4;
                    w[i] = (opp_ruff >> su & 1) ? -1 : (pa_ruff >> su & 1) ? 1 : 0;
                }
                heaviest_first(moves, w, nm);
            }
        }
        /* the leads that leave the other side the fewest answers first (fewest cards to follow
         * with; a void's every card): a lead proves its side's goal only once every answer of
         * the other side is searched, so the lead with the fewest answers is the cheapest proof
         * (a stable sort: the order above kept among leads with as many answers) */
        if (nm > 1) {
            int w[MAXMOVES], answers[4];
            for (int su = 0; su < 4; su++) {
                int n = 0;
                for (int o = !(seat & 1); o < NS; o += 2) {
                    uint32_t m = s->H[o * 4 + su];
                    n += m ? LEN(m) : left;
                }
                answers[su] = n;
            }
            for (int i = 0; i < nm; i++) w[i] = -answers[moves[i] >> 4];
            heaviest_first(moves, w, nm);
        }
        if (hint) {
            int h = hint - 1;
            for (int i = 0; i < nm; i++) {
                if (moves[i] == h) {
                    for (int j = i; j > 0; j--) moves[j] = moves[j - 1];
                    moves[0] = h;
                    break;
                }
            }
        }
    }
    /* try them */
    int nxt = seat + 1 == NS ? 0 : seat + 1;
    int best = ac ? -1 : 1 << 20;
    uint64_t acc = 0;
    int last = k + 1 == NS;
    /* Small cards tried once (DDS's lowest winning ranks): when the answer after a card depended
     * on no rank of its suit as low as the card's (s->relv), another card of that suit lower
     * still gives the same answer: the positions after the two differ only in where those two
     * cards are, both below every rank that mattered, and the partition table's entries rest on
     * the same fact. below[suit]: the cards of the suit under it are not tried again. Not a ten
     * that scores (it changes the tens in the trick). */
    int below[4] = {0, 0, 0, 0};
    for (int i = 0; i < nm; i++) {
        int su = moves[i] >> 4, r = moves[i] & 15;
        int small = !(r == TEN && s->tens_score);
        if (small && r < below[su]) continue;
        uint32_t bit = RBIT(r);
        s->H[base + su] -= bit;
#if RB == 2
        s->L[base + su]--;
        s->G[su][r] -= (uint16_t)(1u << (2 * seat));
#endif
        int ten = r == TEN;
        s->hand_tens -= ten;
        int nled, nbk, nbs, nbr;
        int undo = 0, saved_fv = 0, saved_cp = 0;
        s->ss[s->sp] = su;
        s->sr[s->sp] = r;
        if (k == 0) {
            nled = su; nbk = 0; nbs = su; nbr = r;
        } else {
            nled = led;
            if (su == bsuit) {
                if (r > brank) { nbk = k; nbs = su; nbr = r; }
                else { nbk = bk; nbs = bsuit; nbr = brank; }
            } else if (su == s->trump) {
                nbk = k; nbs = su; nbr = r;
            } else if (su != led && s->closed_pending && s->setter < 0) {
                /* the first void chooses closed trump in secret: no trump yet */
                undo = 2;
                s->setter = seat;
                nbk = bk; nbs = bsuit; nbr = brank;
            } else if (su != led && s->trump < 0 && (s->fv || (s->closed_pending && seat == s->setter))) {
                /* trump set by this first void, or closed trump revealed by its setter: for the
                 * whole trick, so the card winning it so far is found again */
                undo = 1;
                saved_fv = s->fv;
                saved_cp = s->closed_pending;
                if (s->fv) {
                    s->trump = su;
                    nbk = k; nbs = su; nbr = r;
                } else {
                    s->trump = s->hidden;
                    trick_winner(s, s->sp - k, k + 1, &nbk, &nbs, &nbr);     /* this card included */
                }
                s->fv = s->closed_pending = 0;
            } else {
                nbk = bk; nbs = bsuit; nbr = brank;
            }
        }
        s->sp++;
        int res;
        if (last) res = FN(finish)(s, nbk, nbs, nbr, ttens + ten, target, leader, run, ctens, ctricks, left);
        else res = FN(play)(s, k + 1, nxt, nled, nbk, nbs, nbr, ttens + ten, target, leader, run, ctens, ctricks,
                            left, 0);
        s->sp--;
        if (undo == 1) {
            s->trump = -1;
            s->fv = saved_fv;
            s->closed_pending = saved_cp;
        } else if (undo == 2) {
            s->setter = -1;
        }
        s->hand_tens += ten;
        s->H[base + su] += bit;
#if RB == 2
        s->L[base + su]++;
        s->G[su][r] += (uint16_t)(1u << (2 * seat));
#endif
        if (ac) {
            if (res >= target) {
                if (k == 0) s->best_lead = moves[i] + 1;
                return res;
            }
            if (res > best) best = res;
        } else {
            if (res < target) {
                if (k == 0) s->best_lead = moves[i] + 1;
                return res;
            }
            if (res < best) best = res;
        }
        if (small) {
            unsigned bits = s->relv >> (16 * su) & 0xFFFF;
            int low = bits ? __builtin_ctz(bits) : 13;
            if (r < low && low > below[su]) below[su] = low;
        }
        acc |= s->relv;
    }
    s->relv = acc;
    if (k == 0) s->best_lead = 0;   /* no lead proved a bound here (the one set by a later trick is not ours) */
    return best;
}

#if EXACT
/* A suit for six players' table: for each rank still out, high to low, every seat's count of
 * it (2 bits a seat), 12 bits a rank in three words, and in the top byte the number of ranks
 * and the ten's place among them (relative ranks: only the order and the ten matter). */
static void FN(describe)(const S *s, int su, uint64_t *w) {
    /* built in registers (a word in memory or-ed into rank by rank waited on itself): the first ten
     * ranks (120 bits) in a 128-bit word, the other three from bit 120 on */
    unsigned __int128 a = 0;
    uint64_t b = 0;
    uint32_t rs = s->R[su];
    int at = 0, tenidx = -1;
    for (int r = 12; r >= 0; r--) {
        if (!CNT(rs, r)) continue;
        uint64_t g = s->G[su][r];
        if (r == TEN && s->tens_score) tenidx = at;
        if (at < 10) a |= (unsigned __int128)g << (12 * at);
        else b |= g << (12 * (at - 10));
        at++;
    }
    w[0] = (uint64_t)a;
    w[1] = (uint64_t)(a >> 64) | b << 56;
    w[2] = b >> 8 | ((uint64_t)at | (uint64_t)(tenidx + 1) << 4) << 56;
}

static int FN(desc_less)(const uint64_t *a, const uint64_t *b) {
    for (int i = 2; i >= 0; i--)
        if (a[i] != b[i]) return a[i] < b[i];
    return 0;
}

/* A suit's three words of an entry's key: its description cut to its c top ranks (with the
 * ten's place when it is among them). */
static inline void FN(psuit)(const uint64_t *w, int c, uint64_t *out) {
    int nb = 12 * c;
    int tenidx = (int)(w[2] >> 60) - 1;
    out[0] = w[0] & (nb >= 64 ? ~0ULL : (1ULL << nb) - 1);
    out[1] = w[1] & (nb >= 128 ? ~0ULL : nb > 64 ? (1ULL << (nb - 64)) - 1 : 0);
    out[2] = (w[2] & (nb > 128 ? (1ULL << (nb - 128)) - 1 : 0))
             | ((uint64_t)c | (uint64_t)(tenidx >= 0 && tenidx < c ? tenidx + 1 : 0) << 4) << 56;
}

/* The key of an entry with cut (4 bits a suit in the key's order: how many top ranks it keeps):
 * per suit its description cut to those ranks, then the outline's lengths and tens, then the
 * rest and the cut. */
static void FN(pkey)(uint64_t desc[4][3], const int *order, const uint64_t *ok, unsigned cut, uint64_t *key) {
    for (int i = 0; i < 4; i++) FN(psuit)(desc[order[i]], cut >> (4 * i) & 15, key + 3 * i);
    memcpy(key + 12, ok, 4 * sizeof ok[0]);
    key[16] = ok[4] | (uint64_t)cut << 32;
}

/* xhash of the key of each cut, without the key: the hash is a sum of a term a word, so a
 * suit's part of it depends only on how many of its ranks the cut keeps, found once a trick
 * start (part[i][c], computed when first asked for: bit c of known[i]). */
static uint64_t FN(phash)(uint64_t desc[4][3], const int *order, uint64_t base, const uint64_t *ok, unsigned cut,
                          uint64_t part[4][14], unsigned *known) {
    uint64_t h = base;
    for (int i = 0; i < 4; i++) {
        int c = cut >> (4 * i) & 15;
        if (!(known[i] >> c & 1)) {
            uint64_t w[3];
            FN(psuit)(desc[order[i]], c, w);
            part[i][c] = xterm(w, 3 * i, 3);
            known[i] |= 1u << c;
        }
        h += part[i][c];
    }
    uint64_t last = ok[4] | (uint64_t)cut << 32;
    return mix(h + xterm(&last, 16, 1));
}
#endif

static int FN(trick)(S *s, int leader, int run, int ctens, int ctricks, int left, int target) {
    if (target <= 0) {
        s->relv = 0;
        return 0;
    }
    if (s->count >= s->check_at) check(s);
    int wK = s->wK, wT = s->wT;
    int top = (ctens + s->hand_tens) * wT + (ctricks + left) * wK;
    if (target > top) {
        s->relv = 0;
        return top;
    }
    if (left == 1 && !s->fv && !s->closed_pending) {
        /* the last trick plays itself: one card each */
        s->count += NS;
        int bseat = -1, bs = -1, br = -1, ttens = 0, seat = leader;
        unsigned suits = 0;
        for (int j = 0; j < NS; j++) {
            int cs = 0, cr = 0;
            for (cs = 0; cs < 4; cs++) {
                uint32_t m = s->H[seat * 4 + cs];
                if (m) { cr = TOPR(m); break; }
            }
            if (cr == TEN) ttens++;
            suits += 1u << (4 * cs);
            if (bseat < 0 || (cs == bs && cr > br) || (cs == s->trump && bs != s->trump)) {
                bseat = seat; bs = cs; br = cr;
            }
            seat = seat + 1 == NS ? 0 : seat + 1;
        }
        /* the winner's rank matters only against other cards of its suit */
        s->relv = (suits >> (4 * bs) & 15) > 1 ? 1ULL << (16 * bs + br) : 0;
        if (bseat & 1) return 0;
        if (s->immediate) return ttens * wT + wK;
        return (ctens + ttens) * wT + (ctricks + 1) * wK;
    }
    {
        /* the leader wins every trick left: its side takes everything */
        uint64_t arel;
        if (FN(takes_all)(s, leader, &arel)) {
            s->relv = arel;
            return leader & 1 ? 0 : top;
        }
    }
    /* the table's key: the suits in a canonical order (trump, or closed trump, first; the
     * others are interchangeable, so sorted) */
    int special = s->trump >= 0 ? s->trump : s->closed_pending ? s->hidden : -1;
    /* the centre is not part of the key: an entry holds its value (see the look-up) */
    int cv = ctens * wT + ctricks * wK;
    uint64_t small = (uint64_t)leader | (uint64_t)run << 3 | (uint64_t)s->fv << 14
                     | (uint64_t)((s->closed_pending ? s->setter : -2) + 2) << 15 | (uint64_t)(special + 1) << 18;
    int order[4];
    if (special >= 0) {
        order[0] = special;
        int j = 1;
        for (int su = 0; su < 4; su++)
            if (su != special) order[j++] = su;
    } else {
        for (int su = 0; su < 4; su++) order[su] = su;
    }
    int first = special >= 0 ? 2 : 1;
    Engine *e = s->e;
#if !EXACT
    SuitInfo info[4];
    for (int su = 0; su < 4; su++) suit_info(s, su, info + su);
    for (int a = first; a < 4; a++)
        for (int b = a; b > first - 1 && info[order[b]].full < info[order[b - 1]].full; b--) {
            int t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
        }
    SuitInfo *in[4] = {info + order[0], info + order[1], info + order[2], info + order[3]};
    uint64_t ok0 = (uint64_t)in[0]->lt | (uint64_t)in[1]->lt << 19 | (uint64_t)in[2]->lt << 38;
    uint64_t ok1 = (uint64_t)in[3]->lt | small << 19;
    uint64_t oh = mix(ok0 ^ mix(ok1));
    __builtin_prefetch(e->outlines + (oh & e->omask) * WAYS);
#endif
    if (!s->immediate) {
        /* the sweep a leader surely makes: the centre, and the tens its sure winners bring
         * (one deck: at most one, the ten of the suit run); looked for only when it can cut */
        int need = run || left == 1 ? 1 : 2;
        int xmax = s->tens_score ? (RB == 1 ? s->hand_tens > 0 : s->hand_tens) : 0;
        int most = (ctens + xmax) * wT + (ctricks + need) * wK;
        uint64_t srel = 0;
        int xt = 0;
        if (((ctens + xmax && wT) || (ctricks && wK)) && (leader & 1 ? target > top - most : target <= most)
            && need <= FN(sure)(s, leader, need, &srel, &xt)) {
            int got = (ctens + xt) * wT + (ctricks + need) * wK;
            if (!(leader & 1)) {
                if (target <= got) {
                    s->relv = srel;
                    return got;
                }
            } else if (target > top - got) {
                s->relv = srel;
                return top - got;
            }
        }
    }
    STAT(st_starts);
#if EXACT
    /* per suit its outline (each hand's length and tens, 7 bits a hand) and its description; the
     * plain suits in the order of their outlines first (positions that differ only in low cards
     * then put them in the same order, and share entries) */
    uint64_t desc[4][3], ow[4];
    for (int su = 0; su < 4; su++) {
        FN(describe)(s, su, desc[su]);
        uint64_t w = 0;
        for (int seat = 0; seat < NS; seat++)
            w |= (uint64_t)(HLEN(seat * 4 + su) | (int)CNT(s->H[seat * 4 + su], TEN) << 5) << (7 * seat);
        ow[su] = w;
    }
    for (int a = first; a < 4; a++)
        for (int b = a; b > first - 1 && (ow[order[b]] < ow[order[b - 1]]
                                          || (ow[order[b]] == ow[order[b - 1]]
                                              && FN(desc_less)(desc[order[b]], desc[order[b - 1]]))); b--) {
            int t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
        }
    uint64_t ok[XOKEY];
    for (int i = 0; i < 4; i++) ok[i] = ow[order[i]];
    ok[4] = small;
    /* a first guess at the lead when the table has none: the last best lead found at a trick
     * start with the same lengths of every hand's suits and leader (a slot per hash;
     * only the order of the leads depends on it, never a value) */
    uint64_t nh = small;
    for (int i = 0; i < 4 * NS; i++) nh = nh * 31 + (uint64_t)HLEN(i);
    unsigned nslot = (unsigned)(mix(nh) & 0xFFFF);
    int hint = 0;
    uint64_t key[XKEY];
    uint64_t ohash = xohash(ok);
    XOut *xo = xout_get(e, ok, ohash, 0, 0);
    /* each cut the outline's entries were stored with, the newest first: every bucket asked for
     * at once (a look-up waits for memory once, not once a cut) */
    uint64_t hs[NCUTS];
    int ncut = xo != NULL ? xo->n : 0;
    if (ncut) {
        uint64_t part[4][14], base = xterm(ok, 12, 4);
        unsigned known[4] = {0, 0, 0, 0};
        for (int j = 0; j < ncut; j++) {
            hs[j] = FN(phash)(desc, order, base, ok, xo->cuts[j], part, known);
            __builtin_prefetch(e->xtags + xslot(e, hs[j]));
        }
    }
    for (int j = 0; j < ncut; j++) {
        uint64_t at = xslot(e, hs[j]);
        uint32_t tag = xtag(hs[j]);
        int built = 0;
        for (int i = 0; i < XWAYS; i++) {
            if ((e->xtags[at + i] & XTAGMASK) != tag) continue;
            XEnt *x = e->xents + at + i;     /* a matching tag: an entry in use */
            if (!built) {
                FN(pkey)(desc, order, ok, xo->cuts[j], key);     /* the key, only now that it is needed */
                built = 1;
            }
            if (memcmp(x->k, key, sizeof x->k)) continue;
            int lo = x->val & 255, hi = x->val >> 8 & 255;
            centre_bounds(x->cv, cv, top, &lo, &hi);     /* found with another centre */
            STAT(st_hits);
            if (lo >= target || hi < target) {
                /* the cards the answer depended on: per suit its top ranks down to the cut (the key
                 * holds relative ranks, so they are found again among the ranks out here) */
                uint64_t rel = 0;
                for (int q = 0; q < 4; q++) {
                    int c = x->cut >> (4 * q) & 15;
                    if (!c) continue;
                    int su = order[q], r = 13;
                    while (c) c -= CNT(s->R[su], --r) != 0;
                    rel |= 1ULL << (16 * su + r);
                }
                s->relv = rel;
                return lo >= target ? lo : hi;
            }
            if (!hint || x->cv == cv) hint = (int)(x->val >> 16 & 0x7FFF);   /* the best lead, without the in-use bit */
        }
    }
    if (!hint && xo != NULL) hint = xo->lead;
    if (!hint) hint = e->nearh[nslot];
    s->best_lead = 0;
    int res = FN(play)(s, 0, leader, -1, 0, -1, -1, 0, target, leader, run, ctens, ctricks, left, hint);
    uint64_t got_rel = s->relv;
    int best = s->best_lead;
    if (best) e->nearh[nslot] = (uint16_t)best;
    /* the cut: per suit (in the key's order) the ranks out from the lowest that mattered up */
    unsigned cut = 0;
    for (int i = 0; i < 4; i++) {
        int su = order[i];
        unsigned bits = got_rel >> (16 * su) & 0xFFFF;
        if (!bits) continue;
        int c = 0;
        for (int r = __builtin_ctz(bits); r < 13; r++) c += CNT(s->R[su], r) != 0;
        cut |= (unsigned)c << (4 * i);
    }
    FN(pkey)(desc, order, ok, cut, key);
    XEnt *x = xfind(e, key, cv, left);
    int lo, hi, h;
    if (!x->val) {
        STAT(st_stores);
        lo = 0; hi = top; h = 0;
    } else {
        lo = x->val & 255; hi = x->val >> 8 & 255; h = (int)(x->val >> 16 & 0x7FFF);
    }
    if (res >= target) {
        if (res > lo) lo = res;
    } else if (res < hi) {
        hi = res;
    }
    if (best) h = best;
    x->val = (uint32_t)lo | (uint32_t)hi << 8 | (uint32_t)h << 16 | 1u << 31;
    x->cut = (uint16_t)cut;
    xo = xout_get(e, ok, ohash, 1, left);
    xout_add(xo, (uint16_t)cut);
    if (best) xo->lead = (uint8_t)best;
    s->relv = got_rel;
    return res;
#else
    Outline *o = outline_get(e, ok0, ok1, oh, 0, 0);
    int hint = 0, near = 0;     /* the best lead of an entry that matches; of the newest that does not */
    if (o != NULL) {
        Rec *newest = o->r + (o->head ? o->head - 1 : o->cap - 1);
        __builtin_prefetch(newest);
        /* every prefix an entry may ask for, computed once (an outline holds 25 entries on average),
         * while the newest entry is on its way */
        uint32_t pf[4][16];
        for (int i = 0; i < 4; i++)
            for (int c = 0; c < 14; c++) pf[i][c] = prefix(in[i], c);
        int at = o->head;
        for (int j = 0; j < o->n; j++) {
            /* the newest first: it is the likeliest to be found again soon */
            at = at ? at - 1 : o->cap - 1;
            Rec *rc = o->r + at;
            unsigned cut = rc->cut;
            if ((pf[0][cut & 15] ^ rc->pre[0]) | (pf[1][cut >> 4 & 15] ^ rc->pre[1]) | (pf[2][cut >> 8 & 15] ^ rc->pre[2])
                | (pf[3][cut >> 12] ^ rc->pre[3])) {
                /* another position of the same outline (the same lengths, ten owners, leader): its
                 * best lead is a good first guess here too (only the order of the leads changes) */
                if (!near && (rc->val >> 16)) near = (int)(rc->val >> 16);
                continue;
            }
            STAT(st_hits);
            int lo = rc->val & 255, hi = rc->val >> 8 & 255;
            centre_bounds(rc->cv, cv, top, &lo, &hi);    /* found with another centre */
            if (lo >= target || hi < target) {
                s->relv = rel_of(cut, in, order);
                if (rc != newest) {
                    /* found again: it becomes the newest */
                    Rec tmp = *rc;
                    *rc = *newest;
                    *newest = tmp;
                }
                return lo >= target ? lo : hi;
            }
            if (rc->val >> 16) hint = (int)(rc->val >> 16);
        }
    }
    if (!hint) hint = near;
    s->best_lead = 0;
    int res = FN(play)(s, 0, leader, -1, 0, -1, -1, 0, target, leader, run, ctens, ctricks, left, hint);
    int best = s->best_lead;
    /* the cut: per suit (in the table's order) how many of its top ranks the answer needed */
    uint64_t got_rel = s->relv;
    unsigned cut = 0;
    for (int i = 0; i < 4; i++) {
        unsigned bits = got_rel >> (16 * order[i]) & 0xFFFF;
        if (!bits) continue;
        int low = __builtin_ctz(bits);
        int c = POP[s->R[order[i]] >> low];     /* the ranks out from low up */
        cut |= (unsigned)c << (4 * i);
    }
    uint32_t pre[4] = {prefix(in[0], cut & 15), prefix(in[1], cut >> 4 & 15), prefix(in[2], cut >> 8 & 15),
                       prefix(in[3], cut >> 12)};
    o = outline_get(e, ok0, ok1, oh, 1, left);
    if (o == NULL) longjmp(s->out, STOP_MEMORY);
    Rec *rc = NULL;
    for (int j = 0; j < o->n; j++) {
        Rec *y = o->r + j;
        if (y->cut == cut && y->cv == cv && y->pre[0] == pre[0] && y->pre[1] == pre[1] && y->pre[2] == pre[2]
            && y->pre[3] == pre[3]) {
            rc = y;
            break;
        }
    }
    int lo, hi, h;
    if (rc == NULL) {
        STAT(st_stores);
        if (o->n == o->cap && o->cap < MAXREC && e->room < e->room_limit) {
            /* full: twice the room, the entries in age order from the start */
            Rec *r = block_get(e, 2 * o->cap);
            if (r == NULL) longjmp(s->out, STOP_MEMORY);
            memcpy(r, o->r + o->head, (o->cap - o->head) * sizeof(Rec));
            memcpy(r + (o->cap - o->head), o->r, o->head * sizeof(Rec));
            block_put(e, o->r, o->cap);
            o->r = r;
            o->head = o->cap;
            e->room += o->cap;
            o->cap *= 2;
        }
        rc = o->r + o->head;
        o->head = (uint8_t)((o->head + 1) % o->cap);
        if (o->n < o->cap) o->n++;
        rc->cut = (uint16_t)cut;
        rc->cv = (uint16_t)cv;
        memcpy(rc->pre, pre, sizeof pre);
        lo = 0; hi = top; h = 0;
    } else {
        lo = rc->val & 255; hi = rc->val >> 8 & 255; h = (int)(rc->val >> 16);
    }
    if (res >= target) {
        if (res > lo) lo = res;
    } else if (res < hi) {
        hi = res;
    }
    if (best) h = best;
    rc->val = (uint32_t)lo | (uint32_t)hi << 8 | (uint32_t)h << 16;
    s->relv = got_rel;
    return res;
#endif
}

/* The root: a new trick, or the trick in progress. */
static int FN(search)(S *s, int n0, int leader, int run, int ctens, int ctricks, int left, int ttens,
                      int target) {
    if (n0 == 0) return FN(trick)(s, leader, run, ctens, ctricks, left, target);
    if (target <= 0) return 0;
    /* the trick so far: the card winning it */
    int bk, bs, br;
    trick_winner(s, 0, n0, &bk, &bs, &br);
    return FN(play)(s, n0, (leader + n0) % NS, s->ss[0], bk, bs, br, ttens, target, leader, run, ctens, ctricks,
                    left, 0);
}

#undef CNT
#undef RBIT
#undef TOPR
#undef LEN
#undef HLEN
