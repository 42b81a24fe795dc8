/*
** test_num.c — core/numparse.c + core/numprint.c: the JSON number grammar,
** int64 bounds, signed zero, a corpus of hard decimal->double cases (expected
** bits computed with Python's correctly rounded float()), exact halfway points
** built with a small decimal bignum, and randomized differential tests:
**   - >= 1,000,000 random doubles: format -> parse is bit-identical and the
**     digit count is never more than glibc's shortest round-tripping %.Ng;
**   - random decimal strings of many shapes parse exactly like glibc strtod
**     (this program never calls setlocale, so it runs in the "C" locale).
** Helper mode for tests/core/test_num_python.py:
**   test_num --print-repr N SEED   prints N lines "<hex bits> <formatted>".
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jalapenojson.h"
#include "num.h"
#include "numtables.h"
#include "test.h"

/* Hard cases: input, 1 if it must overflow (JJ_NUM_RANGE), expected bits otherwise.
   Expected values come from Python 3 float() (correctly rounded) and are checked against
   glibc strtod too: halfway points, max/min doubles, 2^53+1, subnormals, long inputs. */
static const struct {
  const char *text;
  int range;
  uint64_t bits;
} hard_cases[] = {
    {"0", 0, UINT64_C(0x0000000000000000)},
    {"-0", 0, UINT64_C(0x8000000000000000)},
    {"0.0", 0, UINT64_C(0x0000000000000000)},
    {"-0.0", 0, UINT64_C(0x8000000000000000)},
    {"0e5", 0, UINT64_C(0x0000000000000000)},
    {"-0e5", 0, UINT64_C(0x8000000000000000)},
    {"-0E-5", 0, UINT64_C(0x8000000000000000)},
    {"0e999999999999999999", 0, UINT64_C(0x0000000000000000)},
    {"1", 0, UINT64_C(0x3ff0000000000000)},
    {"-1", 0, UINT64_C(0xbff0000000000000)},
    {"0.1", 0, UINT64_C(0x3fb999999999999a)},
    {"0.2", 0, UINT64_C(0x3fc999999999999a)},
    {"0.3", 0, UINT64_C(0x3fd3333333333333)},
    {"19.99", 0, UINT64_C(0x4033fd70a3d70a3d)},
    {"1e23", 0, UINT64_C(0x44b52d02c7e14af6)},
    {"8.98846567431158e307", 0, UINT64_C(0x7fe0000000000000)},
    {"1.7976931348623157e308", 0, UINT64_C(0x7fefffffffffffff)},
    {"-1.7976931348623157e308", 0, UINT64_C(0xffefffffffffffff)},
    {"1.7976931348623158e308", 0, UINT64_C(0x7fefffffffffffff)},
    {"1.79769313486231580793e308", 0, UINT64_C(0x7fefffffffffffff)},
    {"2.2250738585072014e-308", 0, UINT64_C(0x0010000000000000)},
    {"2.2250738585072011e-308", 0, UINT64_C(0x000fffffffffffff)},
    {"2.2250738585072012e-308", 0, UINT64_C(0x0010000000000000)},
    {"2.225073858507201e-308", 0, UINT64_C(0x000fffffffffffff)},
    {"4.9406564584124654e-324", 0, UINT64_C(0x0000000000000001)},
    {"5e-324", 0, UINT64_C(0x0000000000000001)},
    {"-5e-324", 0, UINT64_C(0x8000000000000001)},
    {"2.4703282292062327e-324", 0, UINT64_C(0x0000000000000000)},
    {"2.4703282292062328e-324", 0, UINT64_C(0x0000000000000001)},
    {"3e-324", 0, UINT64_C(0x0000000000000001)},
    {"7.4e-324", 0, UINT64_C(0x0000000000000001)},
    {"7.5e-324", 0, UINT64_C(0x0000000000000002)},
    {"1e-320", 0, UINT64_C(0x00000000000007e8)},
    {"1e-323", 0, UINT64_C(0x0000000000000002)},
    {"1.5e-323", 0, UINT64_C(0x0000000000000003)},
    {"9007199254740992", 0, UINT64_C(0x4340000000000000)},
    {"9007199254740993", 0, UINT64_C(0x4340000000000000)},
    {"9007199254740994", 0, UINT64_C(0x4340000000000001)},
    {"9007199254740995", 0, UINT64_C(0x4340000000000002)},
    {"9007199254740993.0000000000000000001", 0, UINT64_C(0x4340000000000001)},
    {"9007199254740992.9999999999999999999", 0, UINT64_C(0x4340000000000000)},
    {"18014398509481985", 0, UINT64_C(0x4350000000000000)},
    {"18014398509481986", 0, UINT64_C(0x4350000000000000)},
    {"18014398509481987", 0, UINT64_C(0x4350000000000001)},
    {"7.2057594037927933e16", 0, UINT64_C(0x4370000000000000)},
    {"3.0517578125e-05", 0, UINT64_C(0x3f00000000000000)},
    {"1448997445238699", 0, UINT64_C(0x4314976c0803feac)},
    {"123456789012345678901234567890", 0, UINT64_C(0x45f8ee90ff6c373e)},
    {"0.000000000000000000000000000000000000001", 0, UINT64_C(0x37d5c72fb1552d83)},
    {"1e308", 0, UINT64_C(0x7fe1ccf385ebc8a0)},
    {"1e-308", 0, UINT64_C(0x000730d67819e8d2)},
    {"1e-307", 0, UINT64_C(0x0031fa182c40c60d)},
    {"1e-309", 0, UINT64_C(0x0000b8157268fdaf)},
    {"1e-400", 0, UINT64_C(0x0000000000000000)},
    {"-1e-400", 0, UINT64_C(0x8000000000000000)},
    {"1e-324", 0, UINT64_C(0x0000000000000000)},
    {"1e-325", 0, UINT64_C(0x0000000000000000)},
    {"2.2204460492503131e-16", 0, UINT64_C(0x3cb0000000000000)},
    {"4.35679149516638e-309", 0, UINT64_C(0x00032203bf0f08da)},
    {"1.00000000000000011102230246251565404236316680908203125", 0, UINT64_C(0x3ff0000000000000)},
    {"1.00000000000000011102230246251565404236316680908203124", 0, UINT64_C(0x3ff0000000000000)},
    {"1.00000000000000011102230246251565404236316680908203126", 0, UINT64_C(0x3ff0000000000001)},
    {"0.1e1", 0, UINT64_C(0x3ff0000000000000)},
    {"100000000000000000000000", 0, UINT64_C(0x44b52d02c7e14af6)},
    {"1e22", 0, UINT64_C(0x4480f0cf064dd592)},
    {"1e21", 0, UINT64_C(0x444b1ae4d6e2ef50)},
    {"123e-2", 0, UINT64_C(0x3ff3ae147ae147ae)},
    {"4503599627370496.5", 0, UINT64_C(0x4330000000000000)},
    {"4503599627370497.5", 0, UINT64_C(0x4330000000000002)},
    {"2.5e-324", 0, UINT64_C(0x0000000000000001)},
    {"358416272e-33", 0, UINT64_C(0x3adbbb2a68c9d0b9)},
    {"89255.0e-22", 0, UINT64_C(0x3c6494af6ce5221f)},
    {"1.0000000000000002", 0, UINT64_C(0x3ff0000000000001)},
    {"0.9999999999999999", 0, UINT64_C(0x3fefffffffffffff)},
    {"0.99999999999999994", 0, UINT64_C(0x3fefffffffffffff)},
    {"0.99999999999999997", 0, UINT64_C(0x3ff0000000000000)},
    {"1.2345678901234567e-300", 0, UINT64_C(0x01aa74fe1c1e8908)},
    {"6.631236846766476e-316", 0, UINT64_C(0x0000000008000000)},
    {"3.234325109257964e-319", 0, UINT64_C(0x000000000000ffb7)},
    {"4.9406564584124654417656879286822137236505980e-324", 0, UINT64_C(0x0000000000000001)},
    {"2.2250738585072011360574097967091319759348195463516456480234261098828e-308", 0,
     UINT64_C(0x0010000000000000)},
    {"1e000000000000000000000000000000000000000001", 0, UINT64_C(0x4024000000000000)},
    {"1e-000000000000000000000000000000000000000001", 0, UINT64_C(0x3fb999999999999a)},
    {"0."
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000049406564584124654",
     0, UINT64_C(0x0000000000000000)},
    {"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977"
     "587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845"
     "817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559"
     "699508093042880177904174497792",
     1, 0},
    {"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977"
     "587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845"
     "817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559"
     "699508093042880177904174497791.99999999999999999999999999999",
     0, UINT64_C(0x7fefffffffffffff)},
    {"0."
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000002470328229206232720882843964341106861825299013071"
     "623822127928412503377536351043759326499181808179961898982823477228588654633283551779698981993"
     "873980053909390631503565951557022639229085839244910518443593180284993653615250031937045767824"
     "921936562366986365848075700158576926990370631192827955855133292783433840935197801553124659726"
     "357957462276646527282722005637400648549997709659947045402082816622623785739345073633900796776"
     "193057750674017632467360096895134053553745851666113422376667860416215968046191446729184030053"
     "005753084904876539171138659164623952491262365388187963623937328042389101867234849766823508986"
     "338858792562830275599565752445550725518931369083625477918694866799496832404970582102851318545"
     "1396213837722826145437693412532098591327667236328125",
     0, UINT64_C(0x0000000000000000)},
    {"0."
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000002470328229206232720882843964341106861825299013071"
     "623822127928412503377536351043759326499181808179961898982823477228588654633283551779698981993"
     "873980053909390631503565951557022639229085839244910518443593180284993653615250031937045767824"
     "921936562366986365848075700158576926990370631192827955855133292783433840935197801553124659726"
     "357957462276646527282722005637400648549997709659947045402082816622623785739345073633900796776"
     "193057750674017632467360096895134053553745851666113422376667860416215968046191446729184030053"
     "005753084904876539171138659164623952491262365388187963623937328042389101867234849766823508986"
     "338858792562830275599565752445550725518931369083625477918694866799496832404970582102851318545"
     "1396213837722826145437693412532098591327667236328125000000000000000000000000000000000000001",
     0, UINT64_C(0x0000000000000001)},
    {"0."
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000007410984687618698162648531893023320585475897039214"
     "871466383785237510132609053131277979497545424539885696948470431685765963899850655339096945981"
     "621940161728171894510697854671067917687257517734731555330779540854980960845750095811137303474"
     "765809687100959097544227100475730780971111893578483867565399878350301522805593404659373979179"
     "073872386829939581848166016912201945649993128979841136206248449867871357218035220901702390328"
     "579173252022052897402080290685402160661237554998340267130003581248647904138574340187552090159"
     "017259254714629617513415977493871857473787096164563890871811984127167305601704549300470526959"
     "016576377688490826798697257336652176556794107250876433756084600398490497214911746308553955635"
     "4188641513168478436313080237596295773983001708984375",
     0, UINT64_C(0x0000000000000002)},
    {"0."
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000007410984687618698162648531893023320585475897039214"
     "871466383785237510132609053131277979497545424539885696948470431685765963899850655339096945981"
     "621940161728171894510697854671067917687257517734731555330779540854980960845750095811137303474"
     "765809687100959097544227100475730780971111893578483867565399878350301522805593404659373979179"
     "073872386829939581848166016912201945649993128979841136206248449867871357218035220901702390328"
     "579173252022052897402080290685402160661237554998340267130003581248647904138574340187552090159"
     "017259254714629617513415977493871857473787096164563890871811984127167305601704549300470526959"
     "016576377688490826798697257336652176556794107250876433756084600398490497214911746308553955635"
     "41886415131684784363130802375962957739830017089843751",
     0, UINT64_C(0x0000000000000002)},
    {"1.00000000000000011102230246251565404236316680908203125", 0, UINT64_C(0x3ff0000000000000)},
    {"1."
     "000000000000000111022302462515654042363166809082031250000000000000000000000000000000000000000"
     "000001",
     0, UINT64_C(0x3ff0000000000001)},
    {"0."
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000022250738585072011360574097967091319759348195463516456480234261097"
     "248222220210769455165295239081350879141491589130396211068700864386945946455276572074078206217"
     "433799881410632673292535522868813721490129811224514518898490572223072852551331557550159143974"
     "763979834118019993239625482890171070818506906306666559949382757725720157630626906633326475653"
     "000092458883164330377797918696120494973903778297049050510806099407302629371289589500035837999"
     "672072543043602840788957717961509455167482434710307026091446215722898802581825451803257070188"
     "608721131280795122334262883686223215037756666225039825343359745688844239002654981983854879482"
     "922068947216898310996983658468140228542433306603398508864458040010349339704275671864433837704"
     "8603786162277173854562306587467901408672332763671875",
     0, UINT64_C(0x0010000000000000)},
};

/* ---- small helpers ---------------------------------------------------- */

/* splitmix64: a deterministic random stream for the randomized tests. */
static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static uint64_t dbits(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

static double bitsd(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* Parse a NUL-terminated string as an int64 (code only when failing). */
static int pint(const char *s, int64_t *v) { return jj_num_parse_int64(s, strlen(s), v); }

/* Parse a NUL-terminated string as a double. */
static int pdbl(const char *s, double *v) { return jj_num_parse_double(s, strlen(s), v); }

/* Format v as a NUL-terminated string into buf (>= 33 bytes). */
static const char *fmt(double v, char *buf) {
  size_t n = jj_num_format_double(v, buf);
  buf[n] = '\0';
  return buf;
}

/* A random double of many shapes: raw bit patterns (subnormals forced often),
   small integers, short decimals, powers of two; never NaN or infinity. */
static double random_double(uint64_t *s) {
  uint64_t r = rng_next(s), b;
  switch (rng_next(s) % 16) {
    case 0: /* subnormal */
      b = r & UINT64_C(0x800FFFFFFFFFFFFF);
      break;
    case 1: /* subnormal with a tiny mantissa */
      b = (r & UINT64_C(0x8000000000000000)) | (r % 2048);
      break;
    case 2: { /* power of two (irregular rounding interval) */
      b = (r & UINT64_C(0x8000000000000000)) | ((r >> 8) % 2047) << 52;
      break;
    }
    case 3: /* an integer below 2^53 */
      return (double)(int64_t)((r >> 11) >> (r % 53)) * ((r & 1) ? -1 : 1);
    case 4: { /* a short decimal d.dd * 10^x */
      double v;
      char t[64];
      snprintf(t, sizeof t, "%de%d", (int)(r % 100000), (int)((r >> 20) % 40) - 20);
      return pdbl(t, &v) == JJ_NUM_OK ? v : 0.0;
    }
    case 5: /* near the top of the range */
      b = (r & UINT64_C(0x800FFFFFFFFFFFFF)) | (UINT64_C(0x7FE) - ((r >> 52) % 4)) << 52;
      break;
    default:
      b = r;
      break;
  }
  if (((b >> 52) & 0x7FF) == 0x7FF) b &= ~(UINT64_C(1) << 62); /* no NaN/inf */
  return bitsd(b);
}

/* ---- grammar and integers ---------------------------------------------- */

TEST(span_stops_at_non_number_bytes) {
  const char *s = "-12.5e+3, 7";
  CHECK_EQ_INT(jj_num_span(s, s + strlen(s)), 8);
  s = "1.2.3eE+-x";
  CHECK_EQ_INT(jj_num_span(s, s + strlen(s)), 9); /* the grammar check is the parser's job */
  s = "0]";
  CHECK_EQ_INT(jj_num_span(s, s + strlen(s)), 1);
  s = "123";
  CHECK_EQ_INT(jj_num_span(s, s + 2), 2); /* never reads past end */
  s = "+1";
  CHECK_EQ_INT(jj_num_span(s, s + 2), 0);
  s = ".5";
  CHECK_EQ_INT(jj_num_span(s, s + 2), 0);
  s = "e5";
  CHECK_EQ_INT(jj_num_span(s, s + 2), 0);
  s = "x";
  CHECK_EQ_INT(jj_num_span(s, s + 1), 0);
  s = "-";
  CHECK_EQ_INT(jj_num_span(s, s + 1), 1);
}

TEST(grammar_errors_are_syntax) {
  static const char *const bad[] = {
      "",    "-",    "+1",  "--1",  "-+1", "01",   "-01",   "00",    "1.",    ".5",
      "-.5", "1e",   "1e+", "1e-",  "1E",  "1.e3", "1.5e",  "1ee5",  "1e5.5", "1e5e5",
      "0x1", "1x",   " 1",  "1 ",   "1-",  "1+",   "1.5.5", "1..5",  "e5",    "E5",
      "-e5", "Inf",  "NaN", "-Inf", "1,5", "1.5-", "1e+-5", "0.0.0", "1_000", "\t1",
      "12a", "1e5 ", "0-",  "0.",   "-0.", "-00",  "010",   "1.2e+", "+0",    "1.e",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int64_t iv = 42;
    double dv = 42.0;
    int ri = pint(bad[i], &iv), rd = pdbl(bad[i], &dv);
    if (ri != JJ_NUM_SYNTAX || rd != JJ_NUM_SYNTAX) fprintf(stderr, "     input \"%s\"\n", bad[i]);
    CHECK_EQ_INT(ri, JJ_NUM_SYNTAX);
    CHECK_EQ_INT(rd, JJ_NUM_SYNTAX);
    CHECK_EQ_INT(iv, 42); /* untouched on failure */
    CHECK(dv == 42.0);
  }
  /* the length is exact: bytes past len are never looked at */
  int64_t iv;
  double dv;
  CHECK_EQ_INT(jj_num_parse_int64("123x", 3, &iv), JJ_NUM_OK);
  CHECK_EQ_INT(iv, 123);
  CHECK_EQ_INT(jj_num_parse_double("1.5e3x", 5, &dv), JJ_NUM_OK);
  CHECK(dv == 1.5e3);
  CHECK_EQ_INT(jj_num_parse_double("1.5e", 4, &dv), JJ_NUM_SYNTAX);
  CHECK_EQ_INT(jj_num_parse_int64("-", 0, &iv), JJ_NUM_SYNTAX);
  CHECK_EQ_INT(jj_num_parse_double("1", 0, &dv), JJ_NUM_SYNTAX);
}

TEST(int64_rules) {
  int64_t v = 0;
  CHECK_EQ_INT(pint("0", &v), JJ_NUM_OK);
  CHECK_EQ_INT(v, 0);
  CHECK_EQ_INT(pint("-0", &v), JJ_NUM_OK);
  CHECK_EQ_INT(v, 0);
  CHECK_EQ_INT(pint("7", &v), JJ_NUM_OK);
  CHECK_EQ_INT(v, 7);
  CHECK_EQ_INT(pint("-42", &v), JJ_NUM_OK);
  CHECK_EQ_INT(v, -42);
  CHECK_EQ_INT(pint("123456789012345678", &v), JJ_NUM_OK);
  CHECK_EQ_INT(v, INT64_C(123456789012345678));
  CHECK_EQ_INT(pint("9223372036854775807", &v), JJ_NUM_OK);
  CHECK_EQ_INT(v, INT64_MAX);
  CHECK_EQ_INT(pint("-9223372036854775808", &v), JJ_NUM_OK);
  CHECK(v == INT64_MIN);
  CHECK_EQ_INT(pint("-9223372036854775807", &v), JJ_NUM_OK);
  CHECK_EQ_INT(v, -INT64_MAX);
  v = 99;
  CHECK_EQ_INT(pint("9223372036854775808", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(pint("-9223372036854775809", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(pint("18446744073709551615", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(pint("18446744073709551616", &v), JJ_NUM_RANGE); /* wraps uint64 */
  CHECK_EQ_INT(pint("99999999999999999999", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(pint("-100000000000000000000000000000000000000000", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(v, 99);
  /* fraction or exponent: not an integer, after the grammar passed */
  CHECK_EQ_INT(pint("1.0", &v), JJ_NUM_NOT_INTEGER);
  CHECK_EQ_INT(pint("1.5", &v), JJ_NUM_NOT_INTEGER);
  CHECK_EQ_INT(pint("1e3", &v), JJ_NUM_NOT_INTEGER);
  CHECK_EQ_INT(pint("1E+3", &v), JJ_NUM_NOT_INTEGER);
  CHECK_EQ_INT(pint("-0.0", &v), JJ_NUM_NOT_INTEGER);
  CHECK_EQ_INT(pint("0e0", &v), JJ_NUM_NOT_INTEGER);
  CHECK_EQ_INT(pint("99999999999999999999e1", &v), JJ_NUM_NOT_INTEGER);
  CHECK_EQ_INT(pint("1.e3", &v), JJ_NUM_SYNTAX);
  CHECK_EQ_INT(pint("1.5e", &v), JJ_NUM_SYNTAX);
  CHECK_EQ_INT(pint("01.5", &v), JJ_NUM_SYNTAX);
  CHECK_EQ_INT(v, 99);
  /* every int64 near the bounds and powers of ten round-trip through format */
  char buf[32];
  int64_t probes[] = {0,
                      1,
                      -1,
                      9,
                      10,
                      99,
                      100,
                      INT64_MAX,
                      INT64_MIN,
                      INT64_MAX - 1,
                      INT64_MIN + 1,
                      INT64_C(1000000000000000000),
                      INT64_C(-999999999999999999),
                      4294967296,
                      -4294967296};
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
    size_t n = jj_num_format_int64(probes[i], buf);
    buf[n] = '\0';
    char want[32];
    snprintf(want, sizeof want, "%" PRId64, probes[i]);
    CHECK_EQ_STR(buf, want);
    CHECK_EQ_INT(pint(buf, &v), JJ_NUM_OK);
    CHECK_EQ_INT(v, probes[i]);
  }
  size_t n = jj_num_format_int64(INT64_MIN, buf);
  CHECK_EQ_MEM(buf, n, "-9223372036854775808", 20);
  /* random int64 round trips against printf */
  uint64_t seed = 7;
  long bad = 0;
  for (int i = 0; i < 200000; i++) {
    int64_t x = (int64_t)(rng_next(&seed) >> (rng_next(&seed) % 64));
    if (i & 1) x = -x;
    char want[32];
    n = jj_num_format_int64(x, buf);
    buf[n] = '\0';
    snprintf(want, sizeof want, "%" PRId64, x);
    if (strcmp(buf, want) != 0 || jj_num_parse_int64(buf, n, &v) != JJ_NUM_OK || v != x) {
      if (bad++ < 5) fprintf(stderr, "     int64 %s vs %s\n", buf, want);
    }
  }
  CHECK_EQ_INT(bad, 0);
}

/* ---- decimal -> double ------------------------------------------------- */

TEST(signed_zero_and_range) {
  double v;
  CHECK_EQ_INT(pdbl("-0", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), UINT64_C(0x8000000000000000));
  CHECK_EQ_INT(pdbl("-0.0", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), UINT64_C(0x8000000000000000));
  CHECK_EQ_INT(pdbl("-0e5", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), UINT64_C(0x8000000000000000));
  CHECK_EQ_INT(pdbl("-0.000000000000000000000000000000000000000000000e-99999", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), UINT64_C(0x8000000000000000));
  CHECK_EQ_INT(pdbl("0", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), 0);
  CHECK_EQ_INT(pdbl("1e-400", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), 0);
  CHECK_EQ_INT(pdbl("-1e-400", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), UINT64_C(0x8000000000000000));
  CHECK_EQ_INT(pdbl("1e-320", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), UINT64_C(0x00000000000007e8)); /* 2024 * 2^-1074 */
  v = 42.0;
  CHECK_EQ_INT(pdbl("1e400", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(pdbl("-1e400", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(pdbl("1.8e308", &v), JJ_NUM_RANGE);
  CHECK(v == 42.0);
  /* exponents far beyond any C integer saturate */
  CHECK_EQ_INT(pdbl("1e999999999999999999", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(pdbl("1e99999999999999999999999999999999999999999999999999", &v), JJ_NUM_RANGE);
  CHECK_EQ_INT(pdbl("1e-999999999999999999", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), 0);
  CHECK_EQ_INT(pdbl("0e999999999999999999", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), 0);
  CHECK_EQ_INT(pdbl("-123.456e-99999999999999999999999999", &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), UINT64_C(0x8000000000000000));
  /* a mantissa of 1 followed by many zeros and a compensating exponent */
  char big[1200];
  memset(big, '0', sizeof big);
  big[0] = '1';
  strcpy(big + 1000, "e-999");
  CHECK_EQ_INT(pdbl(big, &v), JJ_NUM_OK);
  CHECK(v == 1.0);
  strcpy(big + 1000, "e-1307"); /* 1e-308 with 1000 digits */
  CHECK_EQ_INT(pdbl(big, &v), JJ_NUM_OK);
  CHECK_EQ_U64(dbits(v), UINT64_C(0x000730d67819e8d2)); /* bits, not 1e-308: x87 excess precision */
  memcpy(big, "0.", 2); /* 0.000...0001 = 10^-998 (997 zeros), times 10^998 */
  memset(big + 2, '0', 997);
  big[999] = '1';
  strcpy(big + 1000, "e998");
  CHECK_EQ_INT(pdbl(big, &v), JJ_NUM_OK);
  CHECK(v == 1.0);
}

TEST(hard_cases_match_python) {
  for (size_t i = 0; i < sizeof hard_cases / sizeof hard_cases[0]; i++) {
    double v = 0.0;
    int rc = pdbl(hard_cases[i].text, &v);
    int ok = hard_cases[i].range ? rc == JJ_NUM_RANGE
                                 : (rc == JJ_NUM_OK && dbits(v) == hard_cases[i].bits);
    if (!ok)
      fprintf(stderr, "     input %.80s (%zu chars): rc %d bits %016" PRIx64 "\n",
              hard_cases[i].text, strlen(hard_cases[i].text), rc, dbits(v));
    CHECK(ok);
    /* and glibc agrees (sanity check of the table itself) */
    errno = 0;
    double g = strtod(hard_cases[i].text, NULL);
    CHECK(hard_cases[i].range ? isinf(g) : dbits(g) == hard_cases[i].bits);
  }
}

/* Decimal bignum in base 10^9 (least significant limb first), for exact halfway points. */
typedef struct {
  uint32_t d[140];
  int n;
} dec_t;

static void dec_mul(dec_t *x, uint32_t m) {
  uint64_t c = 0;
  for (int i = 0; i < x->n; i++) {
    uint64_t t = (uint64_t)x->d[i] * m + c;
    x->d[i] = (uint32_t)(t % 1000000000u);
    c = t / 1000000000u;
  }
  while (c) {
    x->d[x->n++] = (uint32_t)(c % 1000000000u);
    c /= 1000000000u;
  }
}

/* Decimal digits of x into s (NUL-terminated), returns the length. */
static size_t dec_str(const dec_t *x, char *s) {
  size_t n = (size_t)sprintf(s, "%u", (unsigned)x->d[x->n - 1]);
  for (int i = x->n - 2; i >= 0; i--) n += (size_t)sprintf(s + n, "%09u", (unsigned)x->d[i]);
  return n;
}

/* Write D * 10^x (D = the digit string ds) as JSON text in one of several shapes. */
static void shape(const char *ds, long x, int how, char *out) {
  size_t nd = strlen(ds);
  if (how == 0 || x >= 0) {
    sprintf(out, "%se%ld", ds, x);
  } else if (how == 1) { /* d.ddd e X */
    if (nd == 1)
      sprintf(out, "%se%ld", ds, x);
    else
      sprintf(out, "%c.%se%ld", ds[0], ds + 1, x + (long)nd - 1);
  } else {                  /* positional */
    long ip = (long)nd + x; /* digits before the point */
    if (ip <= 0) {
      strcpy(out, "0.");
      memset(out + 2, '0', (size_t)-ip);
      strcpy(out + 2 - ip, ds);
    } else {
      memcpy(out, ds, (size_t)ip);
      out[ip] = '.';
      strcpy(out + ip + 1, ds + ip);
    }
  }
}

TEST(exact_halfway_points) {
  /* For random doubles b (normal, subnormal, huge), build the exact decimal of the midpoint
     between b and its successor; it must round to the even one, and one unit in a digit
     appended below it must tip it either way. */
  static char ds[1200], txt[2600];
  uint64_t seed = 12345;
  long bad = 0, total = 0;
  for (int i = 0; i < 3000; i++) {
    uint64_t b = rng_next(&seed) & UINT64_C(0x7FFFFFFFFFFFFFFF);
    if (i % 5 == 0) b &= UINT64_C(0x000FFFFFFFFFFFFF);     /* subnormal */
    if (i % 7 == 0) b |= UINT64_C(0x000FFFFFFFFFFFFF);     /* odd, next binade */
    if (i % 11 == 0) b = UINT64_C(0x7FEFFFFFFFFFFFFF) - i; /* near DBL_MAX */
    if (i == 1) b = UINT64_C(0x7FEFFFFFFFFFFFFF);          /* DBL_MAX: midpoint ties to infinity */
    if (i == 2) b = 0;                                     /* 0 / smallest subnormal */
    if (i == 3) b = UINT64_C(0x000FFFFFFFFFFFFF);          /* largest subnormal / smallest normal */
    if (i == 4) b = UINT64_C(0x433FFFFFFFFFFFFF);          /* 2^53 - 1 */
    if (((b >> 52) & 0x7FF) == 0x7FF) continue;
    uint64_t ef = b >> 52, m = b & UINT64_C(0x000FFFFFFFFFFFFF);
    int e = -1074;
    if (ef) {
      m |= UINT64_C(1) << 52;
      e = (int)ef - 1075;
    }
    /* midpoint = (2m+1) * 2^(e-1) = D * 10^x */
    dec_t d = {{0}, 0};
    uint64_t mm = 2 * m + 1;
    d.d[0] = (uint32_t)(mm % 1000000000u);
    d.d[1] = (uint32_t)(mm / 1000000000u % 1000000000u);
    d.d[2] = (uint32_t)(mm / 1000000000u / 1000000000u);
    d.n = d.d[2] ? 3 : d.d[1] ? 2 : 1;
    long x = 0;
    if (e - 1 >= 0) {
      for (int j = 0; j < e - 1; j++) dec_mul(&d, 2);
    } else {
      for (int j = 0; j < 1 - e; j++) dec_mul(&d, 5);
      x = e - 1;
    }
    size_t nd = dec_str(&d, ds);
    uint64_t lo = b, hi = b + 1; /* hi may be the infinity pattern */
    uint64_t even = (m & 1) ? hi : lo;
    for (int variant = 0; variant < 3; variant++) {
      uint64_t want;
      if (variant == 0) {
        want = even;
        shape(ds, x, i % 3, txt);
      } else {
        /* D*10 + 1 or D*10 - 1 at 10^(x-1): just above / just below the midpoint */
        ds[nd] = '0';
        ds[nd + 1] = '\0';
        size_t k = nd;
        if (variant == 1) {
          ds[k] = '1';
          want = hi;
        } else { /* D ends in 5 (odd * 5^n) or is even*..., subtract one ulp of the new digit */
          ds[k] = '9';
          size_t j = k - 1;
          while (ds[j] == '0') ds[j--] = '9';
          ds[j]--;
          want = lo;
        }
        shape(ds, x - 1, (i + variant) % 3, txt);
        ds[nd] = '\0';
        dec_str(&d, ds); /* restore */
      }
      double v = 0.0;
      int rc = pdbl(txt, &v);
      int ok = want >= UINT64_C(0x7FF0000000000000) ? rc == JJ_NUM_RANGE
                                                    : (rc == JJ_NUM_OK && dbits(v) == want);
      double g = strtod(txt, NULL);
      int gok = want >= UINT64_C(0x7FF0000000000000) ? isinf(g) : dbits(g) == want;
      total++;
      if (!ok || !gok) {
        if (bad++ < 10)
          fprintf(stderr,
                  "     halfway variant %d of %016" PRIx64
                  ": %.60s... (%zu chars) rc %d got %016" PRIx64 " want %016" PRIx64
                  " glibc %016" PRIx64 "\n",
                  variant, b, txt, strlen(txt), rc, dbits(v), want, dbits(g));
      }
    }
  }
  CHECK_EQ_INT(bad, 0);
  CHECK(total > 8000);
}

/* One random JSON number text of a random shape; returns its length. */
static size_t random_number_text(uint64_t *s, char *out) {
  char *o = out;
  uint64_t r = rng_next(s);
  if (r & 1) *o++ = '-';
  int nd = 1 + (int)(rng_next(s) % 40); /* significant digits */
  int shape_kind = (int)(rng_next(s) % 4);
  int lead0 = 0;
  if (shape_kind == 3) { /* 0.000ddd */
    *o++ = '0';
    *o++ = '.';
    lead0 = (int)(rng_next(s) % 30);
    for (int i = 0; i < lead0; i++) *o++ = '0';
  }
  /* shape 1: a '.' before digit `point` (none when point == nd) */
  int point = shape_kind == 1 ? 1 + (int)(rng_next(s) % (uint64_t)nd) : nd;
  for (int i = 0; i < nd; i++) {
    if (i == point) *o++ = '.';
    uint64_t dg = rng_next(s);
    int digit = (int)(dg % 10);
    if (i == 0 && shape_kind != 3 && digit == 0) digit = 1 + (int)(dg % 9);
    if ((dg >> 32) % 4 == 0) digit = (dg >> 40) & 1 ? 9 : 0; /* runs of 0s and 9s */
    if (i == 0 && shape_kind != 3 && digit == 0) digit = 9;
    *o++ = (char)('0' + digit);
  }
  if (shape_kind != 2 || (r >> 8) % 2) {
    /* exponent across the whole range (and beyond): value ~ 10^(-345 .. 330) */
    long target = (long)(rng_next(s) % 676) - 345;
    long x = target - (shape_kind == 1 ? 0 : nd) + (shape_kind == 3 ? lead0 : 0);
    o += sprintf(o, "%c%s%ld", (r >> 4) & 1 ? 'E' : 'e', x >= 0 && ((r >> 5) & 1) ? "+" : "", x);
  }
  *o = '\0';
  return (size_t)(o - out);
}

TEST(random_strings_match_strtod) {
  uint64_t seed = 987654321;
  char txt[200];
  long bad = 0, n = 1000000, ranged = 0, zeros = 0, subn = 0;
  for (long i = 0; i < n; i++) {
    size_t len = random_number_text(&seed, txt);
    double v = 0.0;
    int rc = jj_num_parse_double(txt, len, &v);
    errno = 0;
    char *endp;
    double g = strtod(txt, &endp);
    int ok;
    if (isinf(g)) {
      ok = rc == JJ_NUM_RANGE;
      ranged++;
    } else {
      ok = rc == JJ_NUM_OK && dbits(v) == dbits(g) && endp == txt + len;
      if (g == 0)
        zeros++;
      else if (fabs(g) < 2.2250738585072014e-308)
        subn++;
    }
    if (!ok && bad++ < 10)
      fprintf(stderr, "     %s: rc %d ours %016" PRIx64 " glibc %016" PRIx64 "\n", txt, rc,
              dbits(v), dbits(g));
  }
  CHECK_EQ_INT(bad, 0);
  CHECK(ranged > 1000 && zeros > 1000 && subn > 1000); /* the shapes reach every region */
}

TEST(random_long_inputs_match_strtod) {
  /* 20..900 significant digits: exercises the w / w+1 bracketing and the big-integer fallback */
  uint64_t seed = 4242;
  static char txt[1400];
  long bad = 0;
  for (int i = 0; i < 20000; i++) {
    char *o = txt;
    int nd = 20 + (int)(rng_next(&seed) % (i % 10 == 0 ? 900 : 60));
    uint64_t style = rng_next(&seed);
    for (int j = 0; j < nd; j++) {
      uint64_t r = rng_next(&seed);
      int digit = (int)(r % 10);
      if (style % 3 == 0 && j > 17) digit = (style >> 8) & 1 ? 0 : 9; /* long tails of 0 or 9 */
      if (j == 0 && digit == 0) digit = 5;
      *o++ = (char)('0' + digit);
    }
    if (style % 3 == 0 && (style >> 9) & 1) o[-1] = '1';
    long x = (long)(rng_next(&seed) % 680) - 345 - nd;
    sprintf(o, "e%ld", x);
    double v = 0.0;
    int rc = pdbl(txt, &v);
    double g = strtod(txt, NULL);
    int ok = isinf(g) ? rc == JJ_NUM_RANGE : (rc == JJ_NUM_OK && dbits(v) == dbits(g));
    if (!ok && bad++ < 10)
      fprintf(stderr,
              "     %.60s...(%d digits)%s: rc %d ours %016" PRIx64 " glibc %016" PRIx64 "\n", txt,
              nd, strchr(txt, 'e'), rc, dbits(v), dbits(g));
  }
  CHECK_EQ_INT(bad, 0);
}

TEST(powers_of_ten_and_two) {
  /* every 10^x and 2^x (x over the whole range, several spellings) parses like strtod */
  char txt[1400];
  long bad = 0;
  for (int x = -350; x <= 320; x++) {
    const char *forms[] = {"1e%d", "10e%d", "0.1e%d", "1.0e%d", "1000000000000000000000e%d"};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
      snprintf(txt, sizeof txt, forms[f], x);
      double v = 0.0, g = strtod(txt, NULL);
      int rc = pdbl(txt, &v);
      int ok = isinf(g) ? rc == JJ_NUM_RANGE : (rc == JJ_NUM_OK && dbits(v) == dbits(g));
      if (!ok && bad++ < 10) fprintf(stderr, "     %s\n", txt);
    }
  }
  for (int x = -1074; x <= 1023; x++) {
    double p = ldexp(1.0, x), v = 0.0;
    snprintf(txt, sizeof txt, "%.1100g", p); /* exact decimal expansion */
    int rc = pdbl(txt, &v);
    if ((rc != JJ_NUM_OK || v != p) && bad++ < 10) fprintf(stderr, "     2^%d\n", x);
  }
  CHECK_EQ_INT(bad, 0);
}

/* ---- double -> decimal ------------------------------------------------- */

TEST(format_layout_is_python_repr) {
  static const struct {
    double v;
    const char *s;
  } cases[] = {
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {1.0, "1.0"},
      {-1.0, "-1.0"},
      {0.5, "0.5"},
      {123.456, "123.456"},
      {1e15, "1000000000000000.0"},
      {1e16, "1e+16"},
      {1.5e16, "1.5e+16"},
      {1234567890123456.0, "1234567890123456.0"},
      {12345678901234567.0, "1.2345678901234568e+16"},
      {0.0001, "0.0001"},
      {0.00012345, "0.00012345"},
      {0.00001, "1e-05"},
      {1.5e-5, "1.5e-05"},
      {5e-324, "5e-324"},
      {-5e-324, "-5e-324"},
      {1e-323, "1e-323"},
      {1.5e-323, "1.5e-323"},
      {2.2250738585072014e-308, "2.2250738585072014e-308"},
      {2.225073858507201e-308, "2.225073858507201e-308"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {-1.7976931348623157e308, "-1.7976931348623157e+308"},
      {0.1, "0.1"},
      {0.2, "0.2"},
      {0.30000000000000004, "0.30000000000000004"},
      {1.0 / 3.0, "0.3333333333333333"},
      {2.0 / 3.0, "0.6666666666666666"},
      {100.0, "100.0"},
      {1e22, "1e+22"},
      {1e23, "1e+23"},
      {9007199254740992.0, "9007199254740992.0"},
      {9007199254740993.0, "9007199254740992.0"},
      {4.35679149516638e-309, "4.35679149516638e-309"},
      {19.99, "19.99"},
      {-1234.5e-10, "-1.2345e-07"},
      {1e100, "1e+100"},
      {1.2e-100, "1.2e-100"},
      {123e300, "1.23e+302"},
      {8.98846567431158e307, "8.98846567431158e+307"},
      {2.0 * 9007199254740992.0, "1.8014398509481984e+16"},
      {0.001, "0.001"},
      {0.000999, "0.000999"},
  };
  char buf[40];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    CHECK_EQ_STR(fmt(cases[i].v, buf), cases[i].s);
  /* the length bound: the longest shapes stay within 25 bytes and 32 are never touched */
  memset(buf, 'x', sizeof buf);
  size_t n = jj_num_format_double(-2.2250738585072014e-308, buf);
  CHECK(n <= 25);
  CHECK(buf[n] == 'x');
  n = jj_num_format_double(-0.00012345678901234567, buf);
  CHECK(n <= 25);
  /* outside the contract (the caller handles them), but still memory safe */
  CHECK(jj_num_format_double(-HUGE_VAL, buf) <= 25);
  CHECK(jj_num_format_double(nan(""), buf) <= 25);
}

/* Smallest P in 1..17 such that glibc's %.Pg reads back to v, checking only P = limit - 1
   for regular values (where round-tripping is monotone in P) and every P below limit for
   powers of two (asymmetric interval). Returns 0 when no P < limit round-trips. */
static int shorter_glibc_exists(double v, int limit) {
  uint64_t b = dbits(v) & UINT64_C(0x7FFFFFFFFFFFFFFF);
  int irregular = (b & UINT64_C(0x000FFFFFFFFFFFFF)) == 0 && (b >> 52) > 1;
  char t[400];
  for (int p = limit - 1; p >= 1; p--) {
    snprintf(t, sizeof t, "%.*g", p, v);
    if (strtod(t, NULL) == v) return p;
    if (!irregular) break;
  }
  return 0;
}

/* Significant digits of a formatted number: mantissa digits without leading zeros and without
   the trailing zeros repr adds in fixed notation ("1000.0" and "0.001" have one digit). */
static int sig_digits(const char *s) {
  char mant[40];
  int k = 0, started = 0;
  for (; *s && *s != 'e'; s++) {
    if (*s < '0' || *s > '9') continue;
    if (*s != '0') started = 1;
    if (started) mant[k++] = *s;
  }
  while (k > 1 && mant[k - 1] == '0') k--;
  return k ? k : 1;
}

TEST(random_doubles_round_trip_shortest) {
  uint64_t seed = 1;
  char buf[40];
  char *exact32 = malloc(32); /* exactly the promised room: ASan catches any store past it */
  long bad_rt = 0, bad_len = 0, n = 1000000;
  if (!CHECK(exact32 != NULL)) return;
  for (long i = 0; i < n; i++) {
    double v = random_double(&seed), back = 0.0;
    size_t len = jj_num_format_double(v, exact32);
    memcpy(buf, exact32, len);
    buf[len] = '\0';
    int rc = jj_num_parse_double(buf, len, &back);
    if ((rc != JJ_NUM_OK || dbits(back) != dbits(v) || len > 25) && bad_rt++ < 10)
      fprintf(stderr, "     %016" PRIx64 " -> %s -> rc %d %016" PRIx64 "\n", dbits(v), buf, rc,
              dbits(back));
    int p = shorter_glibc_exists(v, sig_digits(buf));
    if (p && bad_len++ < 10) fprintf(stderr, "     %s: glibc round-trips with %%.%dg\n", buf, p);
  }
  free(exact32);
  CHECK_EQ_INT(bad_rt, 0);
  CHECK_EQ_INT(bad_len, 0);
}

TEST(special_doubles_round_trip) {
  /* all subnormals with tiny mantissas, every power of two, and neighbours of powers of ten */
  char buf[40];
  long bad = 0;
  for (uint64_t b = 1; b < 5000; b++) {
    double v = bitsd(b), back;
    size_t n = jj_num_format_double(v, buf);
    if ((jj_num_parse_double(buf, n, &back) != JJ_NUM_OK || dbits(back) != b) && bad++ < 10)
      fprintf(stderr, "     subnormal %" PRIu64 "\n", b);
  }
  for (uint64_t e = 0; e < 2047; e++) {
    for (int d = -2; d <= 2; d++) {
      uint64_t b = (e << 52) + (uint64_t)(int64_t)d;
      if (b >= UINT64_C(0x7FF0000000000000)) continue;
      double v = bitsd(b), back;
      size_t n = jj_num_format_double(v, buf);
      buf[n] = '\0';
      if ((jj_num_parse_double(buf, n, &back) != JJ_NUM_OK || dbits(back) != b) && bad++ < 10)
        fprintf(stderr, "     power of two neighbour %016" PRIx64 ": %s\n", b, buf);
      if (shorter_glibc_exists(v, sig_digits(buf)) && bad++ < 10)
        fprintf(stderr, "     not shortest: %s\n", buf);
    }
  }
  for (int x = -323; x <= 308; x++) {
    char t[32];
    snprintf(t, sizeof t, "1e%d", x);
    double v = strtod(t, NULL);
    for (int d = -1; d <= 1; d++) {
      double w = bitsd(dbits(v) + (uint64_t)(int64_t)d), back;
      size_t n = jj_num_format_double(w, buf);
      buf[n] = '\0';
      if ((jj_num_parse_double(buf, n, &back) != JJ_NUM_OK || back != w) && bad++ < 10)
        fprintf(stderr, "     near 1e%d: %s\n", x, buf);
    }
  }
  CHECK_EQ_INT(bad, 0);
}

TEST(tables_are_consistent) {
  /* exact entries: 5^j for small j, normalized to 128 bits */
  uint64_t p = 1;
  for (int j = 0; j <= 27; j++) {
    const uint64_t *t = jj_pow5_128[j - JJ_POW5_MIN];
    int lz = 0;
    while (!((p << lz) >> 63)) lz++;
    CHECK_EQ_U64(t[0], p << lz);
    CHECK_EQ_U64(t[1], 0);
    p *= 5;
  }
  for (int j = 0; j < JJ_POW5_COUNT; j++) CHECK(jj_pow5_128[j][0] >> 63); /* normalized */
  /* the multiply-shift logarithms against floating point away from integer boundaries */
  long bad = 0;
  for (int e = -342; e <= 324; e++) {
    double l = e * 3.321928094887362;
    if (fabs(l - floor(l + 0.5)) > 1e-9 && jj_log2_pow10(e) != (int)floor(l)) bad++;
  }
  for (int q = -1074; q <= 971; q++) {
    double l = q * 0.30102999566398120, l3 = l - 0.12493873660829995;
    if (fabs(l - floor(l + 0.5)) > 1e-9 && jj_log10_pow2(q) != (int)floor(l)) bad++;
    if (fabs(l3 - floor(l3 + 0.5)) > 1e-9 && jj_log10_3q_pow2(q) != (int)floor(l3)) bad++;
  }
  CHECK_EQ_INT(bad, 0);
}

/* Helper mode for tests/core/test_num_python.py: N values of many shapes, "hexbits text" per line. */
static int print_repr(long n, uint64_t seed) {
  char buf[40];
  for (long i = 0; i < n; i++) {
    double v = random_double(&seed);
    size_t len = jj_num_format_double(v, buf);
    buf[len] = '\0';
    printf("%016" PRIx64 " %s\n", dbits(v), buf);
  }
  return 0;
}

/* The public printers say what a document holds: the shortest layout for
** finite doubles, the three words for the rest, every int64 in decimal. */
TEST(public_number_printers) {
  static const struct {
    double v;
    const char *text;
  } doubles[] = {{1.0, "1.0"},     {-0.0, "-0.0"},   {1e16, "1e+16"},
                 {1.5e-05, "1.5e-05"}, {5e-324, "5e-324"},
                 {0.1, "0.1"},     {1.0 / 0.0, "Infinity"},
                 {-1.0 / 0.0, "-Infinity"}, {0.0 / 0.0, "NaN"}};
  char out[32];
  for (size_t i = 0; i < sizeof doubles / sizeof *doubles; i++) {
    size_t n = jj_double_format(doubles[i].v, out);
    CHECK(n == strlen(doubles[i].text) && memcmp(out, doubles[i].text, n) == 0);
  }
  CHECK(jj_int_format(INT64_MIN, out) == 20 &&
        memcmp(out, "-9223372036854775808", 20) == 0);
  CHECK(jj_int_format(0, out) == 1 && out[0] == '0');
  CHECK(jj_int_format(INT64_MAX, out) == 19 &&
        memcmp(out, "9223372036854775807", 19) == 0);
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--print-repr") == 0)
    return print_repr(strtol(argv[2], NULL, 10), strtoull(argv[3], NULL, 10));
  RUN(span_stops_at_non_number_bytes);
  RUN(grammar_errors_are_syntax);
  RUN(int64_rules);
  RUN(signed_zero_and_range);
  RUN(hard_cases_match_python);
  RUN(exact_halfway_points);
  RUN(random_strings_match_strtod);
  RUN(random_long_inputs_match_strtod);
  RUN(powers_of_ten_and_two);
  RUN(format_layout_is_python_repr);
  RUN(random_doubles_round_trip_shortest);
  RUN(special_doubles_round_trip);
  RUN(tables_are_consistent);
  RUN(public_number_printers);
  return test_summary("num");
}
