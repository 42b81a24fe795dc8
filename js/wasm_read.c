/*
** wasm_read.c — reading rows for the JavaScript module: a reader is a
** cursor over a document (js/wasm.c's jjw_doc) with the buffers of one
** batch of rows, which JS turns into values (js/lib/read.js).
**
** Why a batch ABI instead of one export per value: a call from JS into wasm
** is cheap, a JS string made from wasm memory is not (one TextDecoder call
** costs far more than the bytes it decodes when strings are short).  So a
** read fills a batch of rows at once: per column a tag and an 8-byte slot
** per row, every text value of the batch copied into one UTF-8 arena that
** JS decodes with one TextDecoder call and cuts with String.slice at the
** UTF-16 positions computed here.  Nested tables read in a batch belong to
** the batch (released at the next read) unless JS retains them.
*/
#include <stdlib.h>
#include <string.h>

#include "wasm.h"

/* Read flags. */
#define RD_DAYS 1u  /* dates as days since 1970-01-01 in the slot */
#define RD_TS 2u    /* timestamps as numbers in the binary arena */
#define RD_HERE 4u  /* read the row the cursor is on (after jjw_seek) */

/* Slot tags. */
enum { TAG_NULL = 0, TAG_VALUE = 1, TAG_BIG = 2, TAG_ID = 3 };

/* Short text is interned per reader, as V8's JSON.parse internalizes short
** strings: the first time a string is read it gets an id (its text goes to
** the batch's arena as usual and its span to the batch's list of new
** strings), later reads give the id only, and JS hands out the string it
** made the first time.  Repeated values (a city, a plan, a date) then cost
** JS no new string, and the garbage collector nothing.  Bounded: at most
** INTERN_MAX strings of at most INTERN_LEN bytes per reader; others are
** plain spans.  The table starts at INTERN_FIRST slots and doubles while
** more strings come, so that a reader of a few rows holds a few strings'
** room, not the whole table's (0.2 MB).  Not in the reader-only module (JJ_SMALL), built for size:
** there every text is a span (0.27 KB of its gzipped size; its decode()
** of repeated short text about 9% slower). */
#define INTERN_LEN 24
#define INTERN_MAX 4096
#define INTERN_SLOTS 8192 /* a power of two, at most half full */
#define INTERN_FIRST 16
typedef struct islot {
  uint32_t hash; /* 0: empty */
  uint32_t id, len;
} islot;

/* A growable byte arena.  It starts at 240 bytes and doubles: with
** js/wasm_malloc.c's 16-byte header every size fills its block (256 bytes,
** 512, ...), and a reader of one short row holds 256 bytes, not 8 KB. */
typedef struct arena {
  unsigned char *p;
  size_t len, cap;
} arena;

static int arena_room(arena *a, size_t n) {
  if (a->cap - a->len >= n) return 1;
  size_t cap = a->cap ? a->cap : 240;
  while (cap - a->len < n) {
    if (cap > SIZE_MAX / 2) return 0;
    cap *= 2;
  }
  unsigned char *p = realloc(a->p, cap);
  if (!p) return 0;
  a->p = p;
  a->cap = cap;
  return 1;
}

/* What JS reads after jjw_read, as 32-bit words (jjw_out). */
enum {
  OUT_TAGS, OUT_SLOTS, OUT_TEXT, OUT_TEXT_LEN, OUT_BIN, OUT_BIN_LEN, OUT_CAP,
  OUT_FRESH, OUT_FRESH_COUNT, OUT_WORDS
};

typedef struct jjw_reader {
  jjw_doc *h;           /* a reference held */
  jj_cursor *cur;
  size_t ncols;
  const jj_schema *schema;
  uint32_t cap;         /* rows per batch */
  unsigned char *want;  /* ncols: 1 to read the column */
  unsigned char *tags;  /* ncols * cap: column-major */
  uint64_t *slots;      /* ncols * cap */
  arena text;           /* UTF-8 of every text value of the batch */
  uint32_t u16;         /* UTF-16 length of the text so far */
  arena bin;            /* decoded bytes, timestamps as numbers */
  jjw_doc **kids;       /* nested tables read in this batch */
  size_t nkids, kcap;
#ifndef JJ_SMALL /* no interning in a build for size: OUT_FRESH* stay 0 */
  islot *itab;          /* interned text: nslots (NULL until used) */
  unsigned char *istore; /* the interned bytes, INTERN_LEN per id */
  uint32_t nids, nslots;
  uint32_t looks, hits; /* lookups and hits, to stop when it does not pay */
  int no_intern;
  arena fresh;          /* the batch's new ids: (UTF-16 start, units) */
#endif
  uint32_t out[OUT_WORDS];
} jjw_reader;

/* Release the nested tables of the last batch (those JS kept hold their
** own reference). */
static void reader_reset(jjw_reader *r) {
  for (size_t i = 0; i < r->nkids; i++) jjw_doc_release(r->kids[i]);
  r->nkids = 0;
  r->text.len = 0;
  r->bin.len = 0;
#ifndef JJ_SMALL
  r->fresh.len = 0;
#endif
  r->u16 = 0;
}

EXPORT(jjw_reader_free) void jjw_reader_free(jjw_reader *r) {
  if (!r) return;
  reader_reset(r);
  jj_cursor_free(r->cur);
  free(r->kids);
  free(r->want);
  free(r->tags);
  free(r->slots);
  free(r->text.p);
  free(r->bin.p);
#ifndef JJ_SMALL
  free(r->fresh.p);
  free(r->itab);
  free(r->istore);
#endif
  jjw_doc_release(r->h);
  free(r);
}

/* A reader of h with batches of `cap` rows (at least 1); `intern`: intern
** short text (a reader of the many small nested tables does not: its
** table would cost more than it saves). */
EXPORT(jjw_reader_new) jjw_reader *jjw_reader_new(jjw_doc *h, uint32_t cap, int intern) {
  jjw_reader *r = calloc(1, sizeof *r);
  if (!r) return jjw_nomem(), NULL;
#ifndef JJ_SMALL
  r->no_intern = !intern;
#else
  (void)intern;
#endif
  h->refs++;
  r->h = h;
  r->schema = jj_doc_schema(h->doc);
  r->ncols = jj_schema_columns(r->schema);
  r->cap = cap ? cap : 1;
  r->cur = jj_cursor_new(h->doc, &jjw_err);
  if (!r->cur) {
    jjw_reader_free(r);
    return NULL;
  }
  size_t cells = r->ncols * r->cap;
  if (cells / r->cap != r->ncols || cells > SIZE_MAX / 8 ||
      !(r->want = malloc(r->ncols)) || !(r->tags = malloc(cells)) ||
      !(r->slots = malloc(cells * 8))) {
    jjw_reader_free(r);
    return jjw_nomem(), NULL;
  }
  memset(r->want, 1, r->ncols);
  r->out[OUT_TAGS] = (uint32_t)(uintptr_t)r->tags;
  r->out[OUT_SLOTS] = (uint32_t)(uintptr_t)r->slots;
  r->out[OUT_CAP] = r->cap;
  return r;
}

/* The columns to read: JS sets want[col] to 0 or 1 (all 1 at first). */
EXPORT(jjw_want) unsigned char *jjw_want(jjw_reader *r) { return r->want; }
/* The batch's description (OUT_* words), valid after jjw_read. */
EXPORT(jjw_out) uint32_t *jjw_out(jjw_reader *r) { return r->out; }

/* Move to row `row` (1-based; 0 before the first).  1 on it, 0 no such
** row, -1 error. */
EXPORT(jjw_seek) int jjw_seek(jjw_reader *r, double row) {
  return jj_cursor_seek(r->cur, (int64_t)row, &jjw_err);
}

/* Room put_span keeps after the text it appends: its last 8-byte load
** may reach past the text's end (none in the reader-only module). */
#if !defined(JJ_SWAR) || JJ_SWAR
#define TAIL 7
#else
#define TAIL 0
#endif

/* memcpy for the short text of most values: V8 runs memory.copy (what
** memcpy is with bulk memory) as a call out of the compiled code, which
** costs more than such text takes to copy in words: 8 bytes at a time
** and a last word that overlaps the one before (8-64 bytes), two 4-byte
** words that overlap (4-7), a byte loop (1-3), every load and store
** within the text; memcpy beyond.  The reader-only module, built for
** size, calls memcpy. */
static void copy_text(unsigned char *d, const char *p, size_t len) {
#if !defined(JJ_SWAR) || JJ_SWAR
  if (len >= 8 && len <= 64) {
    uint64_t w;
#pragma clang loop vectorize(disable) unroll(disable)
    for (size_t i = 0; i + 8 < len; i += 8) {
      memcpy(&w, p + i, 8);
      memcpy(d + i, &w, 8);
    }
    memcpy(&w, p + len - 8, 8);
    memcpy(d + len - 8, &w, 8);
    return;
  }
  if (len >= 4 && len < 8) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + len - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + len - 4, &b, 4);
    return;
  }
  if (len < 4) {
#pragma clang loop vectorize(disable) unroll(disable)
    for (size_t i = 0; i < len; i++) d[i] = (unsigned char)p[i];
    return;
  }
#endif
  memcpy(d, p, len);
}

/* Append text to the arena; its UTF-16 span goes to the slot.  The text
** is valid UTF-8 (the core checked it), so its UTF-16 length is one unit
** per byte that is not a continuation byte, two for a 4-byte sequence. */
static int put_span(jjw_reader *r, const char *p, size_t len, uint64_t *slot) {
  uint32_t units = (uint32_t)len;
  if (len) {
    if (!arena_room(&r->text, len + TAIL)) return 0;
    unsigned char *d = r->text.p + r->text.len;
    copy_text(d, p, len);
    r->text.len += len;
    /* one unit per byte, less the continuation bytes (10xxxxxx), plus one
    ** for each lead of a 4-byte sequence (11110xxx); 8 bytes at a time,
    ** the last word masked to the text's bytes (the arena has TAIL bytes
    ** of room after it), so that short text costs no byte loop: bit 7 of
    ** each byte of c is set for a continuation byte, of f for a lead of 4
    ** (bits 7-4 set; the shifts bring a byte's bits 6-3 under its bit 7).
    ** Byte by byte in the reader-only module, built for size (JJ_SWAR=0). */
#if !defined(JJ_SWAR) || JJ_SWAR
#pragma clang loop vectorize(disable) unroll(disable)
    for (size_t i = 0; i < len; i += 8) {
      uint64_t w, c, f;
      memcpy(&w, d + i, 8);
      if (len - i < 8) w &= ~UINT64_C(0) >> (64 - 8 * (len - i));
      if (!(w & UINT64_C(0x8080808080808080))) continue;
      c = w & ~(w << 1) & UINT64_C(0x8080808080808080);
      f = w & (w << 1) & (w << 2) & (w << 3) & UINT64_C(0x8080808080808080);
      units += (uint32_t)__builtin_popcountll(f) - (uint32_t)__builtin_popcountll(c);
    }
#else
    for (size_t i = 0; i < len; i++) units += (d[i] >= 0xF0) - ((d[i] & 0xC0) == 0x80);
#endif
  }
  *slot = (uint64_t)r->u16 | (uint64_t)(r->u16 + units) << 32;
  r->u16 += units;
  return 1;
}

#ifndef JJ_SMALL
/* Double the interned text's table (INTERN_FIRST slots at first) and its
** store, which holds an id for every two slots.  0 when out of memory (the
** table as it was). */
static int intern_grow(jjw_reader *r) {
  uint32_t n = r->nslots ? r->nslots * 2 : INTERN_FIRST;
  islot *tab = calloc(n, sizeof *tab);
  unsigned char *store = tab ? realloc(r->istore, (size_t)n / 2 * INTERN_LEN) : NULL;
  if (!store) {
    free(tab);
    return 0;
  }
  r->istore = store;
  for (uint32_t k = 0; k < r->nslots; k++) {
    if (!r->itab[k].hash) continue;
    uint32_t i = r->itab[k].hash & (n - 1);
    while (tab[i].hash) i = (i + 1) & (n - 1);
    tab[i] = r->itab[k];
  }
  free(r->itab);
  r->itab = tab;
  r->nslots = n;
  return 1;
}
#endif

/* Text into the batch: an interned id (the slot's low word, tag TAG_ID)
** or a span (TAG_VALUE).  0 when out of memory. */
static int put_text(jjw_reader *r, const char *p, size_t len, uint64_t *slot,
                    unsigned char *tag) {
  *tag = TAG_VALUE;
#ifdef JJ_SMALL /* no interning: see above */
  return put_span(r, p, len, slot);
#else
  if (len > INTERN_LEN || r->no_intern) return put_span(r, p, len, slot);
  if (r->nids >= r->nslots / 2 && r->nslots < INTERN_SLOTS && !intern_grow(r)) return 0;
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)p[i]) * 16777619u;
  h |= 1;
  size_t mask = r->nslots - 1;
  size_t i = h & mask;
  r->looks++;
  for (; r->itab[i].hash; i = (i + 1) & mask) {
    islot *e = &r->itab[i];
    if (e->hash == h && e->len == len &&
        memcmp(r->istore + (size_t)e->id * INTERN_LEN, p, len) == 0) {
      *slot = e->id;
      *tag = TAG_ID;
      r->hits++;
      return 1;
    }
  }
  if (r->nids == INTERN_MAX) {
    /* full: keep looking only while at least a quarter of the lookups hit
    ** (text that hardly repeats, random ids, would pay for nothing) */
    if (r->hits < r->looks / 4) r->no_intern = 1;
    return put_span(r, p, len, slot);
  }
  uint32_t *f;
  size_t at;
  if (!arena_room(&r->fresh, 8) || !put_span(r, p, len, slot)) return 0;
  at = r->fresh.len;
  f = (uint32_t *)(void *)(r->fresh.p + at);
  f[0] = (uint32_t)*slot;
  f[1] = (uint32_t)(*slot >> 32) - f[0];
  r->fresh.len += 8;
  memcpy(r->istore + (size_t)r->nids * INTERN_LEN, p, len);
  r->itab[i] = (islot){h, r->nids, (uint32_t)len};
  *slot = r->nids++;
  *tag = TAG_ID;
  return 1;
#endif
}

/* Room for n bytes at the end of the binary arena, aligned to 8 (copied
** from p unless p is NULL); their offset goes to *at.  0 when out of
** memory. */
static int put_bin(jjw_reader *r, const void *p, size_t n, uint32_t *at) {
  size_t pad = (8 - (r->bin.len & 7)) & 7;
  if (!arena_room(&r->bin, pad + n + 8)) return 0; /* never an empty arena */
  r->bin.len += pad;
  *at = (uint32_t)r->bin.len;
  if (p && n) memcpy(r->bin.p + r->bin.len, p, n);
  r->bin.len += n;
  return 1;
}

/* Keep a nested table of this batch; its handle goes to the slot. */
static int put_kid(jjw_reader *r, jj_doc *doc, uint64_t *slot) {
  if (r->nkids == r->kcap) {
    size_t cap = r->kcap ? r->kcap * 2 : 16;
    jjw_doc **k = realloc(r->kids, cap * sizeof *k);
    if (!k) return jj_doc_free(doc), 0;
    r->kids = k;
    r->kcap = cap;
  }
  jjw_doc *h = jjw_doc_wrap(doc, NULL, r->h);
  if (!h) return 0;
  r->kids[r->nkids++] = h;
  *slot = (uint32_t)(uintptr_t)h;
  return 1;
}

/* 2^53: integers below it in magnitude are exact as doubles. */
#define SAFE_INT 9007199254740991LL

/* Read column col of the current row into batch row i.  0 with the error
** in jjw_err. */
static int read_cell(jjw_reader *r, size_t col, uint32_t i, unsigned flags) {
  jj_value v;
  size_t at = col * r->cap + i;
  uint64_t *slot = &r->slots[at];
  int rc = jj_cursor_value(r->cur, col, &v, &jjw_err);
  if (rc < 0) return 0;
  if (rc == 0) {
    r->tags[at] = TAG_NULL;
    return 1;
  }
  unsigned char tag = TAG_VALUE;
  double d;
  uint32_t off;
  switch (v.type) {
    case JJ_INT:
      if (v.u.i >= -SAFE_INT && v.u.i <= SAFE_INT) {
        d = (double)v.u.i;
        memcpy(slot, &d, 8);
      } else {
        tag = TAG_BIG;
        memcpy(slot, &v.u.i, 8);
      }
      break;
    case JJ_FLOAT: memcpy(slot, &v.u.f, 8); break;
    case JJ_BOOL:
      d = v.u.b;
      memcpy(slot, &d, 8);
      break;
    case JJ_DATE:
      if (flags & RD_DAYS) {
        d = v.u.date.days;
        memcpy(slot, &d, 8);
        break;
      }
      if (!put_text(r, v.u.date.p, v.u.date.len, slot, &tag)) return jjw_nomem(), 0;
      break;
    case JJ_TIMESTAMP:
      if (flags & RD_TS) {
        /* seconds as a double (exact: |s| < 2^38 in years 0000-9999),
        ** then nanos, zone minutes, digits as 32-bit words */
        if (!put_bin(r, NULL, 24, &off)) return jjw_nomem(), 0;
        int32_t *q = (int32_t *)(void *)(r->bin.p + off);
        d = (double)v.u.timestamp.ts.seconds;
        memcpy(q, &d, 8);
        q[2] = v.u.timestamp.ts.nanos;
        q[3] = v.u.timestamp.ts.zone_minutes;
        q[4] = v.u.timestamp.ts.digits;
        *slot = off;
        break;
      }
      if (!put_text(r, v.u.timestamp.p, v.u.timestamp.len, slot, &tag)) return jjw_nomem(), 0;
      break;
    case JJ_LOCAL_TIMESTAMP: /* its text: JS has no zone-less instant */
      if (!put_text(r, v.u.timestamp.p, v.u.timestamp.len, slot, &tag)) return jjw_nomem(), 0;
      break;
    case JJ_TEXT:
      if (!put_text(r, v.u.text.p, v.u.text.len, slot, &tag)) return jjw_nomem(), 0;
      break;
    case JJ_JSON: /* its text, which JS parses */
      if (!put_text(r, v.u.json.p, v.u.json.len, slot, &tag)) return jjw_nomem(), 0;
      break;
    case JJ_BYTES:
      if (!put_bin(r, v.u.bytes.p, v.u.bytes.len, &off)) return jjw_nomem(), 0;
      *slot = (uint64_t)off | (uint64_t)v.u.bytes.len << 32;
      break;
    case JJ_TABLE:
      /* checked whole now, so that the first error of a document is the
      ** one the C reader meets first (in document order), whenever JS
      ** reads the nested rows */
      if (jj_doc_validate(v.u.table, &jjw_err) != JJ_OK) {
        jj_doc_free(v.u.table);
        return 0;
      }
      if (!put_kid(r, v.u.table, slot)) return jjw_nomem(), 0;
      break;
  }
  r->tags[at] = tag;
  return 1;
}

/* Read up to max rows (at most the batch size) from the cursor's position
** (RD_HERE: the current row only) into the batch.  Returns the rows read
** (0 at the end, after the end's checks), or -1 with the error. */
EXPORT(jjw_read) int jjw_read(jjw_reader *r, uint32_t max, unsigned flags) {
  uint32_t n = 0;
  reader_reset(r);
  if (max > r->cap) max = r->cap;
  if (flags & RD_HERE) max = jj_cursor_row(r->cur) > 0 ? 1 : 0;
  while (n < max) {
    if (!(flags & RD_HERE)) {
      int rc = jj_cursor_next(r->cur, &jjw_err);
      if (rc < 0) return -1;
      if (rc == 0) break;
    }
    for (size_t col = 0; col < r->ncols; col++)
      if (r->want[col] && !read_cell(r, col, n, flags)) return -1;
    n++;
  }
  r->out[OUT_TEXT] = (uint32_t)(uintptr_t)r->text.p;
  r->out[OUT_TEXT_LEN] = (uint32_t)r->text.len;
  r->out[OUT_BIN] = (uint32_t)(uintptr_t)r->bin.p;
  r->out[OUT_BIN_LEN] = (uint32_t)r->bin.len;
#ifndef JJ_SMALL
  r->out[OUT_FRESH] = (uint32_t)(uintptr_t)r->fresh.p;
  r->out[OUT_FRESH_COUNT] = (uint32_t)(r->fresh.len / 8);
#endif
  return (int)n;
}
