#!/usr/bin/env node
// The `insights` command. It runs the compiled dist/ (built by `npm install` / `npm run build`), so
// the serving process holds no TypeScript transpiler: its bundle dist/bundle/cli.js, or dist/cli.js
// where the bundle was not built (docs/footprint.md). Without dist/, or when a file of src/ is newer
// than it (an edit not yet built), it runs src/ through tsx instead: never stale code.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'dist', 'cli.js');
const bundled = path.join(root, 'dist', 'bundle', 'cli.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(file) : fs.statSync(file).mtimeMs);
  }
  return newest;
}

function distIsCurrent() {
  if (!fs.existsSync(compiled)) return false;
  const src = path.join(root, 'src');
  return !fs.existsSync(src) || newestMtime(src) <= fs.statSync(compiled).mtimeMs;
}

if (distIsCurrent()) {
  // The bundle is made from dist/ by the same build; one older than dist/cli.js (tsc run by hand) is stale.
  const bundleIsCurrent = fs.existsSync(bundled) && fs.statSync(bundled).mtimeMs >= fs.statSync(compiled).mtimeMs;
  if (bundleIsCurrent) await import('../dist/bundle/cli.js');
  else await import('../dist/cli.js');
} else {
  if (fs.existsSync(compiled)) process.stderr.write('insights: src/ is newer than dist/ (run `npm run build`); running src/ through tsx\n');
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
