#!/usr/bin/env python3
"""test_cli_hostile.py BUILD_DIR — the command-line tool against inputs,
signals and outputs meant to hurt it.

  - inputs that never end or are huge: /dev/zero, a 3 GB sparse file (no
    disk: os.truncate), a gzip bomb made here (a few hundred MB of zeros
    in a file of a few hundred KB); check, cat and convert fail at once
    with a message naming the input and what is wrong, exit status 1, in
    a child with its memory capped (RLIMIT_AS, or the sanitizer's RSS
    limit) whose peak resident memory stays small;
  - --max-size lowers and raises the limit as documented (0: none), a
    document of exactly the limit passes, one byte less fails;
  - every signal that ends a process, sent while `convert` writes a file:
    no temporary file left, the old file kept (or the new one whole), the
    process ends by that signal; SIGPIPE sent the same way is ignored;
  - `ulimit -f` (RLIMIT_FSIZE): an error naming the file, no temporary
    file, the old file kept; a closed pipe as stdout: an ordinary write
    error, not a death by SIGPIPE;
  - outputs that are not regular files: /dev/stdout to a pipe and to a
    file opened for appending, /dev/null, a FIFO, are written straight.

Prints "cli_hostile: N passed, M failed".
"""
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import jjtest
from jjtest import check

jjtest.LINE_AT_MOST = 3000
jjtest.SHOW_AT_MOST = 400

SAN = re.compile(rb"AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")
MiB = 1 << 20
PEAK_KB = 300 * 1024  # peak resident memory any hostile run may reach


def env():
    e = dict(os.environ)
    e.pop("LD_PRELOAD", None)
    # hard_rss_limit_mb: the sanitizer's own cap (RLIMIT_AS and its shadow
    # memory do not mix); a run over it dies, which the checks catch.
    e["ASAN_OPTIONS"] = "detect_leaks=1:halt_on_error=1:exitcode=86:hard_rss_limit_mb=1500"
    e["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:exitcode=86"
    return e


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def run_capped(args, cwd, timeout=120):
    """Run the tool with stdout discarded and memory capped; returns
    (status, stderr, peak resident KiB).  status is negative for a death
    by signal, as subprocess reports it."""
    def limit():
        if not SANITIZED:
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    p = subprocess.Popen([CLI] + args, cwd=cwd, env=env(), stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit)
    timer = threading.Timer(timeout, p.kill)
    timer.start()
    err = p.stderr.read()
    p.stderr.close()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = 0  # reaped here; keep Popen from waiting again
    rc = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    check("no sanitizer report: " + " ".join(args), not SAN.search(err), err[-2000:])
    return rc, err, usage.ru_maxrss


def gzip_of_zeros(path, n, head=b"", fill=b"\0"):
    """A gzip file of head then n bytes of fill, streamed: small on disk
    and in this process."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = fill * MiB
    with open(path, "wb") as f:
        f.write(z.compress(head))
        for _ in range(n // MiB):
            f.write(z.compress(chunk))
        f.write(z.flush())


def test_endless_inputs(d):
    """/dev/zero, a sparse file, a gzip bomb: a located error at once."""
    sparse = os.path.join(d, "sparse.jj")
    open(sparse, "wb").close()
    os.truncate(sparse, 3 * 10**9)
    bomb = os.path.join(d, "bomb.jj.gz")
    gzip_of_zeros(bomb, 400 * MiB)
    check("the gzip bomb is small", os.path.getsize(bomb) < 2 * MiB, os.path.getsize(bomb))
    not_doc = "expected '{' to start a jalapenojson document"
    for name in ("/dev/zero", "sparse.jj", "bomb.jj.gz"):
        for cmd in (["check"], ["cat"], ["convert"], ["convert", "--from", "jj"],
                    ["check", "--max-size", "0"], ["cat", "--max-size", "0"]):
            args = cmd + [name]
            rc, err, peak = run_capped(args, d)
            text = err.decode("utf-8", "replace")
            what = " ".join(args)
            check(f"{what}: exit 1", rc == 1, (rc, text))
            check(f"{what}: the message names the input", name in text, text)
            if cmd[0] != "convert" or len(cmd) > 1 or name != "/dev/zero":
                check(f"{what}: says it is not a document, at byte 0",
                      "byte 0" in text and not_doc in text, text)
            else:  # no name, no format: the converter's detection reads it
                check(f"{what}: a located error", "byte 0" in text, text)
            check(f"{what}: peak memory {peak} KiB is small", peak < PEAK_KB, peak)
    # Not a document by name or content: the converter's input is bounded
    # by the size limit too (a plain file before a byte is read).
    os.rename(sparse, os.path.join(d, "sparse.bin"))
    rc, err, peak = run_capped(["convert", "sparse.bin", "x.jj"], d)
    check("convert of a 3 GB file: over the limit before reading",
          rc == 1 and b"sparse.bin is 3000000000 bytes, over the limit of 1073741824 bytes "
          b"(raise it with --max-size N; 0: no limit)" in err and peak < PEAK_KB, (rc, err, peak))
    for fmt in ("json", "csv", "ndjson"):
        rc, err, peak = run_capped(["convert", "--from", fmt, "--max-size", "1000000",
                                    "/dev/zero", "x.jj"], d)
        check(f"convert --from {fmt} /dev/zero --max-size 1000000: the limit or a located error",
              rc == 1 and b"/dev/zero" in err and peak < PEAK_KB, (rc, err, peak))
    rc, err, peak = run_capped(["convert", "--from", "csv", "--max-size", "1000", "/dev/zero", "x.json"], d)
    check("convert --from csv /dev/zero --max-size 1000: the limit named",
          rc == 1 and b"/dev/zero: larger than the limit of 1000 bytes (raise it with --max-size N; 0: no limit)"
          in err, (rc, err))
    check("no output file after the failures", not os.path.exists(os.path.join(d, "x.jj"))
          and not os.path.exists(os.path.join(d, "x.json")))


def test_limit(d):
    """--max-size: a document of exactly N bytes passes, N + 1 fails, both
    plain and decompressed; 0 is no limit; schema and head too."""
    rows = "".join(f'\n,[{i},"row {i}"]' for i in range(2, 2001))
    doc = '{"jalapenojson":1,"columns":["id","s"],"types":["i","s"],"rows":[\n[1,"row 1"]' + rows + "\n]}\n"
    n = len(doc)
    write(os.path.join(d, "doc.jj"), doc)
    gzip_of_zeros(os.path.join(d, "doc.jj.gz"), 0, head=doc.encode())
    for name in ("doc.jj", "doc.jj.gz"):
        for cmd in (["check"], ["cat"], ["convert"]):
            rc, err, _ = run_capped(cmd + [name], d)
            check(f"{cmd[0]} {name}: the default limit", rc == 0, (rc, err))
            rc, err, _ = run_capped(cmd + ["--max-size", str(n), name], d)
            check(f"{cmd[0]} --max-size {n} {name}: exactly the size passes", rc == 0, (rc, err))
            rc, err, _ = run_capped(cmd + [f"--max-size={n - 1}", name], d)
            want = (f"doc.jj is {n} bytes, over the limit of {n - 1} bytes" if name == "doc.jj"
                    else f"doc.jj.gz: decompressed size exceeds the limit of {n - 1} bytes")
            check(f"{cmd[0]} --max-size {n - 1} {name}: over the limit", rc == 1
                  and (want + " (raise it with --max-size N; 0: no limit)").encode() in err, (rc, err))
            rc, err, _ = run_capped(cmd + ["--max-size", "0", name], d)
            check(f"{cmd[0]} --max-size 0 {name}: no limit", rc == 0, (rc, err))
    # From a pipe the size is not known before: it fails when passed.
    p = subprocess.run([CLI, "cat", "--max-size", "5000", "-"], input=doc.encode(), env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check("cat - from a pipe over --max-size", p.returncode == 1 and not p.stdout and
          b"stdin: larger than the limit of 5000 bytes" in p.stderr, (p.returncode, p.stderr))
    # The header needs more than the limit: schema and head say so.
    for cmd in ("schema", "head"):
        rc, err, _ = run_capped([cmd, "--max-size", "20", "doc.jj"], d)
        check(f"{cmd} --max-size 20: the limit", rc == 1 and b"doc.jj is " in err and
              b"bytes, over the limit of 20 bytes" in err, (rc, err))
        rc, err, _ = run_capped([cmd, "--max-size", "1000", "doc.jj"], d)
        check(f"{cmd} --max-size 1000: the first bytes are enough", rc == 0, (rc, err))
    # The converter's input from JSON and CSV.
    write(os.path.join(d, "in.csv"), "a,b\n" + "".join(f"{i},{i * 2}\n" for i in range(1000)))
    size = os.path.getsize(os.path.join(d, "in.csv"))
    rc, err, _ = run_capped(["convert", "--max-size", str(size - 1), "in.csv", "o.jj"], d)
    check("convert in.csv over --max-size", rc == 1 and f"in.csv is {size} bytes, over the limit of {size - 1}"
          .encode() in err and not os.path.exists(os.path.join(d, "o.jj")), (rc, err))
    rc, err, _ = run_capped(["convert", "--max-size", str(size), "in.csv", "o.jj"], d)
    check("convert in.csv within --max-size", rc == 0 and os.path.exists(os.path.join(d, "o.jj")), (rc, err))
    for bad in ("x", "-1", "1e9", ""):
        p = subprocess.run([CLI, "check", "--max-size", bad, "doc.jj"], cwd=d, env=env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        check(f"--max-size {bad!r}: a usage error", p.returncode == 2 and b"--max-size" in p.stderr,
              (p.returncode, p.stderr))
    p = subprocess.run([CLI, "check", "doc.jj", "--max-size"], cwd=d, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check("--max-size without a value: a usage error", p.returncode == 2 and b"needs a value" in p.stderr, p.stderr)
    for cmd in ("convert", "schema", "check", "head", "cat"):
        h = subprocess.run([CLI, cmd, "--help"], stdout=subprocess.PIPE, env=env()).stdout
        check(f"{cmd} --help documents --max-size", b"--max-size N" in h and b"1073741824" in h, h)


def big_document(d):
    """A document whose JSON export takes a while to write."""
    path = os.path.join(d, "big.jj")
    with open(os.path.join(d, "big.csv"), "w") as f:
        f.write("id,name,score,note\n")
        for i in range(300000):
            f.write(f"{i},name number {i},{i * 0.25},some text to make the rows longer {i % 97}\n")
    subprocess.run([CLI, "convert", "-q", "big.csv", "big.jj"], cwd=d, env=env(), check=True, timeout=300)
    p = subprocess.run([CLI, "convert", "-q", "big.jj", "-", "--to", "json"], cwd=d, env=env(),
                       stdout=subprocess.PIPE, check=True, timeout=300)
    return path, p.stdout


def temporaries(d):
    return [f for f in os.listdir(d) if ".jj-tmp-" in f]


def signal_during_write(d, sig, complete):
    """Start convert big.jj out.json, stop it once its temporary file exists
    (SIGSTOP, which cannot be blocked, so it is surely mid-write), send sig,
    let it go on.  Returns (status, stderr, the target's bytes, temporaries
    left), or None when every try finished before it could be stopped."""
    target = os.path.join(d, "out.json")
    for f in temporaries(d):  # each run judged on its own
        os.unlink(os.path.join(d, f))
    for _ in range(10):
        write(target, "KEEP")

        def child():
            signal.signal(sig, signal.SIG_DFL)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        p = subprocess.Popen([CLI, "convert", "-q", "big.jj", "out.json"], cwd=d, env=env(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=child)
        stopped = False
        deadline = time.monotonic() + 120
        while p.poll() is None and time.monotonic() < deadline:
            if temporaries(d):
                os.kill(p.pid, signal.SIGSTOP)
                if temporaries(d):
                    stopped = True
                    break
                os.kill(p.pid, signal.SIGCONT)
            time.sleep(0.0005)
        if stopped:
            os.kill(p.pid, sig)
            os.kill(p.pid, signal.SIGCONT)
        _, err = p.communicate(timeout=120)
        if stopped:
            return p.returncode, err, read(target), temporaries(d)
        check(f"{signal.Signals(sig).name}: an unstopped run still finished well",
              p.returncode == 0 and read(target) == complete and not temporaries(d), (p.returncode, err))
    return None


def test_signals(d):
    _, complete = big_document(d)
    fatal = [signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGUSR1,
             signal.SIGUSR2, signal.SIGALRM, signal.SIGVTALRM, signal.SIGPROF, signal.SIGXCPU,
             signal.SIGIO, signal.SIGRTMIN, signal.SIGRTMAX]
    kept = 0
    for sig in fatal:
        name = signal.Signals(sig).name if sig in signal.Signals.__members__.values() else str(sig)
        got = signal_during_write(d, sig, complete)
        if not check(f"{name}: the run was stopped mid-write", got is not None):
            continue
        rc, err, content, left = got
        check(f"{name}: no temporary file left", not left, left)
        check(f"{name}: the process ends by {name} (exit status {128 + sig} in a shell)", rc == -sig, (rc, err))
        check(f"{name}: the old file kept, or the new one whole", content in (b"KEEP", complete), content[:100])
        check(f"{name}: no sanitizer report", not SAN.search(err), err[-2000:])
        kept += content == b"KEEP"
    check("most signals stopped the write before the rename", kept >= len(fatal) // 2, kept)
    # SIGPIPE sent to the process is ignored: the output is written.
    got = signal_during_write(d, signal.SIGPIPE, complete)
    if check("SIGPIPE: the run was stopped mid-write", got is not None):
        rc, err, content, left = got
        check("SIGPIPE by kill: ignored, the file written whole", rc == 0 and content == complete and not left,
              (rc, err, left))
    # ulimit -f: the write fails with EFBIG, reported; nothing left.
    target = os.path.join(d, "out.json")
    write(target, "KEEP")
    p = subprocess.run([CLI, "convert", "-q", "big.jj", "out.json"], cwd=d, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300,
                       preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20)))
    check("ulimit -f: exit status 3 with a message naming the file",
          p.returncode == 3 and b"out.json" in p.stderr and b"File too large" in p.stderr, (p.returncode, p.stderr))
    check("ulimit -f: the old file kept, no temporary file", read(target) == b"KEEP" and not temporaries(d),
          temporaries(d))
    # A closed pipe as stdout: an ordinary write error.
    for args in (["cat", "big.jj"], ["convert", "big.jj", "-", "--to", "csv"], ["head", "-n", "1000000", "big.jj"]):
        p = subprocess.Popen([CLI] + args, cwd=d, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = p.stdout.read(1)
        p.stdout.close()
        err = p.stderr.read()
        p.wait(timeout=300)
        check(f"{' '.join(args)} | head -c1: exit status 3, not a death by SIGPIPE",
              first and p.returncode == 3 and b"Broken pipe" in err, (p.returncode, err))
        check(f"{' '.join(args)} | head -c1: no sanitizer report", not SAN.search(err), err[-2000:])


def test_stream_outputs(d):
    """OUT that is not a regular file is written straight."""
    write(os.path.join(d, "in.json"), '[{"a":1,"b":"x"},{"a":2,"b":"y"}]')
    want = subprocess.run([CLI, "convert", "-q", "in.json", "-"], cwd=d, env=env(),
                          stdout=subprocess.PIPE, check=True).stdout
    check("the document to compare with", want.startswith(b'{"jalapenojson":1'), want)
    p = subprocess.run([CLI, "convert", "-q", "in.json", "/dev/stdout"], cwd=d, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check("convert in.json /dev/stdout | cat: the document", p.returncode == 0 and p.stdout == want,
          (p.returncode, p.stderr))
    p = subprocess.run([CLI, "convert", "-q", "in.json", "/dev/stdout", "--to", "csv"], cwd=d, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check("convert --to csv to /dev/stdout", p.returncode == 0 and p.stdout == b"a,b\n1,x\n2,y\n",
          (p.returncode, p.stdout, p.stderr))
    p = subprocess.run([CLI, "convert", "in.json", "/dev/null"], cwd=d, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check("convert in.json /dev/null: exit 0, the summary", p.returncode == 0 and b"-> /dev/null: 2 rows"
          in p.stderr and not p.stdout, (p.returncode, p.stderr))
    # /dev/stdout redirected to a file opened for appending: appended to.
    log = os.path.join(d, "log.txt")
    write(log, "HEAD\n")
    with open(log, "ab") as f:
        p = subprocess.run([CLI, "convert", "-q", "in.json", "/dev/stdout"], cwd=d, env=env(),
                           stdout=f, stderr=subprocess.PIPE, timeout=60)
    check("/dev/stdout appending to a file: appended, not replaced", p.returncode == 0 and
          read(log) == b"HEAD\n" + want, (p.returncode, p.stderr, read(log)[:200]))
    # A FIFO: its reader gets the bytes.
    fifo = os.path.join(d, "out.fifo")
    os.mkfifo(fifo)
    got = []
    t = threading.Thread(target=lambda: got.append(read(fifo)), daemon=True)
    t.start()
    p = subprocess.run([CLI, "convert", "-q", "in.json", fifo, "--to", "ndjson"], cwd=d, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if p.returncode != 0:  # never opened: let the reader see an end
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    t.join(60)
    check("convert to a FIFO: the reader gets the rows", p.returncode == 0 and got ==
          [b'{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n'], (p.returncode, p.stderr, got))
    check("no temporary file beside the outputs", not temporaries(d), temporaries(d))
    # /dev/full: the write error is reported, exit 3.
    if os.path.exists("/dev/full"):
        p = subprocess.run([CLI, "convert", "-q", "in.json", "/dev/full"], cwd=d, env=env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        check("convert to /dev/full: exit 3, no space", p.returncode == 3 and b"/dev/full" in p.stderr
              and b"No space left" in p.stderr, (p.returncode, p.stderr))
    # A regular file is still replaced atomically: its old inode stays whole.
    target = os.path.join(d, "t.jj")
    write(target, "OLD")
    before = os.stat(target).st_ino
    p = subprocess.run([CLI, "convert", "-q", "in.json", "t.jj"], cwd=d, env=env(), timeout=60)
    check("a regular OUT is replaced by a rename", p.returncode == 0 and read(target) == want and
          os.stat(target).st_ino != before, p.returncode)


def main():
    global CLI, SANITIZED
    build = jjtest.build_dir(sys.argv)
    CLI = os.path.abspath(os.path.join(build, "jalapenojson"))
    SANITIZED = b"__asan_init" in read(CLI)
    with tempfile.TemporaryDirectory() as d:
        test_endless_inputs(d)
    with tempfile.TemporaryDirectory() as d:
        test_limit(d)
    with tempfile.TemporaryDirectory() as d:
        test_stream_outputs(d)
    with tempfile.TemporaryDirectory() as d:
        test_signals(d)
    return jjtest.report("cli_hostile")


if __name__ == "__main__":
    sys.exit(main())
