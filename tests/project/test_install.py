#!/usr/bin/env python3
"""test_install.py BUILD_DIR — `make install` and `make uninstall`.

Installs into a temporary DESTDIR with PREFIX=/usr, then:
  - every file is where docs/c.md's install table says, the shared
    library's links and soname are right, and it exports exactly the
    functions core/jalapenojson.h declares;
  - pkg-config (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR into the
    DESTDIR) gives the flags: a small C program builds against the shared
    library and against the static one, and runs;
  - the installed tool runs (it needs no shared library of ours);
  - sqlite3 loads the installed extension by path, and by the bare name
    `jalapenojson` with its directory on the loader's path;
  - the man page renders without warnings;
  - `make uninstall` leaves no file; the default PREFIX is /usr/local.
Runs for the plain build directory only (the one `make install` installs
from); for another it prints a SKIPPED line.  Prints "install: N passed, M
failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import ROOT, check

jjtest.LINE_AT_MOST = 3000  # a failure shows a command's output


def env(**extra):
    """A clean environment: no make jobserver of the parent make, no
    preloaded sanitizer runtime."""
    e = {k: v for k, v in os.environ.items()
         if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "LD_PRELOAD")}
    e.update(extra)
    return e


def sh(args, **kw):
    kw.setdefault("env", env())
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


PROGRAM = r'''
#include <stdio.h>
#include <string.h>
#include <jalapenojson.h>

int main(void) {
  const char *doc = "{\"jalapenojson\":1,\"columns\":[\"n\",\"d\"],\"types\":[\"i\",\"d\"],"
                    "\"rows\":[\n[20,\"2024-02-29\"],\n[22,null]\n]}";
  jj_error err;
  jj_doc *d = jj_parse(doc, strlen(doc), &err);
  jj_cursor *c = d ? jj_cursor_new(d, &err) : NULL;
  int64_t sum = 0, v;
  while (c && jj_cursor_next(c, &err) == 1)
    if (jj_cursor_int(c, 0, &v, &err) == 1) sum += v;
  char *gz = NULL;
  size_t gz_len = 0;
  int ok = jj_compress(JJ_GZIP, -1, doc, strlen(doc), &gz, &gz_len, &err) == JJ_OK;
  printf("sum %lld, %s, %s\n", (long long)sum, jj_type_sql(JJ_DATE), ok ? "gz" : "no");
  jj_free(gz);
  jj_cursor_free(c);
  jj_doc_free(d);
  return sum == 42 ? 0 : 1;
}
'''


def declared_functions():
    """The functions core/jalapenojson.h declares (comments removed)."""
    with open(os.path.join(ROOT, "core", "jalapenojson.h"), encoding="utf-8") as f:
        text = f.read()
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    code = re.sub(r"//[^\n]*", "", code)
    # a name before "(" is a function's, unless "(*" makes it a pointer's
    # return type: typedef jj_code (*jj_cell_host)(...)
    return set(re.findall(r"\b(jj_\w+)\s*\((?!\s*\*)", code))


def exported(lib):
    out = sh(["nm", "-D", "--defined-only", lib]).stdout
    return {line.split()[-1] for line in out.splitlines() if line.split() and line.split()[1] in "TW"}


def main():
    build = os.path.abspath(jjtest.build_dir(sys.argv))
    if os.path.relpath(build, ROOT) != "build":
        print(f"install: SKIPPED — `make install` installs the plain build (build/), not {os.path.relpath(build, ROOT)}")
        return jjtest.report("install")
    version = re.search(r'#define JJ_VERSION_STRING "([^"]+)"',
                        open(os.path.join(ROOT, "core", "jalapenojson.h"), encoding="utf-8").read()).group(1)
    tmp = tempfile.mkdtemp(prefix="jj-install-")
    try:
        dest = os.path.join(tmp, "stage")
        r = sh(["make", "--no-print-directory", "-s", "install", f"DESTDIR={dest}", "PREFIX=/usr"], cwd=ROOT)
        check("make install DESTDIR=... PREFIX=/usr", r.returncode == 0, r.stdout)
        usr = os.path.join(dest, "usr")
        lib = os.path.join(usr, "lib")
        files = {
            "bin/jalapenojson": 0o755,
            "lib/libjalapenojson.a": 0o644,
            f"lib/libjalapenojson.so.{version}": 0o755,
            "lib/jalapenojson.so": 0o755,
            "include/jalapenojson.h": 0o644,
            "lib/pkgconfig/jalapenojson.pc": 0o644,
            "share/man/man1/jalapenojson.1": 0o644,
        }
        for rel, mode in files.items():
            p = os.path.join(usr, rel)
            check(f"installed {rel} (mode {mode:o})", os.path.isfile(p) and not os.path.islink(p)
                  and (os.stat(p).st_mode & 0o777) == mode, p)
        check("libjalapenojson.so.0 -> the file", os.readlink(os.path.join(lib, "libjalapenojson.so.0")) == f"libjalapenojson.so.{version}")
        check("libjalapenojson.so -> .so.0", os.readlink(os.path.join(lib, "libjalapenojson.so")) == "libjalapenojson.so.0")
        so = os.path.join(lib, f"libjalapenojson.so.{version}")
        r = sh(["readelf", "-d", so])
        check("soname libjalapenojson.so.0", "Library soname: [libjalapenojson.so.0]" in r.stdout, r.stdout)
        want, have = declared_functions(), exported(so)
        check("the shared library exports exactly the header's functions", want == have,
              f"missing {sorted(want - have)[:10]}, extra {sorted(have - want)[:10]}")
        check("the extension exports only its entry point", exported(os.path.join(lib, "jalapenojson.so")) == {"sqlite3_jalapenojson_init"})
        with open(os.path.join(ROOT, "core", "jalapenojson.h"), "rb") as a, open(os.path.join(usr, "include", "jalapenojson.h"), "rb") as b:
            check("the header installed as is", a.read() == b.read())
        pc = open(os.path.join(lib, "pkgconfig", "jalapenojson.pc"), encoding="utf-8").read()
        check("the .pc file: prefix, version, Requires.private", "prefix=/usr\n" in pc and f"Version: {version}\n" in pc
              and "Requires.private: zlib libbrotlienc libbrotlidec" in pc, pc)

        pcenv = env(PKG_CONFIG_PATH=os.path.join(lib, "pkgconfig"), PKG_CONFIG_SYSROOT_DIR=dest,
                    PKG_CONFIG_ALLOW_SYSTEM_CFLAGS="1", PKG_CONFIG_ALLOW_SYSTEM_LIBS="1")
        r = sh(["pkg-config", "--cflags", "--libs", "jalapenojson"], env=pcenv)
        flags = r.stdout.split()
        check("pkg-config --cflags --libs jalapenojson", r.returncode == 0 and flags ==
              [f"-I{usr}/include", f"-L{lib}", "-ljalapenojson"], r.stdout)
        r = sh(["pkg-config", "--static", "--libs", "jalapenojson"], env=pcenv)
        static_libs = r.stdout.split()
        check("pkg-config --static --libs adds zlib, brotli, libm", r.returncode == 0 and
              all(x in static_libs for x in ["-lm", "-lz", "-lbrotlienc", "-lbrotlidec"]), r.stdout)
        prog = os.path.join(tmp, "app.c")
        with open(prog, "w") as f:
            f.write(PROGRAM)
        exe = os.path.join(tmp, "app_shared")
        r = sh(["cc", "-std=c11", "-Wall", "-Werror", prog, "-o", exe] + flags, env=pcenv)
        check("a program builds with pkg-config (shared)", r.returncode == 0, r.stdout)
        r = sh(["readelf", "-d", exe])
        check("  ... and needs libjalapenojson.so.0", "[libjalapenojson.so.0]" in r.stdout, r.stdout)
        r = sh([exe], env=env(LD_LIBRARY_PATH=lib))
        check("  ... and runs", r.returncode == 0 and r.stdout == "sum 42, DATE, gz\n", r.stdout)
        exe = os.path.join(tmp, "app_static")
        libs = [x for x in static_libs if x != "-ljalapenojson"]
        r = sh(["cc", "-std=c11", "-Wall", "-Werror", prog, "-o", exe, f"-I{usr}/include",
                os.path.join(lib, "libjalapenojson.a")] + libs, env=pcenv)
        check("a program builds with the static library and pkg-config --static", r.returncode == 0, r.stdout)
        r = sh(["readelf", "-d", exe])
        check("  ... and needs no libjalapenojson.so", r.returncode == 0 and "libjalapenojson" not in r.stdout, r.stdout)
        r = sh([exe])
        check("  ... and runs", r.returncode == 0 and r.stdout == "sum 42, DATE, gz\n", r.stdout)

        cli = os.path.join(usr, "bin", "jalapenojson")
        r = sh(["readelf", "-d", cli])
        check("the installed tool needs no library of ours", "libjalapenojson" not in r.stdout)
        r = sh([cli, "--version"], env=env(PATH="/usr/bin:/bin"))
        check("the installed tool runs", r.returncode == 0 and r.stdout.startswith(f"jalapenojson {version} "), r.stdout)
        csv = os.path.join(tmp, "t.csv")
        with open(csv, "w") as f:
            f.write("a,b\n1,x\n2,y\n")
        r = sh([cli, "convert", "-q", csv, os.path.join(tmp, "t.jj.gz")])
        r2 = sh([cli, "cat", os.path.join(tmp, "t.jj.gz")])
        check("the installed tool converts", r.returncode == 0 and r2.stdout == '{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n', (r.stdout, r2.stdout))

        rows = os.path.join(ROOT, "sql", "data", "rows.jj")
        q = f"SELECT count(*), sum(record->>'seats') FROM jj_open('{rows}');"
        r = sh(["sqlite3", "-batch", "-cmd", f".load {lib}/jalapenojson", ":memory:", q])
        check("sqlite3 .load LIBDIR/jalapenojson", r.returncode == 0 and r.stdout.startswith("40|"), r.stdout)
        r = sh(["sqlite3", "-batch", "-cmd", ".load jalapenojson", ":memory:", q], env=env(LD_LIBRARY_PATH=lib), cwd=tmp)
        check("sqlite3 .load jalapenojson with LIBDIR on the loader's path", r.returncode == 0 and r.stdout.startswith("40|"), r.stdout)

        man = os.path.join(usr, "share", "man", "man1", "jalapenojson.1")
        if shutil.which("groff"):
            r = sh(["groff", "-man", "-Tutf8", "-ww", "-z", man])
            check("the man page renders without warnings", r.returncode == 0 and not r.stdout.strip(), r.stdout)
        r = sh(["make", "--no-print-directory", "-s", "uninstall", f"DESTDIR={dest}", "PREFIX=/usr"], cwd=ROOT)
        left = [os.path.join(dp, f) for dp, _, fs in os.walk(dest) for f in fs]
        check("make uninstall leaves no file", r.returncode == 0 and not left, (r.stdout, left))

        dest2 = os.path.join(tmp, "stage2")
        r = sh(["make", "--no-print-directory", "-s", "install", f"DESTDIR={dest2}"], cwd=ROOT)
        check("the default PREFIX is /usr/local", r.returncode == 0 and
              os.path.isfile(os.path.join(dest2, "usr", "local", "bin", "jalapenojson")), r.stdout)
        pc = open(os.path.join(dest2, "usr", "local", "lib", "pkgconfig", "jalapenojson.pc"), encoding="utf-8").read()
        check("  ... and the .pc file says it", "prefix=/usr/local\n" in pc and "libdir=/usr/local/lib\n" in pc, pc)
        r = sh(["make", "--no-print-directory", "-s", "uninstall", f"DESTDIR={dest2}"], cwd=ROOT)
        left = [os.path.join(dp, f) for dp, _, fs in os.walk(dest2) for f in fs]
        check("  ... and make uninstall removes it all", r.returncode == 0 and not left, left)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return jjtest.report("install")


if __name__ == "__main__":
    sys.exit(main())
