// No line of src/ or web/src is over 140 characters (docs/web.md "Layout", docs/architecture.md):
// Biome's formatter wraps code at that width but leaves long strings, regular expressions and
// comments as they are, so they are checked here. The generated API types (web/src/api-types.ts)
// are left out, as Biome leaves them out.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers/process.ts';

const MAX = 140;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.(ts|tsx|js|css)$/.test(e.name) && e.name !== 'api-types.ts' ? [full] : [];
  });
}

for (const dir of ['src', 'web/src']) {
  test(`no line of ${dir} is over ${MAX} characters`, () => {
    const files = sources(path.join(ROOT, dir));
    assert.ok(files.length > 50, `${dir} read: ${files.length} files`);
    const long = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => ([...line].length > MAX ? [`${path.relative(ROOT, file)}:${i + 1} (${[...line].length})`] : [])),
    );
    assert.deepEqual(long, []);
  });
}
