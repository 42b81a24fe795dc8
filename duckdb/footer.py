#!/usr/bin/env python3
"""footer.py FILE [PLATFORM] — append the metadata DuckDB requires at the
end of an extension file, which LOAD reads before it opens the library.

The footer, as DuckDB's scripts/append_metadata.cmake writes it: a
WebAssembly custom section header named "duckdb_signature" (22 bytes,
which native builds carry too), then 512 bytes: eight fields of 32 bytes,
NUL-padded, last field first, then a 256-byte signature, all zeros for an
unsigned extension (DuckDB then needs allow_unsigned_extensions).  The
fields, first to last:

  1 the footer's magic, "4"
  2 the platform, as DuckDB names it: linux_amd64, linux_arm64, osx_arm64
  3 for an extension of the C extension API, the API version it asks for
    (v1.2.0), which makes it load in every DuckDB from that version on
  4 the extension's version
  5 the ABI type, C_STRUCT for the C extension API
  6-8 empty

The file is rewritten with the footer once: a file that already ends in
one (a rebuild left in place) has it replaced, never a second one added.
"""
import os
import platform
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_API_VERSION = "v1.2.0"
FOOTER_LEN = 22 + 512


def default_platform():
    machine = platform.machine().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    system = {"linux": "linux", "darwin": "osx", "windows": "windows"}.get(platform.system().lower(), "linux")
    return f"{system}_{arch}"


def library_version():
    """JJ_VERSION_STRING from core/jalapenojson.h, the one version."""
    with open(os.path.join(ROOT, "core", "jalapenojson.h"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#define JJ_VERSION_STRING "):
                return line.split('"')[1]
    raise SystemExit("footer.py: no JJ_VERSION_STRING in core/jalapenojson.h")


def field(text):
    raw = text.encode("ascii")
    if len(raw) > 32:
        raise SystemExit(f"footer.py: metadata field {text!r} is longer than 32 bytes")
    return raw + b"\0" * (32 - len(raw))


def footer(plat, version):
    # A custom section (id 0) of 531 bytes (LEB128 0x93 0x04), its name of
    # 16 bytes, then the payload's length, 512 (LEB128 0x80 0x04).
    head = b"\x00" + b"\x93\x04" + b"\x10" + b"duckdb_signature" + b"\x80\x04"
    fields = ["4", plat, C_API_VERSION, "v" + version, "C_STRUCT", "", "", ""]
    body = b"".join(field(x) for x in reversed(fields))
    return head + body + b"\0" * 256


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit("usage: duckdb/footer.py FILE [PLATFORM]")
    path = sys.argv[1]
    plat = sys.argv[2] if len(sys.argv) == 3 else default_platform()
    tail = footer(plat, library_version())
    with open(path, "rb") as f:
        data = f.read()
    if len(data) >= FOOTER_LEN and data[-FOOTER_LEN:-FOOTER_LEN + 19] == tail[:19]:
        data = data[:-FOOTER_LEN]
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data + tail)
    os.chmod(tmp, 0o755)
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
