/* The compiled TREC reader (inputs/trec_compiled.py): a plain text qrels or run file parsed and its ids interned
 * in one pass, without the GIL. It reads only what the line reader (inputs/trec_lines.py) reads the same way:
 * bytes that are tab, newline, carriage return or printable ASCII; lines of exactly NCOLS fields separated by
 * runs of spaces and tabs (blank lines and lines starting with '#' skipped and counted); a value field of the
 * grammar [+-]?([0-9]+.?[0-9]*|.[0-9]+)([eE][+-]?[0-9]+)? whose value is finite. On anything else it returns
 * None, and the caller reads the file with the Python readers, which accept it or raise their error (file, line,
 * text, fix). Ids are interned in order of first appearance: per row an int32 code, per id its UTF-8 bytes and
 * int32 offsets, the layout of an Arrow string array (the caller wraps the buffers without copying them).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK (1 << 20)
#define MAX_NUMBER 256 /* a value field longer than this is left to the Python reader */

/* ---- a growable malloc'd buffer, handed to Python as an object with the buffer protocol ------------- */
typedef struct {
    char *data;
    size_t size, cap;
} Grow;

static int grow_reserve(Grow *g, size_t more) {
    if (g->size + more <= g->cap) return 0;
    size_t cap = g->cap ? g->cap : 4096;
    while (cap < g->size + more) cap *= 2;
    char *data = realloc(g->data, cap);
    if (!data) return -1;
    g->data = data;
    g->cap = cap;
    return 0;
}

static int grow_append(Grow *g, const void *src, size_t n) {
    if (grow_reserve(g, n)) return -1;
    memcpy(g->data + g->size, src, n);
    g->size += n;
    return 0;
}

typedef struct {
    PyObject_HEAD
    char *data;
    Py_ssize_t size;
} Block;

static void block_dealloc(Block *self) {
    free(self->data);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int block_getbuffer(Block *self, Py_buffer *view, int flags) {
    return PyBuffer_FillInfo(view, (PyObject *)self, self->data ? self->data : "", self->size, 1, flags);
}

static PyBufferProcs block_as_buffer = {(getbufferproc)block_getbuffer, NULL};

static PyTypeObject BlockType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rankflavor.inputs._trec_reader.Block",
    .tp_basicsize = sizeof(Block),
    .tp_dealloc = (destructor)block_dealloc,
    .tp_as_buffer = &block_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "bytes owned by the compiled reader (read through the buffer protocol)",
};

/* the buffer moves into a Block (NULL on failure, the buffer then freed) */
static PyObject *to_block(Grow *g) {
    Block *b = PyObject_New(Block, &BlockType);
    if (!b) {
        free(g->data);
        g->data = NULL;
        return NULL;
    }
    b->data = g->data;
    b->size = (Py_ssize_t)g->size;
    g->data = NULL;
    g->size = g->cap = 0;
    return (PyObject *)b;
}

enum { OK = 0, REFUSE = 1, NOMEM = 2 };

/* ---- interning: open addressing over the ids' bytes ------------------------------------------------- */
typedef struct {
    Grow codes;   /* int32 per row */
    Grow offsets; /* int32 per id, plus one */
    Grow bytes;   /* the ids' UTF-8 bytes */
    int32_t n;    /* distinct ids */
    int32_t *slots; /* id + 1, 0 when empty */
    uint32_t *hashes;
    size_t mask;
} Interner;

static int interner_init(Interner *t) {
    memset(t, 0, sizeof *t);
    t->mask = 1023;
    t->slots = calloc(t->mask + 1, sizeof *t->slots);
    t->hashes = calloc(t->mask + 1, sizeof *t->hashes);
    int32_t zero = 0;
    if (!t->slots || !t->hashes || grow_append(&t->offsets, &zero, sizeof zero)) return -1;
    return 0;
}

static void interner_free(Interner *t) {
    free(t->codes.data);
    free(t->offsets.data);
    free(t->bytes.data);
    free(t->slots);
    free(t->hashes);
}

static uint32_t hash_bytes(const char *p, size_t n) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return (uint32_t)(h ^ (h >> 32));
}

static int interner_grow(Interner *t) {
    size_t cap = (t->mask + 1) * 2, mask = cap - 1;
    int32_t *slots = calloc(cap, sizeof *slots);
    uint32_t *hashes = calloc(cap, sizeof *hashes);
    if (!slots || !hashes) {
        free(slots);
        free(hashes);
        return -1;
    }
    for (size_t i = 0; i <= t->mask; i++) {
        if (!t->slots[i]) continue;
        size_t j = t->hashes[i] & mask;
        while (slots[j]) j = (j + 1) & mask;
        slots[j] = t->slots[i];
        hashes[j] = t->hashes[i];
    }
    free(t->slots);
    free(t->hashes);
    t->slots = slots;
    t->hashes = hashes;
    t->mask = mask;
    return 0;
}

/* the id's code appended to the row codes: OK, NOMEM, or REFUSE past int32's range (the Python readers then) */
static int intern(Interner *t, const char *p, size_t n) {
    uint32_t h = hash_bytes(p, n);
    size_t j = h & t->mask;
    const int32_t *offsets = (const int32_t *)t->offsets.data;
    int32_t code = -1;
    while (t->slots[j]) {
        int32_t id = t->slots[j] - 1;
        if (t->hashes[j] == h && (size_t)(offsets[id + 1] - offsets[id]) == n &&
            memcmp(t->bytes.data + offsets[id], p, n) == 0) {
            code = id;
            break;
        }
        j = (j + 1) & t->mask;
    }
    if (code < 0) {
        if (t->bytes.size + n > INT32_MAX || t->n == INT32_MAX - 1) return REFUSE;
        code = t->n++;
        int32_t end = (int32_t)(t->bytes.size + n);
        if (grow_append(&t->bytes, p, n) || grow_append(&t->offsets, &end, sizeof end)) return NOMEM;
        t->slots[j] = code + 1;
        t->hashes[j] = h;
        if ((size_t)t->n * 2 > t->mask && interner_grow(t)) return NOMEM;
    }
    return grow_append(&t->codes, &code, sizeof code) ? NOMEM : OK;
}

/* ---- one line --------------------------------------------------------------------------------------- */

typedef struct {
    int ncols, value_col;
    Interner query, doc;
    Grow values;
    Py_ssize_t rows, comments, blanks;
} Reader;

static const double POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* the value of a field of trec_lines.py's _NUMBER grammar, whole field; REFUSE when it is not one or not finite.
 * Up to 15 digits without an exponent: the digits as an integer divided by a power of ten, both exact, so the one
 * rounding of the division is the correctly rounded value (Clinger's fast path), as strtod and float() give */
static int parse_value(const char *p, size_t n, double *out) {
    size_t i = 0, digits = 0, frac = 0;
    int negative = 0, exponent = 0;
    uint64_t m = 0;
    if (i < n && (p[i] == '+' || p[i] == '-')) negative = p[i++] == '-';
    while (i < n && p[i] >= '0' && p[i] <= '9') m = m * 10 + (uint64_t)(p[i++] - '0'), digits++;
    if (i < n && p[i] == '.') {
        i++;
        while (i < n && p[i] >= '0' && p[i] <= '9') m = m * 10 + (uint64_t)(p[i++] - '0'), digits++, frac++;
    }
    if (!digits) return REFUSE;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) i++;
        size_t exp = 0;
        while (i < n && p[i] >= '0' && p[i] <= '9') i++, exp++;
        if (!exp) return REFUSE;
        exponent = 1;
    }
    if (i != n) return REFUSE;
    double value;
    if (!exponent && digits <= 15) {
        value = (double)m / POW10[frac];
        if (negative) value = -value;
    } else {
        if (n > MAX_NUMBER) return REFUSE;
        char text[MAX_NUMBER + 1];
        memcpy(text, p, n);
        text[n] = '\0';
        value = strtod(text, NULL);
    }
    if (!isfinite(value)) return REFUSE;
    *out = value;
    return OK;
}

#define BLANK(c) ((c) == ' ' || (c) == '\t')
#define END(c) ((c) == '\n' || (c) == '\r')
#define FIELD(c) ((unsigned char)(c) > ' ' && (unsigned char)(c) < 0x7f)

/* the lines of [p, end), which ends at a line end or at the file's end */
static int read_lines(Reader *r, const char *p, const char *end) {
    const char *start[8];
    size_t len[8];
    while (p < end) {
        int fields = 0;
        while (p < end && BLANK(*p)) p++;
        if (p == end || END(*p)) {
            r->blanks++;
        } else if (*p == '#') {
            for (p++; p < end && !END(*p); p++)
                if (!FIELD(*p) && !BLANK(*p)) return REFUSE;
            r->comments++;
        } else {
            for (;;) {
                if (fields == r->ncols) return REFUSE; /* more columns than the format's: the Python reader's */
                const char *s = p;
                while (p < end && FIELD(*p)) p++;
                start[fields] = s;
                len[fields++] = (size_t)(p - s);
                while (p < end && BLANK(*p)) p++;
                if (p == end || END(*p)) break;
                if (!FIELD(*p)) return REFUSE; /* a control character, DEL or a byte beyond ASCII */
            }
            double value;
            if (fields != r->ncols || len[0] == 0 || parse_value(start[r->value_col], len[r->value_col], &value))
                return REFUSE;
            int status = intern(&r->query, start[0], len[0]);
            if (status == OK) status = intern(&r->doc, start[2], len[2]);
            if (status != OK) return status;
            if (grow_append(&r->values, &value, sizeof value)) return NOMEM;
            r->rows++;
        }
        if (p < end) p += (*p == '\r' && p + 1 < end && p[1] == '\n') ? 2 : 1;
    }
    return OK;
}

/* whether every byte is a tab, a line end or printable ASCII (branch-free over the block) */
static unsigned char bad[256]; /* filled by the module's init */

static int plain_bytes(const unsigned char *p, size_t n) {
    unsigned char any = 0;
    for (size_t i = 0; i < n; i++) any |= bad[p[i]];
    return !any;
}

/* every line of the file, a block at a time; lines end at \n, \r\n or a lone \r */
static int read_file(Reader *r, int fd) {
    size_t cap = BLOCK, have = 0;
    char *buf = malloc(cap);
    if (!buf) return NOMEM;
    int status = OK, eof = 0, after_cr = 0;
    while (status == OK && !eof) {
        if (cap - have < BLOCK / 2) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                status = NOMEM;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + have, cap - have);
        if (got < 0) {
            if (errno == EINTR) continue;
            status = REFUSE;
            break;
        }
        eof = got == 0;
        if (!plain_bytes((const unsigned char *)buf + have, (size_t)got)) {
            status = REFUSE; /* checked as it arrives: a file of NULs or binary costs a block, as bounded.py's */
            break;
        }
        if (after_cr && have == 0 && got > 0 && buf[0] == '\n') { /* the \n of a \r\n split by two blocks */
            memmove(buf, buf + 1, (size_t)got - 1);
            got--;
        }
        after_cr = 0;
        have += (size_t)got;
        size_t upto = have; /* the lines read now: up to the last line end (all of them at the file's end) */
        if (!eof) {
            while (upto > 0 && !END(buf[upto - 1])) upto--;
            if (upto == 0) continue; /* no line end yet: read more */
            after_cr = buf[upto - 1] == '\r' && upto == have;
        }
        status = read_lines(r, buf, buf + upto);
        memmove(buf, buf + upto, have - upto);
        have -= upto;
    }
    free(buf);
    return status;
}

static PyObject *interned(Interner *t) {
    PyObject *codes = to_block(&t->codes), *offsets = to_block(&t->offsets), *bytes = to_block(&t->bytes);
    if (!codes || !offsets || !bytes) {
        Py_XDECREF(codes);
        Py_XDECREF(offsets);
        Py_XDECREF(bytes);
        return NULL;
    }
    return Py_BuildValue("(NNNi)", codes, offsets, bytes, (int)t->n);
}

static PyObject *parse(PyObject *module, PyObject *args) {
    PyObject *path_bytes;
    int ncols, value_col;
    if (!PyArg_ParseTuple(args, "O&ii", PyUnicode_FSConverter, &path_bytes, &ncols, &value_col)) return NULL;
    if (ncols < 3 || ncols > 8 || value_col < 0 || value_col >= ncols || value_col == 0 || value_col == 2) {
        Py_DECREF(path_bytes);
        PyErr_SetString(PyExc_ValueError, "parse(path, ncols, value_col): 3 <= ncols <= 8, value_col not 0 or 2");
        return NULL;
    }
    if (localeconv()->decimal_point[0] != '.' || localeconv()->decimal_point[1] != '\0') {
        Py_DECREF(path_bytes);
        Py_RETURN_NONE; /* (strtod would read another decimal point) */
    }
    Reader r;
    memset(&r, 0, sizeof r);
    r.ncols = ncols;
    r.value_col = value_col;
    int status = NOMEM;
    if (interner_init(&r.query) == 0 && interner_init(&r.doc) == 0) {
        const char *path = PyBytes_AS_STRING(path_bytes);
        Py_BEGIN_ALLOW_THREADS
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        status = fd < 0 ? REFUSE : read_file(&r, fd);
        if (fd >= 0) close(fd);
        Py_END_ALLOW_THREADS
    }
    Py_DECREF(path_bytes);
    PyObject *result = NULL;
    if (status == NOMEM) {
        PyErr_NoMemory();
    } else if (status == REFUSE || r.rows == 0) {
        result = Py_None;
        Py_INCREF(result);
    } else {
        PyObject *q = interned(&r.query), *d = q ? interned(&r.doc) : NULL, *v = d ? to_block(&r.values) : NULL;
        if (v) {
            result = Py_BuildValue("(nNNNnn)", r.rows, q, d, v, r.comments, r.blanks);
        } else {
            Py_XDECREF(q);
            Py_XDECREF(d);
        }
    }
    interner_free(&r.query);
    interner_free(&r.doc);
    free(r.values.data);
    return result;
}

static PyMethodDef methods[] = {
    {"parse", parse, METH_VARARGS,
     "parse(path, ncols, value_col) -> (rows, (codes, offsets, bytes, n) of the query ids, the same of the doc ids, "
     "values, comment lines, blank lines), or None when the file is not one this reader reads"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_trec_reader", NULL, -1, methods};

PyMODINIT_FUNC PyInit__trec_reader(void) {
    for (int c = 0; c < 256; c++) bad[c] = c >= 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r');
    if (PyType_Ready(&BlockType) < 0) return NULL;
    return PyModule_Create(&module);
}
