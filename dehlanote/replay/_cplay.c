/* The core's bulk path compiled: core.play_plain's answer from the same state and tricks, and
 * DealFact.hands's columns of cards.  play_plain (the written tricks of a deal in the plain
 * case: the winners, the captures, the checks that every card is held and follows suit) was
 * about a third of `json --compact`'s replay, and the hands read back from the tricks a tenth
 * (docs/performance.md).
 *
 * setup(...) is called once by core.py with the tables the Python code uses (the cards, the
 * seats, the sides, the named tuples it builds).  play(state, written) gives what
 * core._play_plain_py gives (the new DealState, or None where that gives up), or
 * NotImplemented for anything it does not follow exactly (a value that is not the model's
 * type, a card that is not a card where the Python code would raise, an int beyond what the
 * state holds): the caller then runs the Python function.  No state is changed in place.
 *
 * hands(tricks, seats) gives, for a complete deal's TrickFacts, the cards each seat played
 * (in `seats` order, each seat's sorted by the deck's order: what DealFact.hands sorts), as
 * a tuple of tuples of the plays' own card strings; NotImplemented for a card that is not in
 * the deck or a trick that is not whole.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

typedef unsigned __int128 u128;

#define NCARDS 52
#define MAX_SEATS 6
#define DECLINE 1           /* not ours: NotImplemented */
#define GIVE_UP 2           /* what the Python code gives up on: None */

static PyObject *card_index;                /* canonical card -> index in the deck */
static int c_suit[NCARDS], c_strength[NCARDS], c_ten[NCARDS];
static u128 suit_mask[4];
static PyObject *seat_str[2][MAX_SEATS];    /* [six players][seat] one-letter str */
static PyObject *order_str[2][MAX_SEATS];   /* the seats in playing order from each leader */
static PyObject *side_str[2][2];
static PyObject *suit_str[4];
static PyObject *no_shown[2];
static PyObject *s_trick, *s_two, *s_last, *s_withdrawn;
static PyTypeObject *T_TrickFact, *T_Capture, *T_Pending, *T_DealState;
static int ready = 0;
static PyObject *EMPTY;                     /* () */

#define STATE_FIELDS 35
#define TRICKFACT_FIELDS 10

static PyObject *new_named(PyTypeObject *t, Py_ssize_t n) {
    return t->tp_alloc(t, n);
}

/* A small non-negative int of the state, or -1 (not ours). */
static long small(PyObject *o) {
    if (!PyLong_CheckExact(o))
        return -1;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || v < 0 || v > 1000000000L) {
        PyErr_Clear();
        return -1;
    }
    return v;
}

/* An int of two bits a card (a hand, the cards played) as 128 bits; 1 when it is not one. */
static int to_u128(PyObject *o, u128 *out) {
    if (!PyLong_CheckExact(o))
        return DECLINE;
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(o);
    if (lo == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    PyObject *shift = PyLong_FromLong(64);
    if (shift == NULL)
        return -1;
    PyObject *high = PyNumber_Rshift(o, shift);
    Py_DECREF(shift);
    if (high == NULL)
        return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) {     /* negative or beyond 128 bits */
        PyErr_Clear();
        return DECLINE;
    }
    *out = ((u128)hi << 64) | lo;
    return 0;
}

static PyObject *from_u128(u128 v) {
    unsigned long long hi = (unsigned long long)(v >> 64), lo = (unsigned long long)v;
    if (hi == 0)
        return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi), *l = NULL, *shift = NULL, *shifted = NULL, *out = NULL;
    if (h == NULL)
        return NULL;
    if ((shift = PyLong_FromLong(64)) != NULL && (shifted = PyNumber_Lshift(h, shift)) != NULL
            && (l = PyLong_FromUnsignedLongLong(lo)) != NULL)
        out = PyNumber_Or(shifted, l);
    Py_XDECREF(h);
    Py_XDECREF(shift);
    Py_XDECREF(shifted);
    Py_XDECREF(l);
    return out;
}

/* A card's index in the deck, -1 for a str that is not a canonical card or any other value. */
static int card_of(PyObject *card) {
    if (!PyUnicode_CheckExact(card))
        return -1;
    PyObject *i = PyDict_GetItemWithError(card_index, card);
    if (i == NULL) {
        PyErr_Clear();
        return -1;
    }
    return (int)PyLong_AsLong(i);
}

/* a + b (tuples) as a new reference; b given as an array */
static PyObject *tuple_plus(PyObject *a, PyObject **b, Py_ssize_t nb) {
    Py_ssize_t na = PyTuple_GET_SIZE(a);
    PyObject *out = PyTuple_New(na + nb);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < na; i++) {
        PyObject *v = PyTuple_GET_ITEM(a, i);
        Py_INCREF(v);
        PyTuple_SET_ITEM(out, i, v);
    }
    for (Py_ssize_t i = 0; i < nb; i++) {
        Py_INCREF(b[i]);
        PyTuple_SET_ITEM(out, na + i, b[i]);
    }
    return out;
}

static PyObject *tuple_cat(PyObject *a, PyObject *b) {
    if (PyTuple_GET_SIZE(b) == 0) {
        Py_INCREF(a);
        return a;
    }
    return tuple_plus(a, ((PyTupleObject *)b)->ob_item, PyTuple_GET_SIZE(b));
}

/* A pair of small ints from the state (pile_cards, pile_tricks); 1 when it is not one. */
static int pair(PyObject *o, long out[2]) {
    if (!PyTuple_CheckExact(o) || PyTuple_GET_SIZE(o) != 2)
        return DECLINE;
    for (int i = 0; i < 2; i++)
        if ((out[i] = small(PyTuple_GET_ITEM(o, i))) < 0)
            return DECLINE;
    return 0;
}

static PyObject *int_pair(long a, long b) {
    return Py_BuildValue("(ll)", a, b);
}

typedef struct {
    PyObject *facts;            /* list of TrickFact */
    PyObject *pending;          /* tuple, new reference */
    PyObject *shown[4 * MAX_SEATS];   /* lists of (card, line, column, trick), or NULL */
    PyObject *centre_tens;      /* tuple, new reference */
    PyObject *pile_tens[2];     /* tuples, new references */
} Work;

static void work_clear(Work *w) {
    Py_CLEAR(w->facts);
    Py_CLEAR(w->pending);
    for (int i = 0; i < 4 * MAX_SEATS; i++)
        Py_CLEAR(w->shown[i]);
    Py_CLEAR(w->centre_tens);
    Py_CLEAR(w->pile_tens[0]);
    Py_CLEAR(w->pile_tens[1]);
}

#define FIELD(i) PyTuple_GET_ITEM(state, (i))

/* The work of play(): 0 done (the DealState in *out), -1 a Python error, DECLINE, GIVE_UP. */
static int play_deal(PyObject *state, PyObject *written, PyObject **out) {
    if (!ready || Py_TYPE(state) != T_DealState || PyTuple_GET_SIZE(state) != STATE_FIELDS
            || !PyTuple_CheckExact(written))
        return DECLINE;
    PyObject *params = FIELD(1);
    if (!PyTuple_Check(params) || PyTuple_GET_SIZE(params) != 5)
        return DECLINE;
    long n = small(PyTuple_GET_ITEM(params, 0)), tricks_per_deal = small(PyTuple_GET_ITEM(params, 2));
    int immediate = PyObject_IsTrue(PyTuple_GET_ITEM(params, 4));
    if ((n != 4 && n != 6) || tricks_per_deal < 0 || immediate < 0) {
        if (immediate < 0)
            PyErr_Clear();
        return DECLINE;
    }
    int six = n == 6;
    long leader = small(FIELD(4)), done = small(FIELD(5));
    PyObject *trump = FIELD(6);
    int trump_no = -1;
    for (int s = 0; s < 4; s++)
        if (trump == suit_str[s] || (PyUnicode_CheckExact(trump) && PyUnicode_Compare(trump, suit_str[s]) == 0))
            trump_no = s;
    if (!PyUnicode_CheckExact(trump) || leader < 0 || leader >= n || done < 0)
        return DECLINE;
    int any_explicit = PyObject_IsTrue(FIELD(12));
    PyObject *explicit = FIELD(11), *held = FIELD(13);
    if (any_explicit < 0) {
        PyErr_Clear();
        return DECLINE;
    }
    u128 hands[MAX_SEATS], played;
    if (any_explicit) {
        if (!PyTuple_CheckExact(explicit) || !PyTuple_CheckExact(held) || PyTuple_GET_SIZE(held) != n)
            return DECLINE;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(explicit); i++) {
            PyObject *e = PyTuple_GET_ITEM(explicit, i);
            if (e == Py_False)
                return GIVE_UP;     /* (a hand not written beside a written one) */
            if (e != Py_True)
                return DECLINE;
        }
        for (long i = 0; i < n; i++) {
            int r = to_u128(PyTuple_GET_ITEM(held, i), &hands[i]);
            if (r)
                return r;
        }
    }
    int r = to_u128(FIELD(16), &played);
    if (r)
        return r;
    long centre = small(FIELD(17)), run = small(FIELD(20)), pile_cards[2], pile_tricks[2];
    PyObject *centre_tens = FIELD(18), *last_obj = FIELD(19), *pile_tens = FIELD(22);
    long last_winner = last_obj == Py_None ? -1 : small(last_obj);
    if (centre < 0 || run < 0 || (last_obj != Py_None && last_winner < 0) || pair(FIELD(21), pile_cards)
            || pair(FIELD(23), pile_tricks) || !PyTuple_CheckExact(centre_tens) || !PyTuple_CheckExact(pile_tens)
            || PyTuple_GET_SIZE(pile_tens) != 2 || !PyTuple_CheckExact(PyTuple_GET_ITEM(pile_tens, 0))
            || !PyTuple_CheckExact(PyTuple_GET_ITEM(pile_tens, 1)) || !PyTuple_CheckExact(FIELD(25))
            || FIELD(26) != no_shown[six] || !PyTuple_CheckExact(FIELD(27)))
        return DECLINE;

    Work w;
    memset(&w, 0, sizeof w);
    w.facts = PyList_New(0);
    if (w.facts == NULL)
        return -1;
    w.pending = FIELD(25);
    Py_INCREF(w.pending);
    w.centre_tens = centre_tens;
    Py_INCREF(centre_tens);
    for (int i = 0; i < 2; i++) {
        w.pile_tens[i] = PyTuple_GET_ITEM(pile_tens, i);
        Py_INCREF(w.pile_tens[i]);
    }
    int any_shown = 0;
    int status = 0;
    Py_ssize_t count = PyTuple_GET_SIZE(written);
    for (Py_ssize_t t = 0; t < count && status == 0; t++) {
        PyObject *trick = PyTuple_GET_ITEM(written, t);
        if (!PyTuple_Check(trick) || PyTuple_GET_SIZE(trick) < 6) {
            status = DECLINE;
            break;
        }
        PyObject *plays = PyTuple_GET_ITEM(trick, 3), *wl = PyTuple_GET_ITEM(trick, 4);
        long number = small(PyTuple_GET_ITEM(trick, 0));
        long expected = done + 1;
        if (number < 0 || !PyTuple_Check(plays)) {
            status = DECLINE;
            break;
        }
        if (number != expected || expected > tricks_per_deal || PyTuple_GET_SIZE(plays) != n) {
            status = GIVE_UP;
            break;
        }
        if (wl != Py_None) {
            PyObject *value;
            if (!PyTuple_Check(wl) || PyTuple_GET_SIZE(wl) < 1
                    || !PyUnicode_CheckExact(value = PyTuple_GET_ITEM(wl, 0))) {
                status = DECLINE;
                break;
            }
            if (PyUnicode_Compare(value, seat_str[six][leader]) != 0) {
                status = GIVE_UP;
                break;
            }
        }
        PyObject *trick_tens[MAX_SEATS];
        int n_tens = 0;
        int led = -1, best = 0, best_suit = -1, best_strength = -1;
        long seat = leader;
        for (int k = 0; k < n; k++) {
            PyObject *play = PyTuple_GET_ITEM(plays, k);
            if (!PyTuple_Check(play) || PyTuple_GET_SIZE(play) < 4) {
                status = DECLINE;
                break;
            }
            PyObject *card = PyTuple_GET_ITEM(play, 0), *wd = PyTuple_GET_ITEM(play, 3);
            int c = card_of(card);
            if (c < 0) {
                /* the first card's suit is read before its check (a str of no character raises) */
                status = DECLINE;
                break;
            }
            int suit = c_suit[c];
            if (k == 0)
                led = best_suit = suit;
            u128 bit = (u128)1 << (2 * c);
            if (played & bit) {
                status = GIVE_UP;       /* played twice */
                break;
            }
            played |= bit;
            if (!PyTuple_Check(wd)) {
                status = DECLINE;
                break;
            }
            Py_ssize_t n_wd = PyTuple_GET_SIZE(wd);
            if (any_explicit) {
                u128 holding = hands[seat];
                for (Py_ssize_t i = 0; i < n_wd && status == 0; i++) {
                    if (!k) {
                        status = GIVE_UP;
                        break;
                    }
                    PyObject *wc = PyTuple_GET_ITEM(wd, i);
                    int x;
                    if (!PyTuple_Check(wc) || PyTuple_GET_SIZE(wc) < 1 || (x = card_of(PyTuple_GET_ITEM(wc, 0))) < 0)
                        status = DECLINE;
                    else if (c_suit[x] == led || !(holding & suit_mask[led]) || !(holding & ((u128)1 << (2 * x))))
                        status = GIVE_UP;
                }
                if (status)
                    break;
                if (!(holding & bit) || (suit != led && (holding & suit_mask[led]))) {
                    status = GIVE_UP;   /* not held, or a revoke */
                    break;
                }
                hands[seat] = holding - bit;
            } else {
                for (Py_ssize_t i = 0; i < n_wd; i++) {
                    PyObject *wc = PyTuple_GET_ITEM(wd, i);
                    if (!PyTuple_Check(wc) || PyTuple_GET_SIZE(wc) < 3) {
                        status = DECLINE;
                        break;
                    }
                    PyObject *p = new_named(T_Pending, 8);
                    if (p == NULL) {
                        status = -1;
                        break;
                    }
                    PyObject *items[8] = {s_withdrawn, PyLong_FromLong(seat), k ? suit_str[led] : Py_None,
                                          PyLong_FromLong(done), PyTuple_GET_ITEM(wc, 0), PyTuple_GET_ITEM(wc, 1),
                                          PyTuple_GET_ITEM(wc, 2), PyLong_FromLong(expected)};
                    int owned[8] = {0, 1, 0, 1, 0, 0, 0, 1};
                    int bad = 0;
                    for (int j = 0; j < 8; j++) {
                        if (items[j] == NULL) {
                            bad = 1;
                            continue;
                        }
                        if (!owned[j])
                            Py_INCREF(items[j]);
                        PyTuple_SET_ITEM(p, j, items[j]);
                    }
                    PyObject *more = bad ? NULL : tuple_plus(w.pending, &p, 1);
                    Py_DECREF(p);
                    if (more == NULL) {
                        status = -1;
                        break;
                    }
                    Py_SETREF(w.pending, more);
                }
                if (status)
                    break;
                if (w.shown[seat * 4 + suit] != NULL) {
                    status = GIVE_UP;   /* a revoke: this player did not follow this suit before */
                    break;
                }
                if (suit != led) {
                    PyObject **slot = &w.shown[seat * 4 + led];
                    if (*slot == NULL && (*slot = PyList_New(0)) == NULL) {
                        status = -1;
                        break;
                    }
                    PyObject *entry = Py_BuildValue("(OOOl)", card, PyTuple_GET_ITEM(play, 1),
                                                    PyTuple_GET_ITEM(play, 2), expected);
                    if (entry == NULL || PyList_Append(*slot, entry) < 0) {
                        Py_XDECREF(entry);
                        status = -1;
                        break;
                    }
                    Py_DECREF(entry);
                    any_shown = 1;
                }
            }
            if (suit == best_suit) {
                if (c_strength[c] > best_strength) {
                    best = k;
                    best_strength = c_strength[c];
                }
            } else if (suit == trump_no) {
                best = k;
                best_suit = suit;
                best_strength = c_strength[c];
            }
            if (c_ten[c])
                trick_tens[n_tens++] = card;
            if (++seat == n)
                seat = 0;
        }
        if (status)
            break;
        long winner = (leader + best) % n;
        run = last_winner == winner ? run + 1 : 1;
        PyObject *capture = Py_None;
        Py_INCREF(Py_None);
        if (immediate || run == 2 || expected == tricks_per_deal) {
            /* core._take: the capture, the piles after it, the centre emptied */
            int side = (int)(winner % 2);
            long moved;
            PyObject *tens, *reason;
            if (immediate) {
                moved = n;
                tens = tuple_plus(EMPTY, trick_tens, n_tens);
                reason = s_trick;
            } else {
                moved = centre + n;
                tens = tuple_plus(w.centre_tens, trick_tens, n_tens);
                reason = run == 2 ? s_two : s_last;
                if (run == 2)
                    run = 0;
            }
            PyObject *made = tens == NULL ? NULL : new_named(T_Capture, 5);
            PyObject *more = made == NULL ? NULL : tuple_cat(w.pile_tens[side], tens);
            PyObject *moved_obj = more == NULL ? NULL : PyLong_FromLong(moved);
            if (moved_obj == NULL) {
                Py_XDECREF(tens);
                Py_XDECREF(made);
                Py_XDECREF(more);
                Py_DECREF(capture);
                status = -1;
                break;
            }
            PyObject *by = seat_str[six][winner], *side_name = side_str[six][side];
            Py_INCREF(by);
            Py_INCREF(side_name);
            Py_INCREF(reason);
            PyTuple_SET_ITEM(made, 0, by);
            PyTuple_SET_ITEM(made, 1, side_name);
            PyTuple_SET_ITEM(made, 2, moved_obj);
            PyTuple_SET_ITEM(made, 3, tens);     /* (the reference made above) */
            PyTuple_SET_ITEM(made, 4, reason);
            Py_SETREF(capture, made);
            Py_SETREF(w.pile_tens[side], more);
            pile_cards[side] += moved;
            pile_tricks[side] += moved / n;
            centre = 0;
            Py_INCREF(EMPTY);
            Py_SETREF(w.centre_tens, EMPTY);
        } else {
            centre += n;
            if (n_tens) {
                PyObject *more = tuple_plus(w.centre_tens, trick_tens, n_tens);
                if (more == NULL) {
                    Py_DECREF(capture);
                    status = -1;
                    break;
                }
                Py_SETREF(w.centre_tens, more);
            }
        }
        PyObject *fact = new_named(T_TrickFact, TRICKFACT_FIELDS);
        PyObject *num = fact == NULL ? NULL : PyLong_FromLong(expected);
        PyObject *cen = num == NULL ? NULL : PyLong_FromLong(centre);
        PyObject *run_obj = cen == NULL ? NULL : PyLong_FromLong(run);
        if (run_obj == NULL) {
            Py_XDECREF(fact);
            Py_XDECREF(num);
            Py_XDECREF(cen);
            Py_DECREF(capture);
            status = -1;
            break;
        }
        PyObject *items[TRICKFACT_FIELDS] = {num, seat_str[six][leader], order_str[six][leader],
                                             seat_str[six][winner], trump, cen, w.centre_tens, capture, run_obj,
                                             trick};
        int owned[TRICKFACT_FIELDS] = {1, 0, 0, 0, 0, 1, 0, 1, 1, 0};
        for (int j = 0; j < TRICKFACT_FIELDS; j++) {
            if (!owned[j])
                Py_INCREF(items[j]);
            PyTuple_SET_ITEM(fact, j, items[j]);
        }
        int appended = PyList_Append(w.facts, fact);
        Py_DECREF(fact);
        if (appended < 0) {
            status = -1;
            break;
        }
        leader = last_winner = winner;
        done = expected;
    }
    if (status) {
        work_clear(&w);
        return status;
    }
    /* the new state: the fields in DealState's order */
    PyObject *res = new_named(T_DealState, STATE_FIELDS);
    if (res == NULL) {
        work_clear(&w);
        return -1;
    }
    PyObject *facts = PyList_AsTuple(w.facts);
    PyObject *all_tricks = facts == NULL ? NULL : tuple_cat(FIELD(27), facts);
    Py_XDECREF(facts);
    PyObject *hands_obj = NULL;
    if (any_explicit) {
        hands_obj = PyTuple_New(n);
        for (long i = 0; hands_obj != NULL && i < n; i++) {
            PyObject *h = from_u128(hands[i]);
            if (h == NULL)
                Py_CLEAR(hands_obj);
            else
                PyTuple_SET_ITEM(hands_obj, i, h);
        }
    } else {
        hands_obj = held;
        Py_INCREF(held);
    }
    PyObject *shown_obj = NULL;
    if (any_shown) {
        shown_obj = PyTuple_New(4 * n);
        for (int i = 0; shown_obj != NULL && i < 4 * n; i++) {
            PyObject *v = w.shown[i] == NULL ? PyTuple_New(0) : PyList_AsTuple(w.shown[i]);
            if (v == NULL)
                Py_CLEAR(shown_obj);
            else
                PyTuple_SET_ITEM(shown_obj, i, v);
        }
    } else {
        shown_obj = no_shown[six];
        Py_INCREF(shown_obj);
    }
    PyObject *made[12] = {
        PyLong_FromLong(leader), PyLong_FromLong(done), from_u128(played), PyLong_FromLong(centre),
        last_winner < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLong(last_winner), PyLong_FromLong(run),
        int_pair(pile_cards[0], pile_cards[1]), PyTuple_Pack(2, w.pile_tens[0], w.pile_tens[1]),
        int_pair(pile_tricks[0], pile_tricks[1]), all_tricks, hands_obj, shown_obj};
    /* where each made value goes (the others are the state's own) */
    static const int at[12] = {4, 5, 16, 17, 19, 20, 21, 22, 23, 27, 13, 26};
    int bad = 0;
    for (int i = 0; i < 12; i++)
        bad |= made[i] == NULL;
    for (int i = 0; i < 12; i++)
        PyTuple_SET_ITEM(res, at[i], made[i]);
    if (bad) {
        Py_DECREF(res);     /* (the NULL items are skipped; the made ones released) */
        work_clear(&w);
        return -1;
    }
    for (int j = 0; j < STATE_FIELDS; j++) {
        if (PyTuple_GET_ITEM(res, j) != NULL)
            continue;
        PyObject *v;
        if (j == 18)
            v = w.centre_tens;
        else if (j == 25)
            v = w.pending;
        else if (j == 33)
            v = PyTuple_New(0);
        else
            v = FIELD(j);
        if (v == NULL) {
            Py_DECREF(res);
            work_clear(&w);
            return -1;
        }
        if (j != 33)
            Py_INCREF(v);
        PyTuple_SET_ITEM(res, j, v);
    }
    work_clear(&w);
    *out = res;
    return 0;
}

static PyObject *play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play(state, written)");
        return NULL;
    }
    PyObject *out = NULL;
    int r = play_deal(args[0], args[1], &out);
    if (r == 0)
        return out;
    if (r < 0)
        return NULL;
    if (r == GIVE_UP)
        Py_RETURN_NONE;
    Py_RETURN_NOTIMPLEMENTED;
}

/* hands(tricks, seats): see the top of the file */
static PyObject *hands(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2 || !PyTuple_CheckExact(args[0]) || !PyUnicode_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "hands(tricks: tuple, seats: str)");
        return NULL;
    }
    PyObject *tricks = args[0], *seats = args[1];
    Py_ssize_t n = PyUnicode_GET_LENGTH(seats), count = PyTuple_GET_SIZE(tricks);
    if (n < 1 || n > MAX_SEATS || count > 64 || !ready)
        Py_RETURN_NOTIMPLEMENTED;
    /* each seat's cards: (deck index, the play's card) in the order played, sorted below */
    int index[MAX_SEATS][64];
    PyObject *cards[MAX_SEATS][64];
    for (Py_ssize_t t = 0; t < count; t++) {
        PyObject *fact = PyTuple_GET_ITEM(tricks, t);
        if (Py_TYPE(fact) != T_TrickFact || PyTuple_GET_SIZE(fact) != TRICKFACT_FIELDS)
            Py_RETURN_NOTIMPLEMENTED;
        PyObject *leader = PyTuple_GET_ITEM(fact, 1), *trick = PyTuple_GET_ITEM(fact, 9);
        if (!PyUnicode_CheckExact(leader) || PyUnicode_GET_LENGTH(leader) != 1 || !PyTuple_Check(trick)
                || PyTuple_GET_SIZE(trick) < 4)
            Py_RETURN_NOTIMPLEMENTED;
        Py_ssize_t at = PyUnicode_Find(seats, leader, 0, n, 1);
        if (at < 0) {
            if (at == -2)
                return NULL;
            Py_RETURN_NOTIMPLEMENTED;   /* (str.index raises) */
        }
        PyObject *plays = PyTuple_GET_ITEM(trick, 3);
        if (!PyTuple_Check(plays) || PyTuple_GET_SIZE(plays) != n)
            Py_RETURN_NOTIMPLEMENTED;
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *play = PyTuple_GET_ITEM(plays, k);
            if (!PyTuple_Check(play) || PyTuple_GET_SIZE(play) < 1)
                Py_RETURN_NOTIMPLEMENTED;
            PyObject *card = PyTuple_GET_ITEM(play, 0);
            int c = card_of(card);
            if (c < 0)
                Py_RETURN_NOTIMPLEMENTED;
            Py_ssize_t s = (at + k) % n;
            index[s][t] = c;
            cards[s][t] = card;
        }
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t s = 0; s < n; s++) {
        /* a stable insertion sort by the deck's order (sorted() with CARD_INDEX as the key) */
        for (Py_ssize_t i = 1; i < count; i++) {
            int ki = index[s][i];
            PyObject *ci = cards[s][i];
            Py_ssize_t j = i - 1;
            while (j >= 0 && index[s][j] > ki) {
                index[s][j + 1] = index[s][j];
                cards[s][j + 1] = cards[s][j];
                j--;
            }
            index[s][j + 1] = ki;
            cards[s][j + 1] = ci;
        }
        PyObject *row = PyTuple_New(count);
        if (row == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            Py_INCREF(cards[s][i]);
            PyTuple_SET_ITEM(row, i, cards[s][i]);
        }
        PyTuple_SET_ITEM(out, s, row);
    }
    return out;
}

static int keep(PyObject **slot, PyObject *v) {
    Py_XINCREF(v);
    Py_XSETREF(*slot, v);
    return v == NULL ? -1 : 0;
}

/* setup(card_index, cards, seats, orders, sides, suits, no_shown, words, types): the tables
 * of core.py.  cards: (suit number, strength, is a ten) for each card of the deck in order;
 * seats, orders, sides, no_shown: pairs (4 players, 6 players) of what core.py's SEATS, ORDER,
 * SIDES and NO_SHOWN hold; suits: the four suit letters; words: "trick", "two-in-a-row",
 * "last-trick", "withdrawn"; types: TrickFact, Capture, Pending, DealState. */
static PyObject *setup(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *index, *cards, *seats, *orders, *sides, *suits, *shown, *words, *types;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!O!", &PyDict_Type, &index, &PyTuple_Type, &cards,
                          &PyTuple_Type, &seats, &PyTuple_Type, &orders, &PyTuple_Type, &sides,
                          &PyTuple_Type, &suits, &PyTuple_Type, &shown, &PyTuple_Type, &words,
                          &PyTuple_Type, &types))
        return NULL;
    ready = 0;
    if (PyTuple_GET_SIZE(cards) != NCARDS || PyDict_GET_SIZE(index) != NCARDS || PyTuple_GET_SIZE(seats) != 2
            || PyTuple_GET_SIZE(orders) != 2 || PyTuple_GET_SIZE(sides) != 2 || PyTuple_GET_SIZE(suits) != 4
            || PyTuple_GET_SIZE(shown) != 2 || PyTuple_GET_SIZE(words) != 4 || PyTuple_GET_SIZE(types) != 4) {
        PyErr_SetString(PyExc_ValueError, "setup: tables of another shape");
        return NULL;
    }
    if (keep(&card_index, index) < 0)
        return NULL;
    for (int c = 0; c < NCARDS; c++)
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(cards, c), "iip", &c_suit[c], &c_strength[c], &c_ten[c]))
            return NULL;
    memset(suit_mask, 0, sizeof suit_mask);
    for (int c = 0; c < NCARDS; c++) {
        if (c_suit[c] < 0 || c_suit[c] > 3) {
            PyErr_SetString(PyExc_ValueError, "setup: a suit number beyond 3");
            return NULL;
        }
        suit_mask[c_suit[c]] |= (u128)3 << (2 * c);
    }
    for (int six = 0; six < 2; six++) {
        PyObject *s = PyTuple_GET_ITEM(seats, six), *o = PyTuple_GET_ITEM(orders, six);
        PyObject *d = PyTuple_GET_ITEM(sides, six);
        int n = six ? 6 : 4;
        if (!PyUnicode_Check(s) || PyUnicode_GET_LENGTH(s) != n || !PyTuple_Check(o) || PyTuple_GET_SIZE(o) != n
                || !PyTuple_Check(d) || PyTuple_GET_SIZE(d) != 2) {
            PyErr_SetString(PyExc_ValueError, "setup: seats of another shape");
            return NULL;
        }
        for (int i = 0; i < n; i++) {
            PyObject *letter = PySequence_GetItem(s, i);
            int failed = keep(&seat_str[six][i], letter);
            Py_XDECREF(letter);
            if (failed < 0 || keep(&order_str[six][i], PyTuple_GET_ITEM(o, i)) < 0)
                return NULL;
        }
        for (int i = 0; i < 2; i++)
            if (keep(&side_str[six][i], PyTuple_GET_ITEM(d, i)) < 0)
                return NULL;
        if (keep(&no_shown[six], PyTuple_GET_ITEM(shown, six)) < 0)
            return NULL;
    }
    for (int i = 0; i < 4; i++)
        if (keep(&suit_str[i], PyTuple_GET_ITEM(suits, i)) < 0)
            return NULL;
    if (keep(&s_trick, PyTuple_GET_ITEM(words, 0)) < 0 || keep(&s_two, PyTuple_GET_ITEM(words, 1)) < 0
            || keep(&s_last, PyTuple_GET_ITEM(words, 2)) < 0 || keep(&s_withdrawn, PyTuple_GET_ITEM(words, 3)) < 0)
        return NULL;
    PyTypeObject **slots[4] = {&T_TrickFact, &T_Capture, &T_Pending, &T_DealState};
    for (int i = 0; i < 4; i++) {
        PyObject *t = PyTuple_GET_ITEM(types, i);
        if (!PyType_Check(t) || !PyType_IsSubtype((PyTypeObject *)t, &PyTuple_Type)) {
            PyErr_SetString(PyExc_TypeError, "setup: the types must be named tuples");
            return NULL;
        }
        if (keep((PyObject **)slots[i], t) < 0)
            return NULL;
    }
    if (EMPTY == NULL && (EMPTY = PyTuple_New(0)) == NULL)
        return NULL;
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "The tables of core.py (called once, as it loads)."},
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL,
     "play(state, written): core.play_plain's answer, or NotImplemented (then the Python code runs)."},
    {"hands", (PyCFunction)(void (*)(void))hands, METH_FASTCALL,
     "hands(tricks, seats): each seat's cards played, sorted in the deck's order, or NotImplemented."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cplay", "The core's bulk path, in C.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cplay(void) {
    return PyModule_Create(&module);
}
