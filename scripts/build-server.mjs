// npm run build:server: src/ → dist/ as plain JavaScript (tsc, tsconfig.build.json), plus every
// file of src/ that is not TypeScript (migrations' SQL…), so dist/ finds its assets where src/ does.
// dist/ is rebuilt from nothing: a module renamed in src/ must not linger there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // An install without devDependencies: bin/insights.js then runs src/ through tsx.
  console.log('build:server: typescript is not installed; skipping dist/ (bin/insights.js runs src/ through tsx)');
  process.exit(0);
}

fs.rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
fs.cpSync(path.join(root, 'src'), dist, {
  recursive: true,
  filter: (file) => fs.statSync(file).isDirectory() || !file.endsWith('.ts'),
});
