/* The solver's search in C: the same algorithm as the pure-Python search of search.py,
 * for every position: four or six players, one to three decks, trump known, none, or still
 * to be set by play (the first void, closed trump before its reveal), every score.
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
 * Cards are (suit, rank), rank 0 for a two up to 12 for an ace.  The search is written once
 * (_csearch_core.h) and compiled twice: for four players and one deck a hand is one 13-bit
 * mask per (seat, suit) and the table is the partition table; for any other game a hand
 * holds a 2-bit count of each rank and the table is a partition table of its own (XEnt, XOut).
 *
 * Every input is checked at the entry (Engine.test) before the search starts: each card held
 * at most once per deck, each hand the size the tricks left ask, every number in range.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define TEN 8
#define MAXSEATS 6
#define MAXMOVES 56     /* distinct cards a hand can hold: 26 (six players), with room */
#define MAXCARDS 160    /* cards of a deal: 156 with three decks */
#define XKEY 17         /* words of a six-player entry's key: 3 a suit (its top ranks), 4 of lengths and tens, the rest */
#define XOKEY 5         /* words of a six-player outline: lengths and tens per suit, the rest */
#define XOWAYS 4
#define NCUTS 16         /* cuts a six-player outline keeps (the newest) */
#define XWAYS 4
#define WAYS 4          /* outlines per bucket of the table */
#define MINREC 4        /* entries an outline has room for at first */
#define MAXREC 128      /* entries an outline grows to at most (then the oldest goes) */
#define CHECK_EVERY 4096
#define CHUNK (1 << 19)     /* entries a chunk of the entries' room holds (12 MB) */
#define MAXCHUNKS 4096

/* The table: an outline (each suit's lengths per hand and ten owner, the leader, the run,
 * trump) holds the entries found under it, each with its cut (per suit how many top ranks
 * mattered), the owners of those ranks and the centre's value: one hash look-up a trick
 * start, then a scan of a few records side by side in memory. */
typedef struct {
    uint32_t pre[4];    /* per suit (in the key's order) the owners of its top ranks kept */
    uint32_t val;       /* lower bound | upper bound << 8 | (best lead + 1) << 16 */
    uint16_t cut;       /* 4 bits a suit: how many of its top ranks the answer needed */
    uint16_t cv;        /* the centre's value when it was found (tens, points or tricks in the centre) */
} Rec;

typedef struct {
    uint64_t k[2];
    Rec *r;             /* room for cap entries, n of them used, the next one written at head */
    uint8_t n, head, cap, left, used;
} Outline;

/* An entry of six players' partition table (several decks): a position at a trick start, kept
 * with only the top ranks of each suit its answer depended on (its cut: how many, per suit). */
typedef struct {
    uint32_t val;       /* lower bound | upper bound << 8 | (best lead + 1) << 16 | 1 << 31 (in use) */
    uint8_t cv;         /* the centre's value when it was found (the key leaves the centre out): at most 168 */
    uint16_t cut;       /* 4 bits a suit (in the key's order): how many of its top ranks its answer needed */
    uint64_t k[XKEY];   /* after val: one cache line holds an entry's val and its key's first words */
} XEnt;

/* A six-player outline: the lengths and tens of every hand in each suit, the leader, the run and
 * trump (what every entry's key holds whole), and the cuts its entries were stored with, the
 * newest first: a look-up tries each cut in turn. */
typedef struct {
    uint64_t k[XOKEY];
    uint16_t cuts[NCUTS];
    uint8_t n, left;
    uint8_t lead;       /* the best lead last stored under it + 1 (0: none) */
} XOut;

typedef struct {
    PyObject_HEAD
    XEnt *xents;        /* six players' table, made at its first use */
    uint32_t *xtags;    /* a tag per entry: 24 bits of its key's hash (never all 0) and its tricks left (0:
                         * empty); a look-up reads the tags of a bucket, in one cache line, and an entry
                         * only when its tag matches, and a store picks the entry to replace by them */
    uint64_t xtagb;     /* the buckets the tags have room for (more than xbuckets when growing failed half-way) */
    XOut *xouts;        /* its outlines */
    uint64_t xomask;    /* their buckets - 1 */
    uint64_t xbuckets;  /* its buckets (of XWAYS entries) */
    uint64_t xstored;
    uint64_t xmax;      /* the buckets it may grow to */
    Outline *outlines;
    uint64_t omask;     /* buckets - 1 */
    uint64_t stored;    /* outlines in use */
    uint64_t room;      /* entries the outlines have room for */
    uint64_t room_limit;    /* past it, outlines no longer grow */
    uint16_t nearh[1 << 16];    /* the last best lead found per hash of the lengths, leader, centre */
    Rec *chunk[MAXCHUNKS];      /* the entries' room, in big chunks (huge pages), handed out in blocks */
    int nchunks;
    size_t chunk_used;          /* entries handed out of the last chunk */
    Rec *spare[8];              /* blocks given back, per size (MINREC << i), chained by their first entry */
    int busy;           /* a test is running (in another thread: the search runs without the GIL) */
} Engine;

typedef struct {
    uint32_t lt;        /* lengths per hand (4 bits each) | ten owner + 1 << 16 */
    uint32_t owners;    /* owners of the suit's cards, highest first, 2 bits each from bit 0 */
    int tenidx;         /* index of the ten among the ranks, -1: none (or tens do not score) */
    uint32_t rs;        /* the ranks out */
    uint64_t full;
} SuitInfo;

typedef struct {
    uint32_t H[4 * MAXSEATS];   /* seat * 4 + suit */
    int L[4 * MAXSEATS];        /* the number of cards of each H (kept as cards are played: several decks) */
    uint16_t G[4][13];  /* several decks: per suit and rank, each seat's count of it (2 bits a seat), kept as
                         * cards are played (the table's description of a suit reads it) */
    uint32_t R[4];      /* cards of each suit still out (in hands or in the current trick) */
    int n, decks;
    int trump, tens_score, tenx, wK, wT, immediate;
    int fv;             /* trump still to be set by the first void */
    int closed_pending, hidden, setter;     /* closed trump not revealed yet: its suit, its setter (-1: none yet) */
    int hand_tens;
    int ss[MAXCARDS], sr[MAXCARDS], sp;     /* the cards of the current trick (and the tricks above it) */
    long long count, check_at, node_limit;
    double deadline;
    uint64_t relv;      /* the cards the last answer depended on: bit 16 * suit + rank */
    int best_lead;      /* set by play() at k == 0 on a cut-off: suit * 16 + rank + 1 */
    Engine *e;
    jmp_buf out;
    PyThreadState *ts;  /* the search runs without the GIL, taken back for the periodic check */
} S;

enum { STOP_TIME = 1, STOP_SIGNAL = 2, STOP_MEMORY = 3 };

/* The card winning the n cards of a trick from s->ss[b] on, with trump s->trump (of equal cards
 * the first played wins): its place in the trick, suit and rank. */
static inline void trick_winner(const S *s, int b, int n, int *bk, int *bs, int *br) {
    int k = 0, su = s->ss[b], r = s->sr[b];
    for (int j = 1; j < n; j++) {
        int cs = s->ss[b + j], cr = s->sr[b + j];
        if (cs == su) {
            if (cr > r) { k = j; r = cr; }
        } else if (cs == s->trump) {
            k = j; su = cs; r = cr;
        }
    }
    *bk = k; *bs = su; *br = r;
}

static inline int top_of(unsigned m) { return 31 - __builtin_clz(m); }    /* m != 0 */

/* The n cards mv in order of their weights w, the heaviest first (stable: of equal weights the
 * first stays first); a few cards at most, so an insertion sort. */
static inline void heaviest_first(int *mv, int *w, int n) {
    for (int a = 1; a < n; a++) {
        int m = mv[a], wv = w[a], b = a;
        for (; b > 0 && w[b - 1] < wv; b--) {
            mv[b] = mv[b - 1];
            w[b] = w[b - 1];
        }
        mv[b] = m;
        w[b] = wv;
    }
}

/* The even bits of m (one a rank) packed into 13 bits. */
static inline uint32_t compress2(uint32_t m) {
    m &= 0x55555555u;
    m = (m | (m >> 1)) & 0x33333333u;
    m = (m | (m >> 2)) & 0x0F0F0F0Fu;
    m = (m | (m >> 4)) & 0x00FF00FFu;
    m = (m | (m >> 8)) & 0x0000FFFFu;
    return m;
}

static uint8_t POP[1 << 13];     /* popcount of a 13-bit mask (no popcnt instruction assumed) */

/* The cards of a 2-bit count mask. */
static inline int len2(uint32_t m) {
    return POP[compress2(m & 0x1555555u)] + 2 * POP[compress2((m >> 1) & 0x1555555u)];
}

#ifdef CSEARCH_STATS
static long long st_starts, st_hits, st_stores;  /* not thread-safe: statistics builds only */
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

/* The tables' big arrays, zeroed. On Linux they are mapped asking for huge pages: a look-up
 * lands anywhere in tens of MB, and with 4 KB pages most of them also missed the address
 * cache (TLB). CSEARCH_PLAIN_ALLOC (the sanitizers' build) takes them from malloc instead, so
 * that AddressSanitizer guards their ends. */
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(CSEARCH_PLAIN_ALLOC)
#define BIG_PAGES 1
#else
#define BIG_PAGES 0
#endif

static void *big_calloc(size_t bytes) {
#if BIG_PAGES
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
#else
    return PyMem_RawCalloc(1, bytes);
#endif
}

static void big_free(void *p, size_t bytes) {
    if (p == NULL) return;
#if BIG_PAGES
    munmap(p, bytes);
#else
    (void)bytes;
    PyMem_RawFree(p);
#endif
}

/* A big array made longer, its contents kept and the new part zeroed (NULL: no memory, the
 * array unchanged). */
static void *big_grow(void *p, size_t bytes, size_t more) {
#if BIG_PAGES
#ifdef MREMAP_MAYMOVE
    void *q = mremap(p, bytes, more, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) return NULL;
    madvise(q, more, MADV_HUGEPAGE);
#else
    void *q = big_calloc(more);
    if (q == NULL) return NULL;
    memcpy(q, p, bytes);
    big_free(p, bytes);
#endif
    return q;
#else
    void *q = PyMem_RawRealloc(p, more);
    if (q != NULL) memset((char *)q + bytes, 0, more - bytes);
    return q;
#endif
}

/* Which of the spare lists a block of room for cap entries (MINREC << i) goes to: i. */
static inline int room_class(int cap) {
    int i = 0;
    while ((MINREC << i) < cap) i++;
    return i;
}

/* A block of room for cap entries, from the spares or the chunks (NULL: out of memory). */
static Rec *block_get(Engine *e, int cap) {
    int i = room_class(cap);
    Rec *r = e->spare[i];
    if (r != NULL) {
        memcpy(&e->spare[i], r, sizeof(Rec *));
        return r;
    }
    if (e->nchunks == 0 || e->chunk_used + (size_t)cap > CHUNK) {
        if (e->nchunks == MAXCHUNKS) return NULL;
        r = big_calloc(CHUNK * sizeof(Rec));
        if (r == NULL) return NULL;
        e->chunk[e->nchunks++] = r;
        e->chunk_used = 0;
    }
    r = e->chunk[e->nchunks - 1] + e->chunk_used;
    e->chunk_used += (size_t)cap;
    return r;
}

/* A block given back (to be handed out again to an outline of the same room). */
static void block_put(Engine *e, Rec *r, int cap) {
    int i = room_class(cap);
    memcpy(r, &e->spare[i], sizeof(Rec *));
    e->spare[i] = r;
}

/* The outline of key k0, k1 (h: its hash, mix(k0 ^ mix(k1))), or NULL; create: a new one (which may
 * take the place of another) when there is none. */
static Outline *outline_get(Engine *e, uint64_t k0, uint64_t k1, uint64_t h, int create, int left) {
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
        o->r = block_get(e, MINREC);
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

/* Six players' table: buckets of XWAYS entries, each a position cut to the ranks its answer needed,
 * found with a centre of value cv (one may stand there with several centres); a full bucket gives
 * up the entry with the fewest tricks left (the cheapest to find again). */
static const uint64_t XK[XKEY] = {
    0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL, 0xD6E8FEB86659FD93ULL,
    0xFF51AFD7ED558CCDULL, 0xC4CEB9FE1A85EC53ULL, 0x94D049BB133111EBULL, 0xBF58476D1CE4E5B9ULL,
    0x2545F4914F6CDD1DULL, 0x9FB21C651E98DF25ULL, 0xA0761D6478BD642FULL, 0xE7037ED1A0B428DBULL,
    0x8EBC6AF09C88C6E3ULL, 0xD1B54A32D192ED03ULL, 0xAEF17502108EF2D9ULL, 0xF1357AEA2E62A9C5ULL,
    0x6A09E667F3BCC909ULL};

/* The terms of words from..from+n-1 of a key in its hash (see xhash). */
static inline uint64_t xterm(const uint64_t *w, int from, int n) {
    uint64_t h = 0;
    for (int i = 0; i < n; i++) h += (w[i] ^ w[i] >> 31) * XK[from + i];
    return h;
}

static inline uint64_t xhash(const uint64_t *key) {
    /* a sum of independent products, mixed once: a chain of 13 mixes, each waiting for the one
     * before, took a fifth of six players' search (and a look-up adds up each suit's part once
     * for all its cuts: see phash) */
    return mix(xterm(key, 0, XKEY));
}

/* The first entry of the bucket of hash h, and its tag. */
static inline uint64_t xslot(const Engine *e, uint64_t h) {
    return (uint64_t)((unsigned __int128)h * e->xbuckets >> 64) * XWAYS;
}

static inline uint32_t xtag(uint64_t h) { return ((uint32_t)h & 0xFFFFFF00u) | 0x100u; }
#define XTAGMASK 0xFFFFFF00u

/* The hash of a six-player outline's key ok. */
static inline uint64_t xohash(const uint64_t *ok) { return mix(xterm(ok, 3, XOKEY)); }

/* The outline of key ok (hash h: xohash) (six players), or NULL; create: a new one, with no cut
 * yet, which may take the place of the one with the fewest tricks left in its bucket. */
static XOut *xout_get(Engine *e, const uint64_t *ok, uint64_t h, int create, int left) {
    XOut *b = e->xouts + (h & e->xomask) * XOWAYS;
    for (int i = 0; i < XOWAYS; i++)
        if (b[i].n && memcmp(b[i].k, ok, sizeof b[i].k) == 0) return b + i;
    if (!create) return NULL;
    XOut *o = NULL;
    for (int i = 0; i < XOWAYS; i++) {
        if (!b[i].n) { o = b + i; break; }
        if (o == NULL || b[i].left < o->left) o = b + i;
    }
    memcpy(o->k, ok, sizeof o->k);
    o->n = o->lead = 0;
    o->left = (uint8_t)left;
    return o;
}

/* cut becomes the outline's newest (the oldest goes when it keeps NCUTS already). */
static void xout_add(XOut *o, uint16_t cut) {
    int j = 0;
    while (j < o->n && o->cuts[j] != cut) j++;
    if (j == o->n) {
        if (o->n < NCUTS) o->n++;
        j = o->n - 1;
    }
    memmove(o->cuts + 1, o->cuts, (size_t)j * sizeof o->cuts[0]);
    o->cuts[0] = cut;
}

/* Twice the buckets (up to xmax), in place: with the bucket found as (hash * buckets) >> 64,
 * bucket i's entries go to bucket 2i or 2i + 1 of the grown table, so going from the last bucket
 * down, each lands where the earlier ones have already left. A six-player search that fills its
 * table grows it; one that does not keeps the small one it started with (a big table made at once
 * cost a quarter more time on short searches, in first touches of its pages). */
static void xgrow(Engine *e) {
    uint64_t ob = e->xbuckets, nb = 2 * ob;
    uint32_t *g = big_grow(e->xtags, ob * XWAYS * sizeof(uint32_t), nb * XWAYS * sizeof(uint32_t));
    if (g == NULL) {
        e->xmax = ob;      /* no more memory: it stays as it is */
        return;
    }
    e->xtags = g;
    e->xtagb = nb;
    XEnt *t = big_grow(e->xents, ob * XWAYS * sizeof(XEnt), nb * XWAYS * sizeof(XEnt));
    if (t == NULL) {
        e->xmax = ob;      /* no more memory: it stays as it is (its tags' room longer, unused) */
        return;
    }
    e->xents = t;
    e->xbuckets = nb;
    for (uint64_t i = ob; i-- > 0;) {
        XEnt tmp[XWAYS];
        uint32_t tg[XWAYS];
        memcpy(tmp, t + i * XWAYS, sizeof tmp);
        memcpy(tg, g + i * XWAYS, sizeof tg);
        memset(t + i * XWAYS, 0, sizeof tmp);
        memset(g + i * XWAYS, 0, sizeof tg);
        for (int j = 0; j < XWAYS; j++) {
            if (!tg[j]) continue;
            uint64_t at = xslot(e, xhash(tmp[j].k));
            while (g[at]) at++;     /* at most XWAYS entries come from one bucket */
            t[at] = tmp[j];
            g[at] = tg[j];
        }
    }
}

/* The entry of key with centre cv; a new one (val 0) when there is none. Its bucket is found
 * here, after the search that stores it: the table may have grown under that search. */
static XEnt *xfind(Engine *e, const uint64_t *key, int cv, int left) {
    uint64_t h = xhash(key), at = xslot(e, h);
    uint32_t tag = xtag(h), *tg = e->xtags + at;
    XEnt *b = e->xents + at;
    for (int i = 0; i < XWAYS; i++)
        if ((tg[i] & XTAGMASK) == tag && b[i].cv == cv && memcmp(b[i].k, key, sizeof b[i].k) == 0) return b + i;
    if (2 * e->xbuckets <= e->xmax && e->xstored * 4 >= e->xbuckets * XWAYS * 3) {
        xgrow(e);
        at = xslot(e, h);
        tg = e->xtags + at;
        b = e->xents + at;
    }
    int w = -1;     /* an empty entry, else the one with the fewest tricks left (read from the tags) */
    for (int i = 0; i < XWAYS; i++) {
        if (!tg[i]) { w = i; break; }
        if (w < 0 || (tg[i] & 0xFF) < (tg[w] & 0xFF)) w = i;
    }
    XEnt *o = b + w;
    if (!tg[w]) e->xstored++;
    tg[w] = tag | (uint32_t)left;
    memcpy(o->k, key, sizeof o->k);
    o->val = 0;
    o->cv = (uint8_t)cv;
    o->cut = 0;
    return o;
}

/* ---- the partition table's suit outlines (four players, one deck) ---------------------- */

/* PACK[m << 8 | b1 << 4 | b0]: the owners (2 bits each, b0's bit low) of the ranks of a block of four
 * that mask m holds, highest first from bit 0; the owners of a suit are four such blocks end to end,
 * found without a loop over its ranks (a loop's unforeseeable end cost more than the rest). */
static uint8_t PACK[1 << 12];

static void pack_init(void) {
    for (int i = 0; i < 1 << 12; i++) {
        int m = i >> 8, b1 = i >> 4 & 15, b0 = i & 15, v = 0, n = 0;
        for (int r = 3; r >= 0; r--)
            if (m >> r & 1) v |= ((b0 >> r & 1) | (b1 >> r & 1) << 1) << (2 * n++);
        PACK[i] = (uint8_t)v;
    }
}

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
    /* blocks of ranks 12-9, 8-5, 4-1 and rank 0 */
    uint32_t owners = PACK[(rs >> 9 & 15) << 8 | (b1 >> 9 & 15) << 4 | (b0 >> 9 & 15)];
    int n = POP[rs >> 9];
    owners |= (uint32_t)PACK[(rs >> 5 & 15) << 8 | (b1 >> 5 & 15) << 4 | (b0 >> 5 & 15)] << (2 * n);
    n = POP[rs >> 5];
    owners |= (uint32_t)PACK[(rs >> 1 & 15) << 8 | (b1 >> 1 & 15) << 4 | (b0 >> 1 & 15)] << (2 * n);
    n = POP[rs >> 1];
    owners |= (rs & 1) * ((b0 & 1) | (b1 & 1) << 1) << (2 * n);
    out->lt = lt;
    out->owners = owners;
    out->tenidx = tenidx;
    out->rs = rs;
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
        if (!c) continue;
        unsigned m = in[i]->rs;     /* the c-th highest rank out */
        while (--c) m ^= 1u << top_of(m);
        bits |= 1ULL << (16 * order[i] + top_of(m));
    }
    return bits;
}

/* The bounds on AC's gain from a trick start (lo, hi) that an entry found with the centre worth ecv
 * gives with the centre worth cv; top: the most AC can get here (cv and all still to be played).
 * Whatever the play, the first sweep (or the last trick) takes the centre, so for each line of
 * play AC's gain is p + cv * I: p what the play itself brings AC, I whether AC makes that first
 * capture. Hence a centre worth d more adds at most d and never takes anything away; and the two
 * ends of the range carry over whole: AC taking everything with a centre worth something means
 * that AC has a way to take all the play brings and the first capture on every line, so AC takes
 * everything whatever the centre (with an empty centre it says less: the first capture was worth
 * nothing); AC not taking everything with an empty centre, or with a centre worth something, says
 * the same of any centre worth something. Nothing for AC mirrors it. */
static inline void centre_bounds(int ecv, int cv, int top, int *lo, int *hi) {
    int etop = top - cv + ecv, l = *lo, h = *hi;
    if (ecv < cv) h += cv - ecv;
    else l -= ecv - cv;
    if (ecv || !cv) {
        if (*lo >= etop) l = top;
        if (*hi <= 0) h = 0;
    }
    if (!ecv || cv) {
        if (*hi < etop && h >= top) h = top - 1;
        if (*lo > 0 && l < 1) l = 1;
    }
    *lo = l;
    *hi = h;
}

/* ---- the search, twice ------------------------------------------------------------------ */

#define MV(su, r) ((su) << 4 | (r))

#define FN(x) x##_p
#define NS 4
#define RB 1
#define EXACT 0
#include "_csearch_core.h"
#undef FN
#undef NS
#undef RB
#undef EXACT

#define FN(x) x##_x
#define NS (s->n)
#define RB 2
#define EXACT 1
#include "_csearch_core.h"
#undef FN
#undef NS
#undef RB
#undef EXACT

/* ---- Python ---------------------------------------------------------------------------- */

static void free_outlines(Engine *self) {
    if (self->outlines != NULL) {
        big_free(self->outlines, (self->omask + 1) * WAYS * sizeof(Outline));
        self->outlines = NULL;
    }
    for (int i = 0; i < self->nchunks; i++) big_free(self->chunk[i], CHUNK * sizeof(Rec));
    self->nchunks = 0;
    self->chunk_used = 0;
    memset(self->spare, 0, sizeof self->spare);
    big_free(self->xents, self->xbuckets * XWAYS * sizeof(XEnt));
    self->xents = NULL;
    big_free(self->xtags, self->xtagb * XWAYS * sizeof(uint32_t));
    self->xtags = NULL;
    if (self->xouts != NULL) big_free(self->xouts, (self->xomask + 1) * XOWAYS * sizeof(XOut));
    self->xouts = NULL;
}

static void Engine_dealloc(Engine *self) {
    free_outlines(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Engine_init(Engine *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"entries", NULL};
    Py_ssize_t entries = 1 << 21;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|n", kwlist, &entries)) return -1;
    if (entries < 0) {
        PyErr_SetString(PyExc_ValueError, "the table's size cannot be negative");
        return -1;
    }
    if (entries > (Py_ssize_t)1 << 32) entries = (Py_ssize_t)1 << 32;
    /* outlines for a quarter of the entries asked for: they hold 3-4 entries on average */
    uint64_t buckets = 1;
    while (buckets * WAYS * 4 < (uint64_t)(entries > 256 ? entries : 256)) buckets <<= 1;
    free_outlines(self);
    self->outlines = big_calloc(buckets * WAYS * sizeof(Outline));
    if (self->outlines == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->omask = buckets - 1;
    self->room = 0;
    /* room for twice the entries asked for, taken only as outlines grow: analysing a hard deal
     * whole (every card judged, from the last trick back) fills the table, and past its room
     * outlines stop growing; twice the room cut the card plays of the hardest sample deals by
     * 43 % (a third more room: 6 % more), at about 85 MB more at their peak */
    self->room_limit = 2 * (uint64_t)entries;
    self->stored = 0;
    self->xbuckets = 0;
    self->xstored = 0;
    self->xmax = 0;
    return 0;
}

/* Six players' table, made at its first use with a quarter of its room and grown as it fills, up
 * to as many bytes as four players' entries may take (six players use none of them): with the
 * default 8,000,000 entries' room of 24 bytes, 192 MB, 1.33 million positions of 144 bytes. */
static int make_xents(Engine *self) {
    if (self->xents != NULL) return 0;
    uint64_t most = self->room_limit * sizeof(Rec) / sizeof(XEnt) / XWAYS;
    uint64_t buckets = most / 4;
    if (buckets < 16) buckets = 16;
    if (most < buckets) most = buckets;
    /* outlines for a sixteenth of the entries the table may grow to (a quarter cost short searches a
     * third more time in first touches of their pages, for 3 % fewer card plays on long ones) */
    uint64_t ob = 1;
    while (ob * XOWAYS * 16 < most * XWAYS) ob <<= 1;
    self->xents = big_calloc(buckets * XWAYS * sizeof(XEnt));
    self->xtags = big_calloc(buckets * XWAYS * sizeof(uint32_t));
    self->xouts = big_calloc(ob * XOWAYS * sizeof(XOut));
    if (self->xents == NULL || self->xtags == NULL || self->xouts == NULL) {
        big_free(self->xents, buckets * XWAYS * sizeof(XEnt));
        big_free(self->xtags, buckets * XWAYS * sizeof(uint32_t));
        big_free(self->xouts, ob * XOWAYS * sizeof(XOut));
        self->xents = NULL;
        self->xtags = NULL;
        self->xouts = NULL;
        PyErr_NoMemory();
        return -1;
    }
    self->xomask = ob - 1;
    self->xtagb = buckets;
    self->xbuckets = buckets;
    self->xmax = most;
    self->xstored = 0;
    return 0;
}

static int fail(const char *text) {
    PyErr_SetString(PyExc_ValueError, text);
    return -1;
}

/* A position handed in, checked whole before any search sees it. */
static int load(S *s, PyObject *hands, PyObject *trick_cards, int trump, int leader, int run, int ctens,
                int ctricks, int left, int score, int immediate, int seats, int decks, int first_void, int hidden,
                int setter, int *n0_out, int *ttens_out) {
    if (seats != 4 && seats != 6) return fail("the game must have 4 or 6 players");
    if (decks < 1 || decks > 3) return fail("the number of decks must be 1, 2 or 3");
    if ((52 * decks) % seats) return fail("the decks cannot be dealt evenly to the players");
    int total = 52 * decks / seats;
    if (left < 1 || left > total) return fail("the tricks left are out of range");
    if (score < 0 || score > 2) return fail("the score must be 0 (tens), 1 (points) or 2 (tricks)");
    if (trump < -1 || trump > 3 || hidden < -1 || hidden > 3) return fail("trump must be a suit (0-3) or -1");
    if (leader < 0 || leader >= seats) return fail("the leader is not a seat");
    if (setter < -1 || setter >= seats) return fail("the closed trump setter is not a seat");
    if (run < 0 || run > 1) return fail("the run of wins in a row must be 0 or 1");
    if (hidden >= 0 && (trump >= 0 || first_void)) return fail("closed trump with trump in force or set by play");
    if (ctens < 0 || ctens > 4 * decks || ctricks < 0 || ctricks + left > total)
        return fail("the centre is out of range");
    if (immediate && (ctens || ctricks)) return fail("each trick goes to its winner: the centre is empty");
    s->n = seats;
    s->decks = decks;
    PyObject *fast = PySequence_Fast(hands, "hands");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 4 * seats) {
        Py_DECREF(fast);
        return fail("the hands: one mask a seat and suit expected");
    }
    for (int i = 0; i < 4 * seats; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < 0 || v >= 1L << 26) { Py_DECREF(fast); return fail("the hands: a mask out of range"); }
        s->H[i] = (uint32_t)v;
    }
    Py_DECREF(fast);
    fast = PySequence_Fast(trick_cards, "trick");
    if (fast == NULL) return -1;
    int n0 = (int)PySequence_Fast_GET_SIZE(fast);
    if (n0 >= seats) {
        Py_DECREF(fast);
        return fail("a trick with a card from every player is finished");
    }
    int ttens = 0;
    int count[4][13];
    memset(count, 0, sizeof count);
    for (int i = 0; i < n0; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < 0 || v > 63 || (v & 15) > 12) { Py_DECREF(fast); return fail("a card of the trick out of range"); }
        s->ss[i] = (int)(v >> 4);
        s->sr[i] = (int)(v & 15);
        count[v >> 4][v & 15]++;
        ttens += (v & 15) == TEN;
    }
    Py_DECREF(fast);
    int tens = ttens;
    for (int seat = 0; seat < seats; seat++) {
        int held = 0, played = (seat - leader + seats) % seats < n0;
        for (int su = 0; su < 4; su++) {
            uint32_t m = s->H[seat * 4 + su];
            for (int r = 0; r < 13; r++) {
                int c = (int)(m >> (2 * r) & 3);
                held += c;
                count[su][r] += c;
                if (r == TEN) tens += c;
            }
        }
        if (held + played != left) return fail("the hands do not hold a card for each trick left");
    }
    for (int su = 0; su < 4; su++)
        for (int r = 0; r < 13; r++)
            if (count[su][r] > decks) return fail("a card is held (or played) more often than the decks have it");
    if (ctens + tens > 4 * decks) return fail("more tens than the decks have");
    /* score: 0 tens, 1 points, 2 tricks */
    s->tens_score = score != 2;
    s->tenx = s->tens_score ? TEN : -1;
    s->wK = score == 0 ? 0 : score == 1 ? seats : 1;
    s->wT = score == 2 ? 0 : 1;
    s->immediate = immediate;
    s->trump = trump;
    s->fv = first_void && trump < 0;
    s->closed_pending = hidden >= 0;
    s->hidden = hidden;
    s->setter = hidden >= 0 ? setter : -1;
    s->hand_tens = tens - ttens;
    s->sp = n0;
    if (seats == 4 && decks == 1) {
        /* one bit a rank */
        for (int i = 0; i < 16; i++) s->H[i] = compress2(s->H[i]);
        for (int i = 0; i < 16; i++) s->R[i & 3] |= s->H[i];
        for (int i = 0; i < n0; i++) s->R[s->ss[i]] |= 1u << s->sr[i];
    } else {
        for (int i = 0; i < 4 * seats; i++) s->R[i & 3] += s->H[i];
        for (int i = 0; i < 4 * seats; i++) s->L[i] = len2(s->H[i]);
        for (int i = 0; i < 4 * seats; i++)
            for (int r = 0; r < 13; r++) s->G[i & 3][r] |= (uint16_t)((s->H[i] >> (2 * r) & 3) << (2 * (i >> 2)));
        for (int i = 0; i < n0; i++) s->R[s->ss[i]] += 1u << (2 * s->sr[i]);
    }
    *n0_out = n0;
    *ttens_out = ttens;
    return 0;
}

/* test(hands, trick, trump, leader, run, ctens, ctricks, left, score, immediate, target, nodes, node_limit,
 *      deadline[, seats, decks, first_void, hidden, setter]) -> (result, nodes) ; result -1: out of time */
static PyObject *Engine_test(Engine *self, PyObject *args) {
    PyObject *hands, *trick_cards;
    int trump, leader, run, ctens, ctricks, left, score, immediate, target;
    int seats = 4, decks = 1, first_void = 0, hidden = -1, setter = -1;
    long long nodes, node_limit;
    double deadline;
    if (!PyArg_ParseTuple(args, "OOiiiiiiipiLLd|iipii", &hands, &trick_cards, &trump, &leader, &run, &ctens,
                          &ctricks, &left, &score, &immediate, &target, &nodes, &node_limit, &deadline, &seats,
                          &decks, &first_void, &hidden, &setter))
        return NULL;
    if (self->outlines == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the engine was not initialised");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is already searching (in another thread)");
        return NULL;
    }
    /* the node limit: -1 is none, any other negative is refused (search.py never sends one) */
    if (nodes < 0 || node_limit < -1 || !(deadline >= 0)) {
        PyErr_SetString(PyExc_ValueError, "the node count, the node limit (-1: none) or the deadline is out of range");
        return NULL;
    }
    if (target < -1000 || target > 1000) {
        PyErr_SetString(PyExc_ValueError, "the target is out of range");
        return NULL;
    }
    S *s = PyMem_RawCalloc(1, sizeof(S));
    if (s == NULL) return PyErr_NoMemory();
    int n0 = 0, ttens = 0;
    if (load(s, hands, trick_cards, trump, leader, run, ctens, ctricks, left, score, immediate, seats, decks,
             first_void, hidden, setter, &n0, &ttens) < 0) {
        PyMem_RawFree(s);
        return NULL;
    }
    int exact = !(seats == 4 && decks == 1);
    if (exact && make_xents(self) < 0) {
        PyMem_RawFree(s);
        return NULL;
    }
    s->e = self;
    s->count = nodes;
    s->node_limit = node_limit;
    s->deadline = deadline;
    s->check_at = nodes + CHECK_EVERY;
    self->busy = 1;
    int res = -1;
    s->ts = PyEval_SaveThread();
    int why = setjmp(s->out);
    if (why == 0) {
        res = exact ? search_x(s, n0, leader, run, ctens, ctricks, left, ttens, target)
                    : search_p(s, n0, leader, run, ctens, ctricks, left, ttens, target);
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
    return PyLong_FromUnsignedLongLong(self->stored + self->xstored);
}

static PyObject *Engine_exact_room(Engine *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->xbuckets * XWAYS);
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
     "deadline[, seats, decks, first_void, hidden, setter]) -> (result, nodes): one fail-soft zero-window test; "
     "hands: a mask a (seat, suit), 2 bits a rank (the count held); node_limit -1: none; deadline 0: none; "
     "result -1 when out of time. Raises ValueError for a position no deal can reach."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"stored", (getter)Engine_stored, NULL, "outlines (and six players' entries) stored in the table", NULL},
    {"exact_room", (getter)Engine_exact_room, NULL,
     "positions six players' table (several decks) has room for now: 0 before its first use; it grows as it fills",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dehlanote.analysis._csearch.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search's table and its tests (every position).",
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
    pack_init();
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
