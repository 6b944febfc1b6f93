/* The solver's search in C: the same algorithm as the pure-Python search of search.py,
 * for the positions most deals reach (four players, one deck, trump known or no trump).
 *
 * Zero-window, fail-soft tests "can side 0 (AC) gain at least target from here?", a
 * transposition table looked up at the start of each trick with partition search (an
 * answer is stored with the top ranks of each suit it depended on, and serves every
 * position with the same owners of those ranks), equivalent cards merged, cheap bounds
 * (nothing to gain, more asked than is left, the sweep a leader surely makes) and the
 * game-aware move ordering.  See search.py for the reasoning behind each part: this file
 * follows it step by step, so that both give the same values (tests/analysis compares
 * them with each other and with a brute-force reference).
 *
 * Cards are (suit, rank), rank 0 for a two up to 12 for an ace; a hand is one 13-bit mask
 * per (seat, suit).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define TEN 8
#define N 4
#define WAYS 4          /* outlines per bucket of the table */
#define MINREC 4        /* entries an outline has room for at first */
#define MAXREC 64       /* entries an outline grows to at most (then the oldest goes) */
#define CHECK_EVERY 4096

/* The table: an outline (each suit's lengths per hand and ten owner, the leader, the run,
 * the centre, trump) holds the entries found under it, each with its cut (per suit how
 * many top ranks mattered) and the owners of those ranks: one hash look-up a trick start,
 * then a scan of a few records side by side in memory. */
typedef struct {
    uint32_t pre[4];    /* per suit (in the key's order) the owners of its top ranks kept */
    uint32_t val;       /* lower bound | upper bound << 7 | (best lead + 1) << 14 */
    uint16_t cut;       /* 4 bits a suit: how many of its top ranks the answer needed */
    uint16_t unused;
} Rec;

typedef struct {
    uint64_t k[2];
    Rec *r;             /* room for cap entries, n of them used, the next one written at head */
    uint8_t n, head, cap, left, used;
} Outline;

typedef struct {
    PyObject_HEAD
    Outline *outlines;
    uint64_t omask;     /* buckets - 1 */
    uint64_t stored;    /* outlines in use */
    uint64_t room;      /* entries the outlines have room for */
    uint64_t room_limit;    /* past it, outlines no longer grow */
    int busy;           /* a test is running (in another thread: the search runs without the GIL) */
} Engine;

typedef struct {
    uint32_t lt;        /* lengths per hand (4 bits each) | ten owner + 1 << 16 */
    uint32_t owners;    /* owners of the suit's cards, highest first, 2 bits each from bit 0 */
    int tenidx;         /* index of the ten among the ranks, -1: none (or tens do not score) */
    int8_t ranks[13];   /* high to low */
    uint64_t full;
} SuitInfo;

typedef struct {
    uint16_t H[16];     /* seat * 4 + suit */
    uint16_t R[4];      /* cards of each suit still out (in hands or in the current trick) */
    int trump, tens_score, tenx, wK, wT, immediate;
    int hand_tens;
    int ss[64], sr[64], sp;     /* the cards of the current trick */
    long long count, check_at, node_limit;
    double deadline;
    uint64_t relv;      /* the cards the last answer depended on: bit 16 * suit + rank */
    int best_lead;      /* set by play() at k == 0 on a cut-off: suit * 16 + rank + 1 */
    Engine *e;
    jmp_buf out;
    PyThreadState *ts;  /* the search runs without the GIL, taken back for the periodic check */
} S;

enum { STOP_TIME = 1, STOP_SIGNAL = 2, STOP_MEMORY = 3 };

static inline int top_of(unsigned m) { return 31 - __builtin_clz(m); }

static uint8_t POP[1 << 13];     /* popcount of a 13-bit mask (no popcnt instruction assumed) */

#ifdef CSEARCH_STATS
static long long st_starts, st_hits, st_stores;
#define STAT(x) (x)++
#else
#define STAT(x) ((void)0)
#endif

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void check(S *s) {
    s->check_at = s->count + CHECK_EVERY;
    if (s->node_limit >= 0 && s->count > s->node_limit) longjmp(s->out, STOP_TIME);
    if (s->deadline > 0 && cpu_now() > s->deadline) longjmp(s->out, STOP_TIME);
    /* other threads (a replay's keys while it solves in the background) get their turn here, and
     * Ctrl-C or a signal handler's exception stops the search */
    PyEval_RestoreThread(s->ts);
    int sig = PyErr_CheckSignals();
    s->ts = PyEval_SaveThread();
    if (sig < 0) longjmp(s->out, STOP_SIGNAL);
}

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* ---- the table ------------------------------------------------------------------------- */

static Outline *outline_get(Engine *e, uint64_t k0, uint64_t k1, int create, int left) {
    uint64_t h = mix(k0 ^ mix(k1));
    Outline *b = e->outlines + (h & e->omask) * WAYS;
    for (int i = 0; i < WAYS; i++)
        if (b[i].used && b[i].k[0] == k0 && b[i].k[1] == k1) return b + i;
    if (!create) return NULL;
    Outline *o = NULL;
    for (int i = 0; i < WAYS; i++) {
        if (!b[i].used) { o = b + i; break; }
        /* the bucket is full: the outline cheapest to recompute goes */
        if (o == NULL || b[i].left < o->left) o = b + i;
    }
    if (!o->used) {
        o->r = PyMem_RawMalloc(MINREC * sizeof(Rec));
        if (o->r == NULL) return NULL;
        o->cap = MINREC;
        e->room += MINREC;
        e->stored++;
    }
    o->k[0] = k0;
    o->k[1] = k1;
    o->n = o->head = 0;
    o->left = (uint8_t)left;
    o->used = 1;
    return o;
}

/* ---- the search ------------------------------------------------------------------------ */

static int trick(S *s, int leader, int run, int ctens, int ctricks, int left, int target);

static void suit_info(S *s, int su, SuitInfo *out) {
    unsigned h1 = s->H[4 + su], h2 = s->H[8 + su], h3 = s->H[12 + su];
    unsigned b0 = h1 | h3, b1 = h2 | h3;    /* an owner's two bits, rank by rank */
    unsigned rs = s->R[su];
    uint32_t lt = POP[s->H[su]] | (uint32_t)POP[h1] << 4 | (uint32_t)POP[h2] << 8 | (uint32_t)POP[h3] << 12;
    int tenidx = -1;
    if (s->tens_score && (rs >> TEN & 1)) {
        lt |= (uint32_t)((b0 >> TEN & 1) + 2 * (b1 >> TEN & 1) + 1) << 16;
        tenidx = POP[rs >> (TEN + 1)];  /* the ranks above it */
    }
    uint32_t owners = 0;
    int nr = 0;
    while (rs) {
        int r = top_of(rs);
        rs ^= 1u << r;
        owners |= ((b0 >> r & 1) | (b1 >> r & 1) << 1) << (2 * nr);
        out->ranks[nr++] = (int8_t)r;
    }
    out->lt = lt;
    out->owners = owners;
    out->tenidx = tenidx;
    out->full = (uint64_t)lt << 32 | (uint64_t)(tenidx + 1) << 27 | owners;
}

static inline uint32_t prefix(const SuitInfo *in, int c) {
    uint32_t p = c >= 16 ? in->owners : (in->owners & ((1u << (2 * c)) - 1));
    if (in->tenidx >= 0 && in->tenidx < c) p |= (uint32_t)(in->tenidx + 1) << 26;
    return p;
}

static uint64_t rel_of(unsigned cut, SuitInfo *const *in, const int *order) {
    uint64_t bits = 0;
    for (int i = 0; i < 4; i++) {
        int c = cut >> (4 * i) & 15;
        if (c) bits |= 1ULL << (16 * order[i] + in[i]->ranks[c - 1]);
    }
    return bits;
}

/* How many tricks the leader surely wins running one suit (up to need). */
static int sure(S *s, int leader, int need, uint64_t *rel) {
    int best = 0;
    for (int su = 0; su < 4; su++) {
        unsigned m = s->H[leader * 4 + su];
        if (!m) continue;
        unsigned rs = s->R[su];
        int top_rank = top_of(rs);
        if (!(m >> top_rank & 1)) continue;
        int t = 0, low = top_rank;
        for (int r = top_rank; r >= 0; r--) {
            if (!(rs >> r & 1)) continue;
            low = r;
            if (m >> r & 1) {
                t++;
                if (t >= need) break;
                continue;
            }
            if (t == 0) t = 1;
            break;
        }
        if (t > need) t = need;
        if (su != s->trump && s->trump >= 0) {
            for (int o = 0; o < N; o++) {
                if (o == leader || !s->H[o * 4 + s->trump]) continue;
                int length = POP[s->H[o * 4 + su]];
                if (length < t) t = length;
            }
        }
        if (t > best) {
            best = t;
            if (best >= need) {
                *rel = 1ULL << (16 * su + low);
                return best;
            }
        }
    }
    return best;
}

/* One move per class of equivalent cards of holding m among the cards out rs (high to low). */
static int classes(const S *s, unsigned m, unsigned rs, int *out) {
    int n = 0, in_run = 0, rep = 0;
    for (int r = 12; r >= 0; r--) {
        if (!(rs >> r & 1)) continue;
        if (m >> r & 1) {
            if (!in_run) { in_run = 1; rep = 0; }
            if (r == TEN && s->tens_score) out[n++] = r;
            else if (!rep) { out[n++] = r; rep = 1; }
        } else {
            in_run = 0;
        }
    }
    return n;
}

static int finish(S *s, int bk, int bs, int br, int ttens, int target, int leader, int run, int ctens,
                  int ctricks, int left) {
    int winner = (leader + bk) % N;
    int side = winner & 1;
    int low = br;
    int base = s->sp - N;
    int same = 0;
    for (int i = 0; i < N; i++) same += s->ss[base + i] == bs;
    if (same == 1) {
        low = -1;
    } else if (br != s->tenx) {
        unsigned wm = s->H[winner * 4 + bs], rs = s->R[bs];
        for (int r = br - 1; r >= 0; r--) {
            if (!(rs >> r & 1)) continue;
            if (!(wm >> r & 1)) break;
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
    int cs[N], cb[N];
    for (int i = 0; i < N; i++) {
        cs[i] = s->ss[base + i];
        cb[i] = 1 << s->sr[base + i];
        s->R[cs[i]] -= cb[i];
    }
    int res = trick(s, winner, nrun, ctens2, ctricks2, left - 1, target - gain);
    for (int i = 0; i < N; i++) s->R[cs[i]] += cb[i];
    s->relv |= wbit;
    return res + gain;
}

#define MV(su, r) ((su) << 4 | (r))

static int play(S *s, int k, int seat, int led, int bk, int bsuit, int brank, int ttens, int target, int leader,
                int run, int ctens, int ctricks, int left, int hint) {
    s->count++;
    int base = seat * 4;
    int ac = !(seat & 1);
    int tenx = s->tenx;
    int moves[16], nm = 0;
    int cls[13], nc;
    if (k) {
        unsigned held = s->H[base + led];
        if (held) {
            if (!(held & (held - 1))) {
                moves[nm++] = MV(led, top_of(held));
            } else {
                nc = classes(s, held, s->R[led], cls);
                if (nc < 2) {
                    moves[nm++] = MV(led, cls[0]);
                } else {
                    int partner = !((leader + bk - seat) & 1);
                    int has_ten = 0;
                    for (int i = 0; i < nc; i++) has_ten |= cls[i] == tenx;
                    if (partner) {
                        int sweeping = s->immediate || left == 1 || (run && (leader + bk) % N == leader);
                        if (has_ten && sweeping) moves[nm++] = MV(led, TEN);
                        for (int i = nc - 1; i >= 0; i--)
                            if (cls[i] != tenx) moves[nm++] = MV(led, cls[i]);
                        if (has_ten && !sweeping) moves[nm++] = MV(led, TEN);
                        if (k == N - 2 && bsuit == led) {
                            /* third hand high when the last player would beat partner's card */
                            unsigned nxm = s->H[(seat + 1) % N * 4 + led];
                            if (nxm) {
                                int ntop = top_of(nxm);
                                if (ntop > brank && cls[0] > ntop) {
                                    int tmp[16], nt = 0;
                                    for (int i = 0; i < nm; i++)
                                        if ((moves[i] & 15) > ntop) tmp[nt++] = moves[i];
                                    for (int i = 0; i < nm; i++)
                                        if ((moves[i] & 15) <= ntop) tmp[nt++] = moves[i];
                                    memcpy(moves, tmp, sizeof(int) * nm);
                                }
                            }
                        }
                    } else if (bsuit == led) {
                        for (int i = nc - 1; i >= 0; i--)
                            if (cls[i] > brank) moves[nm++] = MV(led, cls[i]);
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
            int partner = !((leader + bk - seat) & 1);
            int lows[13], nl = 0, ruffs[13], nr = 0, tens[4], nt = 0, highs[13], nh = 0;
            for (int su = 0; su < 4; su++) {
                unsigned m = s->H[base + su];
                if (!m) continue;
                nc = classes(s, m, s->R[su], cls);
                if (su == s->trump && !partner) {
                    for (int i = nc - 1; i >= 0; i--) {
                        if (bsuit != s->trump || cls[i] > brank) ruffs[nr++] = MV(su, cls[i]);
                        else highs[nh++] = MV(su, cls[i]);
                    }
                    continue;
                }
                int first = 1;
                for (int i = nc - 1; i >= 0; i--) {
                    if (cls[i] == TEN && s->tens_score) tens[nt++] = MV(su, cls[i]);
                    else if (first) { lows[nl++] = MV(su, cls[i]); first = 0; }
                    else highs[nh++] = MV(su, cls[i]);
                }
            }
            int sweeping = partner && (s->immediate || left == 1 || (run && (leader + bk) % N == leader));
            if (sweeping) {
                for (int i = 0; i < nt; i++) moves[nm++] = tens[i];
                for (int i = 0; i < nl; i++) moves[nm++] = lows[i];
                for (int i = 0; i < nh; i++) moves[nm++] = highs[i];
            } else {
                for (int i = 0; i < nr; i++) moves[nm++] = ruffs[i];
                for (int i = 0; i < nl; i++) moves[nm++] = lows[i];
                for (int i = 0; i < nh; i++) moves[nm++] = highs[i];
                for (int i = 0; i < nt; i++) moves[nm++] = tens[i];
            }
        }
    } else {
        int tops[4], ntp = 0, tens[4], nt = 0, lows[13], nl = 0, tp[13], np = 0;
        int pbase = (seat + 2) % N * 4;
        for (int su = 0; su < 4; su++) {
            unsigned m = s->H[base + su];
            if (!m) continue;
            nc = classes(s, m, s->R[su], cls);
            int top_rank = top_of(s->R[su]);
            /* a low lead to a suit partner heads: partner wins it */
            int into_partner = s->H[pbase + su] >> top_rank & 1;
            for (int i = 0; i < nc; i++) {
                int r = cls[i];
                if (r == TEN && s->tens_score) tens[nt++] = MV(su, r);
                else if (i == 0 && r == top_rank) tops[ntp++] = MV(su, r);
                else if (into_partner) tp[np++] = MV(su, r);
                else lows[nl++] = MV(su, r);
            }
        }
        for (int i = 0; i < ntp; i++) moves[nm++] = tops[i];
        for (int i = np - 1; i >= 0; i--) moves[nm++] = tp[i];
        for (int i = nl - 1; i >= 0; i--) moves[nm++] = lows[i];
        for (int i = 0; i < nt; i++) moves[nm++] = tens[i];
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
    int nxt = seat + 1 == N ? 0 : seat + 1;
    int best = ac ? -1 : 1 << 20;
    uint64_t acc = 0;
    int last = k + 1 == N;
    for (int i = 0; i < nm; i++) {
        int su = moves[i] >> 4, r = moves[i] & 15;
        unsigned bit = 1u << r;
        s->H[base + su] -= bit;
        int ten = r == TEN;
        s->hand_tens -= ten;
        int nled, nbk, nbs, nbr;
        if (k == 0) {
            nled = su; nbk = 0; nbs = su; nbr = r;
        } else {
            nled = led;
            if (su == bsuit) {
                if (r > brank) { nbk = k; nbs = su; nbr = r; }
                else { nbk = bk; nbs = bsuit; nbr = brank; }
            } else if (su == s->trump) {
                nbk = k; nbs = su; nbr = r;
            } else {
                nbk = bk; nbs = bsuit; nbr = brank;
            }
        }
        s->ss[s->sp] = su;
        s->sr[s->sp] = r;
        s->sp++;
        int res;
        if (last) res = finish(s, nbk, nbs, nbr, ttens + ten, target, leader, run, ctens, ctricks, left);
        else res = play(s, k + 1, nxt, nled, nbk, nbs, nbr, ttens + ten, target, leader, run, ctens, ctricks,
                        left, 0);
        s->sp--;
        s->hand_tens += ten;
        s->H[base + su] += bit;
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
        acc |= s->relv;
    }
    s->relv = acc;
    if (k == 0) s->best_lead = 0;   /* no lead proved a bound here (the one set by a later trick is not ours) */
    return best;
}

static int trick(S *s, int leader, int run, int ctens, int ctricks, int left, int target) {
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
    if (left == 1) {
        /* the last trick plays itself: one card each */
        s->count += N;
        int bseat = -1, bs = -1, br = -1, ttens = 0, seat = leader;
        unsigned suits = 0;
        for (int j = 0; j < N; j++) {
            int cs = 0, cr = 0;
            for (cs = 0; cs < 4; cs++) {
                unsigned m = s->H[seat * 4 + cs];
                if (m) { cr = top_of(m); break; }
            }
            if (cr == TEN) ttens++;
            suits += 1u << (4 * cs);
            if (bseat < 0 || (cs == bs && cr > br) || (cs == s->trump && bs != s->trump)) {
                bseat = seat; bs = cs; br = cr;
            }
            seat = seat + 1 == N ? 0 : seat + 1;
        }
        /* the winner's rank matters only against other cards of its suit */
        s->relv = (suits >> (4 * bs) & 15) > 1 ? 1ULL << (16 * bs + br) : 0;
        if (bseat & 1) return 0;
        if (s->immediate) return ttens * wT + wK;
        return (ctens + ttens) * wT + (ctricks + 1) * wK;
    }
    if (!s->immediate && ((ctens && wT) || (ctricks && wK))) {
        int need = run || left == 1 ? 1 : 2;
        uint64_t srel = 0;
        if (need <= sure(s, leader, need, &srel)) {
            int got = ctens * wT + (ctricks + need) * wK;
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
    /* the table's key: the suits in a canonical order (trump first, the others sorted) */
    SuitInfo info[4];
    for (int su = 0; su < 4; su++) suit_info(s, su, info + su);
    int order[4];
    int special = s->trump;
    if (special >= 0) {
        order[0] = special;
        int j = 1;
        for (int su = 0; su < 4; su++)
            if (su != special) order[j++] = su;
        for (int a = 2; a < 4; a++)
            for (int b = a; b > 1 && info[order[b]].full < info[order[b - 1]].full; b--) {
                int t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
            }
    } else {
        for (int su = 0; su < 4; su++) order[su] = su;
        for (int a = 1; a < 4; a++)
            for (int b = a; b > 0 && info[order[b]].full < info[order[b - 1]].full; b--) {
                int t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
            }
    }
    SuitInfo *in[4] = {info + order[0], info + order[1], info + order[2], info + order[3]};
    uint64_t small = (uint64_t)leader | (uint64_t)run << 2 | (uint64_t)(wT ? ctens : 0) << 3
                     | (uint64_t)(wK ? ctricks : 0) << 6 | (uint64_t)(special + 1) << 10;
    uint64_t ok0 = (uint64_t)in[0]->lt | (uint64_t)in[1]->lt << 19 | (uint64_t)in[2]->lt << 38;
    uint64_t ok1 = (uint64_t)in[3]->lt | small << 19;
    Engine *e = s->e;
    STAT(st_starts);
    Outline *o = outline_get(e, ok0, ok1, 0, 0);
    int hint = 0;
    if (o != NULL) {
        Rec *newest = o->r + (o->head ? o->head - 1 : o->cap - 1);
        int at = o->head;
        for (int j = 0; j < o->n; j++) {
            /* the newest first: it is the likeliest to be found again soon */
            at = at ? at - 1 : o->cap - 1;
            Rec *rc = o->r + at;
            unsigned cut = rc->cut;
            if (prefix(in[0], cut & 15) != rc->pre[0] || prefix(in[1], cut >> 4 & 15) != rc->pre[1]
                || prefix(in[2], cut >> 8 & 15) != rc->pre[2] || prefix(in[3], cut >> 12) != rc->pre[3])
                continue;
            STAT(st_hits);
            int lo = rc->val & 127, hi = rc->val >> 7 & 127;
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
            if (rc->val >> 14) hint = rc->val >> 14;
        }
    }
    s->best_lead = 0;
    int res = play(s, 0, leader, -1, 0, -1, -1, 0, target, leader, run, ctens, ctricks, left, hint);
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
    o = outline_get(e, ok0, ok1, 1, left);
    if (o == NULL) longjmp(s->out, STOP_MEMORY);
    Rec *rc = NULL;
    for (int j = 0; j < o->n; j++) {
        Rec *x = o->r + j;
        if (x->cut == cut && x->pre[0] == pre[0] && x->pre[1] == pre[1] && x->pre[2] == pre[2] && x->pre[3] == pre[3]) {
            rc = x;
            break;
        }
    }
    int lo, hi, h;
    if (rc == NULL) {
        STAT(st_stores);
        if (o->n == o->cap && o->cap < MAXREC && e->room < e->room_limit) {
            /* full: twice the room, the entries in age order from the start */
            Rec *r = PyMem_RawMalloc(2 * o->cap * sizeof(Rec));
            if (r == NULL) longjmp(s->out, STOP_MEMORY);
            memcpy(r, o->r + o->head, (o->cap - o->head) * sizeof(Rec));
            memcpy(r + (o->cap - o->head), o->r, o->head * sizeof(Rec));
            PyMem_RawFree(o->r);
            o->r = r;
            o->head = o->cap;
            e->room += o->cap;
            o->cap *= 2;
        }
        rc = o->r + o->head;
        o->head = (uint8_t)((o->head + 1) % o->cap);
        if (o->n < o->cap) o->n++;
        rc->cut = (uint16_t)cut;
        memcpy(rc->pre, pre, sizeof pre);
        lo = 0; hi = top; h = 0;
    } else {
        lo = rc->val & 127; hi = rc->val >> 7 & 127; h = rc->val >> 14;
    }
    if (res >= target) {
        if (res > lo) lo = res;
    } else if (res < hi) {
        hi = res;
    }
    if (best) h = best;
    rc->val = (uint32_t)lo | (uint32_t)hi << 7 | (uint32_t)h << 14;
    s->relv = got_rel;
    return res;
}

/* ---- Python ---------------------------------------------------------------------------- */

static void free_outlines(Engine *self) {
    if (self->outlines == NULL) return;
    for (uint64_t i = 0; i < (self->omask + 1) * WAYS; i++)
        if (self->outlines[i].used) PyMem_RawFree(self->outlines[i].r);
    PyMem_RawFree(self->outlines);
    self->outlines = NULL;
}

/* The root: a new trick, or the trick in progress. */
static int search(S *s, int n0, int trump, int leader, int run, int ctens, int ctricks, int left, int ttens,
                  int target) {
    if (n0 == 0) return trick(s, leader, run, ctens, ctricks, left, target);
    if (target <= 0) return 0;
    /* the trick so far: the card winning it */
    int bk = 0, bs = s->ss[0], br = s->sr[0];
    for (int j = 1; j < n0; j++) {
        if (s->ss[j] == bs) {
            if (s->sr[j] > br) { bk = j; br = s->sr[j]; }
        } else if (s->ss[j] == trump) {
            bk = j; bs = s->ss[j]; br = s->sr[j];
        }
    }
    return play(s, n0, (leader + n0) % N, s->ss[0], bk, bs, br, ttens, target, leader, run, ctens, ctricks, left, 0);
}

static void Engine_dealloc(Engine *self) {
    free_outlines(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Engine_init(Engine *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"entries", NULL};
    Py_ssize_t entries = 1 << 21;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|n", kwlist, &entries)) return -1;
    /* outlines for a quarter of the entries asked for: they hold 3-4 entries on average */
    uint64_t buckets = 1;
    while (buckets * WAYS * 4 < (uint64_t)(entries > 256 ? entries : 256)) buckets <<= 1;
    free_outlines(self);
    self->outlines = PyMem_RawCalloc(buckets * WAYS, sizeof(Outline));
    if (self->outlines == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->omask = buckets - 1;
    self->room = 0;
    self->room_limit = (uint64_t)entries;
    self->stored = 0;
    return 0;
}

static int parse_masks(PyObject *seq, uint16_t *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %d items expected", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < 0 || v >= 1 << 13) {
            PyErr_Format(PyExc_ValueError, "%s: a mask out of range", what);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (uint16_t)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* test(hands, trick, trump, leader, run, ctens, ctricks, left, score, immediate, target,
 *      nodes, node_limit, deadline) -> (result, nodes) ; result -1: out of time */
static PyObject *Engine_test(Engine *self, PyObject *args) {
    PyObject *hands, *trick_cards;
    int trump, leader, run, ctens, ctricks, left, score, immediate, target;
    long long nodes, node_limit;
    double deadline;
    if (!PyArg_ParseTuple(args, "OOiiiiiiipiLLd", &hands, &trick_cards, &trump, &leader, &run, &ctens, &ctricks,
                          &left, &score, &immediate, &target, &nodes, &node_limit, &deadline))
        return NULL;
    S *s = PyMem_RawCalloc(1, sizeof(S));
    if (s == NULL) return PyErr_NoMemory();
    if (parse_masks(hands, s->H, 16, "hands") < 0) { PyMem_RawFree(s); return NULL; }
    if (trump < -1 || trump > 3 || leader < 0 || leader > 3 || left < 1 || left > 13 || score < 0 || score > 2) {
        PyMem_RawFree(s);
        PyErr_SetString(PyExc_ValueError, "a position out of range");
        return NULL;
    }
    /* score: 0 tens, 1 points, 2 tricks */
    s->tens_score = score != 2;
    s->tenx = s->tens_score ? TEN : -1;
    s->wK = score == 0 ? 0 : score == 1 ? N : 1;
    s->wT = score == 2 ? 0 : 1;
    s->immediate = immediate;
    s->trump = trump;
    s->e = self;
    s->count = nodes;
    s->node_limit = node_limit;
    s->deadline = deadline;
    s->check_at = nodes + CHECK_EVERY;
    for (int i = 0; i < 16; i++) {
        s->R[i & 3] |= s->H[i];
        s->hand_tens += s->H[i] >> TEN & 1;
    }
    PyObject *fast = PySequence_Fast(trick_cards, "trick");
    if (fast == NULL) { PyMem_RawFree(s); return NULL; }
    int n0 = (int)PySequence_Fast_GET_SIZE(fast);
    int ttens = 0;
    if (n0 >= N) {
        Py_DECREF(fast);
        PyMem_RawFree(s);
        PyErr_SetString(PyExc_ValueError, "a trick of four cards is finished");
        return NULL;
    }
    for (int i = 0; i < n0; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v < 0 || v > 63 || (v & 15) > 12) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card out of range");
            Py_DECREF(fast);
            PyMem_RawFree(s);
            return NULL;
        }
        s->ss[i] = (int)(v >> 4);
        s->sr[i] = (int)(v & 15);
        s->R[v >> 4] |= 1u << (v & 15);
        ttens += (v & 15) == TEN;
    }
    Py_DECREF(fast);
    s->sp = n0;
    for (int seat = 0; seat < N; seat++) {
        int held = 0, played = (seat - leader + N) % N < n0;
        for (int su = 0; su < 4; su++) held += POP[s->H[seat * 4 + su]];
        if (held + played != left) {
            PyMem_RawFree(s);
            PyErr_SetString(PyExc_ValueError, "the hands do not hold a card for each trick left");
            return NULL;
        }
    }
    if (self->busy) {
        PyMem_RawFree(s);
        PyErr_SetString(PyExc_RuntimeError, "this solver is already searching (in another thread)");
        return NULL;
    }
    self->busy = 1;
    int res = -1;
    s->ts = PyEval_SaveThread();
    int why = setjmp(s->out);
    if (why == 0) {
        res = search(s, n0, trump, leader, run, ctens, ctricks, left, ttens, target);
    }
    PyEval_RestoreThread(s->ts);
    self->busy = 0;
    if (why == STOP_SIGNAL) {
        PyMem_RawFree(s);
        return NULL;
    }
    if (why == STOP_MEMORY) {
        PyMem_RawFree(s);
        return PyErr_NoMemory();
    }
    long long count = s->count;
    PyMem_RawFree(s);
    return Py_BuildValue("iL", res, count);
}

static PyObject *Engine_stored(Engine *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->stored);
}

#ifdef CSEARCH_STATS
static PyObject *Engine_stats(Engine *self, PyObject *unused) {
    (void)self; (void)unused;
    return Py_BuildValue("LLL", st_starts, st_hits, st_stores);
}
#endif

static PyMethodDef Engine_methods[] = {
#ifdef CSEARCH_STATS
    {"stats", (PyCFunction)Engine_stats, METH_NOARGS, "(trick starts looked up, found, stored), all engines"},
#endif
    {"test", (PyCFunction)Engine_test, METH_VARARGS,
     "test(hands, trick, trump, leader, run, ctens, ctricks, left, score, immediate, target, nodes, node_limit, "
     "deadline) -> (result, nodes): one fail-soft zero-window test; result -1 when out of time."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"stored", (getter)Engine_stored, NULL, "outlines stored in the table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dehlanote.analysis._csearch.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search's table and its tests (four players, one deck, trump known or none).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_csearch", "The solver's search in C.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__csearch(void) {
    for (int m = 1; m < 1 << 13; m++) POP[m] = (uint8_t)(POP[m >> 1] + (m & 1));
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
