/* The whole reader's lines of tricks cut into the model's nodes, in C: what
 * whole.WholeReader._tricks gives for the lines of a run of trick lines, from the same tables.
 * Reading the trick lines (a str.split, a dictionary lookup a word, a Trick and four Play
 * tuples a trick) was the largest part of `json --compact`'s reading (docs/performance.md).
 *
 * setup(cards, kinds, numbers, seats, names, types, limits) is called once by whole.py with
 * its tables: CARD_SPELLINGS, _WORD_KINDS, _NUMBERS, _HAND_SEATS; the kinds' names ("card",
 * "number", "seat", "withdrawn"); the classes Trick, Play, CardRef, Word, Hand; MAX_CARDS,
 * MAX_TRICKS, _LONG_LINE (and Hand, for hand(): a hand line of the common shape, below).
 *
 * tricks(lines, ln, off, whole_lines) gives the list of Trick nodes _tricks appends for
 * `lines` (a list of str; `ln`, `off`: the file line and column of the first one's start;
 * `whole_lines`: no comment carries a trick over a line end), or NotImplemented for anything
 * it does not follow: a word the table does not hold (_tricks then scans that line with the
 * grammar's terminals), a limit passed (_tricks raises), a line of more than MAX_WORDS words,
 * a value of another type.  The caller then runs _tricks itself, from the start.
 *
 * A word's column is where it starts (in characters, as str indexes count), which is what
 * _tricks's arithmetic and str.find give: words are cut at white space as str.split cuts them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_WORDS 256
#define DECLINE 1

static PyObject *cards_t, *kinds_t, *numbers_t, *seats_t;
static PyObject *k_card, *k_number, *k_seat, *k_withdrawn;
static PyTypeObject *T_Trick, *T_Play, *T_CardRef, *T_Word, *T_Hand;
static Py_ssize_t max_cards, max_tricks, long_line;
static PyObject *EMPTY;
static int ready = 0;

/* A named tuple of `n` items, each a new reference taken over (NULL items: an error, all freed). */
static PyObject *named(PyTypeObject *t, Py_ssize_t n, PyObject **items) {
    PyObject *o = NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        if (items[i] == NULL)
            goto fail;
    o = t->tp_alloc(t, n);
    if (o == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(o, i, items[i]);
    return o;
fail:
    for (Py_ssize_t i = 0; i < n; i++)
        Py_XDECREF(items[i]);
    return NULL;
}

static inline PyObject *ref(PyObject *o) {
    Py_INCREF(o);
    return o;
}

/* Word(value, line, column) */
static PyObject *word(PyObject *value, long line, Py_ssize_t column) {
    PyObject *items[3] = {ref(value), PyLong_FromLong(line), PyLong_FromSsize_t(column)};
    return named(T_Word, 3, items);
}

/* Play(card, line, column, withdrawn, glyph, ()) */
static PyObject *play(PyObject *card, long line, Py_ssize_t column, PyObject *withdrawn, PyObject *glyph) {
    PyObject *items[6] = {ref(card), PyLong_FromLong(line), PyLong_FromSsize_t(column), withdrawn, ref(glyph),
                          ref(EMPTY)};
    return named(T_Play, 6, items);
}

/* Trick(number, line, column, plays, leader, ()): plays and leader taken over */
static PyObject *trick(PyObject *number, PyObject *line, PyObject *column, PyObject *plays, PyObject *leader) {
    PyObject *items[6] = {ref(number), ref(line), ref(column), plays, leader, ref(EMPTY)};
    return named(T_Trick, 6, items);
}

static PyObject *list_tuple(PyObject *list) {
    return PyList_GET_SIZE(list) ? PyList_AsTuple(list) : ref(EMPTY);
}

typedef struct {
    PyObject *out;          /* the tricks made */
    PyObject *num;          /* the trick being read (its number), or NULL */
    PyObject *at_line, *at_column;   /* its position */
    PyObject *leader;       /* Word or NULL */
    PyObject *plays;        /* list of Play */
    PyObject *withdrawn;    /* list of CardRef */
} State;

static void state_clear(State *s) {
    Py_CLEAR(s->out);
    Py_CLEAR(s->num);
    Py_CLEAR(s->at_line);
    Py_CLEAR(s->at_column);
    Py_CLEAR(s->leader);
    Py_CLEAR(s->plays);
    Py_CLEAR(s->withdrawn);
}

/* The trick being read appended to out (make_trick(num, *trick_at, tuple(plays), leader, ())). */
static int flush(State *s) {
    PyObject *plays = list_tuple(s->plays);
    PyObject *leader = s->leader != NULL ? s->leader : ref(Py_None);
    s->leader = NULL;
    if (plays == NULL) {
        Py_DECREF(leader);
        return -1;
    }
    PyObject *t = trick(s->num, s->at_line, s->at_column, plays, leader);
    if (t == NULL)
        return -1;
    int r = PyList_Append(s->out, t);
    Py_DECREF(t);
    if (r < 0)
        return -1;
    PyObject *fresh = PyList_New(0);
    if (fresh == NULL)
        return -1;
    Py_SETREF(s->plays, fresh);
    Py_CLEAR(s->num);
    return 0;
}

static int same(PyObject *a, PyObject *b) {
    return a == b || (PyUnicode_CheckExact(a) && PyUnicode_Compare(a, b) == 0);
}

/* One line: 0 read, -1 a Python error, DECLINE. */
static int read_line(State *s, PyObject *line, long ln, Py_ssize_t off, int whole_lines) {
    int kind = PyUnicode_KIND(line);
    const void *data = PyUnicode_DATA(line);
    Py_ssize_t len = PyUnicode_GET_LENGTH(line);
    Py_ssize_t starts[MAX_WORDS], ends[MAX_WORDS];
    int count = 0;
    for (Py_ssize_t i = 0; i < len;) {
        while (i < len && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
            i++;
        if (i == len)
            break;
        if (count == MAX_WORDS)
            return DECLINE;
        starts[count] = i;
        while (i < len && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
            i++;
        ends[count++] = i;
    }
    PyObject *words[MAX_WORDS];
    for (int w = 0; w < count; w++) {
        words[w] = PyUnicode_Substring(line, starts[w], ends[w]);
        if (words[w] == NULL) {
            for (int v = 0; v < w; v++)
                Py_DECREF(words[v]);
            return -1;
        }
    }
    int status = 0;
    if (whole_lines && (count == 6 || count == 5)) {
        /* the commonest line: a trick number, a leader seat and its colon or none, four plain cards */
        PyObject *number = PyDict_GetItemWithError(numbers_t, words[0]);
        PyObject *seat = count == 6 && number != NULL ? PyDict_GetItemWithError(seats_t, words[1]) : NULL;
        PyObject *k[4] = {NULL, NULL, NULL, NULL};
        int ok = number != NULL && (seat != NULL || count == 5);
        for (int j = 0; ok && j < 4; j++) {
            k[j] = PyDict_GetItemWithError(cards_t, words[count - 4 + j]);
            ok = k[j] != NULL && PyObject_IsTrue(k[j]) == 1;
        }
        if (PyErr_Occurred()) {
            status = -1;
            goto done;
        }
        if (ok) {
            if (s->num != NULL) {
                if (flush(s) < 0) {
                    status = -1;
                    goto done;
                }
                Py_CLEAR(s->leader);    /* (flush took it) */
            }
            PyObject *plays = PyTuple_New(4);
            if (plays == NULL) {
                status = -1;
                goto done;
            }
            for (int j = 0; j < 4; j++) {
                PyObject *p = play(k[j], ln, starts[count - 4 + j] + off, ref(EMPTY), Py_None);
                if (p == NULL) {
                    Py_DECREF(plays);
                    status = -1;
                    goto done;
                }
                PyTuple_SET_ITEM(plays, j, p);
            }
            PyObject *leader = seat != NULL ? word(seat, ln, starts[1] + off) : ref(Py_None);
            PyObject *line_obj = PyLong_FromLong(ln), *col = PyLong_FromSsize_t(starts[0] + off);
            PyObject *t = NULL;
            if (leader != NULL && line_obj != NULL && col != NULL)
                t = trick(number, line_obj, col, plays, leader);
            else {
                Py_DECREF(plays);
                Py_XDECREF(leader);
            }
            Py_XDECREF(line_obj);
            Py_XDECREF(col);
            if (t == NULL || PyList_Append(s->out, t) < 0)
                status = -1;
            Py_XDECREF(t);
            goto done;
        }
    }
    /* anything else, word by word through the table */
    for (int w = 0; w < count; w++) {
        PyObject *kind_t = PyDict_GetItemWithError(kinds_t, words[w]);
        if (kind_t == NULL) {
            status = PyErr_Occurred() ? -1 : DECLINE;
            goto done;
        }
        if (!PyTuple_CheckExact(kind_t) || PyTuple_GET_SIZE(kind_t) < 1) {
            status = DECLINE;
            goto done;
        }
        PyObject *what = PyTuple_GET_ITEM(kind_t, 0);
        Py_ssize_t n_kind = PyTuple_GET_SIZE(kind_t);
        Py_ssize_t col = starts[w] + off;
        if (same(what, k_card)) {
            if (n_kind < 3) {
                status = DECLINE;
                goto done;
            }
            PyObject *wd = list_tuple(s->withdrawn);
            PyObject *p = wd == NULL ? NULL : play(PyTuple_GET_ITEM(kind_t, 1), ln, col, wd, PyTuple_GET_ITEM(kind_t, 2));
            if (p == NULL || PyList_Append(s->plays, p) < 0) {
                Py_XDECREF(p);
                status = -1;
                goto done;
            }
            Py_DECREF(p);
            if (PyList_GET_SIZE(s->withdrawn)) {
                PyObject *fresh = PyList_New(0);
                if (fresh == NULL) {
                    status = -1;
                    goto done;
                }
                Py_SETREF(s->withdrawn, fresh);
            }
        } else if (same(what, k_number)) {
            if (n_kind < 2) {
                status = DECLINE;
                goto done;
            }
            if (s->num != NULL) {
                if (PyList_GET_SIZE(s->plays) > max_cards) {
                    status = DECLINE;
                    goto done;
                }
                if (flush(s) < 0) {
                    status = -1;
                    goto done;
                }
            }
            PyObject *line_obj = PyLong_FromLong(ln), *col_obj = PyLong_FromSsize_t(col);
            if (line_obj == NULL || col_obj == NULL) {
                Py_XDECREF(line_obj);
                Py_XDECREF(col_obj);
                status = -1;
                goto done;
            }
            Py_XSETREF(s->at_line, line_obj);
            Py_XSETREF(s->at_column, col_obj);
            Py_XSETREF(s->num, ref(PyTuple_GET_ITEM(kind_t, 1)));
        } else if (same(what, k_seat)) {
            if (n_kind < 2) {
                status = DECLINE;
                goto done;
            }
            PyObject *leader = word(PyTuple_GET_ITEM(kind_t, 1), ln, col);
            if (leader == NULL) {
                status = -1;
                goto done;
            }
            Py_XSETREF(s->leader, leader);
        } else if (same(what, k_withdrawn)) {
            if (n_kind < 2) {
                status = DECLINE;
                goto done;
            }
            PyObject *items[3] = {ref(PyTuple_GET_ITEM(kind_t, 1)), PyLong_FromLong(ln), PyLong_FromSsize_t(col)};
            PyObject *c = named(T_CardRef, 3, items);
            if (c == NULL || PyList_Append(s->withdrawn, c) < 0) {
                Py_XDECREF(c);
                status = -1;
                goto done;
            }
            Py_DECREF(c);
            if (PyList_GET_SIZE(s->withdrawn) > max_cards) {
                status = DECLINE;
                goto done;
            }
        } else if (!PyUnicode_CheckExact(what)) {
            status = DECLINE;
            goto done;
        }   /* (a lone colon or comma: nothing) */
    }
    if (PyList_GET_SIZE(s->plays) > max_cards)
        status = DECLINE;
done:
    for (int w = 0; w < count; w++)
        Py_DECREF(words[w]);
    return status;
}

static PyObject *tricks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "tricks(lines: list, ln: int, off: int, whole_lines: bool)");
        return NULL;
    }
    PyObject *lines = args[0];
    long ln = PyLong_AsLong(args[1]);
    Py_ssize_t off = PyLong_AsSsize_t(args[2]);
    int whole_lines = PyObject_IsTrue(args[3]);
    if (PyErr_Occurred() || whole_lines < 0)
        return NULL;
    if (!ready)
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t n = PyList_GET_SIZE(lines), total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        if (!PyUnicode_CheckExact(line))
            Py_RETURN_NOTIMPLEMENTED;
        total += PyUnicode_GET_LENGTH(line);
    }
    if (total > long_line || ln < 0 || ln > (1L << 40))    /* (a long token: _tricks checks each line) */
        Py_RETURN_NOTIMPLEMENTED;
    State s;
    memset(&s, 0, sizeof s);
    s.out = PyList_New(0);
    s.plays = PyList_New(0);
    s.withdrawn = PyList_New(0);
    if (s.out == NULL || s.plays == NULL || s.withdrawn == NULL) {
        state_clear(&s);
        return NULL;
    }
    /* the trick's position before any number is read: (ln, off) */
    s.at_line = PyLong_FromLong(ln);
    s.at_column = PyLong_FromSsize_t(off);
    if (s.at_line == NULL || s.at_column == NULL) {
        state_clear(&s);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = read_line(&s, PyList_GET_ITEM(lines, i), ln + (long)i, i ? 1 : off, whole_lines);
        if (r) {
            state_clear(&s);
            if (r < 0)
                return NULL;
            Py_RETURN_NOTIMPLEMENTED;
        }
    }
    if (PyList_GET_SIZE(s.out) > max_tricks) {
        state_clear(&s);
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (s.num != NULL && flush(&s) < 0) {
        state_clear(&s);
        return NULL;
    }
    PyObject *out = s.out;
    s.out = NULL;
    state_clear(&s);
    return out;
}

/* hand(line, ln, off): the Hand of a hand line in its common shape (WholeReader._hand_line's
 * first branch: spaces stripped before it and line ends after it, one seat and its colon, then
 * cards one space apart, each a spelling of CARD_SPELLINGS, at most MAX_CARDS), or
 * NotImplemented for any other line (_hand_line reads it). */
static PyObject *hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "hand(line: str, ln: int, off: int)");
        return NULL;
    }
    PyObject *line = args[0];
    long ln = PyLong_AsLong(args[1]);
    Py_ssize_t off = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t len = PyUnicode_GET_LENGTH(line);
    if (!ready || !PyUnicode_CheckExact(line) || len > long_line)
        Py_RETURN_NOTIMPLEMENTED;
    int kind = PyUnicode_KIND(line);
    const void *data = PyUnicode_DATA(line);
    Py_ssize_t i = 0, end = len;
    while (i < len && PyUnicode_READ(kind, data, i) == ' ')
        i++;
    while (end > i && PyUnicode_READ(kind, data, end - 1) == '\r')
        end--;
    Py_ssize_t start = i + off;
    /* the words between single spaces (str.split(" ")): the seat's, then the cards' */
    Py_ssize_t from = i, cut = i;
    while (cut < end && PyUnicode_READ(kind, data, cut) != ' ')
        cut++;
    PyObject *w = PyUnicode_Substring(line, from, cut);
    if (w == NULL)
        return NULL;
    PyObject *seat = PyDict_GetItemWithError(seats_t, w);
    Py_DECREF(w);
    if (seat == NULL) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *cards = PyList_New(0);
    if (cards == NULL)
        return NULL;
    while (cut < end) {     /* (at a space) */
        from = cut + 1;
        cut = from;
        while (cut < end && PyUnicode_READ(kind, data, cut) != ' ')
            cut++;
        if (PyList_GET_SIZE(cards) >= max_cards) {
            Py_DECREF(cards);
            Py_RETURN_NOTIMPLEMENTED;
        }
        w = PyUnicode_Substring(line, from, cut);
        PyObject *card = w == NULL ? NULL : PyDict_GetItemWithError(cards_t, w);
        Py_XDECREF(w);
        if (card == NULL) {
            Py_DECREF(cards);
            if (PyErr_Occurred())
                return NULL;
            Py_RETURN_NOTIMPLEMENTED;   /* (an empty word too: two spaces) */
        }
        PyObject *items[3] = {ref(card), PyLong_FromLong(ln), PyLong_FromSsize_t(from - i + start)};
        PyObject *c = named(T_CardRef, 3, items);
        if (c == NULL || PyList_Append(cards, c) < 0) {
            Py_XDECREF(c);
            Py_DECREF(cards);
            return NULL;
        }
        Py_DECREF(c);
    }
    PyObject *items[6] = {ref(seat), PyList_AsTuple(cards), PyLong_FromLong(ln), PyLong_FromSsize_t(start),
                          ref(Py_None), ref(EMPTY)};
    Py_DECREF(cards);
    return named(T_Hand, 6, items);
}

static int keep(PyObject **slot, PyObject *v) {
    Py_XINCREF(v);
    Py_XSETREF(*slot, v);
    return v == NULL ? -1 : 0;
}

static PyObject *setup(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cards, *kinds, *numbers, *seats, *names, *types;
    Py_ssize_t mc, mt, ll;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!(nnn)", &PyDict_Type, &cards, &PyDict_Type, &kinds, &PyDict_Type,
                          &numbers, &PyDict_Type, &seats, &PyTuple_Type, &names, &PyTuple_Type, &types, &mc, &mt,
                          &ll))
        return NULL;
    ready = 0;
    if (PyTuple_GET_SIZE(names) != 4 || PyTuple_GET_SIZE(types) != 5) {
        PyErr_SetString(PyExc_ValueError, "setup: four kinds' names and five types");
        return NULL;
    }
    for (int i = 0; i < 5; i++) {
        PyObject *t = PyTuple_GET_ITEM(types, i);
        if ((i < 4 && !PyUnicode_CheckExact(PyTuple_GET_ITEM(names, i))) || !PyType_Check(t)
                || !PyType_IsSubtype((PyTypeObject *)t, &PyTuple_Type)) {
            PyErr_SetString(PyExc_TypeError, "setup: names are str, types named tuples");
            return NULL;
        }
    }
    if (keep(&cards_t, cards) || keep(&kinds_t, kinds) || keep(&numbers_t, numbers) || keep(&seats_t, seats)
            || keep(&k_card, PyTuple_GET_ITEM(names, 0)) || keep(&k_number, PyTuple_GET_ITEM(names, 1))
            || keep(&k_seat, PyTuple_GET_ITEM(names, 2)) || keep(&k_withdrawn, PyTuple_GET_ITEM(names, 3))
            || keep((PyObject **)&T_Trick, PyTuple_GET_ITEM(types, 0))
            || keep((PyObject **)&T_Play, PyTuple_GET_ITEM(types, 1))
            || keep((PyObject **)&T_CardRef, PyTuple_GET_ITEM(types, 2))
            || keep((PyObject **)&T_Word, PyTuple_GET_ITEM(types, 3))
            || keep((PyObject **)&T_Hand, PyTuple_GET_ITEM(types, 4)))
        return NULL;
    if (EMPTY == NULL && (EMPTY = PyTuple_New(0)) == NULL)
        return NULL;
    max_cards = mc;
    max_tricks = mt;
    long_line = ll;
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "whole.py's tables (called once, as it loads)."},
    {"tricks", (PyCFunction)(void (*)(void))tricks, METH_FASTCALL,
     "tricks(lines, ln, off, whole_lines): the Trick nodes of lines of tricks, or NotImplemented."},
    {"hand", (PyCFunction)(void (*)(void))hand, METH_FASTCALL,
     "hand(line, ln, off): the Hand of a hand line of the common shape, or NotImplemented."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ctricks", "The whole reader's trick lines, in C.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ctricks(void) {
    return PyModule_Create(&module);
}
