# jalapenojson — build, test, demo.
#   make          build the library, the SQLite extension ./jalapenojson.so, the tests
#                 (never installs anything)
#   make deps     install the missing Debian packages README.md lists (tools/deps.sh)
#   make check    the quick loop between edits: the native build's C, SQL,
#                 CLI and Python tests (no sanitizer, portable, WebAssembly
#                 or browser build)
#   make test     make deps, then build and run every test, the same suite again
#                 under ASan+UBSan, the core's C tests in the portable build
#                 (no SWAR, no SIMD) and the checks of generated files; the
#                 Python module (make python, make python-asan) is built and
#                 tested in both builds, the JavaScript module in Node and a
#                 browser, the DuckDB extension in DuckDB (make duckdb); what
#                 CI runs
#   make python   the Python module into build/venv (see below)
#   make demo     make deps, then the main job: write a sample document and
#                 query it in sqlite3
#   make sanitize the suite under AddressSanitizer + UndefinedBehaviorSanitizer only
#   make bench    the benchmark (bench/run.sh; bench-1m: the SQLite tasks at
#                 1,000,000 rows, bench/run.sh --rows 1000000)
#   make fuzz     build the libFuzzer harnesses, run each FUZZ_SECONDS (60)
#   make install  the command-line tool, the libraries, the extension, the
#                 header, the pkg-config file and the man page under
#                 $(DESTDIR)$(PREFIX) (PREFIX=/usr/local); make uninstall
# Objects go to $(B) (build/ normally, build/san for the sanitizer build,
# build/portable for the portable one).  Builds print one short line per
# file; V=1 prints the commands, make -s nothing.

CC      ?= cc
B       ?= build
NPROC   := $(shell nproc 2>/dev/null || echo 2)
OPT     ?= -O2
WARN    := -std=c11 -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = $(WARN) $(CFLAGS) $(SANFLAGS) $(PORTFLAGS) -fPIC -Icore -Itests/lib
LIBS    := -lz -lbrotlienc -lbrotlidec -lm
SANFLAGS_ON := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# Quiet builds: `$(say) CC file` prints "  CC      file" unless V=1 (then
# the command itself is shown) or make runs with -s (then nothing is).
ifeq ($(V),1)
Q   :=
say := @true
else
Q   := @
say := @printf '  %-7s %s\n'
endif
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say := @true
endif

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
TEST_SRC  := $(sort $(wildcard tests/core/test_*.c))
TEST_BIN  := $(TEST_SRC:tests/core/%.c=$(B)/tests/%)
EXT_SO    := $(if $(filter build,$(B)),jalapenojson.so,$(B)/jalapenojson.so)
CLI_SRC   := $(sort $(wildcard cli/*.c))
CLI_OBJ   := $(CLI_SRC:%.c=$(B)/%.o)
CLI_BIN   := $(B)/jalapenojson
# One version, core/jalapenojson.h's JJ_VERSION_STRING: the shared
# library's file name and soname (the major version) and the pkg-config
# file take it from there (tests/project/test_version.py checks every
# other copy).
VERSION   := $(shell sed -n 's/^\#define JJ_VERSION_STRING "\(.*\)"$$/\1/p' core/jalapenojson.h)
VERSION_MAJOR := $(shell sed -n 's/^\#define JJ_VERSION_MAJOR \([0-9]*\)$$/\1/p' core/jalapenojson.h)
SONAME    := libjalapenojson.so.$(VERSION_MAJOR)
SO_FILE   := libjalapenojson.so.$(VERSION)

.PHONY: all deps check test warnings sanitize demo bench bench-1m clean core-tests install uninstall
all: $(B)/libjalapenojson.a $(B)/$(SO_FILE) $(if $(EXT_SRC),$(EXT_SO)) \
     $(CLI_BIN) $(TEST_BIN) $(B)/jj-demo

# The library and the C test programs only (the portable build).
core-tests: $(B)/libjalapenojson.a $(TEST_BIN)

# Install the Debian packages README.md lists that are missing (a no-op when
# all are there).  Only `make deps`, `make test` and `make demo` run it.
deps:
	@tools/deps.sh

$(B)/%.o: %.c $(wildcard core/*.h) $(wildcard ext/*.h) $(wildcard cli/*.h)
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/libjalapenojson.a: $(CORE_OBJ)
	@rm -f $@
	$(say) AR $@
	$(Q)ar rcs $@ $^

# The shared core: only the functions core/jalapenojson.h declares are
# exported (the list is made from the header), under the soname
# libjalapenojson.so.0; libjalapenojson.so.0 and .so link to the file.
$(B)/libjalapenojson.map: core/jalapenojson.h
	@mkdir -p $(dir $@)
	$(Q){ echo '{ global:'; grep -o '\bjj_[a-z0-9_]*(' $< | sort -u | sed 's/($$/;/'; \
	  echo 'local: *; };'; } > $@

$(B)/$(SO_FILE): $(CORE_OBJ) $(B)/libjalapenojson.map
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(SONAME) \
	  -Wl,--version-script=$(B)/libjalapenojson.map -o $@ $(CORE_OBJ) $(LIBS)
	$(Q)ln -sf $(SO_FILE) $(B)/$(SONAME) && ln -sf $(SONAME) $(B)/libjalapenojson.so

$(EXT_SO): $(EXT_OBJ) $(B)/libjalapenojson.a ext/exports.map
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,--version-script=ext/exports.map -o $@ $(EXT_OBJ) $(B)/libjalapenojson.a $(LIBS)

# The command-line tool, linked with the static library: one file to install.
$(CLI_BIN): $(CLI_OBJ) $(B)/libjalapenojson.a
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(B)/libjalapenojson.a $(LIBS)

$(B)/tests/%: tests/core/%.c $(wildcard tests/lib/*.h) $(B)/libjalapenojson.a
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $< -o $@ $(B)/libjalapenojson.a -lcjson -lsqlite3 $(LIBS)

$(B)/jj-demo: tools/jj-demo.c $(B)/libjalapenojson.a
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $< -o $@ $(B)/libjalapenojson.a $(LIBS)

# ---- Installing ----------------------------------------------------------
# PREFIX and DESTDIR as usual; each directory may be set on its own.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PCDIR      ?= $(LIBDIR)/pkgconfig
INSTALLED  := $(BINDIR)/jalapenojson $(LIBDIR)/libjalapenojson.a \
              $(LIBDIR)/$(SO_FILE) $(LIBDIR)/$(SONAME) $(LIBDIR)/libjalapenojson.so \
              $(LIBDIR)/jalapenojson.so $(INCLUDEDIR)/jalapenojson.h \
              $(PCDIR)/jalapenojson.pc $(MANDIR)/man1/jalapenojson.1

# The extension goes to $(LIBDIR)/jalapenojson.so, the name sqlite3's
# `.load $(LIBDIR)/jalapenojson` (or `.load jalapenojson` with LIBDIR on the
# loader's path) finds; the core library is libjalapenojson.*, so the two
# never clash.
install: $(CLI_BIN) $(B)/libjalapenojson.a $(B)/$(SO_FILE) $(EXT_SO) tools/jalapenojson.pc.in
	$(say) INSTALL $(DESTDIR)$(PREFIX)
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
	  $(DESTDIR)$(PCDIR) $(DESTDIR)$(MANDIR)/man1
	$(Q)install -m 755 $(CLI_BIN) $(DESTDIR)$(BINDIR)/jalapenojson
	$(Q)install -m 644 $(B)/libjalapenojson.a $(DESTDIR)$(LIBDIR)/libjalapenojson.a
	$(Q)install -m 755 $(B)/$(SO_FILE) $(DESTDIR)$(LIBDIR)/$(SO_FILE)
	$(Q)ln -sf $(SO_FILE) $(DESTDIR)$(LIBDIR)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libjalapenojson.so
	$(Q)install -m 755 $(EXT_SO) $(DESTDIR)$(LIBDIR)/jalapenojson.so
	$(Q)install -m 644 core/jalapenojson.h $(DESTDIR)$(INCLUDEDIR)/jalapenojson.h
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	  -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	  tools/jalapenojson.pc.in > $(DESTDIR)$(PCDIR)/jalapenojson.pc
	$(Q)install -m 644 cli/jalapenojson.1 $(DESTDIR)$(MANDIR)/man1/jalapenojson.1

uninstall:
	$(say) UNINST $(DESTDIR)$(PREFIX)
	$(Q)rm -f $(addprefix $(DESTDIR),$(INSTALLED))

# Every source compiles without a warning under gcc and clang (as errors).
WSRC := $(CORE_SRC) $(EXT_SRC) $(CLI_SRC) tools/jj-demo.c $(TEST_SRC)
warnings:
	@for cc in gcc clang; do for f in $(WSRC); do echo "$$cc $$f"; done; done | \
	  xargs -P $(NPROC) -L 1 sh -c '$$0 $(WARN) -Werror -O2 -Icore -Itests/lib -c $$1 -o /dev/null' && \
	  echo "warnings: gcc and clang clean on $(words $(WSRC)) files"

# The quick loop: the plain build and the Python module, then their tests
# (tests/run.sh --quick: no JavaScript); one total line.
check:
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@$(MAKE) --no-print-directory python
	@tests/run.sh --quick build

# The full suite: the packages, warnings, the plain build, the sanitizer
# build, the portable build (warnings are errors there too) with its C
# tests, the Python and JavaScript modules, the DuckDB extension (its
# warnings, its build, DuckDB from npm), and the checks that generated
# text is current (tests/run.sh runs the three builds' suites side by
# side); one total line.
test: deps
	@$(MAKE) --no-print-directory warnings
	@$(MAKE) --no-print-directory fuzz-check
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@$(MAKE) --no-print-directory -j$(NPROC) B=build/san SAN=1 all
	@$(MAKE) --no-print-directory -j$(NPROC) B=build/portable PORTABLE=1 CFLAGS="-O2 -g -Werror" core-tests
	@$(MAKE) --no-print-directory python-warnings
	@$(MAKE) --no-print-directory python
	@$(MAKE) --no-print-directory python-asan
	@$(MAKE) --no-print-directory -j$(NPROC) js
	@$(MAKE) --no-print-directory duckdb-warnings
	@$(MAKE) --no-print-directory duckdb duckdb-node
	@$(MAKE) --no-print-directory -j$(NPROC) B=build/san SAN=1 duckdb
	@tools/deps.sh browser || echo "make test: chromium could not be installed; the browser test says so"
	@tests/run.sh build build/san build/portable

# Where the conformance test finds JSONTestSuite's test_parsing cases
# (default: ../shared/conformance/JSONTestSuite/test_parsing beside the
# repository; without them the test is skipped, except when CI=true).
export JJ_JSONTESTSUITE CI

sanitize:
	@$(MAKE) --no-print-directory B=build/san SAN=1 all
	@tests/run.sh build/san

# Quiet: the build prints nothing unless it fails (V=1 shows the commands).
demo: deps
	@echo "== building (make all$(if $(filter 1,$(V)),, -s; V=1 shows the commands))"
	@$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) all
	@tools/demo.sh

bench: all
	@bench/run.sh

# The SQLite reading tasks at 1,000,000 rows without the whole --large run
# (about 25 minutes); RESULTS.md then shows them next to `make bench`'s.
bench-1m: all
	@bench/run.sh --rows 1000000

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
FUZZ_FLAGS_C := -std=c11 -O1 -g -fno-omit-frame-pointer -Icore -Itests/lib \
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
build/fuzz/fuzz_export: FUZZ_LINK = $(FUZZ_EXT_OBJ) -lsqlite3
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
	  $$cc $(WARN) -Werror -O2 -Icore -Itests/lib -c $$f -o /dev/null || exit 1; \
	done; done; echo "fuzz-check: $(words $(FUZZ_SRC)) harnesses compile (gcc, clang)"

# ---- Python: the CPython module in python/ ------------------------------
# `make python` builds jalapenojson (python/: the core and the binding in
# one C extension) into a venv at $(B)/venv that also sees Debian's
# packages (setuptools, wheel, pytest), offline, from this checkout:
#   python3 -m venv --system-site-packages $(B)/venv
#   $(B)/venv/bin/pip install --no-build-isolation ./python
# `make python-asan` does the same in build/san with ASan+UBSan (that
# module needs the sanitizer runtimes preloaded: tests/run.sh does it;
# see docs/python.md).  `make python-test` runs the module's tests (-P:
# the repository root's jalapenojson.so must not shadow the package);
# `make test` runs them through tests/bindings/test_python_module.py, in
# both builds.
PYTHON  ?= /usr/bin/python3
PY_DEPS := $(wildcard python/src/*.c python/src/*.h python/jalapenojson/*) \
           python/setup.py python/pyproject.toml $(CORE_SRC) $(wildcard core/*.h)
.PHONY: python python-asan python-test python-warnings
python: $(B)/venv/.jj-module
$(B)/venv/.jj-module: $(PY_DEPS)
	@test -x $(B)/venv/bin/python || $(PYTHON) -m venv --system-site-packages $(B)/venv
	JJ_PY_BUILD_BASE=$(abspath $(B)/python) JJ_PY_CFLAGS="$(SANFLAGS)" \
	  $(B)/venv/bin/python -m pip install -q --no-build-isolation --no-deps \
	  --no-index --force-reinstall --disable-pip-version-check ./python
	@touch $@

python-asan:
	@$(MAKE) --no-print-directory B=build/san SAN=1 python

python-test: python
	$(B)/venv/bin/python -P -m pytest -q -p no:cacheprovider python/tests

# The module's sources compile without a warning under gcc and clang (as
# errors).  Not -pedantic: CPython's slot tables (PyType_Slot,
# PyModuleDef_Slot) hold functions in void * fields, which ISO C forbids.
PY_CSRC := $(wildcard python/src/*.c)
PY_INC  := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
python-warnings:
	@for cc in gcc clang; do for f in $(PY_CSRC); do \
	  $$cc -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Werror -O2 \
	    -Icore -I$(PY_INC) -c $$f -o /dev/null || exit 1; \
	done; done; echo "python-warnings: gcc and clang clean on $(words $(PY_CSRC)) files"
# ---- DuckDB: the loadable extension read_jj (duckdb/) --------------------
#   make duckdb          build/jalapenojson.duckdb_extension (B=build/san
#                        SAN=1: with ASan and UBSan, for the tests)
#   make duckdb-warnings its sources under gcc and clang, warnings as errors
#   make duckdb-node     DuckDB for the tests and the benchmark: the npm
#                        package @duckdb/node-api in build/duckdb-node
#   make bench-duckdb    bench/duckdb_bench.mjs (bench/DUCKDB_RESULTS.md)
# Written against DuckDB's C extension API at version 1.2.0, so the one
# build loads in every DuckDB from 1.2 on.  Its headers (duckdb.h,
# duckdb_extension.h) come from the npm registry's duckdb package
# (duckdb/headers.sh), included as system headers: they are DuckDB's, not
# this project's, and not -pedantic clean.  The core is the static
# library, compiled with -fPIC; only the entry point is exported
# (duckdb/exports.map), and duckdb/footer.py appends the metadata DuckDB
# checks on LOAD.  Unsigned: DuckDB loads it with allow_unsigned_extensions.
DUCKDB_SRC  := $(sort $(wildcard duckdb/*.c))
DUCKDB_OBJ  := $(DUCKDB_SRC:duckdb/%.c=$(B)/duckdb/%.o)
DUCKDB_HDR  := build/duckdb-headers/include
DUCKDB_EXT  := $(B)/jalapenojson.duckdb_extension
DUCKDB_NODE := build/duckdb-node/node_modules/@duckdb/node-api/package.json
# The DuckDB the tests run: 1.5, from the npm registry.
DUCKDB_NODE_VERSION := 1.5.6-r.1
.PHONY: duckdb duckdb-warnings duckdb-node bench-duckdb

duckdb: $(DUCKDB_EXT)

$(DUCKDB_HDR)/duckdb_extension.h: duckdb/headers.sh
	$(say) NPM duckdb headers
	$(Q)duckdb/headers.sh build/duckdb-headers

$(B)/duckdb/%.o: duckdb/%.c duckdb/jjduck.h core/jalapenojson.h $(DUCKDB_HDR)/duckdb_extension.h
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(WARN) $(OPT) -g $(SANFLAGS) -fPIC -fvisibility=hidden -Icore -isystem $(DUCKDB_HDR) -c $< -o $@

# In the sanitizer build (make B=build/san SAN=1 duckdb) the extension and
# the core are instrumented; the tests then preload the sanitizers'
# runtimes into node (tests/bindings/test_duckdb.py).
$(DUCKDB_EXT): $(DUCKDB_OBJ) $(B)/libjalapenojson.a duckdb/exports.map duckdb/footer.py
	$(say) LD $@
	$(Q)$(CC) -shared $(SANFLAGS) -Wl,--version-script=duckdb/exports.map -o $@ $(DUCKDB_OBJ) \
	  $(B)/libjalapenojson.a $(LIBS) -lpthread
	$(Q)$(PYTHON) duckdb/footer.py $@

duckdb-warnings: $(DUCKDB_HDR)/duckdb_extension.h
	@for cc in gcc clang; do for f in $(DUCKDB_SRC); do \
	  $$cc $(WARN) -Werror -O2 -Icore -isystem $(DUCKDB_HDR) -c $$f -o /dev/null || exit 1; \
	done; done; echo "duckdb-warnings: gcc and clang clean on $(words $(DUCKDB_SRC)) files"

duckdb-node: $(DUCKDB_NODE)
$(DUCKDB_NODE):
	$(say) NPM @duckdb/node-api@$(DUCKDB_NODE_VERSION)
	$(Q)mkdir -p build/duckdb-node && cd build/duckdb-node && \
	  { [ -f package.json ] || echo '{"private": true}' > package.json; } && \
	  npm install --silent --no-audit --no-fund @duckdb/node-api@$(DUCKDB_NODE_VERSION)

# 1,000,000 rows through read_jj, read_csv, read_json and read_parquet at
# 1 and 2 threads (bench/duckdb_bench.mjs; writes bench/DUCKDB_RESULTS.md).
bench-duckdb: all duckdb duckdb-node
	@node bench/duckdb_bench.mjs

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
# (wasm.c, wasm_read.c; wasm_write.c and wasm_build.c in the reader+writer
# module, with the row builder and the converter) and small
# replacements of wasi-libc's printf and malloc (and, in the reader-only
# module, of memchr, strlen and the number parsers, with printf's
# formatting done by JS: js/wasm_printf_js.c).
WASM_CC       := clang --target=wasm32-wasi --sysroot=/usr
WASM_FEATURES := -mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals
WASM_CFLAGS    = $(WARN) $(WASM_FEATURES) -Icore
WASM_READER   := base64 buf chrono cursor doc error json json_canon numparse numprint reader \
                 rowscan schema select text types validate value
WASM_WRITER   := writer encode copy infer infer_schema build_tape build build_write build_ahead build_finish \
                 convert convert_csv convert_csv_numbers convert_input convert_json \
                 convert_json_lex convert_value convert_ahead datefmt infer_dates
# The glue: the ABI and malloc; then per module printf (in C, or left to
# JS) and the numbers: the table of powers of five for the core's parser
# and printer (reader and writer), or parsers that leave the hard cases to
# JS (reader only: see its file).
WASM_GLUE     := wasm wasm_read wasm_malloc
WASM_RT       := $(shell $(WASM_CC) -print-libgcc-file-name 2>/dev/null)
WASM_OPT      := wasm-opt --enable-bulk-memory --enable-nontrapping-float-to-int \
                 --enable-sign-ext --enable-mutable-globals --enable-simd \
                 --strip-debug --strip-producers --strip-target-features
WASM_FULL_OBJ   := $(WASM_READER:%=build/js/full/core/%.o) $(WASM_WRITER:%=build/js/full/core/%.o) \
                   $(WASM_GLUE:%=build/js/full/js/%.o) build/js/full/js/wasm_write.o \
                   build/js/full/js/wasm_build.o \
                   build/js/full/js/wasm_printf.o build/js/full/js/wasm_numtables.o
WASM_READER_OBJ := $(WASM_READER:%=build/js/reader/core/%.o) $(WASM_GLUE:%=build/js/reader/js/%.o) \
                   build/js/reader/js/wasm_printf_js.o build/js/reader/js/wasm_numparse.o \
                   build/js/reader/js/wasm_string.o
.PHONY: js js-deps bench-js

js: js-deps js/dist/jalapenojson.wasm js/dist/jalapenojson-reader.wasm build/js/jjdump

# The WebAssembly toolchain and Node (a no-op when installed).
js-deps:
	@tools/deps.sh

# The fast build: -O2, and rowscan.c's SSE2 path on WebAssembly SIMD
# (js/sse2/sse2_on_wasm.h maps its intrinsics, included before the file).
# errno is thread-local in wasi-libc, which clang's wasm32 target compiles
# only with the local-exec model (one thread here anyway).  wasi-libc has
# no tmpfile: the core's calls go to js/wasm_build.c's, which says why
# none is ever made (its declaration says "not defined on WASI", hence
# -Wno-deprecated-declarations).
WASM_FULL_DEFS := -ftls-model=local-exec -Dtmpfile=jjw_tmpfile -Wno-deprecated-declarations
build/js/full/%.o: %.c $(wildcard core/*.h) js/wasm.h js/sse2/sse2_on_wasm.h Makefile | js-deps
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_CFLAGS) -O2 -msimd128 $(WASM_FULL_DEFS) $(if $(filter %/rowscan.o,$@),-D__SSE2__ -DJJ_SSE2_PROVIDED -include js/sse2/sse2_on_wasm.h) -c $< -o $@

# The small build: -Oz, no SIMD, no writer; link-time optimization across
# files (-flto: the objects are LLVM bitcode that wasm-ld optimizes
# together, inlining and dropping across files); JJ_SWAR=0: no 8-bytes-at-
# a-time paths (num.h inlines its short-float path into two callers, with
# tables, about 2 KB; text.c's ASCII runs); the core's jj_num_parse_double
# and jj_num_parse_int64 renamed out of the way of js/wasm_numparse.c's
# (nothing calls them, so --gc-sections drops them and the Eisel-Lemire
# and big-integer helpers); JJ_SMALL: the core's shortcuts for speed left
# out, their general path kept (the inline date check, the short integer,
# jj_cursor_value's text, the row scan's string search and number table,
# the canonical ',' and newline, jj_ws inline), what only another caller
# needs left out (usage errors that only a misusing C caller meets trap:
# JJ_USAGE in core/internal.h; jj_json_skip's heap path, interrupt
# polling), and smaller forms of some checks (base64 a character per
# step, a timestamp's shape by a mask); see docs/javascript.md.
# Rebuilt when this Makefile changes (its flags).
build/js/reader/%.o: %.c $(wildcard core/*.h) js/wasm.h Makefile | js-deps
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_CFLAGS) -Oz -flto -DJJ_SWAR=0 -DJJ_SMALL \
	  $(if $(filter %/numparse.o,$@),-Djj_num_parse_double=jj_num_parse_double_core \
	    -Djj_num_parse_int64=jj_num_parse_int64_core) -c $< -o $@

# The stack first, so that overflowing it traps at once instead of
# overwriting data; 1 MiB, enough for the deepest nesting the depth limit
# allows (js/lib/read.js caps maxDepth to keep it so).  Memory at most
# 2 GiB: JS reads the addresses the module returns as signed 32-bit
# numbers (js/wasm_malloc.c).  __wasm_call_ctors exported from the
# default module (js/lib/instance.js calls it once):
# otherwise wasm-ld wraps every export in a function that calls it first.
# Not from the reader-only module, built for size: the core has no
# constructors, so that call is to an empty function, which wasm-opt
# removes with the export's bytes.
build/js/%.wasm:
	wasm-ld --no-entry --strip-all --gc-sections --stack-first -z stack-size=1048576 \
	  --max-memory=2147483648 $(WASM_CTORS) -o $@ $^ -L/usr/lib/wasm32-wasi -lc $(WASM_RT)

build/js/full.wasm: WASM_CTORS := --export=__wasm_call_ctors
build/js/full.wasm: $(WASM_FULL_OBJ)
build/js/reader.wasm: WASM_CTORS :=
build/js/reader.wasm: $(WASM_READER_OBJ)

js/dist/jalapenojson.wasm: build/js/full.wasm
	@mkdir -p $(dir $@)
	$(WASM_OPT) -O2 $< -o $@

# --converge: -Oz again until the module stops shrinking.
# --low-memory-unused: a constant added to a pointer may go into the
# load's or store's offset, which wasm adds without wrapping, where the
# addition would wrap past 2^32 to an address in the first 1 KiB; no
# pointer of this module wraps (that 1 KiB is the far end of its stack,
# which --stack-first puts at address 0).
js/dist/jalapenojson-reader.wasm: build/js/reader.wasm
	@mkdir -p $(dir $@)
	$(WASM_OPT) -Oz --converge --low-memory-unused $< -o $@

# The tests' C side: dumps a document's values, copies it through the C
# writer, writes random documents (js/test/jjdump.c).
build/js/jjdump: js/test/jjdump.c build/libjalapenojson.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Werror -O2 -g -Icore $< -o $@ build/libjalapenojson.a $(LIBS)

# The JavaScript benchmark (bench/js_bench.mjs, five rounds; writes
# bench/JS_RESULTS.md).
bench-js: all js
	@node bench/js_run.mjs
