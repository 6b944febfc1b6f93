/* The compact JSON text of a deal's tricks, made in C: the bytes orjson writes for the list
 * that jsonout.deal_json puts under "tricks" (jsonout.trick_json for each replayed trick,
 * jsonout._unplayed_trick_json for each written trick the replay did not reach), key order,
 * number and string formatting included.  It is the half of `json --compact`'s time that
 * was Python building 52 play objects a deal (docs/performance.md).
 *
 * It takes the replay's facts as they are (TrickFact, Trick, Play, Capture, CardRef, Word:
 * NamedTuples, read by field index; jsonfast.py checks the field names before using this)
 * and is strict: any value that is not what the model holds (a str, an int of 64 bits, None,
 * a bool, a tuple of str), or a str that is not valid UTF-8 (a lone surrogate), makes it
 * return None, and the caller then writes that deal by the Python path, which knows what
 * orjson and the standard library do with such values.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    char *data;
    Py_ssize_t len;
    Py_ssize_t cap;
} Buf;

static int buf_more(Buf *b, Py_ssize_t need) {
    Py_ssize_t cap = b->cap ? b->cap : 8192;
    while (cap < b->len + need)
        cap *= 2;
    char *data = PyMem_Realloc(b->data, (size_t)cap);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

/* Room for `need` more bytes (the buffer doubles when it is full). */
static inline int buf_grow(Buf *b, Py_ssize_t need) {
    return b->len + need <= b->cap ? 0 : buf_more(b, need);
}

/* Inlined, so that the literals' copies (PUTS) are a few moves each. */
static inline __attribute__((always_inline)) int put(Buf *b, const char *s, Py_ssize_t n) {
    if (buf_grow(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

#define PUTS(b, lit) put((b), (lit), (Py_ssize_t)(sizeof(lit) - 1))

/* Return codes of the writers: 0 written, -1 a Python error (raised), 1 not ours (fall back). */
#define FALLBACK 1
#define TRY(x) do { int _r = (x); if (_r) return _r; } while (0)

static const char HEX[] = "0123456789abcdef";

/* A str's characters as orjson writes them inside the quotes: UTF-8 as it is, '"' and '\\'
 * escaped, the control characters below 0x20 as \b \t \n \f \r or \u00xx. */
static int put_raw(Buf *b, PyObject *s) {
    if (!PyUnicode_Check(s))
        return FALLBACK;
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    if (u == NULL) {
        if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            PyErr_Clear();
            return FALLBACK;
        }
        return -1;
    }
    if (buf_grow(b, 6 * n) < 0)
        return -1;
    char *o = b->data + b->len;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)u[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            *o++ = (char)c;
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\b': *o++ = 'b'; break;
        case '\t': *o++ = 't'; break;
        case '\n': *o++ = 'n'; break;
        case '\f': *o++ = 'f'; break;
        case '\r': *o++ = 'r'; break;
        default:
            *o++ = 'u'; *o++ = '0'; *o++ = '0';
            *o++ = HEX[c >> 4]; *o++ = HEX[c & 15];
        }
    }
    b->len = o - b->data;
    return 0;
}

static int put_str(Buf *b, PyObject *s) {
    TRY(PUTS(b, "\""));
    TRY(put_raw(b, s));
    return PUTS(b, "\"");
}

/* An int (or a bool, or None) as orjson writes it; anything beyond 64 bits falls back. */
static int put_int(Buf *b, PyObject *v) {
    if (v == Py_None)
        return PUTS(b, "null");
    if (v == Py_True)
        return PUTS(b, "true");
    if (v == Py_False)
        return PUTS(b, "false");
    if (!PyLong_Check(v))
        return FALLBACK;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);  /* (a line, a column: small) */
    if (overflow)
        return FALLBACK;
    if (x == -1 && PyErr_Occurred())
        return -1;
    char tmp[24];
    int i = (int)sizeof(tmp);
    unsigned long long ux = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    do {
        tmp[--i] = (char)('0' + ux % 10);
        ux /= 10;
    } while (ux);
    if (x < 0)
        tmp[--i] = '-';
    return put(b, tmp + i, (Py_ssize_t)sizeof(tmp) - i);
}

static int put_opt_str(Buf *b, PyObject *v) {
    if (v == Py_None)
        return PUTS(b, "null");
    return put_str(b, v);
}

/* A tuple of str as a JSON array (what list(t) gives orjson). */
static int put_strs(Buf *b, PyObject *t) {
    if (!PyTuple_Check(t))
        return FALLBACK;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    TRY(PUTS(b, "["));
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i)
            TRY(PUTS(b, ","));
        TRY(put_str(b, PyTuple_GET_ITEM(t, i)));
    }
    return PUTS(b, "]");
}

/* A NamedTuple with at least `n` fields, else not ours. */
#define FIELDS(t, n) do { if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < (n)) return FALLBACK; } while (0)
#define F(t, i) PyTuple_GET_ITEM((t), (i))

/* jsonout._play_json: Play is (card, line, column, withdrawn (CardRef: card, ...), glyph, comments). */
static int put_play(Buf *b, PyObject *seat, PyObject *play) {
    FIELDS(play, 6);
    TRY(PUTS(b, "{\"seat\":"));
    TRY(put_opt_str(b, seat));
    TRY(PUTS(b, ",\"card\":"));
    TRY(put_str(b, F(play, 0)));
    TRY(PUTS(b, ",\"withdrawn\":["));
    PyObject *withdrawn = F(play, 3);
    if (!PyTuple_Check(withdrawn))
        return FALLBACK;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(withdrawn); i++) {
        PyObject *w = PyTuple_GET_ITEM(withdrawn, i);
        FIELDS(w, 1);
        if (i)
            TRY(PUTS(b, ","));
        TRY(put_str(b, F(w, 0)));
    }
    TRY(PUTS(b, "],\"glyph\":"));
    TRY(put_opt_str(b, F(play, 4)));
    PyObject *comments = F(play, 5);
    if (!PyTuple_Check(comments))
        return FALLBACK;
    Py_ssize_t nc = PyTuple_GET_SIZE(comments);
    TRY(PUTS(b, ",\"comment\":"));
    if (nc == 0) {
        TRY(PUTS(b, "null"));
    } else {   /* " ".join(comments): a space needs no escape */
        TRY(PUTS(b, "\""));
        for (Py_ssize_t i = 0; i < nc; i++) {
            if (i)
                TRY(PUTS(b, " "));
            TRY(put_raw(b, PyTuple_GET_ITEM(comments, i)));
        }
        TRY(PUTS(b, "\""));
    }
    TRY(PUTS(b, ",\"comments\":"));
    TRY(put_strs(b, comments));
    TRY(PUTS(b, ",\"line\":"));
    TRY(put_int(b, F(play, 1)));
    TRY(PUTS(b, ",\"column\":"));
    TRY(put_int(b, F(play, 2)));
    return PUTS(b, "}");
}

/* jsonout.trick_json: TrickFact is (number, leader, order, winner, trump, centre_cards,
 * centre_tens, capture, run, trick); Trick is (number, line, column, plays, leader, comments);
 * Capture is (by, side, cards, tens, reason). */
static int put_trick(Buf *b, PyObject *t) {
    FIELDS(t, 10);
    PyObject *trick = F(t, 9);
    FIELDS(trick, 6);
    PyObject *order = F(t, 2), *plays = F(trick, 3);
    if (!PyUnicode_Check(order) || !PyTuple_Check(plays))
        return FALLBACK;
    TRY(PUTS(b, "{\"number\":"));
    TRY(put_int(b, F(t, 0)));
    TRY(PUTS(b, ",\"leader\":"));
    TRY(put_opt_str(b, F(t, 1)));
    TRY(PUTS(b, ",\"plays\":["));
    /* zip(t.order, trick.plays): each seat is one character of the order */
    Py_ssize_t n = PyUnicode_GET_LENGTH(order);
    if (PyTuple_GET_SIZE(plays) < n)
        n = PyTuple_GET_SIZE(plays);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i)
            TRY(PUTS(b, ","));
        PyObject *seat = PySequence_GetItem(order, i);
        if (seat == NULL)
            return -1;
        int r = put_play(b, seat, PyTuple_GET_ITEM(plays, i));
        Py_DECREF(seat);
        TRY(r);
    }
    TRY(PUTS(b, "],\"winner\":"));
    TRY(put_opt_str(b, F(t, 3)));
    TRY(PUTS(b, ",\"trump\":"));
    TRY(put_opt_str(b, F(t, 4)));
    TRY(PUTS(b, ",\"centre\":{\"cards\":"));
    TRY(put_int(b, F(t, 5)));
    TRY(PUTS(b, ",\"tens\":"));
    TRY(put_strs(b, F(t, 6)));
    TRY(PUTS(b, "},\"capture\":"));
    PyObject *cap = F(t, 7);
    if (cap == Py_None) {
        TRY(PUTS(b, "null"));
    } else {
        FIELDS(cap, 5);
        TRY(PUTS(b, "{\"by\":"));
        TRY(put_opt_str(b, F(cap, 0)));
        TRY(PUTS(b, ",\"side\":"));
        TRY(put_opt_str(b, F(cap, 1)));
        TRY(PUTS(b, ",\"cards\":"));
        TRY(put_int(b, F(cap, 2)));
        TRY(PUTS(b, ",\"tens\":"));
        TRY(put_strs(b, F(cap, 3)));
        TRY(PUTS(b, ",\"reason\":"));
        TRY(put_opt_str(b, F(cap, 4)));
        TRY(PUTS(b, "}"));
    }
    TRY(PUTS(b, ",\"run\":"));
    TRY(put_int(b, F(t, 8)));
    TRY(PUTS(b, ",\"comments\":"));
    TRY(put_strs(b, F(trick, 5)));
    TRY(PUTS(b, ",\"line\":"));
    TRY(put_int(b, F(trick, 1)));
    return PUTS(b, "}");
}

/* jsonout._unplayed_trick_json: a written Trick the replay did not reach (leader a Word:
 * value, line, column). */
static int put_unplayed(Buf *b, PyObject *trick) {
    FIELDS(trick, 6);
    PyObject *plays = F(trick, 3), *leader = F(trick, 4);
    if (!PyTuple_Check(plays))
        return FALLBACK;
    TRY(PUTS(b, "{\"number\":"));
    TRY(put_int(b, F(trick, 0)));
    TRY(PUTS(b, ",\"leader\":"));
    if (leader == Py_None) {
        TRY(PUTS(b, "null"));
    } else {
        FIELDS(leader, 1);
        TRY(put_opt_str(b, F(leader, 0)));
    }
    TRY(PUTS(b, ",\"plays\":["));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(plays); i++) {
        if (i)
            TRY(PUTS(b, ","));
        TRY(put_play(b, Py_None, PyTuple_GET_ITEM(plays, i)));
    }
    TRY(PUTS(b, "],\"winner\":null,\"trump\":null,\"centre\":null,\"capture\":null,\"run\":null,\"comments\":"));
    TRY(put_strs(b, F(trick, 5)));
    TRY(PUTS(b, ",\"line\":"));
    TRY(put_int(b, F(trick, 1)));
    return PUTS(b, ",\"replayed\":false}");
}

static PyObject *tricks(PyObject *self, PyObject *args) {
    PyObject *played, *unplayed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO:tricks", &played, &unplayed))
        return NULL;
    if (!PyTuple_Check(played) || !PyTuple_Check(unplayed))
        Py_RETURN_NONE;
    Buf b = {NULL, 0, 0};
    int r = PUTS(&b, "[");
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; !r && i < PyTuple_GET_SIZE(played); i++, k++) {
        if (k)
            r = PUTS(&b, ",");
        if (!r)
            r = put_trick(&b, PyTuple_GET_ITEM(played, i));
    }
    for (Py_ssize_t i = 0; !r && i < PyTuple_GET_SIZE(unplayed); i++, k++) {
        if (k)
            r = PUTS(&b, ",");
        if (!r)
            r = put_unplayed(&b, PyTuple_GET_ITEM(unplayed, i));
    }
    if (!r)
        r = PUTS(&b, "]");
    PyObject *out = NULL;
    if (r == 0)
        out = PyBytes_FromStringAndSize(b.data, b.len);
    else if (r == FALLBACK)
        out = Py_NewRef(Py_None);
    PyMem_Free(b.data);
    return out;
}

static PyMethodDef methods[] = {
    {"tricks", tricks, METH_VARARGS,
     "tricks(played, unplayed) -> bytes | None: the compact JSON of a deal's \"tricks\" list\n"
     "(TrickFacts, then written Tricks the replay did not reach), or None for a value the\n"
     "Python path must write."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cjson", "A deal's tricks as compact JSON, in C.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cjson(void) {
    return PyModule_Create(&module);
}
