#!/usr/bin/env python3
"""test_cli.py BUILD_DIR — the command-line tool BUILD_DIR/jalapenojson.

  - --help for every command (and `help CMD`, --version), the options each
    help lists are the ones docs/cli.md and the man page list;
  - exit statuses: 0, 1 bad data, 2 usage (with the "try ... --help"
    line), 3 I/O, and death by SIGINT while an output file is written;
  - round trips: JSON -> jj -> JSON equal as values, CSV with quotes,
    delimiters and newlines -> jj -> CSV byte for byte, NDJSON, TSV,
    jj -> jj canonical and idempotent; .gz and .br both ways, stdin and
    stdout, formats from names and from --from/--to;
  - errors located (row, column, byte), check listing every error with a
    count, --max-errors, --schema and --bad-to-null;
  - atomic output: a failing convert or export keeps the old file and
    leaves no temporary file;
  - on a terminal (a pty) and off one: box tables only on a terminal,
    aligned by display width (East Asian wide characters, escapes), the
    progress line only when stderr is a terminal and not --quiet;
  - schema and head read only a prefix (they work on a file whose end is
    corrupt), FIFOs as input, and mutated inputs never crash or hang.

Every run is checked for sanitizer reports (the build/san binary).  Prints
"cli: N passed, M failed".
"""
import gzip
import json
import os
import re
import random
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import ROOT, check

jjtest.LINE_AT_MOST = 3000  # a failure shows the tool's output


def env():
    """The environment of a run: sanitizer reports exit 86 (not 1, which is
    the tool's own 'bad data'), leaks are checked, nothing preloaded."""
    e = dict(os.environ)
    e.pop("LD_PRELOAD", None)
    e["ASAN_OPTIONS"] = "detect_leaks=1:halt_on_error=1:exitcode=86"
    e["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:exitcode=86"
    return e


SAN = re.compile(rb"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")


class Run:
    def __init__(self, rc, out, err):
        self.rc, self.out, self.err = rc, out, err

    def __repr__(self):
        return f"rc={self.rc} out={self.out[:400]!r} err={self.err[:600]!r}"


def run(*args, stdin=b"", cwd=None, timeout=60):
    """Run the tool off a terminal (pipes); returns Run with bytes."""
    p = subprocess.run([CLI] + list(args), input=stdin, cwd=cwd, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    check("no sanitizer report: " + " ".join(args), not SAN.search(p.stderr), p.stderr[-2000:])
    return Run(p.returncode, p.stdout, p.stderr)


def run_pty(args, stdin_chunks=None, pty_stdout=True, pty_stderr=True, cwd=None):
    """Run the tool with a pty as stdout and/or stderr; stdin from a pipe
    fed with (bytes, seconds to wait after) chunks.  Returns Run with the
    pty's bytes in out (and err when stderr is a pipe)."""
    master, slave = os.openpty()
    p = subprocess.Popen([CLI] + list(args), cwd=cwd, env=env(),
                         stdin=subprocess.PIPE,
                         stdout=slave if pty_stdout else subprocess.PIPE,
                         stderr=slave if pty_stderr else subprocess.PIPE)
    os.close(slave)
    got = bytearray()

    def drain(wait):
        end = time.time() + wait
        while True:
            r, _, _ = select.select([master], [], [], max(0, end - time.time()))
            if not r:
                return
            try:
                b = os.read(master, 65536)
            except OSError:
                return
            if not b:
                return
            got.extend(b)

    try:
        for data, wait in stdin_chunks or []:
            p.stdin.write(data)
            p.stdin.flush()
            drain(wait)
        p.stdin.close()
        piped = b""
        while p.poll() is None:
            drain(0.05)
        drain(0.2)
        if not pty_stdout:
            piped = p.stdout.read()
        elif not pty_stderr:
            piped = p.stderr.read()
    finally:
        os.close(master)
    rc = p.wait(timeout=60)
    check("no sanitizer report (pty): " + " ".join(args), not SAN.search(bytes(got) + piped))
    return Run(rc, bytes(got), piped)


def write(path, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


COMMANDS = ["convert", "schema", "check", "head", "cat"]


def long_options(help_text):
    return sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", help_text)))


def test_help():
    r = run("--help")
    check("--help exits 0", r.rc == 0, r)
    main_help = r.out.decode()
    check("--help lists every command", all(c in main_help for c in COMMANDS), main_help)
    check("--help lists the exit statuses", all(s in main_help for s in ["0 ", "1 ", "2 ", "3 ", "130"]))
    r = run("help")
    check("help = --help", r.rc == 0 and r.out.decode() == main_help)
    r = run()
    check("no command: usage on stderr, exit 2", r.rc == 2 and b"usage:" in r.err and not r.out, r)
    r = run("--version")
    check("--version", r.rc == 0 and re.match(rb"jalapenojson \d+\.\d+\.\d+ \(format version 1\)\n$", r.out), r)
    ref_path = os.path.join(ROOT, "docs", "cli.md")
    section = read(ref_path).decode() if os.path.exists(ref_path) else ""
    man_path = os.path.join(ROOT, "cli", "jalapenojson.1")
    man = read(man_path).decode() if os.path.exists(man_path) else ""
    man_text = man.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")
    check("docs/cli.md has the CLI reference", "## Reference" in section)
    for c in COMMANDS:
        r = run(c, "--help")
        text = r.out.decode()
        check(f"{c} --help", r.rc == 0 and text.startswith(f"usage: jalapenojson {c} ") and "exit status" in text, r)
        r2 = run("help", c)
        check(f"help {c} = {c} --help", r2.rc == 0 and r2.out == r.out)
        r3 = run(c, "-h")
        check(f"{c} -h = --help", r3.rc == 0 and r3.out == r.out)
        for opt in long_options(text):
            check(f"docs/cli.md documents {c} {opt}", opt in section, "")
            check(f"the man page documents {c} {opt}", opt in man_text, "")
    r = run("help", "nope")
    check("help of an unknown command: 2", r.rc == 2, r)


def test_usage_errors(d):
    write(f"{d}/a.csv", "a,b\n1,2\n")
    cases = [
        (["frob"], b"unknown command 'frob'", b"try 'jalapenojson --help'"),
        (["--frob"], b"unknown option '--frob'", b"try 'jalapenojson --help'"),
        (["head", "--bogus", "x.jj"], b"unknown option '--bogus'", b"try 'jalapenojson head --help'"),
        (["head", "-n"], b"needs a value", b"try 'jalapenojson head --help'"),
        (["head", "-n", "ten", "x.jj"], b"-n takes a count", b"--help"),
        (["convert"], b"missing IN", b"try 'jalapenojson convert --help'"),
        (["schema"], b"missing FILE", b"try 'jalapenojson schema --help'"),
        (["check"], b"missing FILE", b"--help"),
        (["cat"], b"missing FILE", b"--help"),
        (["cat", "a", "b"], b"unexpected argument 'b'", b"--help"),
        (["convert", "a", "b", "c"], b"unexpected argument 'c'", b"--help"),
        (["convert", "a.csv", "out.xyz"], b"cannot tell the format of 'out.xyz'", b"--help"),
        (["convert", "--to", "xml", "a.csv"], b"unknown format 'xml'", b"--help"),
        (["convert", "--from", "yaml", "a.csv"], b"unknown format 'yaml'", b"--help"),
        (["convert", "-d", "ab", "a.csv"], b"--delimiter takes one", b"--help"),
        (["convert", "--csv-booleans=1", "a.csv"], b"takes no value", b"--help"),
        (["convert", "--level", "12", "a.csv", "x.jj.br"], b"--level", b"--help"),
        (["convert", "a.csv", "out.jj.zst"], b".zst compression is not supported", b""),
        (["convert", "--level", "3", "a.csv", "out.jj"], b"--level is for compressed output", b"--help"),
        (["convert", "--level", "0", "a.csv", "out.jj.gz"], b"--level for gzip is 1 to 9", b"--help"),
        (["cat", "--to", "xml", "a.jj"], b"unknown format", b"--help"),
        (["check", "--max-errors", "-1", "a.jj"], b"--max-errors", b"--help"),
    ]
    for args, msg, tip in cases:
        r = run(*args, cwd=d)
        check(f"usage error {args}: exit 2 and the message", r.rc == 2 and msg in r.err and tip in r.err and not r.out, r)
    # An output that cannot be made fails before the input is read.
    r = run("convert", "a.csv", "no/such/dir/out.jj", cwd=d)
    check("convert to a missing directory: exit 3", r.rc == 3 and b"no/such/dir/out.jj" in r.err, r)
    r = run("convert", "missing.csv", "out.jj", cwd=d)
    check("convert of a missing file: exit 3", r.rc == 3 and b'cannot open "missing.csv"' in r.err, r)
    check("  ... and nothing created", not os.path.exists(f"{d}/out.jj"))
    for c in ["schema", "check", "head", "cat"]:
        r = run(c, "missing.jj", cwd=d)
        check(f"{c} of a missing file: exit 3", r.rc == 3 and b"missing.jj" in r.err, r)
        r = run(c, ".", cwd=d)
        check(f"{c} of a directory: exit 3", r.rc == 3 and b"is a directory" in r.err, r)
    r = run("convert", "a.csv", "-", "--to", "jj", "--", cwd=d)
    check("-- ends the options", r.rc == 0, r)


PEOPLE = [
    {"id": 1, "name": "Ada", "city": "K\u00f8benhavn", "score": 9.5, "ok": True,
     "joined": "2024-03-01", "tags": [{"t": "x", "n": 1}]},
    {"id": 2, "name": "\u6771\u4eac \"quoted\", comma", "city": None, "score": -0.25, "ok": False,
     "joined": "2023-11-17", "tags": []},
    {"id": 3, "name": "line\nbreak\ttab", "city": "Troms\u00f8", "score": 1e-7, "ok": None,
     "joined": None, "tags": [{"t": "y", "n": 2}, {"t": "z", "n": None}]},
]


def test_roundtrips(d):
    write(f"{d}/p.json", json.dumps(PEOPLE, ensure_ascii=False))
    r = run("convert", "p.json", "p.jj", cwd=d)
    check("json -> jj", r.rc == 0 and os.path.exists(f"{d}/p.jj"), r)
    check("  the summary: rows and columns", b"p.json -> p.jj: 3 rows, 7 columns" in r.err, r)
    check("  the summary: each column with its type", re.search(rb"joined\s+d\s+DATE", r.err) and re.search(rb"tags\s+jj\s+TEXT", r.err), r)
    check("  the summary: the nested columns", re.search(rb"7\.1\s+tags\.t\s+s\s+TEXT", r.err), r)
    r = run("convert", "p.jj", "back.json", cwd=d)
    back = json.loads(read(f"{d}/back.json"))
    check("json -> jj -> json: equal values", r.rc == 0 and back == PEOPLE, (r, back))
    r = run("-q", "convert", "p.jj", "-", "--to", "csv", cwd=d)
    check("-q before the command", r.rc == 0 and not r.err and r.out.startswith(b"id,name,"), r)
    r = run("convert", "-q", "p.jj", "p.ndjson", cwd=d)
    lines = read(f"{d}/p.ndjson").decode().splitlines()
    check("jj -> ndjson: one object per line", r.rc == 0 and [json.loads(x) for x in lines] == PEOPLE and not r.err, r)
    r = run("convert", "-q", "p.ndjson", "p2.jj", cwd=d)
    check("ndjson -> jj: the same document", r.rc == 0 and read(f"{d}/p2.jj") == read(f"{d}/p.jj"), r)
    # CSV with quotes, delimiters and newlines, byte for byte both ways.
    csv = 'id,name,note,price\n' + \
        '1,"Smith, Jo","said ""hi""",1.5\n' + \
        '2,plain,"two\nlines",2.25\n' + \
        '3,,"",-0.5\n' + \
        '4,\u00e9t\u00e9,a;b|c,1e+100\n'
    write(f"{d}/q.csv", csv)
    r = run("convert", "q.csv", "q.jj", cwd=d)
    check("csv -> jj", r.rc == 0, r)
    r = run("convert", "q.jj", "q2.csv", cwd=d)
    out = read(f"{d}/q2.csv").decode()
    check("csv -> jj -> csv: byte for byte", r.rc == 0 and out == csv, (r, out))
    r = run("cat", "q.jj", "--to", "csv", cwd=d)
    check("cat --to csv = convert to .csv", r.rc == 0 and r.out.decode() == out, r)
    r = run("convert", "-q", "q.jj", "q.tsv", cwd=d)
    r2 = run("convert", "-q", "q.tsv", "q3.jj", cwd=d)
    check("jj -> tsv -> jj: the same document", r.rc == 0 and r2.rc == 0 and read(f"{d}/q3.jj") == read(f"{d}/q.jj"), (r, r2))
    # jj -> jj: canonical, and idempotent.
    loose = ('{ "jalapenojson" : 1 , "columns" : ["a","b"], "types":["i","s"],\n'
             ' "rows" : [ [1 , "x"] ,\n\n [2,"\\u00e9"] ] }')
    write(f"{d}/loose.jj", loose)
    r = run("convert", "-q", "loose.jj", "canon.jj", cwd=d)
    canon = read(f"{d}/canon.jj")
    check("jj -> jj re-encodes canonically", r.rc == 0 and canon ==
          '{"jalapenojson":1,"columns":["a","b"],"types":["i","s"],"rows":[\n[1,"x"],\n[2,"\u00e9"]\n]}'.encode(), (r, canon))
    r = run("convert", "-q", "canon.jj", "canon2.jj", cwd=d)
    check("  ... idempotent", r.rc == 0 and read(f"{d}/canon2.jj") == canon, r)
    r = run("convert", "--schema", "a:i", "canon.jj", "canon3.jj", cwd=d)
    check("--schema with a document as input: usage error", r.rc == 2 and b"are for JSON and CSV input" in r.err
          and not os.path.exists(f"{d}/canon3.jj"), r)
    # A document named .json is read as a document.
    write(f"{d}/doc.json", canon)
    r = run("convert", "doc.json", "-", "--to", "ndjson", cwd=d)
    check("a document named .json is read as one", r.rc == 0 and r.out == b'{"a":1,"b":"x"}\n{"a":2,"b":"\xc3\xa9"}\n', r)
    r = run("convert", "--from", "json", "doc.json", "-", "--to", "ndjson", cwd=d)
    check("  ... unless --from json says otherwise", r.rc == 0 and b'"jalapenojson":1' in r.out, r)
    # csv -> json directly (through a document in memory).
    r = run("convert", "-q", "q.csv", "q.json", cwd=d)
    check("csv -> json", r.rc == 0 and json.loads(read(f"{d}/q.json"))[0]["name"] == "Smith, Jo", r)
    # Options: delimiter, null text, booleans, empty-is-text.
    write(f"{d}/semi.csv", "a;b;c\n1;NA;true\n2;x;false\n")
    r = run("convert", "-q", "-d", ";", "--null", "NA", "--csv-booleans", "semi.csv", "-", "--to", "ndjson", cwd=d)
    check("--delimiter, --null, --csv-booleans", r.rc == 0 and r.out == b'{"a":1,"b":null,"c":true}\n{"a":2,"b":"x","c":false}\n', r)
    write(f"{d}/empty.csv", "a,b\n1,\n2,y\n")
    r = run("convert", "-q", "--empty-is-text", "empty.csv", "-", "--to", "ndjson", cwd=d)
    check("--empty-is-text", r.rc == 0 and r.out == b'{"a":1,"b":""}\n{"a":2,"b":"y"}\n', r)
    r = run("cat", "--null", "NULL", "-d", "tab", "--crlf", "--no-header", "--to", "csv", "canon.jj", cwd=d)
    check("cat --null -d tab --crlf --no-header", r.rc == 0 and r.out == "1\tx\r\n2\t\u00e9\r\n".encode(), r)
    for fmt in ["json", "ndjson", "jsonl", "csv", "tsv", "jj"]:
        r = run("cat", "--to", fmt, "p.jj", cwd=d)
        check(f"cat --to {fmt}", r.rc == 0 and len(r.out) > 50, r)
    r = run("cat", "p.jj", cwd=d)
    check("cat: ndjson by default", r.rc == 0 and [json.loads(x) for x in r.out.decode().splitlines()] == PEOPLE, r)


def test_compression_and_streams(d):
    write(f"{d}/p.json", json.dumps(PEOPLE, ensure_ascii=False))
    run("convert", "-q", "p.json", "p.jj", cwd=d)
    plain = read(f"{d}/p.jj")
    r = run("convert", "-q", "p.json", "p.jj.gz", cwd=d)
    gz = read(f"{d}/p.jj.gz")
    check(".gz out: gzip, the same document inside", r.rc == 0 and gz[:2] == b"\x1f\x8b" and gzip.decompress(gz) == plain, r)
    r = run("convert", "-q", "p.json", "p.jj.br", "--level", "11", cwd=d)
    br = read(f"{d}/p.jj.br")
    check(".br out: not plain", r.rc == 0 and br and not br.startswith(b"{"), r)
    r = run("convert", "-q", "p.jj.br", "from_br.jj", cwd=d)
    check(".br in: the same document", r.rc == 0 and read(f"{d}/from_br.jj") == plain, r)
    for name in ["p.csv.gz", "p.ndjson.br", "p.json.gz", "p.tsv.br"]:
        r = run("convert", "-q", "p.jj", name, cwd=d)
        r2 = run("convert", "-q", name, "again.jj", cwd=d)
        same = r.rc == 0 and r2.rc == 0 and read(f"{d}/again.jj") == plain
        if name.startswith("p.csv") or name.startswith("p.tsv"):  # nested tables become JSON text
            same = r.rc == 0 and r2.rc == 0
        check(f"jj -> {name} -> jj", same, (r, r2))
    for c in ["schema", "check", "head", "cat"]:
        a = run(c, "p.jj", cwd=d)
        for name in ["p.jj.gz", "p.jj.br"]:
            b = run(c, name, cwd=d)
            check(f"{c} {name} = {c} p.jj", b.rc == a.rc == 0 and b.out == a.out, b)
    # stdin and stdout.
    r = run("convert", "-", stdin=json.dumps(PEOPLE).encode(), cwd=d)
    check("json on stdin -> jj on stdout", r.rc == 0 and r.out == plain and b"stdin -> stdout: 3 rows" in r.err, r)
    r = run("convert", "--from", "json.gz", "-", "out.jj", stdin=gzip.compress(json.dumps(PEOPLE).encode()), cwd=d)
    check("--from json.gz on stdin", r.rc == 0 and read(f"{d}/out.jj") == plain, r)
    r = run("convert", "-", "out2.jj", stdin=gzip.compress(json.dumps(PEOPLE).encode()), cwd=d)
    check("gzip on stdin found by its magic", r.rc == 0 and read(f"{d}/out2.jj") == plain, r)
    for c in ["schema", "check", "head", "cat"]:
        a = run(c, "p.jj", cwd=d)
        for data, what in [(plain, "plain"), (gz, "gzip"), (br, "brotli")]:
            b = run(c, "-", stdin=data, cwd=d)
            check(f"{c} - with {what} on stdin", b.rc == 0 and b.out == a.out, b)
    r = run("convert", "-q", "p.jj", "-", "--to", "csv.gz", cwd=d)
    check("--to csv.gz on stdout", r.rc == 0 and gzip.decompress(r.out).startswith(b"id,name,"), r)
    r = run("cat", "--to", "ndjson.gz", "p.jj", cwd=d)
    check("cat --to ndjson.gz", r.rc == 0 and gzip.decompress(r.out).count(b"\n") == 3, r)
    # A FIFO as input (not only regular files).
    fifo = f"{d}/fifo"
    os.mkfifo(fifo)
    p = subprocess.Popen(["sh", "-c", f"cat {d}/p.jj > {fifo}"])
    r = run("check", fifo, cwd=d)
    p.wait()
    check("check reads a FIFO", r.rc == 0 and b"ok, 3 rows" in r.err, r)
    os.unlink(fifo)
    # Corrupt compressed input: bad data, located by name.
    write(f"{d}/bad.jj.gz", gz[:-12])
    for c in ["check", "cat"]:
        r = run(c, "bad.jj.gz", cwd=d)
        check(f"{c} of a truncated .gz: exit 1 and why", r.rc == 1 and b"bad.jj.gz" in r.err and b"gzip" in r.err, r)
    write(f"{d}/bad.csv.br", b"\x00\x01not brotli at all")
    r = run("convert", "bad.csv.br", "x.jj", cwd=d)
    check("convert of a corrupt .br: exit 1", r.rc == 1 and b"bad.csv.br" in r.err and not os.path.exists(f"{d}/x.jj"), r)
    r = run("convert", "-q", "p.json", "-", "--to", "jj.gz", cwd=d)
    check("compressed stdout off a terminal is fine", r.rc == 0, r)
    r = run_pty(["convert", "-q", f"{d}/p.json", "-", "--to", "jj.gz"])
    check("compressed data to a terminal is refused: 2", r.rc == 2 and b"refusing" in r.out, r)


BAD_DOC = ('{"jalapenojson":1,"columns":["a","b","n"],"types":["i","d",{"columns":["x","y"],"types":["s","i"]}],"rows":[\n'
           '[1,"2023-02-29",null],\n'
           '["x","2024-01-01",[["a",1],["b","z"]]],\n'
           '[3,"2024-01-02",null],\n'
           '[4,"2024-13-01",[]]\n'
           ']}')


def test_errors(d):
    write(f"{d}/bad.jj", BAD_DOC)
    r = run("check", "bad.jj", cwd=d)
    lines = r.out.decode().splitlines()
    check("check: exit 1", r.rc == 1, r)
    check("check: every error, located", lines == [
        'bad.jj: row 1, column "b", byte 112: "2023-02-29" is not a date (2023 is not a leap year)',
        'bad.jj: row 2, column "a", byte 133: expected an integer, found "x"',
        'bad.jj: row 2, column "n", row 2, column "y", byte 164: expected an integer, found "z"',
        'bad.jj: row 4, column "b", byte 198: "2024-13-01" is not a date (month 13 does not exist)',
    ], lines)
    check("check: the count on stderr", r.err == b"bad.jj: 4 errors in 3 of 4 rows\n", r)
    r = run("check", "--max-errors", "1", "bad.jj", cwd=d)
    check("check --max-errors 1", r.rc == 1 and len(r.out.splitlines()) == 1 and b"3 more errors not listed" in r.err, r)
    r = run("check", "-q", "bad.jj", cwd=d)
    check("check -q: errors, no count", r.rc == 1 and len(r.out.splitlines()) == 4 and not r.err, r)
    write(f"{d}/broken.jj", BAD_DOC.replace('[3,"2024-01-02",null]', '[3,"2024-01-02"]'))
    r = run("check", "broken.jj", cwd=d)
    check("check: a row that cannot be read ends the scan, counted", r.rc == 1 and b"row 3, byte" in r.out and b"expected 3 values, found 2" in r.out
          and b"4 errors in 2 of 2 rows; the scan stopped after row 2" in r.err, r)
    write(f"{d}/header.jj", '{"jalapenojson":2,"columns":[],"types":[],"rows":[]}')
    r = run("check", "header.jj", cwd=d)
    check("check: a bad header, exit 1", r.rc == 1 and b"header.jj:" in r.err, r)
    r = run("check", "-", stdin=read(f"{d}/bad.jj"))
    check("check of stdin names it", r.rc == 1 and r.out.startswith(b'stdin: row 1, column "b"'), r)
    # convert: errors name the input, the row, the column, the byte.
    write(f"{d}/bad.json", '[{"a":1},{"a":2},{"a":\n')
    r = run("convert", "bad.json", "out.jj", cwd=d)
    check("convert of broken JSON: exit 1, located", r.rc == 1 and re.search(rb"bad\.json: row 3.*byte", r.err) and not os.path.exists(f"{d}/out.jj"), r)
    write(f"{d}/ages.csv", "name,age\nann,12\nbob,12abc\n")
    r = run("convert", "--schema", "age:i", "ages.csv", "out.jj", cwd=d)
    check("--schema: a value that does not fit is located", r.rc == 1 and b'ages.csv: row 2, column "age"' in r.err and b"12abc" in r.err, r)
    r = run("convert", "--schema", "age:i", "--bad-to-null", "ages.csv", "out.jj", cwd=d)
    check("--bad-to-null: made null, counted in the summary", r.rc == 0 and b"1 value made null" in r.err, r)
    r = run("cat", "out.jj", cwd=d)
    check("  ... the null is there", r.out == b'{"name":"ann","age":12}\n{"name":"bob","age":null}\n', r)
    r = run("convert", "--schema", "nope:i", "ages.csv", "out2.jj", cwd=d)
    check("--schema naming a missing column: exit 1", r.rc == 1 and b"nope" in r.err, r)
    r = run("convert", "--schema", "age:", "ages.csv", "out2.jj", cwd=d)
    check("--schema that does not parse: exit 2", r.rc == 2, r)
    write(f"{d}/rag.csv", "a,b\n1,2\n3\n")
    r = run("convert", "rag.csv", "out3.jj", cwd=d)
    check("a ragged CSV record: exit 1, located", r.rc == 1 and b"rag.csv: row 2" in r.err, r)
    r = run("head", "bad.jj", cwd=d)
    check("head of a bad value: exit 1, located", r.rc == 1 and b'bad.jj: row 1, column "b"' in r.err, r)
    r = run("cat", "bad.jj", cwd=d)
    check("cat of a bad value: exit 1, located", r.rc == 1 and b'bad.jj: row 1, column "b"' in r.err, r)
    write(f"{d}/good.csv", "h1,h1,\n1,2,3\n")
    r = run("convert", "good.csv", "-", cwd=d)
    check("a renamed header is a decision in the summary", r.rc == 0 and b"repeats" in r.err and b"no name" in r.err, r)


def test_atomic(d):
    write(f"{d}/old.jj", "OLD CONTENT")
    os.chmod(f"{d}/old.jj", 0o640)
    write(f"{d}/bad.json", '[{"a":1},{"a":"x"},{"a":')
    r = run("convert", "bad.json", "old.jj", cwd=d)
    check("failed convert: exit 1, the old file kept", r.rc == 1 and read(f"{d}/old.jj") == b"OLD CONTENT", r)
    check("  ... no temporary file left", not [f for f in os.listdir(d) if "jj-tmp" in f], os.listdir(d))
    # A failure half way through an export: rows 1-2 were written, row 3 bad.
    rows = ",\n".join('[%d,"2024-01-0%d"]' % (i, i) for i in range(1, 3))
    doc = '{"jalapenojson":1,"columns":["a","d"],"types":["i","d"],"rows":[\n' + rows + ',\n[3,"2024-02-30"]\n]}'
    write(f"{d}/late.jj", doc)
    write(f"{d}/old.csv", "OLD CSV")
    for out in ["old.csv", "old.csv.gz"]:
        if out.endswith(".gz"):
            write(f"{d}/{out}", "OLD CSV")
        r = run("convert", "late.jj", out, cwd=d)
        check(f"export failing at row 3 to {out}: exit 1, old file kept", r.rc == 1 and read(f"{d}/{out}") == b"OLD CSV" and b"row 3" in r.err, r)
    check("  ... no temporary file left", not [f for f in os.listdir(d) if "jj-tmp" in f], os.listdir(d))
    write(f"{d}/ok.json", '[{"a":1}]')
    r = run("convert", "-q", "ok.json", "old.jj", cwd=d)
    check("a good convert replaces the file, keeping its mode", r.rc == 0 and read(f"{d}/old.jj").startswith(b'{"jalapenojson"')
          and (os.stat(f"{d}/old.jj").st_mode & 0o777) == 0o640, r)
    r = run("convert", "-q", "old.jj", "old.jj", cwd=d)
    check("convert a document onto itself (re-encoded in place)", r.rc == 0 and read(f"{d}/old.jj").startswith(b'{"jalapenojson"'), r)


def test_sigint(d):
    """SIGINT at different moments of a long export to a file: the process
    finishes, or dies of SIGINT with the old file intact and no temporary
    file; never anything else."""
    rows = 400000
    with open(f"{d}/big.ndjson", "w") as f:
        for i in range(rows):
            f.write('{"id":%d,"name":"user %d","price":%d.25,"day":"2024-01-%02d"}\n' % (i, i, i % 1000, 1 + i % 28))
    r = run("convert", "-q", "big.ndjson", "big.jj", cwd=d, timeout=120)
    check("the big input converts", r.rc == 0, r)
    outcomes = set()
    for k, delay in enumerate([0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5]):
        write(f"{d}/target.csv.gz", "KEEP")
        # SIGINT back to its default in the child: a shell starts background
        # jobs (a CI runner's `make test &`) with SIGINT ignored, and the tool
        # then ends with status 130 instead of dying by the signal.
        p = subprocess.Popen([CLI, "convert", "-q", "big.jj", "target.csv.gz", "--level", "9"], cwd=d, env=env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
        left = [f for f in os.listdir(d) if "jj-tmp" in f]
        content = read(f"{d}/target.csv.gz")
        if p.returncode in (-signal.SIGINT, 130):
            outcomes.add("interrupted")
            check(f"SIGINT after {delay}s: the old file kept", content == b"KEEP")
        else:
            outcomes.add("done")
            check(f"SIGINT after {delay}s: done (exit 0) and complete", p.returncode == 0 and gzip.decompress(content).count(b"\n") == rows + 1, (p.returncode, err))
        check(f"SIGINT after {delay}s: no temporary file", not left, left)
        check(f"SIGINT after {delay}s: no sanitizer report", not SAN.search(err), err[-1500:])
    check("SIGINT interrupted at least one run", "interrupted" in outcomes, outcomes)
    for delay in [0.05, 0.15]:
        write(f"{d}/target.csv.gz", "KEEP")
        p = subprocess.Popen([CLI, "convert", "-q", "big.jj", "target.csv.gz", "--level", "9"], cwd=d, env=env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(delay)
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=120)
        left = [f for f in os.listdir(d) if "jj-tmp" in f]
        check(f"SIGTERM after {delay}s: done, or ended by it with the old file kept, no temporary file",
              not left and (p.returncode == 0 or (p.returncode == -signal.SIGTERM and read(f"{d}/target.csv.gz") == b"KEEP")),
              (p.returncode, left))
    r = subprocess.run(["sh", "-c", f"'{CLI}' convert -q big.jj t2.csv & pid=$!; sleep 0.05; kill -INT $pid; wait $pid; echo $?"],
                       cwd=d, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    code = r.stdout.strip()
    check("the shell sees 130 (or 0 when it finished first)", code in (b"130", b"0"), r)


def display_width(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w


def test_terminal(d):
    rows = [{"id": i, "name": n, "x": 1.5 * i} for i, n in
            enumerate(["plain", "\u6771\u4eac\u90fd", "e\u0301t\u00e9", "esc\x1b[31mred", "tab\there", "\U0001F600 smile", "\u202eevil", "z" * 60])]
    write(f"{d}/w.json", json.dumps(rows))
    run("convert", "-q", "w.json", "w.jj", cwd=d)
    r = run_pty(["head", "w.jj"], cwd=d)
    text = r.out.decode("utf-8", "replace").replace("\r\n", "\n")
    lines = [x for x in text.split("\n") if x]
    check("head on a terminal: a box table", r.rc == 0 and lines and lines[0].startswith("\u250c") and lines[-1].startswith("\u2514"), text)
    widths = {display_width(x) for x in lines}
    check("head on a terminal: every line the same display width", len(widths) == 1, (widths, text))
    check("head on a terminal: control characters escaped", "\\x1b[31m" in text and "\\t" in text and "\\u202e" in text and "\x1b" not in text, text)
    check("head on a terminal: long cells cut to 40 columns with …", "z" * 39 + "\u2026" in text and "z" * 40 not in text, text)
    check("head on a terminal: numbers aligned right", re.search(r"\u2502\s+7 \u2502", text), text)
    r = run_pty(["head", "-w", "0", "-n", "8", "w.jj"], cwd=d)
    check("head -w 0: nothing cut", "z" * 60 in r.out.decode(), r)
    r = run("head", "w.jj", cwd=d)
    check("head off a terminal: tab-separated, no box", r.rc == 0 and r.out.startswith(b"id\tname\tx\n") and "\u2502".encode() not in r.out, r)
    r = run("head", "-n", "2", "w.jj", cwd=d)
    check("head -n 2: a header and 2 rows", r.rc == 0 and len(r.out.splitlines()) == 3, r)
    r = run("head", "-n", "0", "--to", "csv", "w.jj", cwd=d)
    check("head -n 0 --to csv: the header only", r.rc == 0 and r.out == b"id,name,x\n", r)
    r = run_pty(["head", "--to", "ndjson", "-n", "1", "w.jj"], cwd=d)
    check("head --to on a terminal: that format", r.rc == 0 and r.out.replace(b"\r\n", b"\n") == b'{"id":0,"name":"plain","x":0.0}\n', r)
    r = run("head", "-n", "1", "--to", "jj", "w.jj", cwd=d)
    check("head --to jj: a document of those rows", r.rc == 0 and r.out.count(b"\n") == 2 and r.out.startswith(b'{"jalapenojson":1'), r)
    r = run_pty(["schema", "w.jj"], cwd=d)
    check("schema on a terminal: a box table", r.rc == 0 and "\u2502 position \u2502".encode() in r.out, r)
    r = run("schema", "w.jj", cwd=d)
    check("schema off a terminal: tab-separated", r.out == b"position\tname\ttype\tsql_type\n1\tid\ti\tINTEGER\n2\tname\ts\tTEXT\n3\tx\tf\tREAL\n", r)
    r = run("schema", "--json", "w.jj", cwd=d)
    check("schema --json", r.out == b'{"columns":["id","name","x"],"types":["i","s","f"]}\n', r)
    # The progress line: only on a terminal stderr, only after a second.
    data = b"".join(b'{"id":%d,"v":"%s"}\n' % (i, b"x" * 50) for i in range(60000))
    chunks = [(data[:len(data) // 2], 1.4), (data[len(data) // 2:], 0.2)]
    r = run_pty(["convert", "-", f"{d}/prog.jj"], stdin_chunks=chunks)
    check("progress on a terminal stderr after a second", r.rc == 0 and b"\r\x1b[Kstdin: reading" in r.out and b"/s" in r.out, r)
    check("  ... erased before the summary", re.search(rb"\r\x1b\[Kstdin -> ", r.out), r)
    r = run_pty(["convert", "-q", "-", f"{d}/prog.jj"], stdin_chunks=chunks)
    check("no progress with --quiet", r.rc == 0 and b"\x1b[K" not in r.out and b"reading" not in r.out, r)
    r = run_pty(["convert", "-", f"{d}/prog.jj"], stdin_chunks=chunks, pty_stderr=False)
    check("no progress when stderr is not a terminal", r.rc == 0 and b"\x1b[K" not in r.err and b"stdin -> " in r.err, r)
    r = run_pty(["convert", "-", f"{d}/prog.jj"], stdin_chunks=[(data, 0)])
    check("no progress for work under a second", r.rc == 0 and b"\x1b[K" not in r.out, r)
    r = run_pty(["check", "-"], stdin_chunks=[(read(f"{d}/prog.jj")[:100000], 1.4), (read(f"{d}/prog.jj")[100000:], 0.1)])
    check("check: progress while reading stdin", r.rc == 0 and b"\r\x1b[Kstdin  " in r.out and b"ok, 60000 rows" in r.out, r)


def test_prefix_reads(d):
    """schema and head read the first bytes only: a file whose end is
    corrupt still has a schema and first rows; check reads it all."""
    rows = "".join('[%d,"name %d"],\n' % (i, i) for i in range(1, 200001))
    doc = '{"jalapenojson":1,"columns":["id","name"],"types":["i","s"],"rows":[\n' + rows + '[0,"last"]\n]}'
    gz = gzip.compress(doc.encode(), 6)
    write(f"{d}/cut.jj.gz", gz[:len(gz) * 2 // 3])
    r = run("schema", "cut.jj.gz", cwd=d)
    check("schema of a .gz cut short: only the header read", r.rc == 0 and b"1\tid\ti\tINTEGER" in r.out, r)
    r = run("head", "-n", "3", "cut.jj.gz", cwd=d)
    check("head of a .gz cut short: the first rows", r.rc == 0 and r.out == b"id\tname\n1\tname 1\n2\tname 2\n3\tname 3\n", r)
    r = run("check", "cut.jj.gz", cwd=d)
    check("check of it: exit 1 (it reads everything)", r.rc == 1 and b"gzip" in r.err, r)
    # A header longer than the first read, and rows longer than it.
    long_names = ["c%05d" % k for k in range(12000)]
    big_header = '{"jalapenojson":1,"columns":' + json.dumps(long_names) + ',"types":' + json.dumps(["i"] * 12000) + ',"rows":[\n' + \
        "[" + ",".join(["1"] * 12000) + "]\n]}"
    write(f"{d}/wide.jj", big_header)
    r = run("schema", "wide.jj", cwd=d)
    check("schema of a header larger than the first read", r.rc == 0 and r.out.count(b"\n") == 12001, r)
    long_row = '{"jalapenojson":1,"columns":["s"],"types":["s"],"rows":[\n["' + "y" * 600000 + '"],\n["short"]\n]}'
    write(f"{d}/long.jj", long_row)
    r = run("head", "--to", "ndjson", "long.jj", cwd=d)
    check("head of a row longer than the first read", r.rc == 0 and len(r.out) > 600000 and r.out.endswith(b'{"s":"short"}\n'), r)
    write(f"{d}/err.jj", '{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[\n[1],\n["x"],\n' + "[2],\n" * 300000 + "[3]\n]}")
    r = run("head", "err.jj", cwd=d)
    check("head: a real error in the prefix is reported at once", r.rc == 1 and b"row 2" in r.err, r)


def test_garbage(d):
    """Mutated inputs: every command ends with 0, 1 or 3, no crash, no hang."""
    rnd = random.Random(7)
    seeds = [
        read(f"{d}/../p.jj") if os.path.exists(f"{d}/../p.jj") else b"",
        BAD_DOC.encode(),
        json.dumps(PEOPLE).encode(),
        b"a,b,c\n1,\"x\"\"y\",3\n4,5,6\n",
        b'{"a":1}\n{"a":[1,{"b":2}]}\n',
        gzip.compress(BAD_DOC.encode()),
    ]
    seeds = [s for s in seeds if s]
    bad = []
    for k in range(60):
        data = bytearray(rnd.choice(seeds))
        for _ in range(rnd.randint(1, 6)):
            op = rnd.randint(0, 2)
            pos = rnd.randint(0, max(0, len(data) - 1))
            if op == 0 and data:
                data[pos] = rnd.randint(0, 255)
            elif op == 1:
                data[pos:pos] = bytes(rnd.choice([b'"', b"[", b"]", b"{", b",", b"\\", b"\n", b"\x00", b"\xff", b"1e999"]))
            else:
                del data[pos:pos + rnd.randint(1, 20)]
        write(f"{d}/g.bin", bytes(data))
        for args in (["convert", "g.bin", "g.jj"], ["convert", "--from", "csv", "g.bin", "-"], ["check", "g.bin"],
                     ["head", "g.bin"], ["schema", "g.bin"], ["cat", "g.bin", "--to", "csv"]):
            try:
                r = run(*args, cwd=d, timeout=30)
            except subprocess.TimeoutExpired:
                bad.append((args, "hang"))
                continue
            if r.rc not in (0, 1, 3):
                bad.append((args, r))
    check("mutated inputs: exit 0, 1 or 3 only", not bad, bad[:3])


def test_readme_sessions():
    """The ```console sessions of docs/cli.md, docs/convert.md and
    README.md, run as shown:
    one shell per block on a pseudo-terminal, from the repository root,
    with the build directory first on PATH; the transcript must come out
    the same, prompts and all."""
    blocks = []
    for page in ("README.md", os.path.join("docs", "cli.md"), os.path.join("docs", "convert.md")):
        found = re.findall(r"^```console\n(.*?)^```\n", read(os.path.join(ROOT, page)).decode(), re.S | re.M)
        check(f"{page} has CLI sessions", len(found) >= 1, len(found), case=page)
        blocks += [(page, b) for b in found]
    written = [os.path.join(ROOT, "people.jj")]
    try:
        for n, (page, block) in enumerate(blocks, 1):
            script = ["true"]
            for line in block.splitlines():
                if line.startswith("$ "):  # the prompt, then the command with $? kept
                    cmd = line[2:]
                    script.append("s_=$?; printf '%s\\n' " + shlex.quote("$ " + cmd) + '; (exit "$s_")')
                    script.append(cmd)
            with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
                f.write("\n".join(script) + "\n")
            e = env()
            e["PATH"] = os.path.dirname(CLI) + os.pathsep + e.get("PATH", "")
            master, slave = os.openpty()
            p = subprocess.Popen(["sh", f.name], cwd=ROOT, env=e, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
            os.close(slave)
            got = bytearray()
            while True:
                try:
                    b = os.read(master, 65536)
                except OSError:
                    break
                if not b:
                    break
                got.extend(b)
            os.close(master)
            p.wait(timeout=60)
            os.unlink(f.name)
            text = bytes(got).decode("utf-8", "replace").replace("\r\n", "\n")
            check(f"{page}: CLI session {n} runs as shown", text == block,
                  "\n--- the page shows:\n" + block + "--- the shell printed:\n" + text, case=(page, n))
    finally:
        for w in written:
            if os.path.exists(w):
                os.unlink(w)


def test_versions():
    """One version: the header's, in --version and the man page (the
    other copies: tests/project/test_version.py)."""
    v = re.search(rb'#define JJ_VERSION_STRING "([^"]+)"', read(os.path.join(ROOT, "core", "jalapenojson.h"))).group(1)
    r = run("--version")
    check("--version says the header's version", r.out.startswith(b"jalapenojson " + v + b" "), r)
    man = read(os.path.join(ROOT, "cli", "jalapenojson.1"))
    check("the man page says the same version", b'"jalapenojson ' + v + b'"' in man)


def test_local_timestamps(d):
    """Local timestamps (l): a CSV of both separators and SQLite's
    datetime() output converts as l (the space told), cat and head print
    the T form, --schema x:l and x:t."""
    write(f"{d}/lt.csv", "id,at\n1,2024-03-01 10:30:00\n2,2024-03-01T23:59:59.500\n3,\n")
    r = run("convert", "lt.csv", "lt.jj", cwd=d)
    check("local timestamps convert as l", r.rc == 0 and re.search(rb"at\s+l\s+DATETIME", r.err), r)
    check("  the space is told", b"-> l (written with T for the space)" in r.err, r)
    check("  the document", read(f"{d}/lt.jj").endswith(
        b'[1,"2024-03-01T10:30:00"],\n[2,"2024-03-01T23:59:59.500"],\n[3,null]\n]}'), read(f"{d}/lt.jj"))
    r = run("cat", "lt.jj", cwd=d)
    check("cat: NDJSON", r.rc == 0 and r.out.decode().splitlines()[0] == '{"id":1,"at":"2024-03-01T10:30:00"}', r)
    r = run("cat", "lt.jj", "--to", "csv", cwd=d)
    check("cat: CSV", r.rc == 0 and r.out == b"id,at\n1,2024-03-01T10:30:00\n2,2024-03-01T23:59:59.500\n3,\n", r)
    r = run("cat", "lt.jj", "--to", "json", cwd=d)
    check("cat: JSON", r.rc == 0 and json.loads(r.out)[1] == {"id": 2, "at": "2024-03-01T23:59:59.500"}, r)
    r = run("head", "lt.jj", "--to", "csv", cwd=d)
    check("head", r.rc == 0 and b"2024-03-01T10:30:00" in r.out, r)
    r = run("convert", "-q", "lt.csv", "-", "--schema", "at:l", cwd=d)
    check("--schema at:l", r.rc == 0 and b'"types":["i","l"]' in r.out, r)
    r = run("convert", "lt.csv", "-", "--schema", "at:t", cwd=d)
    check("--schema at:t: UTC, told", r.rc == 0 and b'[1,"2024-03-01T10:30:00Z"]' in r.out
          and b"has no zone, taken as UTC" in r.err, r)
    write(f"{d}/lz.csv", "at\n2024-03-01T10:30:00Z\n")
    r = run("convert", "lz.csv", "-", "--schema", "at:l", cwd=d)
    check("--schema at:l refuses a zone", r.rc != 0 and b"a local timestamp has no zone" in r.err, r)


def main():
    global CLI
    build = os.path.abspath(jjtest.build_dir(sys.argv))
    CLI = os.path.join(build, "jalapenojson")
    if not os.access(CLI, os.X_OK):
        check(f"{CLI} exists (make)", False)
        return jjtest.report("cli")
    test_help()
    test_versions()
    test_readme_sessions()
    with tempfile.TemporaryDirectory() as d:
        test_usage_errors(d)
        test_roundtrips(d)
        test_local_timestamps(d)
        sub = os.path.join(d, "z")
        os.mkdir(sub)
        test_compression_and_streams(sub)
        test_errors(d)
        test_atomic(d)
        test_terminal(d)
        test_prefix_reads(d)
        test_garbage(sub)
        test_sigint(d)
    return jjtest.report("cli")


CLI = None
if __name__ == "__main__":
    sys.exit(main())
