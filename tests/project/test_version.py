"""test_version.py BUILD_DIR — one version everywhere: core/jalapenojson.h
defines it (JJ_VERSION_MAJOR/MINOR/PATCH, JJ_VERSION_STRING); every other
place that states it must agree: jj_version() in C and in SQL, the
command-line tool's --version and man page, the Python module's
__version__ and its package metadata, the JavaScript package's
package.json, the shared library's file name and CHANGELOG.md's latest
release."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import ROOT, check


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def header_version():
    h = read("core", "jalapenojson.h")
    parts = [int(re.search(rf"^#define JJ_VERSION_{k} (\d+)$", h, re.M).group(1))
             for k in ("MAJOR", "MINOR", "PATCH")]
    string = re.search(r'^#define JJ_VERSION_STRING "([^"]+)"$', h, re.M).group(1)
    check("JJ_VERSION_STRING is MAJOR.MINOR.PATCH",
          string == "%d.%d.%d" % tuple(parts), f"{string} vs {parts}")
    return string, parts


def test_c(build, version, parts):
    """jj_version() and jj_version_number() of the library, linked."""
    src = os.path.join(build, "tests", "version_probe.c")
    exe = os.path.join(build, "tests", "version_probe")
    with open(src, "w", encoding="utf-8") as f:
        f.write('#include <stdio.h>\n#include "jalapenojson.h"\n'
                'int main(void) { printf("%s %d %d\\n", jj_version(), '
                'jj_version_number(), JJ_VERSION_NUMBER); return 0; }\n')
    san = ["-fsanitize=address,undefined"] if os.path.basename(build) == "san" else []
    r = subprocess.run(["cc", "-std=c11", *san, "-I", os.path.join(ROOT, "core"), src,
                        os.path.join(build, "libjalapenojson.a"),
                        "-lz", "-lbrotlienc", "-lbrotlidec", "-lm", "-o", exe],
                       capture_output=True, text=True)
    if not check("a program linking the library compiles", r.returncode == 0, r.stderr):
        return
    out = subprocess.run([exe], capture_output=True, text=True).stdout.split()
    number = parts[0] * 1000000 + parts[1] * 1000 + parts[2]
    check("jj_version() in C", out[:1] == [version], out)
    check("jj_version_number() and JJ_VERSION_NUMBER", out[1:] == [str(number)] * 2, out)


def test_sql(so, version):
    db = jjtest.connect(so)
    got = db.execute("SELECT jj_version()").fetchone()[0]
    check("SELECT jj_version()", got == version, got)
    # usable from a view of an untrusted schema: it touches nothing
    db.execute("CREATE TEMP VIEW v AS SELECT jj_version() AS v")
    check("jj_version() in a view", db.execute("SELECT v FROM v").fetchone()[0] == version)


def test_cli(build, version):
    r = subprocess.run([os.path.join(build, "jalapenojson"), "--version"],
                       capture_output=True, text=True)
    check("jalapenojson --version", r.stdout.startswith(f"jalapenojson {version} "), r.stdout)
    check("the man page's .TH line", f'"jalapenojson {version}"' in read("cli", "jalapenojson.1"))


def test_python(build, version):
    py = os.path.join(build, "venv", "bin", "python")
    if not os.path.exists(py):
        print(f"version: SKIPPED the Python module's version: {py} not built (make python)")
        return
    r = subprocess.run([py, "-P", "-c", "import jalapenojson, importlib.metadata as m;"
                        "print(jalapenojson.__version__, m.version('jalapenojson'))"],
                       capture_output=True, text=True, cwd=ROOT)
    check("jalapenojson.__version__ and the package metadata",
          r.stdout.split() == [version, version], r.stdout + r.stderr)
    check("pyproject.toml takes the version from setup.py",
          'dynamic = ["version"]' in read("python", "pyproject.toml"))


def test_packages(build, version, parts):
    pkg = json.loads(read("js", "package.json"))
    check("js/package.json's version", pkg.get("version") == version, pkg.get("version"))
    check("js/package.json's license", pkg.get("license") == "MIT", pkg.get("license"))
    check("the shared library's file name",
          os.path.exists(os.path.join(build, f"libjalapenojson.so.{version}")))
    check("the shared library's soname link",
          os.path.islink(os.path.join(build, f"libjalapenojson.so.{parts[0]}")))
    log = read("CHANGELOG.md")
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", log, re.M)
    check("CHANGELOG.md's latest release is the header's version",
          releases[:1] == [version], releases[:3])
    check("LICENSE is the MIT license", read("LICENSE").startswith("MIT License"))
    check("the pkg-config template takes the version from make",
          "Version: @VERSION@" in read("tools", "jalapenojson.pc.in"))


def main():
    build = os.path.abspath(jjtest.build_dir(sys.argv))
    version, parts = header_version()
    test_c(build, version, parts)
    test_sql(jjtest.extension_path(build), version)
    test_cli(build, version)
    test_python(build, version)
    test_packages(build, version, parts)
    return jjtest.report("version")


if __name__ == "__main__":
    sys.exit(main())
