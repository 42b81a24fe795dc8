"""Build jalapenojson._jalapenojson: the core library (../core/*.c) and the
binding (src/*.c) compiled into one extension module.

The module builds only from a checkout of the repository: it compiles the
core sources beside this folder rather than a copy of them, so there is one
core and no copy to fall out of date (an sdist would need one; none is
made).  pyproject.toml holds the metadata; this file only adds what
pyproject.toml cannot say: the version (core/jalapenojson.h's), the sources
found at build time and the flags.

Environment (the Makefile sets them):
  JJ_PY_BUILD_BASE  where objects go (default: build/ here); the plain and
                    the sanitizer builds keep theirs apart
  JJ_PY_CFLAGS      extra compiler and linker flags, e.g. -fsanitize=address
"""
import glob
import os
import re
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
CORE = os.path.normpath(os.path.join(HERE, "..", "core"))

if not os.path.isfile(os.path.join(CORE, "jalapenojson.h")):
    sys.exit("jalapenojson: the Python module builds from a checkout of the "
             "repository (it compiles ../core beside python/): %s is missing"
             % CORE)

# The one version, defined in the core's header.
with open(os.path.join(CORE, "jalapenojson.h"), encoding="utf-8") as f:
    VERSION = re.search(r'^#define JJ_VERSION_STRING "([^"]+)"$', f.read(),
                        re.M).group(1)

extra = os.environ.get("JJ_PY_CFLAGS", "").split()
# setuptools wants paths relative to this file ("../core/x.c" is fine)
sources = [os.path.relpath(p, HERE) for p in
           sorted(glob.glob(os.path.join(CORE, "*.c"))) +
           sorted(glob.glob(os.path.join(HERE, "src", "*.c")))]

module = Extension(
    "jalapenojson._jalapenojson",
    sources=sources,
    include_dirs=[os.path.relpath(CORE, HERE)],
    libraries=["z", "brotlienc", "brotlidec", "m"],
    extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Wshadow",
                        "-Wstrict-prototypes"] + extra,
    extra_link_args=extra,
)

setup(
    version=VERSION,
    ext_modules=[module],
    options={
        "build": {"build_base": os.environ.get("JJ_PY_BUILD_BASE",
                                               os.path.join(HERE, "build"))},
        # the core is some thirty files: compile them on every core
        "build_ext": {"parallel": os.cpu_count() or 1},
    },
)
