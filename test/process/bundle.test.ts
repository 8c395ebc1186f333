// The built command runs the bundle (dist/bundle/, scripts/build-server.mjs): the serving process
// loads a few files of ours instead of 1,450 modules (docs/footprint.md, "The server as one
// bundle"). What the bundle does is tested by every test that starts bin/insights.js; this one
// checks which files the command's start loads (the chunks loaded on first use are in the same
// folder, and the tests that start the server load them). It needs a current build (`npm install`
// or `npm run build` makes one, as CI's `npm ci` does): otherwise bin/insights.js runs src/
// through tsx, and says so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(ROOT, 'dist', 'bundle', 'cli.js');
const COMPILED = path.join(ROOT, 'dist', 'cli.js');

// A module loader hook that names every ES module the process loads, on stderr.
const HOOKS = `export async function load(url, context, next) { process.stderr.write('@@load ' + url + '\\n'); return next(url, context); }`;
const REGISTER = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}));`;

test('bin/insights.js starts from the bundle: none of dist/ beside it and nothing of src/', {
  skip: fs.existsSync(COMPILED) ? false : 'no build (npm run build)',
}, (t) => {
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
  // bin/insights.js's own verdict on the build (an edit of src/ not yet built), not a copy of it.
  if (run.stderr.includes('running src/ through tsx')) return t.skip('the build is older than src/ (npm run build)');
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
