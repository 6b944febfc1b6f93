/* The quick check's play of one deal, compiled: quick.py's _play_py, the same answer from
 * the same bytes.  `validate` spends about a fifth of its time in that function (13 tricks
 * a deal: each one's winner by the highest key, the leaders, the cards turned to seat
 * order, the revoke check and the captures), a few microseconds here.
 *
 * play(cards, n, tricks, dealer, trump, immediate): `cards` is every card of the deal in
 * playing order (a card is its suit * 16 + its strength, 0 for the two to 12 for the ace),
 * a trick after the other, `n` cards a trick; `trump` the trump suit's index (0-3).  It
 * returns None when a seat revoked (did not follow suit and played that suit later), else
 * (leaders, by_seat, tens0, tens1, took0, took1): each trick's leader and then the last
 * trick's winner (tricks + 1 seat indexes), the cards in seat order (seat s's card of trick
 * t at t * n + s), the tens and the tricks each side (seat index & 1) captured.  Cards that
 * are not cards (64 or more), a length that is not n * tricks or a seat count other than 4
 * or 6 raise ValueError: the caller made them, so that is a bug, never a record's fault.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_SEATS 6
#define MAX_TRICKS 32
#define MAX_CARDS (MAX_SEATS * MAX_TRICKS)

static PyObject *play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "play(cards: bytes, n, tricks, dealer, trump, immediate)");
        return NULL;
    }
    long n = PyLong_AsLong(args[1]), total = PyLong_AsLong(args[2]), dealer = PyLong_AsLong(args[3]);
    long trump = PyLong_AsLong(args[4]);
    int immediate = PyObject_IsTrue(args[5]);
    if (PyErr_Occurred() || immediate < 0)
        return NULL;
    const unsigned char *cards = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    Py_ssize_t size = PyBytes_GET_SIZE(args[0]);
    if ((n != 4 && n != 6) || total < 1 || total > MAX_TRICKS || size != n * total || dealer < 0 || dealer >= n
            || trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "play: a deal's shape the quick check never makes");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++)
        if (cards[i] >= 0x40) {
            PyErr_SetString(PyExc_ValueError, "play: a code that is not a card");
            return NULL;
        }
    unsigned char leaders[MAX_TRICKS + 1], by_seat[MAX_CARDS], led[MAX_TRICKS];
    leaders[0] = (unsigned char)((dealer + 1) % n);
    for (long t = 0; t < total; t++) {
        const unsigned char *trick = cards + t * n;
        int suit_led = trick[0] >> 4, best = 0, high = -1;
        led[t] = (unsigned char)suit_led;
        for (int k = 0; k < n; k++) {
            int suit = trick[k] >> 4;
            int key = (trick[k] & 15) + (suit == trump ? 32 : suit == suit_led ? 16 : 0);
            if (key > high) {
                high = key;
                best = k;
            }
        }
        int lead = leaders[t];
        leaders[t + 1] = (unsigned char)((lead + best) % n);
        for (int s = 0; s < n; s++)
            by_seat[t * n + s] = trick[(s - lead + n) % n];
    }
    /* a revoke: a seat that did not follow the suit led at trick t and plays it later (the
     * last trick at which each seat plays each suit, -1 where it never does) */
    int last[MAX_SEATS][4];
    memset(last, -1, sizeof last);
    for (long t = 0; t < total; t++)
        for (int s = 0; s < n; s++)
            last[s][by_seat[t * n + s] >> 4] = (int)t;
    for (long t = 0; t < total; t++)
        for (int s = 0; s < n; s++)
            if ((by_seat[t * n + s] >> 4) != led[t] && last[s][led[t]] > t)
                Py_RETURN_NONE;
    /* the captures: the tricks won since the last capture, taken by two wins of one seat in a
     * row or by the last trick (immediate capture: each trick by its winner) */
    unsigned char side_of[MAX_TRICKS];
    long took[2] = {0, 0};
    if (immediate) {
        for (long t = 0; t < total; t++) {
            side_of[t] = leaders[t + 1] & 1;
            took[side_of[t]]++;
        }
    } else {
        int last_winner = -1, run = 0;
        long start = 0;
        for (long t = 0; t < total; t++) {
            int w = leaders[t + 1];
            run = w == last_winner ? run + 1 : 1;
            if (run == 2 || t == total - 1) {
                took[w & 1] += t + 1 - start;
                for (long u = start; u <= t; u++)
                    side_of[u] = w & 1;
                start = t + 1;
                if (run == 2)
                    run = 0;
            }
            last_winner = w;
        }
    }
    long tens[2] = {0, 0};
    for (Py_ssize_t i = 0; i < size; i++)
        if ((cards[i] & 15) == 8)        /* the ten: strength 8 (two 0 ... ace 12) */
            tens[side_of[i / n]]++;
    return Py_BuildValue("(y#y#llll)", (const char *)leaders, (Py_ssize_t)(total + 1), (const char *)by_seat,
                         size, tens[0], tens[1], took[0], took[1]);
}

static PyMethodDef methods[] = {
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL,
     "play(cards, n, tricks, dealer, trump, immediate): a deal's leaders, cards by seat, tens and tricks "
     "each side took, or None at a revoke"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cquick", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cquick(void) { return PyModule_Create(&module); }
