/*
** gen.c — the benchmark's data: deterministic rows (fixed seeds, integer
** arithmetic only), written once as JSON and once as jalapenojson, with the
** expected checksums every reader must reproduce.
**
**   gen OUTDIR ROWS...      e.g.  gen bench/data/out 1000 50000
**
** For each ROWS and each set it writes OUTDIR/SET-ROWS.json (an array of
** objects, compact, raw UTF-8: what JavaScript's JSON.stringify writes),
** OUTDIR/SET-ROWS.jj (the canonical layout, what jj_writer writes) and
** OUTDIR/SET-ROWS.sum (the checksums, "key value" per line).  The sets:
**
**   repetitive  id, user (one of 2,000), city (one of 8, "Tromsø" among
**               them), plan (one of 4), seats, price (one of 8), joined
**   entropy     the same seven columns filled with random letters, digits
**               and numbers: little for a compressor to find
**   orders      id, customer, city, placed and items: a nested table of
**               1-6 line items (sku, qty, price) per order; for size only
**
** Row i is the same whatever ROWS is, so the 1,000-row files are the first
** rows of the 50,000-row ones.  README.md ("Checksums") defines every value
** in the .sum files; this file is their reference implementation.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime in bench.h */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* ---------------------------------------------------------------------- */
/* Random numbers and dates                                                */
/* ---------------------------------------------------------------------- */

/* splitmix64: tiny, fast, the same on every platform. */
static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* A number in [lo, hi] (the tiny modulo bias does not matter here). */
static int64_t rng_range(uint64_t *s, int64_t lo, int64_t hi) {
  return lo + (int64_t)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int32_t days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  int era = (y >= 0 ? y : y - 399) / 400;
  int yoe = y - era * 400;
  int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DD" of days since 1970-01-01 into out (11 bytes with the NUL). */
static void civil_from_days(int32_t z, char out[11]) {
  z += 719468;
  int era = (z >= 0 ? z : z - 146096) / 146097;
  int doe = z - era * 146097;
  int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int y = yoe + era * 400;
  int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int mp = (5 * doy + 2) / 153;
  int d = doy - (153 * mp + 2) / 5 + 1;
  int m = mp + (mp < 10 ? 3 : -9);
  int v[3] = {y + (m <= 2), m, d}, at = 10;
  for (int k = 2; k >= 0; k--) { /* fixed width, written right to left */
    for (int w = k ? 2 : 4; w > 0; w--, v[k] /= 10) out[--at] = (char)('0' + v[k] % 10);
    if (k) out[--at] = '-';
  }
  out[10] = 0;
}

/* ---------------------------------------------------------------------- */
/* Rows                                                                    */
/* ---------------------------------------------------------------------- */

/* Prices are fixed-point: units of 1/10,000.  Every price has at most 9
** significant digits, so its shortest round-trip decimal is its exact
** decimal and (double)units / 10000 is the correctly rounded double. */
#define PRICE_SCALE 10000

typedef struct row {
  int64_t id;
  char user[24], city[24], plan[24];
  int64_t seats;
  int64_t price; /* PRICE_SCALE units */
  int32_t joined;
} row;

typedef struct item {
  char sku[16];
  int64_t qty, price;
} item;

typedef struct order {
  int64_t id;
  char customer[16], city[24];
  int32_t placed;
  int nitems;
  item items[6];
} order;

static const char *const CITIES[8] = {"Oslo", "Bergen", "Tromsø", "Stockholm",
                                      "Copenhagen", "Berlin", "Amsterdam", "Lisbon"};
static const char *const PLANS[4] = {"free", "basic", "pro", "team"};
static const int64_t PRICES[8] = {0, 49900, 99900, 199900, 290000, 495000, 990000, 1499900};
static const char ALNUM[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

static void random_word(uint64_t *s, char *out, int lo, int hi) {
  int n = (int)rng_range(s, lo, hi);
  for (int i = 0; i < n; i++) out[i] = ALNUM[rng_next(s) % 62];
  out[n] = 0;
}

/* Row i (1-based) of the repetitive set: the shape of typical API output. */
static void repetitive_row(uint64_t *s, int64_t i, row *r) {
  r->id = i;
  snprintf(r->user, sizeof r->user, "u%04d", (int)rng_range(s, 0, 1999));
  strcpy(r->city, CITIES[rng_next(s) % 8]);
  int plan = (int)(rng_next(s) % 4);
  strcpy(r->plan, PLANS[plan]);
  r->seats = plan == 0 ? 1 : rng_range(s, 1, 20);
  r->price = PRICES[rng_next(s) % 8];
  r->joined = (int32_t)rng_range(s, days_from_civil(2015, 1, 1), days_from_civil(2024, 12, 31));
}

/* Row i of the high-entropy set: random letters, digits and numbers. */
static void entropy_row(uint64_t *s, int64_t i, row *r) {
  (void)i;
  r->id = rng_range(s, 1, ((int64_t)1 << 40) - 1);
  random_word(s, r->user, 8, 16);
  random_word(s, r->city, 4, 14);
  random_word(s, r->plan, 3, 10);
  r->seats = rng_range(s, 0, 999999);
  r->price = rng_range(s, 0, 999999999);
  r->joined = (int32_t)rng_range(s, days_from_civil(1900, 1, 1), days_from_civil(2099, 12, 31));
}

/* Order i of the nested set. */
static void order_row(uint64_t *s, int64_t i, order *o) {
  o->id = i;
  snprintf(o->customer, sizeof o->customer, "u%04d", (int)rng_range(s, 0, 1999));
  strcpy(o->city, CITIES[rng_next(s) % 8]);
  o->placed = (int32_t)rng_range(s, days_from_civil(2020, 1, 1), days_from_civil(2024, 12, 31));
  o->nitems = (int)rng_range(s, 1, 6);
  for (int k = 0; k < o->nitems; k++) {
    int sku = (int)rng_range(s, 0, 499);
    snprintf(o->items[k].sku, sizeof o->items[k].sku, "SKU-%05d", sku * 7 + 1000);
    o->items[k].qty = rng_range(s, 1, 5);
    o->items[k].price = PRICES[1 + sku % 7] + (sku % 3) * 5000;
  }
}

/* ---------------------------------------------------------------------- */
/* Output: both formats, and the checksums                                 */
/* ---------------------------------------------------------------------- */

/* A price as JSON.stringify writes it (19.99, 29) or as jalapenojson's
** writer does, Python repr() layout (19.99, 29.0). */
static void put_price(FILE *f, int64_t units, int jj) {
  int64_t whole = units / PRICE_SCALE, frac = units % PRICE_SCALE;
  if (frac == 0) {
    fprintf(f, jj ? "%" PRId64 ".0" : "%" PRId64, whole);
    return;
  }
  char digits[8];
  snprintf(digits, sizeof digits, "%04d", (int)frac);
  size_t n = strlen(digits);
  while (digits[n - 1] == '0') digits[--n] = 0;
  fprintf(f, "%" PRId64 ".%s", whole, digits);
}

/* A JSON string: escapes only '"', '\\' and control characters, the same
** rule in both formats (the generated text never needs it, but the rule is
** written out so that the files stay right if the data changes). */
static void put_text(FILE *f, const char *p) {
  fputc('"', f);
  for (; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static void put_date(FILE *f, int32_t days) {
  char d[11];
  civil_from_days(days, d);
  fprintf(f, "\"%s\"", d);
}

/* Characters (code points) of UTF-8 text: what SQLite's length() counts. */
static uint64_t utf8_chars(const char *p) {
  uint64_t n = 0;
  for (; *p; p++) n += ((unsigned char)*p & 0xC0) != 0x80;
  return n;
}

/* Running checksums of one file set, named as in the .sum file. */
typedef struct sums {
  bench_sum all, price, city, middle, scan;
  double kbn_sum, kbn_c; /* SQLite 3.43+ sum(): Kahan-Babuska-Neumaier */
  uint64_t since;        /* rows with joined >= 2024-01-01 */
} sums;

/* Add a text value to a checksum. */
static void sum_text(bench_sum *s, const char *p) {
  s->count++;
  s->crc = bench_crc(s->crc, p, strlen(p));
}

/* Kahan-Babuska-Neumaier step, as SQLite's sum() does it since 3.43. */
static void kbn_add(sums *s, double v) {
  double t = s->kbn_sum + v;
  if (fabs(s->kbn_sum) >= fabs(v)) s->kbn_c += (s->kbn_sum - t) + v;
  else s->kbn_c += (v - t) + s->kbn_sum;
  s->kbn_sum = t;
}

/* Add row r to every checksum; `middle` says whether it is the middle row. */
static void sum_row(sums *s, const row *r, int middle, int32_t since) {
  char d[11];
  double price = (double)r->price / PRICE_SCALE;
  civil_from_days(r->joined, d);
  bench_sum *targets[2] = {&s->all, middle ? &s->middle : NULL};
  for (int t = 0; t < 2 && targets[t]; t++) {
    bench_sum *a = targets[t];
    a->count += 3; /* id, seats, price */
    a->sum_int += r->id + r->seats;
    a->sum_float += price;
    sum_text(a, r->user);
    sum_text(a, r->city);
    sum_text(a, r->plan);
    sum_text(a, d);
  }
  s->price.count++;
  s->price.sum_float += price;
  sum_text(&s->city, r->city);
  s->scan.count++;
  s->scan.sum_int += r->id + r->seats;
  s->scan.sum_float += price;
  s->scan.chars += utf8_chars(r->user) + utf8_chars(r->city) + utf8_chars(r->plan) + 10;
  kbn_add(s, price);
  s->since += r->joined >= since;
}

static void put_sum(FILE *f, const char *name, const bench_sum *s) {
  fprintf(f, "%s.count %" PRIu64 "\n%s.sum_int %" PRId64 "\n%s.sum_float %a\n"
             "%s.crc %08x\n%s.chars %" PRIu64 "\n",
          name, s->count, name, s->sum_int, name, s->sum_float, name, (unsigned)s->crc,
          name, s->chars);
}

static FILE *open_out(const char *dir, const char *set, long rows, const char *ext) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-%ld.%s", dir, set, rows, ext);
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(1);
  }
  setvbuf(f, NULL, _IOFBF, 1 << 20);
  return f;
}

static void close_out(FILE *f) {
  if (ferror(f) || fclose(f) != 0) {
    perror("gen: write");
    exit(1);
  }
}

#define SINCE_Y 2024
static const char SINCE_TEXT[] = "2024-01-01";

/* One flat set (repetitive or entropy) at `rows` rows. */
static void write_flat(const char *dir, const char *set, long rows, uint64_t seed,
                       void (*make)(uint64_t *, int64_t, row *)) {
  FILE *js = open_out(dir, set, rows, "json"), *jj = open_out(dir, set, rows, "jj");
  sums s;
  memset(&s, 0, sizeof s);
  int64_t middle = rows / 2 + 1;
  int32_t since = days_from_civil(SINCE_Y, 1, 1);
  fputs("{\"jalapenojson\":1,\"columns\":[\"id\",\"user\",\"city\",\"plan\",\"seats\",\"price\","
        "\"joined\"],\"types\":[\"i\",\"s\",\"s\",\"s\",\"i\",\"f\",\"d\"],\"rows\":[\n", jj);
  fputc('[', js);
  for (int64_t i = 1; i <= rows; i++) {
    row r;
    make(&seed, i, &r);
    if (i > 1) {
      fputc(',', js);
      fputs(",\n", jj);
    }
    for (int k = 0; k < 2; k++) {
      FILE *f = k ? jj : js;
      const char *sep = k ? "," : ",\"";
      fputs(k ? "[" : "{\"id\":", f);
      fprintf(f, "%" PRId64, r.id);
      fprintf(f, "%s%s", sep, k ? "" : "user\":");
      put_text(f, r.user);
      fprintf(f, "%s%s", sep, k ? "" : "city\":");
      put_text(f, r.city);
      fprintf(f, "%s%s", sep, k ? "" : "plan\":");
      put_text(f, r.plan);
      fprintf(f, "%s%s%" PRId64, sep, k ? "" : "seats\":", r.seats);
      fprintf(f, "%s%s", sep, k ? "" : "price\":");
      put_price(f, r.price, k);
      fprintf(f, "%s%s", sep, k ? "" : "joined\":");
      put_date(f, r.joined);
      fputc(k ? ']' : '}', f);
    }
    sum_row(&s, &r, i == middle, since);
  }
  fputc(']', js);
  fputs("\n]}", jj);
  close_out(js);
  close_out(jj);

  FILE *f = open_out(dir, set, rows, "sum");
  fprintf(f, "rows %ld\nmiddle_row %" PRId64 "\nsince %s\n", rows, middle, SINCE_TEXT);
  put_sum(f, "all", &s.all);
  put_sum(f, "price", &s.price);
  put_sum(f, "city", &s.city);
  put_sum(f, "middle", &s.middle);
  put_sum(f, "sql.scan", &s.scan);
  fprintf(f, "sql.scan.sum_float_kbn %a\n", s.kbn_sum + s.kbn_c);
  fprintf(f, "sql.price.sum_float %a\nsql.price.sum_float_kbn %a\n", s.price.sum_float,
          s.kbn_sum + s.kbn_c);
  fprintf(f, "sql.count.count %ld\n", rows);
  fprintf(f, "sql.since.count %" PRIu64 "\n", s.since);
  put_sum(f, "sql.row", &s.middle);
  close_out(f);
}

/* The nested orders set at `rows` orders; its checksum covers every value
** in document order (nested items after the order's own columns). */
static void write_orders(const char *dir, long rows, uint64_t seed) {
  FILE *js = open_out(dir, "orders", rows, "json"), *jj = open_out(dir, "orders", rows, "jj");
  bench_sum all;
  memset(&all, 0, sizeof all);
  fputs("{\"jalapenojson\":1,\"columns\":[\"id\",\"customer\",\"city\",\"placed\",\"items\"],"
        "\"types\":[\"i\",\"s\",\"s\",\"d\",{\"columns\":[\"sku\",\"qty\",\"price\"],"
        "\"types\":[\"s\",\"i\",\"f\"]}],\"rows\":[\n", jj);
  fputc('[', js);
  for (int64_t i = 1; i <= rows; i++) {
    order o;
    char d[11];
    order_row(&seed, i, &o);
    civil_from_days(o.placed, d);
    if (i > 1) {
      fputc(',', js);
      fputs(",\n", jj);
    }
    fprintf(js, "{\"id\":%" PRId64 ",\"customer\":", o.id);
    put_text(js, o.customer);
    fputs(",\"city\":", js);
    put_text(js, o.city);
    fprintf(js, ",\"placed\":\"%s\",\"items\":[", d);
    fprintf(jj, "[%" PRId64 ",", o.id);
    put_text(jj, o.customer);
    fputc(',', jj);
    put_text(jj, o.city);
    fprintf(jj, ",\"%s\",[", d);
    all.count += 1;
    all.sum_int += o.id;
    sum_text(&all, o.customer);
    sum_text(&all, o.city);
    sum_text(&all, d);
    for (int k = 0; k < o.nitems; k++) {
      const item *it = &o.items[k];
      fputs(k ? ",{\"sku\":" : "{\"sku\":", js);
      put_text(js, it->sku);
      fprintf(js, ",\"qty\":%" PRId64 ",\"price\":", it->qty);
      put_price(js, it->price, 0);
      fputc('}', js);
      fputs(k ? ",[" : "[", jj);
      put_text(jj, it->sku);
      fprintf(jj, ",%" PRId64 ",", it->qty);
      put_price(jj, it->price, 1);
      fputc(']', jj);
      sum_text(&all, it->sku);
      all.count += 2;
      all.sum_int += it->qty;
      all.sum_float += (double)it->price / PRICE_SCALE;
    }
    fputs("]}", js);
    fputs("]]", jj);
  }
  fputc(']', js);
  fputs("\n]}", jj);
  close_out(js);
  close_out(jj);
  FILE *f = open_out(dir, "orders", rows, "sum");
  fprintf(f, "rows %ld\n", rows);
  put_sum(f, "all", &all);
  close_out(f);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: gen OUTDIR ROWS...\n");
    return 2;
  }
  bench_crc_init();
  for (int a = 2; a < argc; a++) {
    long rows = strtol(argv[a], NULL, 10);
    if (rows < 2) {
      fprintf(stderr, "gen: ROWS must be at least 2\n");
      return 2;
    }
    write_flat(argv[1], "repetitive", rows, 0x6A616C6170656E6Fu, repetitive_row);
    write_flat(argv[1], "entropy", rows, 0x68696768656E7470u, entropy_row);
    write_orders(argv[1], rows, 0x6F72646572736E74u);
  }
  return 0;
}
