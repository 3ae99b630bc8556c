/* The slots' pass of the join of a run's rows with the qrels (engine/join.py `_join`), one loop over the rows in
 * place of numpy's five gathers: row i's slot is q_base[q[i]] + d_slot[d[i]]; a slot holding 0 says the row is not
 * judged, one holding r > 0 names the one judgment there (qrels row r - 1, the row's own when its doc code is
 * qrels_d[r - 1]), one below 0 holds several (join.py then searches the qrels keys for the row). Codes and tables
 * are int32 or int64 arrays; every index is checked before it is read. The GIL is let go during the loop.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

typedef struct {
    Py_buffer view;
    const void *data;
    int wide;     /* int64 (else int32) */
    int64_t size; /* elements */
} Ints;

static inline int64_t item(const Ints *a, int64_t i) {
    return a->wide ? ((const int64_t *)a->data)[i] : ((const int32_t *)a->data)[i];
}

/* a C-contiguous int32 or int64 array (None when `optional`: size -1); 0, or -1 with ValueError set */
static int ints(PyObject *obj, const char *name, int optional, Ints *out) {
    memset(out, 0, sizeof *out);
    out->size = -1;
    if (optional && obj == Py_None) return 0;
    if (PyObject_GetBuffer(obj, &out->view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *f = out->view.format ? out->view.format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    Py_ssize_t width = out->view.itemsize;
    if (!((width == 4 && (!strcmp(f, "i") || !strcmp(f, "l"))) || (width == 8 && (!strcmp(f, "l") || !strcmp(f, "q"))))) {
        PyErr_Format(PyExc_ValueError, "%s: an int32 or int64 array, not format '%s' of %zd bytes", name,
                     out->view.format ? out->view.format : "B", width);
        PyBuffer_Release(&out->view);
        out->view.obj = NULL;
        return -1;
    }
    out->data = out->view.buf;
    out->wide = width == 8;
    out->size = out->view.len / width;
    return 0;
}

static void release(Ints *a) {
    if (a->view.obj) PyBuffer_Release(&a->view);
}

enum { FINE = 0, BAD_QUERY, BAD_DOC, BAD_SLOT, BAD_ROW, BAD_TABLE };

/* the loop over the rows, written once and compiled twice: for int32 codes and tables (a TREC file's), each array
 * read through a typed pointer `<name>_at` (TYPED), and for any widths (ITEM) */
#define TYPED(a, i) a##_at[i]
#define ITEM(a, i) item(a, i)
#define NARROW_POINTERS                                                                                              \
    const int32_t *q_at = q->data, *d_at = d->data, *q_base_at = q_base->data, *d_slot_at = d_slot->data,           \
                  *slots_at = slots->data;                                                                           \
    const int64_t *qrels_d_at = qrels_d->data, *table_at = table->data;
#define HITS(name, AT, POINTERS)                                                                                     \
    static int64_t name(const Ints *q, const Ints *d, const Ints *q_base, const Ints *d_slot, const Ints *slots,    \
                        const Ints *qrels_d, const Ints *table, int64_t n, int64_t start, int64_t *rows,             \
                        int64_t *found, int *bad) {                                                                  \
        POINTERS                                                                                                     \
        int64_t k = 0;                                                                                               \
        for (int64_t i = 0; i < n; i++) {                                                                            \
            int64_t qc = AT(q, i), dc = AT(d, i);                                                                    \
            if ((uint64_t)qc >= (uint64_t)q_base->size) {                                                            \
                *bad = BAD_QUERY;                                                                                    \
                break;                                                                                               \
            }                                                                                                        \
            if ((uint64_t)dc >= (uint64_t)d_slot->size) {                                                            \
                *bad = BAD_DOC;                                                                                      \
                break;                                                                                               \
            }                                                                                                        \
            int64_t slot = AT(q_base, qc) + AT(d_slot, dc);                                                          \
            if ((uint64_t)slot >= (uint64_t)slots->size) {                                                           \
                *bad = BAD_SLOT;                                                                                     \
                break;                                                                                               \
            }                                                                                                        \
            int64_t held = AT(slots, slot);                                                                          \
            if (held == 0) continue;                                                                                 \
            if (held < 0) { /* several judgments: the caller searches */                                             \
                rows[k] = start + i;                                                                                 \
                found[k++] = -1;                                                                                     \
                continue;                                                                                            \
            }                                                                                                        \
            if (held > qrels_d->size) {                                                                              \
                *bad = BAD_ROW;                                                                                      \
                break;                                                                                               \
            }                                                                                                        \
            if (table->size >= 0) {                                                                                  \
                if (dc >= table->size) {                                                                             \
                    *bad = BAD_TABLE;                                                                                \
                    break;                                                                                           \
                }                                                                                                    \
                dc = AT(table, dc);                                                                                  \
            }                                                                                                        \
            if (AT(qrels_d, held - 1) == dc) {                                                                       \
                rows[k] = start + i;                                                                                 \
                found[k++] = held - 1;                                                                               \
            }                                                                                                        \
        }                                                                                                            \
        return k;                                                                                                    \
    }

HITS(hits_narrow, TYPED, NARROW_POINTERS)
HITS(hits_any, ITEM, )

static PyObject *slot_hits(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *objs[7];
    long long start;
    Py_buffer rows_out = {0}, at_out = {0};
    if (!PyArg_ParseTuple(args, "OOOOOOOLw*w*", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5], &objs[6],
                          &start, &rows_out, &at_out))
        return NULL;
    static const char *names[] = {"q", "d", "q_base", "d_slot", "slots", "qrels_d", "d_table"};
    Ints a[7];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 7; got++)
        if (ints(objs[got], names[got], got == 6, &a[got]) < 0) goto done;
    const Ints *q = &a[0], *d = &a[1], *q_base = &a[2], *d_slot = &a[3], *slots = &a[4], *qrels_d = &a[5],
               *table = &a[6];
    int64_t n = q->size;
    if (d->size != n || rows_out.len < n * 8 || at_out.len < n * 8) {
        PyErr_SetString(PyExc_ValueError, "q and d differ in length, or an output holds fewer than len(q) int64");
        goto done;
    }
    int64_t *rows = rows_out.buf, *found = at_out.buf, k = 0;
    int bad = FINE;
    Py_BEGIN_ALLOW_THREADS
    if (!q->wide && !d->wide && !q_base->wide && !d_slot->wide && !slots->wide && qrels_d->wide &&
        (table->size < 0 || table->wide))
        k = hits_narrow(q, d, q_base, d_slot, slots, qrels_d, table, n, start, rows, found, &bad);
    else
        k = hits_any(q, d, q_base, d_slot, slots, qrels_d, table, n, start, rows, found, &bad);
    Py_END_ALLOW_THREADS
    if (bad != FINE) {
        static const char *what[] = {"", "a query code beyond q_base", "a doc code beyond d_slot",
                                     "a slot beyond the slots", "a slot's row beyond qrels_d", "a doc code beyond d_table"};
        PyErr_Format(PyExc_ValueError, "slot_hits: %s", what[bad]);
        goto done;
    }
    result = PyLong_FromLongLong(k);
done:
    for (int i = 0; i < got; i++) release(&a[i]);
    PyBuffer_Release(&rows_out);
    PyBuffer_Release(&at_out);
    return result;
}

static PyMethodDef methods[] = {
    {"slot_hits", slot_hits, METH_VARARGS,
     "slot_hits(q, d, q_base, d_slot, slots, qrels_d, d_table, start, rows_out, at_out) -> k: the rows whose slot "
     "holds their judgment (row start + i, qrels row) or several (row, -1) written to the first k items of the "
     "int64 outputs; d_table (or None) maps d to the codes of qrels_d"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_slot_join", NULL, -1, methods};

PyMODINIT_FUNC PyInit__slot_join(void) { return PyModule_Create(&module); }
