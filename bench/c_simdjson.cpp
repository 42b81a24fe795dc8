/*
** c_simdjson.cpp — simdjson (Debian's libsimdjson-dev 3.0.1), its on-demand
** API, on the benchmark's read tasks.  One measurement per process:
**
**   c_simdjson all|values|price|city|middle|count|stage1 simdjson DOC.json DOC.sum
**
** A run is parser.iterate() over the document (stage 1 indexes every
** structural character), then the values the task asks for, looked up by
** name with object["key"] (fastest when keys come in order, as they do):
** get_int64 / get_double (grammar checked, correctly rounded), get_string
** (unescaped into the parser's buffer; pointer + length), dates as
** unchecked strings; "values" reads what "all" reads with the same calls
** but only counts the texts and adds their lengths, no CRC-32 (c_jj.c's
** "values" likewise); "count" counts the rows (count_elements: stage 1's
** structure, each row skipped, no value read); "stage1" is parser.iterate()
** alone (stage 1's structural index of the whole document, the rows not
** walked: a lower bound on what finding the rows' structure costs this
** parser).  What
** the task does not read is skipped, not parsed.
** The parser is created once and reused, as simdjson recommends.
** simdjson has no writer, so it has no "write" task.
*/
#include <simdjson.h>

extern "C" {
#include "bench.h"
}

using namespace simdjson;

namespace {

struct ctx {
  const char *task;
  char *doc;
  size_t len;
  int64_t middle;
  volatile size_t sink; /* "values": the texts' lengths, read by no one */
  ondemand::parser parser;
};

const char *const names[7] = {"id", "user", "city", "plan", "seats", "price", "joined"};

void add_text(bench_sum *s, std::string_view v) {
  s->count++;
  s->crc = bench_crc(s->crc, v.data(), v.size());
}

/* A text value for "values": counted, its length added to *len (kept
** from the optimiser only), no CRC-32, as c_jj.c's read_row. */
void add_length(bench_sum *s, std::string_view v, size_t *len) {
  s->count++;
  *len += v.size();
}

/* Add every value of one row (an object) to s; false on any error.  The
** texts summed by CRC-32 ("all", "middle"), or when len is given only
** counted and their lengths added to *len ("values"): the same reads. */
template <bool Crc>
bool add_row(ondemand::object o, bench_sum *s, size_t *len) {
  int64_t i;
  double d;
  std::string_view t;
  if (o[names[0]].get_int64().get(i)) return false;
  s->count++;
  s->sum_int += i;
  for (int c = 1; c <= 3; c++) {
    if (o[names[c]].get_string().get(t)) return false;
    if (Crc) add_text(s, t); else add_length(s, t, len);
  }
  if (o[names[4]].get_int64().get(i)) return false;
  s->count++;
  s->sum_int += i;
  if (o[names[5]].get_double().get(d)) return false;
  s->count++;
  s->sum_float += d;
  if (o[names[6]].get_string().get(t)) return false;
  if (Crc) add_text(s, t); else add_length(s, t, len);
  return true;
}

/* One run: iterate, then read what the task asks for. */
int run_read(void *p, bench_sum *s, uint64_t *ns) {
  ctx *x = static_cast<ctx *>(p);
  bool ok = true;
  uint64_t t0 = bench_now_ns();
  ondemand::document doc;
  ondemand::array arr;
  if (x->parser.iterate(padded_string_view(x->doc, x->len, x->len + BENCH_PADDING)).get(doc) ||
      doc.get_array().get(arr))
    return -1;
  if (x->task[0] == 's') { /* stage1: the index is made; nothing is walked */
    *ns = bench_now_ns() - t0;
    return 0;
  }
  switch (x->task[0]) {
    case 'a':
      for (auto r : arr) {
        ondemand::object o;
        if (r.get_object().get(o) || !add_row<true>(o, s, nullptr)) { ok = false; break; }
      }
      break;
    case 'v': { /* values: the texts' lengths kept from the optimiser only */
      size_t len = 0;
      for (auto r : arr) {
        ondemand::object o;
        if (r.get_object().get(o) || !add_row<false>(o, s, &len)) { ok = false; break; }
      }
      x->sink = len;
      break;
    }
    case 'p':
      for (auto r : arr) {
        ondemand::object o;
        double d;
        if (r.get_object().get(o) || o["price"].get_double().get(d)) { ok = false; break; }
        s->count++;
        s->sum_float += d;
      }
      break;
    case 'c':
      if (x->task[1] == 'o') { /* count: the rows, nothing read */
        size_t n = 0;
        if (arr.count_elements().get(n)) ok = false;
        s->count = n;
        break;
      }
      for (auto r : arr) {
        ondemand::object o;
        std::string_view t;
        if (r.get_object().get(o) || o["city"].get_string().get(t)) { ok = false; break; }
        add_text(s, t);
      }
      break;
    default: {
      int64_t i = 0;
      ok = false;
      for (auto r : arr) {
        if (++i < x->middle) continue;
        ondemand::object o;
        ok = !r.get_object().get(o) && add_row<true>(o, s, nullptr);
        break;
      }
    }
  }
  *ns = bench_now_ns() - t0;
  return ok ? 0 : -1;
}

}  // namespace

int main(int argc, char **argv) {
  const char *tasks = "all values price city middle count stage1";
  if (argc != 5 || strcmp(argv[2], "simdjson") != 0 || !strstr(tasks, argv[1])) {
    fprintf(stderr, "usage: %s TASK simdjson DOC.json DOC.sum\n  tasks: %s\n", argv[0], tasks);
    return 2;
  }
  bench_crc_init();
  ctx *x = new ctx();
  x->task = argv[1];
  size_t sum_len;
  char *sums = bench_load(argv[4], &sum_len);
  bench_sum want = bench_expect_task(sums, x->task);
  x->middle = bench_sum_int(sums, "middle_row");
  x->doc = bench_load(argv[3], &x->len);
  bench_measure(x->task, "simdjson", run_read, x, &want);
  return 0;
}
