# jalapenojson — build, test, demo.
#   make          build the library, the SQLite extension ./jalapenojson.so, the tests
#                 (never installs anything)
#   make deps     install the missing Debian packages README.md lists (tools/deps.sh)
#   make test     make deps, then build and run every test, the same suite again
#                 under ASan+UBSan, the core's C tests in the portable build
#                 (no SWAR, no SIMD) and the checks of generated files
#   make demo     make deps, then the main job: write a sample document and
#                 query it in sqlite3
#   make sanitize the suite under AddressSanitizer + UndefinedBehaviorSanitizer only
#   make bench    the benchmark (bench/run.sh)
#   make fuzz     build the libFuzzer harnesses, run each FUZZ_SECONDS (60)
# Objects go to $(B) (build/ normally, build/san for the sanitizer build,
# build/portable for the portable one).

CC      ?= cc
B       ?= build
OPT     ?= -O2
WARN    := -std=c11 -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = $(WARN) $(CFLAGS) $(SANFLAGS) $(PORTFLAGS) -fPIC -Icore -Itests
LIBS    := -lz -lbrotlienc -lbrotlidec -lm
SANFLAGS_ON := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

ifeq ($(SAN),1)
SANFLAGS := $(SANFLAGS_ON)
OPT := -O1
endif
# The portable configuration: the byte-at-a-time loops instead of SWAR
# (num.h) and no SSE2 row scanner (rowscan.c), as on a big-endian or
# non-x86 machine.
ifeq ($(PORTABLE),1)
PORTFLAGS := -DJJ_SWAR=0 -DJJ_NO_SIMD
endif

CORE_SRC  := $(sort $(wildcard core/*.c))
CORE_OBJ  := $(CORE_SRC:%.c=$(B)/%.o)
EXT_SRC   := $(sort $(wildcard ext/*.c))
EXT_OBJ   := $(EXT_SRC:%.c=$(B)/%.o)
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
TEST_BIN  := $(TEST_SRC:%.c=$(B)/%)
EXT_SO    := $(if $(filter build,$(B)),jalapenojson.so,$(B)/jalapenojson.so)

.PHONY: all deps test warnings sanitize demo bench clean core-tests
all: $(B)/libjalapenojson.a $(if $(EXT_SRC),$(EXT_SO)) $(TEST_BIN) $(B)/jj-demo

# The library and the C test programs only (the portable build).
core-tests: $(B)/libjalapenojson.a $(TEST_BIN)

# Install the Debian packages README.md lists that are missing (a no-op when
# all are there).  Only `make deps`, `make test` and `make demo` run it.
deps:
	@tools/deps.sh

$(B)/%.o: %.c $(wildcard core/*.h) $(wildcard ext/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/libjalapenojson.a: $(CORE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(EXT_SO): $(EXT_OBJ) $(B)/libjalapenojson.a ext/exports.map
	$(CC) $(ALL_CFLAGS) -shared -Wl,--version-script=ext/exports.map -o $@ $(EXT_OBJ) $(B)/libjalapenojson.a $(LIBS)

$(B)/tests/%: tests/%.c tests/test.h $(B)/libjalapenojson.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $< -o $@ $(B)/libjalapenojson.a -lcjson -lsqlite3 $(LIBS)

$(B)/jj-demo: tools/jj-demo.c $(B)/libjalapenojson.a
	$(CC) $(ALL_CFLAGS) $< -o $@ $(B)/libjalapenojson.a $(LIBS)

# Every source compiles without a warning under gcc and clang (as errors).
WSRC := $(CORE_SRC) $(EXT_SRC) tools/jj-demo.c $(TEST_SRC)
warnings:
	@for cc in gcc clang; do for f in $(WSRC); do \
	  $$cc $(WARN) -Werror -O2 -Icore -Itests -c $$f -o /dev/null || exit 1; \
	done; done; echo "warnings: gcc and clang clean on $(words $(WSRC)) files"

# The full suite: the packages, warnings, the plain build, the sanitizer
# build, the portable build (warnings are errors there too) with its C
# tests, and the checks that generated text is current (tests/run.sh); one
# total line.
test: deps
	@$(MAKE) --no-print-directory warnings
	@$(MAKE) --no-print-directory fuzz-check
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory B=build/san SAN=1 all
	@$(MAKE) --no-print-directory B=build/portable PORTABLE=1 CFLAGS="-O2 -g -Werror" core-tests
	@$(MAKE) --no-print-directory js
	@tools/deps.sh browser || echo "make test: chromium could not be installed; the browser test says so"
	@tests/run.sh build build/san build/portable

sanitize:
	@$(MAKE) --no-print-directory B=build/san SAN=1 all
	@tests/run.sh build/san

demo: deps
	@$(MAKE) --no-print-directory all
	@tools/demo.sh

bench: all
	@bench/run.sh

clean:
	rm -rf build jalapenojson.so

# ---- Fuzzing: every tests/fuzz/fuzz_*.c is a libFuzzer harness ----------
# clang's libFuzzer with ASan + UBSan; the library (and for fuzz_sqlite the
# extension, with the system's SQLite) is built with coverage into
# build/fuzz/obj.  libFuzzer comes with Debian's libclang-rt-14-dev, which
# `tools/deps.sh fuzz` installs when missing.
FUZZ_SECONDS ?= 60
FUZZ_SRC   := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN   := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
FUZZ_FLAGS_C := -std=c11 -O1 -g -fno-omit-frame-pointer -Icore -Itests \
                -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CORE_OBJ := $(CORE_SRC:%.c=build/fuzz/obj/%.o)
FUZZ_EXT_OBJ  := $(EXT_SRC:%.c=build/fuzz/obj/%.o)
FUZZ_DEPS  := build/.deps-fuzz-ok
.PHONY: fuzz fuzz-build fuzz-check

# Install libFuzzer when missing (a no-op when it is there).
$(FUZZ_DEPS): tools/deps.sh
	@tools/deps.sh fuzz
	@mkdir -p build && touch $@

# A library or extension object, instrumented for coverage.
build/fuzz/obj/%.o: %.c $(wildcard core/*.h) $(wildcard ext/*.h) | $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS_C) -fsanitize=fuzzer-no-link -c $< -o $@

# A harness: the library, and for fuzz_sqlite the extension and SQLite.
build/fuzz/fuzz_sqlite: FUZZ_LINK = $(FUZZ_EXT_OBJ) -lsqlite3
build/fuzz/%: tests/fuzz/%.c $(FUZZ_CORE_OBJ) $(FUZZ_EXT_OBJ)
	clang $(FUZZ_FLAGS_C) -fsanitize=fuzzer $< $(FUZZ_CORE_OBJ) $(FUZZ_LINK) $(LIBS) -o $@

fuzz-build: $(FUZZ_CORE_OBJ) $(FUZZ_EXT_OBJ) $(FUZZ_BIN)

# Run every harness for FUZZ_SECONDS, one after another (tests/fuzz/run.sh:
# corpus, log and findings under build/fuzz/).
fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

# Part of `make test`: the harnesses compile, warning-free, under gcc and
# clang without libFuzzer, so they cannot rot between fuzzing runs.
fuzz-check: $(DEPS_STAMP)
	@for cc in gcc clang; do for f in $(FUZZ_SRC); do \
	  $$cc $(WARN) -Werror -O2 -Icore -Itests -c $$f -o /dev/null || exit 1; \
	done; done; echo "fuzz-check: $(words $(FUZZ_SRC)) harnesses compile (gcc, clang)"

# ---- JavaScript: the core compiled to WebAssembly, the ES module (js/) ----
#   make js       js/dist/jalapenojson.wasm (reader and writer: -O2 and
#                 WebAssembly SIMD, for speed) and
#                 js/dist/jalapenojson-reader.wasm (reader only: -Oz, no
#                 SIMD, for size), which js/jalapenojson.js loads; and
#                 build/js/jjdump, the C side of the JS tests
# clang's wasm32 target over Debian's wasi-libc (its headers and libc.a
# live under /usr, hence --sysroot=/usr), linked with wasm-ld and shrunk
# with binaryen's wasm-opt (`make js` installs them: tools/deps.sh).  From
# core/ only the files the reader and the writer need: no compress.c,
# file.c or atomic.c (zlib and brotli are not built for wasm32 in Debian;
# the module gunzips with the platform's zlib or DecompressionStream) and
# no numtables.c (js/wasm_numtables.c says why); js/ brings the ABI
# (wasm.c) and small replacements of wasi-libc's printf and malloc.
WASM_CC       := clang --target=wasm32-wasi --sysroot=/usr
WASM_FEATURES := -mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals
WASM_CFLAGS    = $(WARN) $(WASM_FEATURES) -Icore
WASM_READER   := base64 buf chrono cursor doc error json numparse numprint reader \
                 rowscan schema text types validate value
WASM_WRITER   := writer encode copy
WASM_GLUE     := wasm wasm_printf wasm_malloc wasm_numtables
WASM_RT       := $(shell $(WASM_CC) -print-libgcc-file-name 2>/dev/null)
WASM_OPT      := wasm-opt --enable-bulk-memory --enable-nontrapping-float-to-int \
                 --enable-sign-ext --enable-mutable-globals --enable-simd \
                 --strip-producers --strip-target-features
WASM_FULL_OBJ   := $(WASM_READER:%=build/js/full/core/%.o) $(WASM_WRITER:%=build/js/full/core/%.o) \
                   $(WASM_GLUE:%=build/js/full/js/%.o)
WASM_READER_OBJ := $(WASM_READER:%=build/js/reader/core/%.o) $(WASM_GLUE:%=build/js/reader/js/%.o)
.PHONY: js js-deps bench-js

js: js-deps js/dist/jalapenojson.wasm js/dist/jalapenojson-reader.wasm build/js/jjdump

# The WebAssembly toolchain and Node (a no-op when installed).
js-deps:
	@tools/deps.sh

# The fast build: -O2, and rowscan.c's SSE2 path on WebAssembly SIMD
# (js/sse2/emmintrin.h maps its intrinsics).
build/js/full/%.o: %.c $(wildcard core/*.h) js/sse2/emmintrin.h
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_CFLAGS) -O2 -msimd128 $(if $(filter %/rowscan.o,$@),-D__SSE2__ -Ijs/sse2) -c $< -o $@

# The small build: -Oz, no SIMD, no writer.
build/js/reader/%.o: %.c $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_CFLAGS) -Oz -DJJW_NO_WRITER -c $< -o $@

# The stack first, so that overflowing it traps at once instead of
# overwriting data; 1 MiB, enough for the deepest nesting the depth limit
# allows (js/lib/read.js caps maxDepth to keep it so).
build/js/%.wasm:
	wasm-ld --no-entry --strip-all --gc-sections --stack-first -z stack-size=1048576 -o $@ $^ -L/usr/lib/wasm32-wasi -lc $(WASM_RT)

build/js/full.wasm: $(WASM_FULL_OBJ)
build/js/reader.wasm: $(WASM_READER_OBJ)

js/dist/jalapenojson.wasm: build/js/full.wasm
	@mkdir -p $(dir $@)
	$(WASM_OPT) -O2 $< -o $@

js/dist/jalapenojson-reader.wasm: build/js/reader.wasm
	@mkdir -p $(dir $@)
	$(WASM_OPT) -Oz $< -o $@

# The tests' C side: dumps a document's values, copies it through the C
# writer, writes random documents (js/test/jjdump.c).
build/js/jjdump: js/test/jjdump.c build/libjalapenojson.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Werror -O2 -g -Icore $< -o $@ build/libjalapenojson.a $(LIBS)

# The JavaScript benchmark (bench/js_bench.mjs, five rounds; writes
# bench/JS_RESULTS.md).
bench-js: all js
	@node bench/js_run.mjs
