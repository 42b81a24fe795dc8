// conformance.test.mjs — JSONTestSuite's string and number cases read as
// values through the module, mapped to documents exactly as the C
// conformance test maps them (js/testlib/conformance.mjs has the mapping
// and the checks; js/test/reader.test.mjs runs them on the reader-only
// module too).

import { test } from 'node:test';
import { runSuite } from '../testlib/conformance.mjs';

test('JSONTestSuite: string and number cases as values', (t) => runSuite(t, 'conformance'));
