/* rankflavor.dropin._te_reader: a standard qrels or results file read as C trec_eval 10.0 reads it
 * (get_qrels.c te_get_qrels and parse_qrels_line, get_trec_results.c te_get_trec_results and
 * parse_results_line), in one pass over bytes already in memory and without the GIL (dropin/te_parse.py is its
 * caller and its pure-Python twin).
 *
 * A field is a run of bytes other than C's isspace (space \t \v \f \r; \n ends the line). A qrels line has
 * exactly 4 fields; a line whose first byte is '#' is skipped and the line after it read as data whatever it holds
 * (get_qrels.c:137-141). A results line has 6 fields or more; a blank line, or one whose first field starts with
 * '#', is skipped (get_trec_results.c:153-161). A grade is atol of its field (get_qrels.c:192), a score atof of
 * its own (get_trec_results.c:210): strtol and strtod in the C locale. Ids are interned in order of first
 * appearance into int32 codes; each distinct id is returned as latin-1 text (one character per byte).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OK = 0, NOMEM = 1, MALFORMED = 2, DECLINE = 3 };
enum { FIELD = 0, SPACE = 1, END = 2 };

static unsigned char kind[256]; /* FIELD, SPACE (C's isspace but \n) or END (\n): filled by the module's init */
static locale_t c_locale;       /* strtol_l and strtod_l read numbers as in the C locale */

/* ---- interning: open addressing; each distinct id's bytes copied into an arena (few and close together) ------ */
typedef struct {
    uint32_t hash;
    int32_t id; /* id + 1, 0 when empty */
} Slot;

typedef struct {
    char *arena;      /* the distinct ids' bytes, one after another */
    size_t *offsets;  /* per id its start in the arena, and one past the last id */
    size_t used, arena_cap, ids_cap;
    int32_t n;
    Slot *slots;
    size_t mask;
    int32_t last; /* the code of the previous line's id (a file lists a query's lines together) */
} Interner;

static int interner_init(Interner *t) {
    memset(t, 0, sizeof *t);
    t->last = -1;
    t->mask = 1023;
    t->slots = calloc(t->mask + 1, sizeof *t->slots);
    t->offsets = malloc((t->ids_cap = 1024) * sizeof *t->offsets);
    t->arena = malloc(t->arena_cap = 16384);
    if (!t->slots || !t->offsets || !t->arena) return NOMEM;
    t->offsets[0] = 0;
    return OK;
}

static void interner_free(Interner *t) {
    free(t->arena);
    free(t->offsets);
    free(t->slots);
}

static uint32_t hash_bytes(const unsigned char *p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n, w;
    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
    }
    for (w = 0; n; n--) w = (w << 8) | p[n - 1];
    h = (h ^ w) * 0x94D049BB133111EBULL;
    return (uint32_t)(h ^ (h >> 32));
}

/* the table rebuilt with `cap` slots (a power of two, larger than twice its ids) */
static int interner_resize(Interner *t, size_t cap) {
    size_t mask = cap - 1;
    Slot *slots = calloc(cap, sizeof *slots);
    if (!slots) return NOMEM;
    for (size_t i = 0; i <= t->mask; i++) {
        if (!t->slots[i].id) continue;
        size_t j = t->slots[i].hash & mask;
        while (slots[j].id) j = (j + 1) & mask;
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->mask = mask;
    return OK;
}

static int interner_grow(Interner *t) { return interner_resize(t, (t->mask + 1) * 2); }

#define PRESIZE_SLOTS (1 << 18) /* the most slots a table is given before a scan (2 MB): interner_presize */

/* a table given room for `ids` more ids at most half full (up to PRESIZE_SLOTS) before the scan: a file whose ids
 * come once each (a track's run: 48,000 docs) is not rebuilt as its table doubles from 1,024 slots seven times */
static int interner_presize(Interner *t, size_t ids) {
    size_t cap = t->mask + 1, need = 2 * ((size_t)t->n + ids) + 2;
    while (cap < PRESIZE_SLOTS && cap < need) cap *= 2;
    return cap == t->mask + 1 ? OK : interner_resize(t, cap);
}

static int same(const Interner *t, int32_t id, const unsigned char *p, size_t n) {
    const char *s = t->arena + t->offsets[id];
    if (t->offsets[id + 1] - t->offsets[id] != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != (char)p[i]) return 0;
    return 1;
}

/* room for one more id of n bytes */
static int reserve(Interner *t, size_t n) {
    if ((size_t)t->n + 2 > t->ids_cap) {
        size_t *offsets = realloc(t->offsets, (t->ids_cap *= 2) * sizeof *offsets);
        if (!offsets) return NOMEM;
        t->offsets = offsets;
    }
    if (t->used + n > t->arena_cap) {
        while (t->used + n > t->arena_cap) t->arena_cap *= 2;
        char *arena = realloc(t->arena, t->arena_cap);
        if (!arena) return NOMEM;
        t->arena = arena;
    }
    return OK;
}

/* the code of the id p[0:n], a new one when first seen (NOMEM when memory runs out) */
static int intern(Interner *t, const unsigned char *p, size_t n, int32_t *code) {
    if (t->last >= 0 && same(t, t->last, p, n)) return *code = t->last, OK;
    uint32_t h = hash_bytes(p, n);
    size_t j = h & t->mask;
    for (; t->slots[j].id; j = (j + 1) & t->mask) {
        if (t->slots[j].hash == h && same(t, t->slots[j].id - 1, p, n)) return *code = t->last = t->slots[j].id - 1, OK;
    }
    if (reserve(t, n)) return NOMEM;
    memcpy(t->arena + t->used, p, n);
    t->used += n;
    t->offsets[t->n + 1] = t->used;
    t->slots[j] = (Slot){h, t->n + 1};
    *code = t->last = t->n++;
    if ((size_t)t->n * 2 > t->mask) return interner_grow(t);
    return OK;
}

/* the ids from the `from`-th on as a list of latin-1 str (with the GIL) */
static PyObject *id_list(const Interner *t, int32_t from) {
    PyObject *list = PyList_New(t->n - from);
    for (int32_t i = from; list && i < t->n; i++) {
        PyObject *text = PyUnicode_DecodeLatin1(t->arena + t->offsets[i], (Py_ssize_t)(t->offsets[i + 1] - t->offsets[i]),
                                                NULL);
        if (!text) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i - from, text);
    }
    return list;
}

/* the known ids (a list of latin-1 str, distinct) interned first, codes 0..n-1, in their order (with the GIL) */
static int seed(Interner *t, PyObject *known) {
    Py_ssize_t n = PyList_GET_SIZE(known);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(known, i);
        Py_ssize_t size;
        if (!PyUnicode_Check(text) || PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND) return DECLINE;
        const unsigned char *bytes = PyUnicode_1BYTE_DATA(text);
        size = PyUnicode_GET_LENGTH(text);
        int32_t code;
        if (intern(t, bytes, (size_t)size, &code) != OK) return NOMEM;
        if (code != (int32_t)i) return DECLINE; /* (an id twice: not a dictionary) */
    }
    t->last = -1;
    return OK;
}

/* ---- numbers: atol and atof of a field (not NUL-terminated in the input) ---------------------------- */
#define SHORT 64

/* the field as a NUL-terminated string: in `buf` when short, else malloc'd (*heap to free; NULL: no memory) */
static const char *terminated(const unsigned char *p, size_t n, char *buf, char **heap) {
    char *text = buf;
    *heap = NULL;
    if (n >= SHORT && !(text = *heap = malloc(n + 1))) return NULL;
    memcpy(text, p, n);
    text[n] = '\0';
    return text;
}

/* atol (glibc: strtol(s, NULL, 10)); a sign and up to 18 digits filling the field are read directly */
static int field_atol(const unsigned char *p, size_t n, int64_t *out) {
    size_t i = n && (p[0] == '+' || p[0] == '-');
    if (n > i && n - i <= 18) {
        int64_t v = 0;
        size_t k = i;
        while (k < n && p[k] >= '0' && p[k] <= '9') v = v * 10 + (p[k++] - '0');
        if (k == n) return *out = p[0] == '-' ? -v : v, OK;
    }
    char buf[SHORT], *heap;
    const char *text = terminated(p, n, buf, &heap);
    if (!text) return NOMEM;
    *out = (int64_t)strtol_l(text, NULL, 10, c_locale);
    free(heap);
    return OK;
}

static const double POW10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* atof (glibc: strtod(s, NULL)). A field [+-]?digits[.digits] of at most 15 digits is their integer divided by a
 * power of ten, both exact, so the one rounding is strtod's correctly rounded value (Clinger's fast path) */
static int field_atof(const unsigned char *p, size_t n, double *out) {
    size_t i = n && (p[0] == '+' || p[0] == '-'), digits = 0, frac = 0;
    uint64_t m = 0;
    for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) m = m * 10 + (p[i] - '0'), digits++;
    if (i < n && p[i] == '.')
        for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++) m = m * 10 + (p[i] - '0'), digits++, frac++;
    if (i == n && digits && digits <= 15) {
        double v = (double)m / POW10[frac];
        return *out = p[0] == '-' ? -v : v, OK;
    }
    char buf[SHORT], *heap;
    const char *text = terminated(p, n, buf, &heap);
    if (!text) return NOMEM;
    *out = strtod_l(text, NULL, c_locale);
    free(heap);
    return OK;
}

/* ---- lines ---------------------------------------------------------------------------------------------- */
typedef struct {
    const unsigned char *p;
    size_t n;
} Field;

/* the fields of the line at *at (its first `keep` kept), *at moved past the line's \n; their count */
static Py_ssize_t line_fields(const unsigned char **at, const unsigned char *end, Field *f, int keep) {
    const unsigned char *p = *at;
    Py_ssize_t count = 0;
    for (;;) {
        while (p < end && kind[*p] == SPACE) p++;
        if (p == end || *p == '\n') break;
        const unsigned char *s = p;
        while (p < end && kind[*p] == FIELD) p++;
        if (count < keep) f[count] = (Field){s, (size_t)(p - s)};
        count++;
    }
    *at = p < end ? p + 1 : end;
    return count;
}

typedef struct {
    const unsigned char *data, *end;
    Interner query, doc;
    int32_t known; /* doc ids given before the scan (parse_results' `known`): their codes come first */
    int32_t *q, *d; /* per row */
    void *values;   /* int64 grades or float64 scores per row */
    Py_ssize_t rows, line, fields; /* rows read; on MALFORMED, the line and its field count */
    Field run_id;
} Scan;

static int row(Scan *s, const Field *f, int value_field, int is_score) {
    int status = intern(&s->query, f[0].p, f[0].n, &s->q[s->rows]);
    if (status == OK) status = intern(&s->doc, f[2].p, f[2].n, &s->d[s->rows]);
    if (status != OK) return status;
    const Field *v = &f[value_field];
    status = is_score ? field_atof(v->p, v->n, (double *)s->values + s->rows)
                      : field_atol(v->p, v->n, (int64_t *)s->values + s->rows);
    s->rows++;
    return status;
}

/* get_qrels.c:136-147: a '#' first on a line skips that line alone, the next one is data whatever it holds */
static int scan_qrels(Scan *s) {
    const unsigned char *p = s->data;
    Field f[4];
    for (s->line = 1; p < s->end; s->line++) {
        if (*p == '#') {
            const unsigned char *nl = memchr(p, '\n', (size_t)(s->end - p));
            p = nl ? nl + 1 : s->end;
            s->line++;
            if (p >= s->end) break;
        }
        s->fields = line_fields(&p, s->end, f, 4);
        if (s->fields != 4) return MALFORMED;
        int status = row(s, f, 3, 0);
        if (status != OK) return status;
    }
    return OK;
}

/* get_trec_results.c:150-169: a blank line or a '#' after leading white space is skipped */
static int scan_results(Scan *s) {
    const unsigned char *p = s->data;
    Field f[6];
    for (s->line = 1; p < s->end; s->line++) {
        Py_ssize_t count = line_fields(&p, s->end, f, 6);
        if (count == 0 || *f[0].p == '#') continue;
        if (count < 6) return s->fields = count, MALFORMED;
        int status = row(s, f, 4, 1);
        if (status != OK) return status;
        s->run_id = f[5];
    }
    return OK;
}

static Py_ssize_t count_lines(const unsigned char *p, const unsigned char *end) {
    Py_ssize_t lines = 1;
    for (; (p = memchr(p, '\n', (size_t)(end - p))); p++) lines++;
    return lines;
}

/* the scan, once the arrays are allocated for `lines` rows (without the GIL) */
static int run_scan(Scan *s, int results) {
    Py_ssize_t lines = count_lines(s->data, s->end);
    if (lines >= INT32_MAX) return DECLINE;
    s->q = malloc((size_t)lines * sizeof *s->q);
    s->d = malloc((size_t)lines * sizeof *s->d);
    s->values = malloc((size_t)lines * 8);
    if (!s->q || !s->d || !s->values || interner_presize(&s->doc, (size_t)lines)) return NOMEM;
    return results ? scan_results(s) : scan_qrels(s);
}

static void scan_free(Scan *s) {
    free(s->q);
    free(s->d);
    free(s->values);
    interner_free(&s->query);
    interner_free(&s->doc);
}

/* (query ids, q codes, doc ids, d codes, values[, run_id]) of a scan that read its file */
static PyObject *parsed(const Scan *s, int results) {
    PyObject *run_id = results ? PyUnicode_DecodeLatin1((const char *)s->run_id.p, (Py_ssize_t)s->run_id.n, NULL)
                               : Py_NewRef(Py_None);
    return Py_BuildValue("(NNNNNN)", id_list(&s->query, 0),
                         PyByteArray_FromStringAndSize((const char *)s->q, s->rows * (Py_ssize_t)sizeof *s->q),
                         id_list(&s->doc, s->known),
                         PyByteArray_FromStringAndSize((const char *)s->d, s->rows * (Py_ssize_t)sizeof *s->d),
                         PyByteArray_FromStringAndSize((const char *)s->values, s->rows * 8), run_id);
}

static PyObject *parse(PyObject *args, int results) {
    Py_buffer view;
    PyObject *known = NULL;
    if (!PyArg_ParseTuple(args, "y*|O!", &view, &PyList_Type, &known)) return NULL;
    Scan s;
    memset(&s, 0, sizeof s);
    s.data = view.buf;
    s.end = s.data + view.len;
    int status = interner_init(&s.query) || interner_init(&s.doc) ? NOMEM : OK;
    if (status == OK && known) status = seed(&s.doc, known);
    s.known = s.doc.n;
    if (status == OK) {
        Py_BEGIN_ALLOW_THREADS
        status = run_scan(&s, results);
        Py_END_ALLOW_THREADS
    }
    PyObject *out = NULL;
    if (status == NOMEM) PyErr_NoMemory();
    else if (status == DECLINE) out = Py_NewRef(Py_None);
    else if (status == MALFORMED) out = Py_BuildValue("(nn)", s.line, s.fields);
    else if (s.rows == 0) out = Py_BuildValue("(nn)", (Py_ssize_t)1, (Py_ssize_t)-1);
    else out = parsed(&s, results);
    scan_free(&s);
    PyBuffer_Release(&view);
    return out;
}

static PyObject *parse_qrels(PyObject *module, PyObject *args) { return parse(args, 0); }

static PyObject *parse_results(PyObject *module, PyObject *args) { return parse(args, 1); }

/* ---- ranks: each id's place in strcmp's order of the ids (ties: list order), for the engine's order by doc id ----
 * An LSD radix sort of each id's 8 bytes after the prefix all ids share (big-endian, zero-padded: two ids whose
 * keys differ compare as their keys do), then each run of equal keys sorted by the whole comparison. */
typedef struct {
    const unsigned char *p;
    Py_ssize_t n, at;
} Key;

static int key_order(const void *a, const void *b) {
    const Key *x = a, *y = b;
    int c = memcmp(x->p, y->p, (size_t)(x->n < y->n ? x->n : y->n));
    if (c) return c;
    if (x->n != y->n) return x->n < y->n ? -1 : 1; /* (a prefix first, as strcmp) */
    return x->at < y->at ? -1 : x->at > y->at;
}

typedef struct {
    uint64_t key;
    Py_ssize_t at;
} Item;

/* the bytes every id begins with: how many */
static size_t shared_prefix(const Key *keys, Py_ssize_t n) {
    size_t common = (size_t)keys[0].n;
    for (Py_ssize_t i = 1; i < n && common; i++) {
        size_t k = 0, m = (size_t)keys[i].n < common ? (size_t)keys[i].n : common;
        while (k < m && keys[i].p[k] == keys[0].p[k]) k++;
        common = k;
    }
    return common;
}

/* keys sorted (stable in list order), by radix on 8 bytes from `skip`, ties by key_order; 0, or NOMEM */
static int sort_keys(Key *keys, Py_ssize_t n) {
    size_t skip = shared_prefix(keys, n);
    Item *items = malloc((size_t)n * sizeof *items), *spare = malloc((size_t)n * sizeof *spare);
    Key *copy = malloc((size_t)n * sizeof *copy);
    size_t (*counts)[256] = calloc(8, sizeof *counts);
    if (!items || !spare || !copy || !counts) {
        free(items), free(spare), free(copy), free(counts);
        return NOMEM;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t key = 0;
        for (size_t b = 0; b < 8; b++) {
            size_t at = skip + b;
            key = (key << 8) | (at < (size_t)keys[i].n ? keys[i].p[at] : 0);
        }
        items[i] = (Item){key, i};
        for (int digit = 0; digit < 8; digit++) counts[digit][(key >> (8 * digit)) & 255]++;
    }
    for (int digit = 0; digit < 8; digit++) {
        if (counts[digit][(items[0].key >> (8 * digit)) & 255] == (size_t)n) continue; /* (one value: in order) */
        size_t start = 0;
        for (int v = 0; v < 256; v++) {
            size_t c = counts[digit][v];
            counts[digit][v] = start;
            start += c;
        }
        for (Py_ssize_t i = 0; i < n; i++) spare[counts[digit][(items[i].key >> (8 * digit)) & 255]++] = items[i];
        Item *t = items;
        items = spare;
        spare = t;
    }
    for (Py_ssize_t i = 0; i < n; i++) copy[i] = keys[items[i].at];
    for (Py_ssize_t i = 0, j; i < n; i = j) { /* (equal keys: the ids beyond the 8 bytes decide) */
        for (j = i + 1; j < n && items[j].key == items[i].key; j++);
        if (j - i > 1) qsort(copy + i, (size_t)(j - i), sizeof *copy, key_order);
    }
    memcpy(keys, copy, (size_t)n * sizeof *keys);
    free(items), free(spare), free(copy), free(counts);
    return OK;
}

static PyObject *rank_ids(PyObject *module, PyObject *args) {
    PyObject *ids;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &ids)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(ids);
    Key *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    if (!keys || !out) {
        free(keys);
        Py_XDECREF(out);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(ids, i);
        if (!PyUnicode_Check(text) || PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND) { /* (numpy's sort ranks those) */
            free(keys);
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        keys[i] = (Key){PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text), i};
    }
    int64_t *ranks = (int64_t *)PyByteArray_AS_STRING(out);
    int status = OK;
    Py_BEGIN_ALLOW_THREADS
    if (n < 64) qsort(keys, (size_t)n, sizeof *keys, key_order);
    else status = sort_keys(keys, n);
    if (status == OK)
        for (Py_ssize_t k = 0; k < n; k++) ranks[keys[k].at] = k;
    Py_END_ALLOW_THREADS
    free(keys);
    if (status != OK) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return out;
}

static PyMethodDef methods[] = {
    {"rank_ids", rank_ids, METH_VARARGS,
     "rank_ids(ids) -> int64 ranks as a bytearray: each id's place in strcmp's order (1-byte str), or None"},
    {"parse_qrels", parse_qrels, METH_VARARGS,
     "parse_qrels(data) -> (query ids, int32 codes, doc ids, int32 codes, int64 grades, None) as bytearrays, or "
     "(line, fields) of the first malformed line ((1, -1): no judgment line), or None: the Python reader's file"},
    {"parse_results", parse_results, METH_VARARGS,
     "parse_results(data[, known]) -> (query ids, int32 codes, doc ids, int32 codes, float64 scores, run_id), or "
     "(line, fields) of the first malformed line ((1, -1): no result line), or None: the Python reader's file. "
     "known: doc ids (latin-1 str, distinct) coded 0..n-1 before the file's, which the doc ids returned follow"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_te_reader", NULL, -1, methods};

PyMODINIT_FUNC PyInit__te_reader(void) {
    for (int c = 0; c < 256; c++) kind[c] = FIELD;
    kind[' '] = kind['\t'] = kind['\v'] = kind['\f'] = kind['\r'] = SPACE;
    kind['\n'] = END;
    if (!c_locale && !(c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0))) return PyErr_NoMemory();
    return PyModule_Create(&module);
}
