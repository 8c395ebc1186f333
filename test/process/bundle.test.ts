// The built command runs the bundle (dist/bundle/, scripts/build-server.mjs): the serving process
// loads a few files of ours instead of 1,450 modules (docs/footprint.md, "The server as one
// bundle"). What the bundle does is tested by every test that starts bin/insights.js; this one
// checks which files the command's start loads (the chunks loaded on first use are in the same
// folder, and the tests that start the server load them). It needs a build (`npm install` or `npm run build` makes one, as CI's
// `npm ci` does) that is current: otherwise bin/insights.js runs src/ through tsx.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(ROOT, 'dist', 'bundle', 'cli.js');

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(f) : fs.statSync(f).mtimeMs);
  }
  return t;
}

const COMPILED = path.join(ROOT, 'dist', 'cli.js');
const built = fs.existsSync(COMPILED) && newest(path.join(ROOT, 'src')) <= fs.statSync(COMPILED).mtimeMs;

// A module loader hook that names every ES module the process loads, on stderr.
const HOOKS = `export async function load(url, context, next) { process.stderr.write('@@load ' + url + '\\n'); return next(url, context); }`;
const REGISTER = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}));`;

test('bin/insights.js starts from the bundle: none of dist/ beside it and nothing of src/', {
  skip: built ? false : 'no current build (npm run build)',
}, () => {
  const run = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, path.join(ROOT, 'bin/insights.js'), '--help'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.ok(fs.existsSync(BUNDLE), 'the build made dist/bundle/cli.js');
  const ours = run.stderr
    .split('\n')
    .filter((l) => l.startsWith('@@load file://'))
    .map((l) => path.relative(ROOT, fileURLToPath(l.slice('@@load '.length))))
    .filter((f) => !f.split(path.sep).includes('node_modules'));
  assert.ok(ours.includes(path.join('dist', 'bundle', 'cli.js')), `loaded: ${ours.join(', ')}`);
  const outside = ours.filter((f) => f !== path.join('bin', 'insights.js') && !f.startsWith(path.join('dist', 'bundle') + path.sep));
  assert.deepEqual(outside, [], 'only bin/insights.js and the bundle');
});
