#!/usr/bin/env python3
"""house_style.py [--from-width N] FILE... — bring C files to the house style.

The house style (.clang-format at the root has the code part): 80 columns,
2-space indent, and block comments in the SQLite manner,

    /* One line. */            /* A first line
                               ** and the next ones, then the end. */
    /*
    ** A file or section header: "/*" and "*/" on lines of their own.
    */

This script does what clang-format cannot: for every block comment that has
a line over 80 columns or continuation lines not marked "**" (" * text", or
bare indented text), it

  - re-marks the continuation lines "**" (the text keeps its own indent);
  - joins the lines the old width broke (a line is a soft break when the next
    word would not have fitted in --from-width columns, default 80, or it
    reaches within 16 columns of that width) and wraps each paragraph again
    at 80; lines the author broke early, and items ("- ", "1. ", "name: "),
    stay on lines of their own;
  - moves a comment that makes its code line too long onto lines of its own
    just above that line;
  - shortens rules of one repeated character ("-----") to the width.

Then it runs clang-format -i (the .clang-format of the root), and repeats
both until nothing changes.  Comments already in the house style and within
80 columns are left exactly as they are, so running it again changes
nothing.  Only comments and white space change: the object code is the same
(compare `cc -O2 -g0 -c` output before and after).
"""
import os
import re
import subprocess
import sys

WIDTH = 80
RULE = re.compile(r"(.)\1{7,}")  # a line of one repeated character
# A line that starts an item of its own: "- x", "1. x", "a) x"; after a
# sentence, also "name: x" and "fine == 0: x".
LIST_ITEM = re.compile(r"^(- |\* |\d+\. |\(\d+\) |[a-z]\) )")
NAMED_ITEM = re.compile(r"^\w+( == \w+)?: ")


def comments(s):
    """(start, end) of every /* ... */ comment, outside strings and //."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if c in "\"'":
            i += 1
            while i < n and s[i] != c:
                i += 2 if s[i] == "\\" else 1
            i += 1
        elif s.startswith("//", i):
            i = s.find("\n", i)
            i = n if i < 0 else i
        elif s.startswith("/*", i):
            j = s.find("*/", i + 2)
            if j < 0:
                break
            out.append((i, j + 2))
            i = j + 2
        else:
            i += 1
    return out


def strip_mark(raw, base):
    """One continuation line of a comment -> (extra indent, text): the mark
    ("**", "*" or none) and one space removed; base is the column where the
    comment's text starts (the column of its "/*" plus 3)."""
    t = raw.lstrip(" ")
    col = len(raw) - len(t)
    if t.startswith("**") and (len(t) == 2 or t[2] == " "):
        t, col = t[2:], col + 2
    elif t.startswith("*") and not t.startswith("*/") and (len(t) == 1 or t[1] == " "):
        t, col = t[1:], col + 1
    else:  # bare text: its column is its indent
        return max(col - base, 0), t.rstrip()
    if t.startswith(" "):
        t, col = t[1:], col + 1
    u = t.lstrip(" ")
    return len(t) - len(u), u.rstrip()


def wrap(text, first, rest):
    """Greedy wrap at spaces (runs of spaces kept inside a line): the first
    line at most `first` columns, the others `rest`."""
    parts = re.split(r"( +)", text)
    lines, cur = [], ""
    for k in range(0, len(parts), 2):
        word, sep = parts[k], parts[k - 1] if k else ""
        if cur and len(cur) + len(sep) + len(word) > (rest if lines else first):
            lines.append(cur)
            cur = word
        else:
            cur = cur + sep + word if cur else word
    lines.append(cur)
    return lines


def render(indent, header, items):
    """The comment's lines in the house style.  items: paragraphs (extra
    indent, extra indent of the lines after the first, text); text "" is a
    blank line."""
    room = WIDTH - len(indent) - 3
    body = []
    for k, (extra, hang, text) in enumerate(items):
        if not text:
            body.append("")
            continue
        end = 3 if k == len(items) - 1 and not header else 0  # " */"
        if RULE.fullmatch(text):
            body.append(" " * extra + text[: room - extra - end])  # shortened
            continue
        lines = wrap(text, room - extra, room - hang)
        if len(lines[-1]) + end > room - (hang if len(lines) > 1 else extra):
            words = lines[-1].rsplit(" ", 1)  # make room for " */"
            if len(words) == 2:
                lines[-1:] = [words[0].rstrip(" "), words[1]]
        body += [" " * (hang if n else extra) + line for n, line in enumerate(lines)]
    while body and body[-1] == "" and not header:
        body.pop()
    if header:
        return [indent + "/*"] + [indent + ("** " + b if b else "**") for b in body] + [indent + "*/"]
    out = [indent + "/* " + body[0]] + [indent + ("** " + b if b else "**") for b in body[1:]]
    out[-1] += " */"
    return out


def paragraphs(lines, phys, from_width):
    """Join soft-broken lines: (extra indent, text) lines -> paragraphs
    (extra, hang, text).  phys[i] is the length of line i in the file.  A
    line indented deeper than a soft-broken one before it continues that
    one's paragraph with a hanging indent."""
    out = []
    for i, (extra, text) in enumerate(lines):
        if out and text and out[-1][2] and i > 0:
            pe, pt = lines[i - 1]
            first, hang, so_far = out[-1]
            word = text.split(" ")[0]
            # soft: the next word would not have fitted, or the line was near
            # the old width anyway (people wrap a little early)
            soft = phys[i - 1] + 1 + len(word) > from_width or phys[i - 1] > from_width - 16
            item = LIST_ITEM.match(text) or (NAMED_ITEM.match(text) and pt.endswith((".", ":", ";")))
            plain = not item and not RULE.fullmatch(text) and not RULE.fullmatch(pt)
            if soft and plain and extra == hang:
                out[-1] = (first, hang, so_far + " " + text)
                continue
            if soft and plain and extra > hang and first == hang == pe:  # a hanging indent
                out[-1] = (first, extra, so_far + " " + text)
                continue
        out.append((extra, extra, text))
    return out


def restyle_comments(s, from_width):
    for a, b in reversed(comments(s)):
        ls = s.rfind("\n", 0, a) + 1
        le = s.find("\n", b)
        le = len(s) if le < 0 else le
        lead, tail = s[ls:a], s[b:le]
        if tail.strip():
            continue  # code after the comment on its line: leave it
        block = s[ls:le].split("\n")
        if any(l.rstrip().endswith("\\") for l in block):
            continue  # inside a macro
        body = s[a + 2 : b - 2].split("\n")
        base = len(lead) + 3
        trailing = bool(lead.strip())
        marked = all(not r.strip() or r.lstrip().startswith("**") for r in body[1:])
        if all(len(l) <= WIDTH for l in block) and marked:
            continue
        header = len(body) > 1 and not body[0].strip()
        first = body[0][1:] if body[0].startswith(" ") else body[0]
        lines = [] if header else [(0, first.strip())]
        phys = [] if header else [len(block[0])]
        for k, raw in enumerate(body[1:], 1):
            if k == len(body) - 1 and not raw.strip():
                break  # the "*/" line
            lines.append(strip_mark(raw, base))
            phys.append(len(block[k]))
        items = paragraphs(lines, phys, from_width)
        if trailing:
            code = lead.rstrip()
            indent = re.match(r"[ \t]*", lead).group(0)
            one = code + " /* " + " ".join(t for _, _, t in items) + " */"
            if len(items) == 1 and len(one) <= WIDTH:
                new = [one]
            else:
                new = render(indent, False, items) + [code]
        else:
            new = render(lead, header, items)
        s = s[:ls] + "\n".join(new) + s[le:]
    return s


def main():
    args = sys.argv[1:]
    from_width = WIDTH
    if args[:1] == ["--from-width"]:
        from_width, args = int(args[1]), args[2:]
    if not args:
        sys.exit(__doc__)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path in args:
        width = from_width
        for _ in range(4):
            with open(path) as f:
                old = f.read()
            new = restyle_comments(old, width)
            if new != old:
                with open(path, "w") as f:
                    f.write(new)
            subprocess.run(["clang-format", "-i", "--style=file:" + os.path.join(root, ".clang-format"),
                            path], check=True)
            with open(path) as f:
                if f.read() == old:
                    break
            width = WIDTH  # later rounds only fix what clang-format moved
        else:
            print("house_style.py: %s did not settle" % path, file=sys.stderr)


if __name__ == "__main__":
    main()
