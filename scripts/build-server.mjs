// npm run build:server: src/ → dist/ as plain JavaScript (tsc, tsconfig.build.json), plus every
// file of src/ that is not TypeScript (migrations' SQL…), so dist/ finds its assets where src/ does.
// dist/ is rebuilt from nothing: a module renamed in src/ must not linger there.
// Then dist/bundle/: the server and the packages it loads as a few files with the comments and
// blanks left out, which bin/insights.js runs (docs/footprint.md, "The server as one bundle").
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

// The bundle. V8 keeps every loaded module's source text for the life of the process, and a record
// per module: 1,450 files at idle, 5.9 MB of source. Identifiers keep their names (keepNames, no
// renaming), so stack traces and error names read as in src/. It sits one folder below dist/, as
// every module whose asset paths climb to the repository does (../../models, ../../web/dist,
// ../../package.json); the migrations and the first-seed child go beside it.
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.log('build:server: esbuild is not installed; skipping dist/bundle/ (bin/insights.js runs dist/cli.js)');
  process.exit(0);
}
const bundle = path.join(dist, 'bundle');
await esbuild.build({
  absWorkingDir: root,
  entryPoints: { cli: 'dist/cli.js', 'seed-process': 'dist/warehouse/duckdb/seed-process.js' },
  outdir: bundle,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  // Positions in a stack trace are the bundle's; the map beside each file turns them back into
  // src/'s for whoever runs node with --enable-source-maps (nothing reads it otherwise).
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // Left as packages, each for a reason: a native addon or WASM beside its JavaScript (DuckDB,
  // PGlite, resvg, chdb and its file helpers); files read from the package's own folder
  // (swagger-ui's and @fastify/swagger's, @fastify/static's, pdfkit's fonts, the Roboto files,
  // pino's worker transports); loaded on first use already and large (ECharts, the MCP SDK,
  // nodemailer, pdf-lib, fontkit; undici, which did not deliver webhooks once bundled:
  // test/process/restart.test.ts); dotenv's CommonJS exports; tsx and esbuild (development).
  external: [
    '@duckdb/*',
    '@electric-sql/pglite',
    '@electric-sql/pglite/*',
    '@resvg/*',
    'chdb',
    'fs-native-extensions',
    'require-addon',
    '@fastify/swagger',
    '@fastify/swagger-ui',
    '@fastify/static',
    'pdfkit',
    'pdf-lib',
    'fontkit',
    '@expo-google-fonts/*',
    'pino',
    'pino-pretty',
    'thread-stream',
    'echarts',
    'echarts/*',
    '@modelcontextprotocol/*',
    'nodemailer',
    'undici',
    'dotenv',
    'tsx',
    'tsx/*',
    'esbuild',
  ],
  // CommonJS packages inside an ES module bundle still call require() and read __dirname.
  banner: {
    js: [
      "import { createRequire as __bundleRequire } from 'node:module';",
      "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
      'const require = __bundleRequire(import.meta.url);',
      'const __filename = __bundleFileURLToPath(import.meta.url);',
      "const __dirname = __bundleFileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
});
fs.cpSync(path.join(dist, 'db', 'migrations'), path.join(bundle, 'migrations'), { recursive: true });
