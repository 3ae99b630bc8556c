/* The compiled TREC reader (inputs/trec_compiled.py): a plain text qrels or run file parsed and its ids interned
 * without the GIL, a large file in parts on as many threads as cores (at most MAX_PARTS). It reads only what the
 * line reader (inputs/trec_lines.py) reads the same way: bytes that are tab, newline, carriage return or printable
 * ASCII; lines of exactly NCOLS fields separated by runs of spaces and tabs (blank lines and lines starting with
 * '#' skipped and counted); a value field of the grammar [+-]?([0-9]+.?[0-9]*|.[0-9]+)([eE][+-]?[0-9]+)? whose
 * value is finite. On anything else it returns None, and the caller reads the file with the Python readers, which
 * accept it or raise their error (file, line, text, fix). Ids are interned in order of first appearance: per row
 * an int32 code, per id its UTF-8 bytes and int32 offsets, the layout of an Arrow string array (the caller wraps
 * the buffers without copying them). A file read in parts is cut after a line end; each part interns its own ids,
 * and the parts' dictionaries are merged in file order, so the codes are those of one pass.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "_trec_reader.h"

/* ---- a buffer handed to Python, as an object with the buffer protocol ---------------------------------- */
typedef struct {
    PyObject_HEAD
    Grow grow;
} Block;

static void block_dealloc(Block *self) {
    grow_free(&self->grow);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int block_getbuffer(Block *self, Py_buffer *view, int flags) {
    return PyBuffer_FillInfo(view, (PyObject *)self, self->grow.data ? self->grow.data : "",
                             (Py_ssize_t)self->grow.size, 1, flags);
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
        grow_free(g);
        return NULL;
    }
    b->grow = *g;
    g->data = NULL;
    g->size = g->cap = 0;
    return (PyObject *)b;
}

/* ---- lines ------------------------------------------------------------------------------------------ */

typedef struct {
    int ncols, value_col;
    Interner query, doc;
    Grow values;
    Py_ssize_t rows, comments, blanks;
} Reader;

#define BATCH 16 /* lines split before their ids are interned: their doc ids' slots are fetched from memory meanwhile */

typedef struct {
    const char *query, *doc, *value;
    size_t query_len, doc_len, value_len;
    uint64_t head;
    size_t hash;
} Row;

/* the lines of [p, end), which ends at a line end, 64 bytes readable after it; a byte that is not a tab,
 * a line end or printable ASCII: REFUSE */
static int read_lines(Reader *r, const char *p, const char *end) {
    const char *start[9];
    size_t len[9], most = (size_t)(end - p) / (2 * (size_t)r->ncols) + 1; /* a row: ncols fields, ncols ends */
    if (grow_reserve(&r->query.codes, most * 4) || grow_reserve(&r->doc.codes, most * 4) ||
        grow_reserve(&r->values, most * 8))
        return NOMEM;
    grow_populate(&r->query.codes, most * 4);
    grow_populate(&r->doc.codes, most * 4);
    grow_populate(&r->values, most * 8);
    int32_t *query = (int32_t *)(r->query.codes.data + r->query.codes.size);
    int32_t *doc = (int32_t *)(r->doc.codes.data + r->doc.codes.size);
    double *values = (double *)(r->values.data + r->values.size);
    size_t rows = 0;
    Row batch[BATCH];
    while (p < end) {
        int got = 0; /* up to BATCH lines split and their doc ids hashed, their slots fetched ahead, then interned */
        for (; got < BATCH && p < end; p += (*p == '\r' && p + 1 < end && p[1] == '\n') ? 2 : 1) {
            int fields = line_fields(&p, r->ncols, start, len);
            if (fields == BLANK_LINE) {
                r->blanks++;
                continue;
            }
            if (fields == COMMENT) {
                r->comments++;
                continue;
            }
            if (fields != r->ncols) return REFUSE; /* a bad byte, or another number of columns: the Python reader's */
            Row *row = &batch[got++];
            *row = (Row){start[0], start[2], start[r->value_col], len[0], len[2], len[r->value_col], 0, 0};
            row->head = head_of(row->doc, row->doc_len);
            row->hash = hash_id(row->head, row->doc, row->doc_len);
            PREFETCH(&r->doc.slots[row->hash & r->doc.mask]);
        }
        for (int k = 0; k < got; k++, rows++) {
            const Row *row = &batch[k];
            if (parse_value(row->value, row->value_len, values + rows)) return REFUSE;
            int status = intern(&r->query, row->query, row->query_len, query + rows);
            if (status == OK) status = intern_hashed(&r->doc, row->doc, row->doc_len, row->head, row->hash, doc + rows);
            if (status != OK) return status;
        }
    }
    r->query.codes.size += rows * 4;
    r->doc.codes.size += rows * 4;
    r->values.size += rows * 8;
    r->rows += (Py_ssize_t)rows;
    return interner_sparsen(&r->doc);
}

/* whether every byte is a tab, a line end or printable ASCII (branch-free) */

static int plain_bytes(const unsigned char *p, size_t n) {
    unsigned char any = 0;
    for (size_t i = 0; i < n; i++) any |= bad[p[i]];
    return !any;
}

/* the lines of the file's bytes [pos, stop) (stop < 0: to the file's end), a block at a time; lines end at \n,
 * \r\n or a lone \r; a part that stops before the file's end stops after a line end (line_after) */
static int read_part(Reader *r, int fd, off_t pos, off_t stop) {
    size_t cap = BLOCK, have = 0;
    char *buf = malloc(cap + LINE_PAD);
    if (!buf) return NOMEM;
    int status = OK, eof = 0, after_cr = 0;
    while (status == OK && !eof) {
        if (cap - have < BLOCK / 2) {
            char *bigger = realloc(buf, cap * 2 + LINE_PAD);
            if (!bigger) {
                status = NOMEM;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t want = cap - have;
        if (stop >= 0 && (off_t)want > stop - pos) want = (size_t)(stop - pos);
        ssize_t got = want ? pread(fd, buf + have, want, pos) : 0;
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 || (got == 0 && pos < stop)) { /* (a part that ends early: the file changed) */
            status = REFUSE;
            break;
        }
        pos += got;
        eof = got == 0 || pos == stop;
        if (after_cr && have == 0 && got > 0 && buf[0] == '\n') { /* the \n of a \r\n split by two blocks */
            memmove(buf, buf + 1, (size_t)got - 1);
            got--;
        }
        after_cr = 0;
        have += (size_t)got;
        size_t upto = have; /* the lines read now: up to the last line end (all of them at the file's end) */
        if (!eof) {
            while (upto > 0 && !END(buf[upto - 1])) upto--;
            if (upto == 0 && !plain_bytes((const unsigned char *)buf + have - got, (size_t)got)) {
                status = REFUSE; /* (a file of NULs or binary costs a block, as bounded.py's) */
                break;
            }
            if (upto == 0) continue; /* no line end yet: read more */
            after_cr = buf[upto - 1] == '\r' && upto == have;
        } else if (have && !END(buf[have - 1])) {
            buf[have++] = '\n'; /* (the last line's end, in the padding: read_lines reads up to a line end) */
            upto = have;
        }
        memset(buf + have, 0, 64);
        status = read_lines(r, buf, buf + upto);
        memmove(buf, buf + upto, have - upto);
        have -= upto;
    }
    free(buf);
    return status;
}

/* the offset just after the first line end at or after `from` (a \r\n whole), or `size` when there is none */
static off_t line_after(int fd, off_t from, off_t size) {
    char buf[4096];
    for (off_t pos = from; pos < size;) {
        ssize_t got = pread(fd, buf, sizeof buf, pos);
        if (got <= 0) return size;
        for (ssize_t i = 0; i < got; i++) {
            if (!END(buf[i])) continue;
            off_t after = pos + i + 1;
            if (buf[i] == '\r' && pos + i + 1 < size) {
                char next = 0;
                if (i + 1 < got) next = buf[i + 1];
                else if (pread(fd, &next, 1, after) != 1) return size;
                after += next == '\n';
            }
            return after;
        }
        pos += got;
    }
    return size;
}

typedef struct {
    Reader r;
    int fd, status;
    off_t start, stop;
} Part;

static void *read_in_thread(void *arg) {
    Part *part = arg;
    part->status = read_part(&part->r, part->fd, part->start, part->stop);
    return NULL;
}

/* the ids of `from` interned into `into` (in `from`'s order: file order when `from` reads further on), and its
 * rows' codes appended to `into`'s */
static int merge_ids(Interner *into, Interner *from) {
    size_t rows = from->codes.size / 4;
    int32_t *map = malloc((size_t)(from->n ? from->n : 1) * sizeof *map);
    if (!map) return NOMEM;
    const int32_t *offsets = (const int32_t *)from->offsets.data;
    int status = OK;
    for (int32_t id = 0; id < from->n && status == OK; id++)
        status = intern(into, from->bytes.data + offsets[id], (size_t)(offsets[id + 1] - offsets[id]), map + id);
    if (status == OK && grow_reserve(&into->codes, rows * 4)) status = NOMEM;
    if (status == OK) {
        grow_populate(&into->codes, rows * 4);
        int32_t *out = (int32_t *)(into->codes.data + into->codes.size);
        const int32_t *codes = (const int32_t *)from->codes.data;
        for (size_t i = 0; i < rows; i++) out[i] = map[codes[i]];
        into->codes.size += rows * 4;
    }
    free(map);
    return status;
}

static int merge(Reader *into, Reader *from) {
    int status = merge_ids(&into->query, &from->query);
    if (status == OK) status = merge_ids(&into->doc, &from->doc);
    if (status == OK && grow_reserve(&into->values, from->values.size)) status = NOMEM;
    if (status == OK) {
        grow_populate(&into->values, from->values.size);
        grow_append(&into->values, from->values.data, from->values.size);
    }
    into->rows += from->rows;
    into->comments += from->comments;
    into->blanks += from->blanks;
    return status;
}

static int cores(void) {
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* the file in `n` parts (0: by its size and the cores), the parts merged into parts[0]: OK, REFUSE or NOMEM */
static int read_file(Part *parts, int fd, int n) {
    struct stat st;
    if (fstat(fd, &st)) return REFUSE;
    if (n <= 0) {
        int by_size = (int)(st.st_size / MIN_PART), by_cores = cores();
        n = by_size < by_cores ? by_size : by_cores;
    }
    n = n < 1 ? 1 : n > MAX_PARTS ? MAX_PARTS : n;
    parts[0].start = 0;
    for (int k = 1; k < n; k++) { /* each cut after a line end; a cut at the file's end: fewer parts */
        off_t cut = line_after(fd, st.st_size / n * k, st.st_size);
        if (cut < parts[k - 1].start) cut = parts[k - 1].start;
        if (cut >= st.st_size) n = k;
        else parts[k].start = cut;
    }
    for (int k = 0; k < n; k++) { /* (every part's table made before any thread starts: a failure returns at once) */
        parts[k].fd = fd;
        parts[k].stop = k + 1 < n ? parts[k + 1].start : -1;
        off_t bytes = (parts[k].stop < 0 ? st.st_size : parts[k].stop) - parts[k].start;
        if (interner_presize(&parts[k].r.doc, (size_t)bytes / LINE_BYTES)) return NOMEM;
    }
    pthread_t threads[MAX_PARTS];
    int started[MAX_PARTS] = {0};
    for (int k = 1; k < n; k++) started[k] = pthread_create(&threads[k], NULL, read_in_thread, &parts[k]) == 0;
    for (int k = 0; k < n; k++) {
        if (k == 0 || !started[k]) read_in_thread(&parts[k]);
        else pthread_join(threads[k], NULL);
    }
    int status = OK;
    for (int k = 0; k < n && status == OK; k++) status = parts[k].status;
    for (int k = 1; k < n && status == OK; k++) status = merge(&parts[0].r, &parts[k].r);
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
    int ncols, value_col, n = 0;
    if (!PyArg_ParseTuple(args, "O&ii|i", PyUnicode_FSConverter, &path_bytes, &ncols, &value_col, &n)) return NULL;
    if (ncols < 3 || ncols > 8 || value_col < 0 || value_col >= ncols || value_col == 0 || value_col == 2) {
        Py_DECREF(path_bytes);
        PyErr_SetString(PyExc_ValueError, "parse(path, ncols, value_col): 3 <= ncols <= 8, value_col not 0 or 2");
        return NULL;
    }
    if (localeconv()->decimal_point[0] != '.' || localeconv()->decimal_point[1] != '\0') {
        Py_DECREF(path_bytes);
        Py_RETURN_NONE; /* (strtod would read another decimal point) */
    }
    Part parts[MAX_PARTS];
    memset(parts, 0, sizeof parts);
    int status = OK;
    for (int k = 0; k < MAX_PARTS && status == OK; k++) {
        parts[k].r.ncols = ncols;
        parts[k].r.value_col = value_col;
        if (interner_init(&parts[k].r.query) || interner_init(&parts[k].r.doc)) status = NOMEM;
    }
    if (status == OK) {
        const char *path = PyBytes_AS_STRING(path_bytes);
        Py_BEGIN_ALLOW_THREADS
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        status = fd < 0 ? REFUSE : read_file(parts, fd, n);
        if (fd >= 0) close(fd);
        Py_END_ALLOW_THREADS
    }
    Py_DECREF(path_bytes);
    PyObject *result = NULL;
    Reader *r = &parts[0].r;
    if (status == NOMEM) {
        PyErr_NoMemory();
    } else if (status == REFUSE || r->rows == 0) {
        result = Py_None;
        Py_INCREF(result);
    } else {
        PyObject *q = interned(&r->query), *d = q ? interned(&r->doc) : NULL, *v = d ? to_block(&r->values) : NULL;
        if (v) {
            result = Py_BuildValue("(nNNNnn)", r->rows, q, d, v, r->comments, r->blanks);
        } else {
            Py_XDECREF(q);
            Py_XDECREF(d);
        }
    }
    for (int k = 0; k < MAX_PARTS; k++) {
        interner_free(&parts[k].r.query);
        interner_free(&parts[k].r.doc);
        grow_free(&parts[k].r.values);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"parse", parse, METH_VARARGS,
     "parse(path, ncols, value_col, parts=0) -> (rows, (codes, offsets, bytes, n) of the query ids, the same of the "
     "doc ids, values, comment lines, blank lines), or None when the file is not one this reader reads; parts: the "
     "threads reading it (0: one per core and per 4 MiB, at most 4)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_trec_reader", NULL, -1, methods};

PyMODINIT_FUNC PyInit__trec_reader(void) {
    for (int c = 0; c < 256; c++) bad[c] = c >= 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r');
    if (PyType_Ready(&BlockType) < 0) return NULL;
    return PyModule_Create(&module);
}
