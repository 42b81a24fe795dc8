# jalapenojson — build, test, demo.
#   make          build the library, the SQLite extension ./jalapenojson.so, the tests
#   make test     install missing Debian packages, build, run every test,
#                 then the same suite again under ASan+UBSan
#   make demo     the main job: write a sample document and query it in sqlite3
#   make sanitize the suite under AddressSanitizer + UndefinedBehaviorSanitizer only
#   make bench    the benchmark (bench/run.sh)
# Objects go to $(B) (build/ normally, build/san for the sanitizer build).

CC      ?= cc
B       ?= build
OPT     ?= -O2
WARN    := -std=c11 -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = $(WARN) $(CFLAGS) $(SANFLAGS) -fPIC -Icore -Itests
LIBS    := -lz -lbrotlienc -lbrotlidec -lm
SANFLAGS_ON := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

ifeq ($(SAN),1)
SANFLAGS := $(SANFLAGS_ON)
OPT := -O1
endif

CORE_SRC  := $(sort $(wildcard core/*.c))
CORE_OBJ  := $(CORE_SRC:%.c=$(B)/%.o)
EXT_SRC   := $(sort $(wildcard ext/*.c))
EXT_OBJ   := $(EXT_SRC:%.c=$(B)/%.o)
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
TEST_BIN  := $(TEST_SRC:%.c=$(B)/%)
EXT_SO    := $(if $(filter build,$(B)),jalapenojson.so,$(B)/jalapenojson.so)
DEPS_STAMP := build/.deps-ok

.PHONY: all deps test warnings sanitize demo bench clean
all: $(DEPS_STAMP) $(B)/libjalapenojson.a $(if $(EXT_SRC),$(EXT_SO)) $(TEST_BIN) $(B)/jj-demo

# Install what is missing from Debian's packages (a no-op when all are there).
$(DEPS_STAMP): tools/deps.sh
	@tools/deps.sh
	@mkdir -p build && touch $@
deps:
	@tools/deps.sh

$(B)/%.o: %.c $(wildcard core/*.h) $(wildcard ext/*.h) | $(DEPS_STAMP)
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
warnings: $(DEPS_STAMP)
	@for cc in gcc clang; do for f in $(WSRC); do \
	  $$cc $(WARN) -Werror -O2 -Icore -Itests -c $$f -o /dev/null || exit 1; \
	done; done; echo "warnings: gcc and clang clean on $(words $(WSRC)) files"

# The full suite: warnings, plain build, then the sanitizer build; one
# total line.
test: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory warnings
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory B=build/san SAN=1 all
	@tests/run.sh build build/san

sanitize: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory B=build/san SAN=1 all
	@tests/run.sh build/san

demo: all
	@tools/demo.sh

bench: all
	@bench/run.sh

clean:
	rm -rf build jalapenojson.so
