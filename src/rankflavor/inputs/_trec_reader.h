/* The compiled TREC reader's pieces (inputs/_trec_reader.c includes this file once): buffers of mapped pages,
 * the id interner, a value field's number and a line's fields. */

#ifndef RANKFLAVOR_TREC_READER_H
#define RANKFLAVOR_TREC_READER_H

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define BLOCK (1 << 20)
#define PAD 16              /* bytes after a buffer's data: an id is read 8 bytes at a time */
#define LINE_PAD 72         /* bytes after the read buffer's data: a line's first 64 bytes are classified at once */
#define MAX_NUMBER 256      /* a value field longer than this is left to the Python reader */
#define MAX_PARTS 4         /* threads reading one file */
#define MIN_PART (4 << 20)  /* bytes of a part at least */
#define SPARSE_SLOTS (1 << 18) /* a table whose ids come back (REPEATS lookups an id) is kept at most a quarter full
                                up to this many slots (4 MB): an id is then found at the first slot it tries, fetched
                                ahead (read_lines); else three quarters full */
#define REPEATS 8
#define PRESIZE_SLOTS (1 << 17) /* a doc table made at most this large before a part is read (2 MB): interner_presize */
#define LINE_BYTES 32          /* the bytes of a line a part's size is divided by to guess its doc ids */

/* ---- a growable buffer (handed to Python by _trec_reader.c's Block) -----------------------------------
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
    size_t looked; /* look-ups so far */
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
    t->looked++;
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

/* an empty table made large enough for `ids` ids at most three quarters full (up to PRESIZE_SLOTS), so that the
 * ids of a part that come once each (a track's run: 48,000 docs in 1.4 MB) are not rehashed as the table doubles
 * from 1,024 slots six times; 0 or NOMEM */
static int interner_presize(Interner *t, size_t ids) {
    size_t slots = t->mask + 1;
    while (slots < PRESIZE_SLOTS && slots * 3 < ids * 4) slots *= 2;
    if (t->n || slots == t->mask + 1) return OK;
    Slot *table = calloc(slots, sizeof *table);
    if (!table) return NOMEM;
    free(t->slots);
    t->slots = table;
    t->mask = slots - 1;
    return OK;
}

/* a table whose ids come back often grown until it is at most a quarter full (up to SPARSE_SLOTS): a table of
 * ids that come once (a track's run: each doc once) stays small; 0 or NOMEM */
static int interner_sparsen(Interner *t) {
    while ((size_t)t->n * 4 > t->mask && t->mask + 1 < SPARSE_SLOTS && t->looked >= REPEATS * (size_t)t->n)
        if (interner_grow(t)) return NOMEM;
    return OK;
}

/* ---- a line's fields and value --------------------------------------------------------------------- */

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

#endif
