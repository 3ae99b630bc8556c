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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define BLOCK (1 << 20)
#define PAD 16              /* bytes after a buffer's data: an id is read 8 bytes at a time */
#define LINE_PAD 72         /* bytes after the read buffer's data: a line's first 64 bytes are classified at once */
#define MAX_NUMBER 256      /* a value field longer than this is left to the Python reader */
#define MAX_PARTS 4         /* threads reading one file */
#define MIN_PART (4 << 20)  /* bytes of a part at least */

/* ---- a growable buffer, handed to Python as an object with the buffer protocol ---------------------
 * Mapped pages of its own rather than malloc's: the reading threads never wait for malloc's lock (one arena for
 * the process: cli/threads.py), held by another thread's realloc while it copies, and Linux's mremap grows a
 * buffer without copying it */
typedef struct {
    char *data;
    size_t size, cap;
} Grow;

static int grow_reserve(Grow *g, size_t more) {
    if (g->size + more + PAD <= g->cap) return 0;
    size_t cap = g->cap ? g->cap : 1 << 16;
    while (cap < g->size + more + PAD) cap *= 2;
    void *data;
#ifdef MREMAP_MAYMOVE
    if (g->data) data = mremap(g->data, g->cap, cap, MREMAP_MAYMOVE);
    else
#endif
    {
        data = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (data != MAP_FAILED && g->data) {
            memcpy(data, g->data, g->size);
            munmap(g->data, g->cap);
        }
    }
    if (data == MAP_FAILED) return -1;
    g->data = data;
    g->cap = cap;
    return 0;
}

/* the pages of the next n bytes of the buffer faulted in at once, where Linux can (5.14+: several times cheaper
 * than a fault per page as the rows are written; elsewhere, or refused, the pages fault in as before) */
static void grow_populate(Grow *g, size_t n) {
#ifdef MADV_POPULATE_WRITE
    size_t page = 4096, from = (g->size + page - 1) & ~(page - 1), to = (g->size + n) & ~(page - 1);
    if (to > from && to <= g->cap) madvise(g->data + from, to - from, MADV_POPULATE_WRITE);
#else
    (void)g;
    (void)n;
#endif
}

static void grow_free(Grow *g) {
    if (g->data) munmap(g->data, g->cap);
    g->data = NULL;
    g->size = g->cap = 0;
}

static int grow_append(Grow *g, const void *src, size_t n) {
    if (grow_reserve(g, n)) return -1;
    memcpy(g->data + g->size, src, n);
    g->size += n;
    memset(g->data + g->size, 0, PAD);
    return 0;
}

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

enum { OK = 0, REFUSE = 1, NOMEM = 2 };

/* ---- interning: open addressing over the ids' bytes, compared 8 bytes at a time ----------------------- */
typedef struct {
    uint64_t head; /* the id's first 8 bytes (fewer: zero after them) */
    int32_t id;    /* id + 1, 0 when empty */
    uint32_t len;
} Slot;

typedef struct {
    Grow codes;   /* int32 per row */
    Grow offsets; /* int32 per id, plus one */
    Grow bytes;   /* the ids' UTF-8 bytes */
    int32_t n;    /* distinct ids */
    int32_t last; /* the id of the latest row (rows of one query come together), -1 before the first */
    Slot *slots;
    size_t mask;
} Interner;

static int interner_init(Interner *t) {
    memset(t, 0, sizeof *t);
    t->mask = 1023;
    t->last = -1;
    t->slots = calloc(t->mask + 1, sizeof *t->slots);
    int32_t zero = 0;
    return !t->slots || grow_append(&t->offsets, &zero, sizeof zero) || grow_reserve(&t->bytes, 0) ? -1 : 0;
}

static void interner_free(Interner *t) {
    grow_free(&t->codes);
    grow_free(&t->offsets);
    grow_free(&t->bytes);
    free(t->slots);
}

static inline uint64_t word_at(const char *p) {
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FIRST_BYTES(w, n) ((w) & (~0ULL << (8 * (8 - (n))))) /* the word's first n bytes, 1 <= n <= 8 */
#else
#define FIRST_BYTES(w, n) ((w) & (~0ULL >> (8 * (8 - (n)))))
#endif

/* an id of n >= 1 bytes: its head and hash; the bytes after it, up to 8, are read and ignored (every buffer
 * has PAD bytes more) */
static inline uint64_t head_of(const char *p, size_t n) {
    return n >= 8 ? word_at(p) : FIRST_BYTES(word_at(p), n);
}

static inline size_t hash_id(uint64_t head, const char *p, size_t n) {
    uint64_t h = head ^ (0x9E3779B97F4A7C15ULL * n);
    for (size_t i = 8; i < n; i += 8) h = (h * 0xFF51AFD7ED558CCDULL) ^ head_of(p + i, n - i);
    h = (h ^ (h >> 33)) * 0xC4CEB9FE1A85EC53ULL; /* MurmurHash3's finaliser: every bit reaches the low ones */
    return (size_t)(h ^ (h >> 33));
}

static inline int same_tail(const char *a, const char *b, size_t n) { /* bytes 8.. of two ids of n bytes */
    for (size_t i = 8; i < n; i += 8)
        if (head_of(a + i, n - i) != head_of(b + i, n - i)) return 0;
    return 1;
}

static int interner_grow(Interner *t) {
    size_t mask = (t->mask + 1) * 2 - 1;
    Slot *slots = calloc(mask + 1, sizeof *slots);
    if (!slots) return -1;
    const int32_t *offsets = (const int32_t *)t->offsets.data;
    for (size_t i = 0; i <= t->mask; i++) {
        if (!t->slots[i].id) continue;
        size_t j = hash_id(t->slots[i].head, t->bytes.data + offsets[t->slots[i].id - 1], t->slots[i].len) & mask;
        while (slots[j].id) j = (j + 1) & mask;
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->mask = mask;
    return 0;
}

/* the code of the id [p, p + n) of this head and hash, a new one when it is new: OK, NOMEM, or REFUSE past
 * int32's range */
static int intern_hashed(Interner *t, const char *p, size_t n, uint64_t head, size_t hash, int32_t *code) {
    const int32_t *offsets = (const int32_t *)t->offsets.data;
    size_t j = hash & t->mask;
    for (; t->slots[j].id; j = (j + 1) & t->mask) {
        const Slot *s = &t->slots[j];
        if (s->head == head && s->len == n && (n <= 8 || same_tail(t->bytes.data + offsets[s->id - 1], p, n))) {
            *code = t->last = s->id - 1;
            return OK;
        }
    }
    if (t->bytes.size + n > INT32_MAX || t->n == INT32_MAX - 1) return REFUSE;
    int32_t id = t->n++, end = (int32_t)(t->bytes.size + n);
    if (grow_append(&t->bytes, p, n) || grow_append(&t->offsets, &end, sizeof end)) return NOMEM;
    t->slots[j] = (Slot){head, id + 1, (uint32_t)n};
    if ((size_t)t->n * 4 > t->mask * 3 && interner_grow(t)) return NOMEM;
    *code = t->last = id;
    return OK;
}

/* the same, the latest row's id tried first */
static int intern(Interner *t, const char *p, size_t n, int32_t *code) {
    uint64_t head = head_of(p, n);
    const int32_t *offsets = (const int32_t *)t->offsets.data;
    if (t->last >= 0 && (size_t)(offsets[t->last + 1] - offsets[t->last]) == n &&
        head_of(t->bytes.data + offsets[t->last], n) == head && same_tail(t->bytes.data + offsets[t->last], p, n)) {
        *code = t->last;
        return OK;
    }
    return intern_hashed(t, p, n, head, hash_id(head, p, n), code);
}

/* ---- lines ------------------------------------------------------------------------------------------ */

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
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif
#define FIELD(c) ((unsigned char)((c) - 0x21) < 0x5e) /* printable ASCII but the space */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* the end of the field that starts at p: its first byte that is not FIELD, found 8 bytes at a time (the lowest
 * byte flagged below is exact: a false flag only ever follows a true one, the borrow running upwards) */
static inline const char *field_end(const char *p) {
#if defined(__GNUC__) && (!defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    for (;; p += 8) {
        uint64_t w = word_at(p), del = w ^ (0x7F * ONES);
        uint64_t flags = (((w - 0x21 * ONES) & ~w) | w | ((del - ONES) & ~del)) & HIGHS; /* < 0x21, >= 0x80, 0x7f */
        if (flags) return p + (__builtin_ctzll(flags) >> 3);
    }
#else
    while (FIELD(*p)) p++;
    return p;
#endif
}

static unsigned char bad[256]; /* not a tab, a line end or printable ASCII (filled by the module's init) */

enum { BLANK_LINE = 0, COMMENT = -1, BAD = -2 };

#if defined(__SSE2__) && defined(__GNUC__) && !defined(RANKFLAVOR_BYTEWISE)
#define MASKS 1

/* bit i of `stop`: p[i] is not a field's byte (outside 0x21-0x7E); of `blank`: a space or a tab; 32 bytes, or 64
 * when the first 32 hold neither a line end nor a bad byte (SSE2: x86-64's baseline; elsewhere byte by byte) */
static inline void line_masks(const char *p, uint64_t *stop, uint64_t *blank) {
    const __m128i shift = _mm_set1_epi8(0x5F), last = _mm_set1_epi8(-34), space = _mm_set1_epi8(' '),
                  tab = _mm_set1_epi8('\t');
    uint64_t s = 0, b = 0;
    for (int k = 0; k < 4; k++) {
        if (k == 2 && (s & ~b)) break;
        __m128i x = _mm_loadu_si128((const __m128i *)(p + 16 * k));
        uint64_t inside = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(_mm_add_epi8(x, shift), last)); /* 0x21-0x7E */
        uint64_t blanks = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, space), _mm_cmpeq_epi8(x, tab)));
        s |= (~inside & 0xFFFF) << (16 * k);
        b |= blanks << (16 * k);
    }
    *stop = s;
    *blank = b;
}
#endif

/* the fields of the line at *pp, which ends at a line end (*pp left on it): how many (at most ncols + 1, their
 * starts and lengths), BLANK_LINE, COMMENT, or BAD (a control character, DEL or a byte beyond ASCII). A line of
 * up to 63 bytes is split from two 64-bit masks of its bytes, a longer one byte by byte */
static inline int line_fields(const char **pp, int ncols, const char **start, size_t *len) {
    const char *p = *pp;
#ifdef MASKS
    uint64_t stop, blank;
    line_masks(p, &stop, &blank);
    uint64_t other = stop & ~blank; /* line ends and bad bytes */
    if (other) {
        int n = __builtin_ctzll(other);
        *pp = p + n;
        if (!END(p[n])) return BAD;
        uint64_t field = ~stop & ((1ULL << n) - 1);
        if (!field) return BLANK_LINE;
        if (p[__builtin_ctzll(field)] == '#') return COMMENT;
        uint64_t starts = field & ~(field << 1), ends = (field << 1) & ~field;
        int fields = 0;
        for (; starts && fields <= ncols; fields++, starts &= starts - 1, ends &= ends - 1) {
            int at = __builtin_ctzll(starts);
            start[fields] = p + at;
            len[fields] = (size_t)(__builtin_ctzll(ends) - at);
        }
        return fields;
    }
#endif
    while (BLANK(*p)) p++;
    if (END(*p) || *p == '#') {
        int comment = *p == '#';
        for (; !END(*p); p++)
            if (bad[(unsigned char)*p]) return BAD;
        *pp = p;
        return comment ? COMMENT : BLANK_LINE;
    }
    int fields = 0;
    for (;;) {
        if (fields == ncols + 1) return fields; /* more columns than the format's: refused by the caller */
        start[fields] = p;
        p = field_end(p);
        len[fields] = (size_t)(p - start[fields]);
        fields++;
        while (BLANK(*p)) p++;
        if (END(*p)) break;
        if (!FIELD(*p)) return BAD;
    }
    *pp = p;
    return fields;
}

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
    for (; p < end; p += (*p == '\r' && p + 1 < end && p[1] == '\n') ? 2 : 1) {
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
        uint64_t head = head_of(start[2], len[2]);
        size_t hash = hash_id(head, start[2], len[2]);
        PREFETCH(&r->doc.slots[hash & r->doc.mask]); /* (while the value is parsed) */
        if (parse_value(start[r->value_col], len[r->value_col], values + rows)) return REFUSE;
        int status = intern(&r->query, start[0], len[0], query + rows);
        if (status == OK) status = intern_hashed(&r->doc, start[2], len[2], head, hash, doc + rows);
        if (status != OK) return status;
        rows++;
    }
    r->query.codes.size += rows * 4;
    r->doc.codes.size += rows * 4;
    r->values.size += rows * 8;
    r->rows += (Py_ssize_t)rows;
    return OK;
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
    pthread_t threads[MAX_PARTS];
    int started[MAX_PARTS] = {0};
    for (int k = 0; k < n; k++) {
        parts[k].fd = fd;
        parts[k].stop = k + 1 < n ? parts[k + 1].start : -1;
        if (k > 0) started[k] = pthread_create(&threads[k], NULL, read_in_thread, &parts[k]) == 0;
    }
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
