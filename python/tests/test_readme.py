"""README.md's Python section is a test: every ```python block in it runs
as a doctest, in order, sharing one namespace, from the repository root
(where the README says to run Python), so the README cannot show a result
the module does not give."""
import doctest
import os
import re

import pytest

from conftest import ROOT, extension_path


def blocks():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme[readme.index("\n## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"^```python\n(.*?)^```\n", section, re.S | re.M)


def test_readme_python_examples(monkeypatch):
    if not os.path.exists(extension_path() + ".so"):
        pytest.skip("the SQLite extension is not built (run make)")
    monkeypatch.chdir(ROOT)
    found = blocks()
    assert len(found) >= 3
    parser, globs = doctest.DocTestParser(), {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for n, text in enumerate(found, 1):
        # the extension of the build under test (the README loads ./jalapenojson)
        text = text.replace('"./jalapenojson"', repr(extension_path()))
        test = parser.get_doctest(text, globs, "README.md python block %d" % n, "README.md", 0)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)   # DocTest copies its globals
    assert runner.summarize(verbose=False).failed == 0
