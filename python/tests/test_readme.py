"""The Python examples of README.md and docs/python.md are tests: every
```python block of a page runs as a doctest, in order, sharing one
namespace per page, from the repository root (where the pages say to run
Python), so a page cannot show a result the module does not give."""
import doctest
import os
import re

import pytest

from conftest import ROOT, extension_path

PAGES = {"README.md": 1, os.path.join("docs", "python.md"): 3}  # page: at least this many blocks


def blocks(page):
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        return re.findall(r"^```python\n(.*?)^```\n", f.read(), re.S | re.M)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_python_examples(page, monkeypatch):
    if not os.path.exists(extension_path() + ".so"):
        pytest.skip("the SQLite extension is not built (run make)")
    monkeypatch.chdir(ROOT)
    found = blocks(page)
    assert len(found) >= PAGES[page]
    parser, globs = doctest.DocTestParser(), {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for n, text in enumerate(found, 1):
        # the extension of the build under test (the pages load ./jalapenojson)
        text = text.replace('"./jalapenojson"', repr(extension_path()))
        test = parser.get_doctest(text, globs, "%s python block %d" % (page, n), page, 0)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)   # DocTest copies its globals
    assert runner.summarize(verbose=False).failed == 0
