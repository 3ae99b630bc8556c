/* The stable order of rows by (group ascending, string descending or ascending), the strings compared bytewise as
 * strcmp compares them (a shorter string that is a prefix of a longer one comes first when ascending), for rows
 * whose groups are nondecreasing: each group's rows sorted on their own (inputs/kernels.py
 * group_then_string_order; engine/order.py sorts a run's tie groups so, trec_eval's docno order). A row's string is
 * entry codes[i] of an Arrow string array given by its offsets (int32, or int64 for large_string) and data buffers.
 * Groups of up to SMALL rows are sorted by insertion, larger ones by a merge sort; both are stable. The GIL is let
 * go while sorting.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SMALL 16

typedef struct {
    const int64_t *codes;
    const int32_t *offsets32; /* one of the two */
    const int64_t *offsets64;
    const unsigned char *data;
    int descending;
} Strings;

static inline int compare(const Strings *s, int64_t a, int64_t b) {
    int64_t ca = s->codes[a], cb = s->codes[b];
    int64_t a0 = s->offsets32 ? s->offsets32[ca] : s->offsets64[ca];
    int64_t a1 = s->offsets32 ? s->offsets32[ca + 1] : s->offsets64[ca + 1];
    int64_t b0 = s->offsets32 ? s->offsets32[cb] : s->offsets64[cb];
    int64_t b1 = s->offsets32 ? s->offsets32[cb + 1] : s->offsets64[cb + 1];
    int64_t la = a1 - a0, lb = b1 - b0;
    int c = memcmp(s->data + a0, s->data + b0, (size_t)(la < lb ? la : lb));
    if (c == 0) c = (la > lb) - (la < lb);
    return s->descending ? -c : c;
}

static void insertion(const Strings *s, int64_t *rows, int64_t n) {
    for (int64_t i = 1; i < n; i++) {
        int64_t row = rows[i], j = i;
        while (j > 0 && compare(s, rows[j - 1], row) > 0) {
            rows[j] = rows[j - 1];
            j--;
        }
        rows[j] = row;
    }
}

/* bottom-up: runs of SMALL sorted by insertion, then merged pairwise (the left run first on equal strings) */
static void merge_sort(const Strings *s, int64_t *rows, int64_t *spare, int64_t n) {
    for (int64_t at = 0; at < n; at += SMALL) insertion(s, rows + at, n - at < SMALL ? n - at : SMALL);
    int64_t *from = rows, *to = spare;
    for (int64_t width = SMALL; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) to[k++] = compare(s, from[j], from[i]) < 0 ? from[j++] : from[i++];
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
        }
        int64_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != rows) memcpy(rows, from, (size_t)n * sizeof *rows);
}

static PyObject *group_then_string_order(PyObject *self, PyObject *args) {
    Py_buffer group, codes, offsets, data;
    int wide, descending;
    if (!PyArg_ParseTuple(args, "y*y*y*y*pp", &group, &codes, &offsets, &data, &wide, &descending)) return NULL;
    PyObject *out = NULL;
    int64_t n = group.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t width = wide ? 8 : 4, entries = offsets.len / width - 1;
    if (codes.len != group.len || entries < 0 || offsets.len % width) {
        PyErr_SetString(PyExc_ValueError, "group and codes differ in length, or the offsets are not an array's");
        goto done;
    }
    for (int64_t i = 0; i < n; i++) { /* (every code an entry of the array, every entry within the data) */
        int64_t code = ((const int64_t *)codes.buf)[i];
        if (code < 0 || code >= entries) {
            PyErr_Format(PyExc_ValueError, "code %lld is not an entry of the string array (%zd entries)",
                         (long long)code, entries);
            goto done;
        }
    }
    int64_t first = wide ? ((const int64_t *)offsets.buf)[0] : ((const int32_t *)offsets.buf)[0];
    int64_t last = wide ? ((const int64_t *)offsets.buf)[entries] : ((const int32_t *)offsets.buf)[entries];
    if (first < 0 || last > data.len || first > last) {
        PyErr_SetString(PyExc_ValueError, "the offsets reach beyond the data");
        goto done;
    }
    out = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    int64_t *spare = n > SMALL ? malloc((size_t)n * sizeof(int64_t)) : NULL;
    if (out == NULL || (n > SMALL && spare == NULL)) {
        Py_XDECREF(out);
        out = NULL;
        free(spare);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    const int64_t *g = group.buf;
    int64_t *rows = (int64_t *)PyByteArray_AS_STRING(out);
    Strings s = {codes.buf, wide ? NULL : offsets.buf, wide ? offsets.buf : NULL, data.buf, descending};
    Py_BEGIN_ALLOW_THREADS
    for (int64_t i = 0; i < n; i++) rows[i] = i;
    for (int64_t start = 0, end; start < n; start = end) {
        for (end = start + 1; end < n && g[end] == g[start];) end++;
        if (end - start <= SMALL) insertion(&s, rows + start, end - start);
        else merge_sort(&s, rows + start, spare, end - start);
    }
    Py_END_ALLOW_THREADS
    free(spare);
done:
    PyBuffer_Release(&group);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&data);
    return out;
}

static PyMethodDef methods[] = {
    {"group_then_string_order", group_then_string_order, METH_VARARGS,
     "group_then_string_order(group, codes, offsets, data, wide, descending) -> int64 permutation as a bytearray: "
     "rows of nondecreasing int64 `group` ordered by (group, string of int64 `codes` in the Arrow string array of "
     "`offsets` (int64 when `wide`) and `data`), stably"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_string_order", NULL, -1, methods};

PyMODINIT_FUNC PyInit__string_order(void) { return PyModule_Create(&module); }
