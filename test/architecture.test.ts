// The layering of src/ (docs/architecture.md), checked on every file's imports: a folder not on the
// map, an import a layer may not make, Fastify in domain code, another module's repository, and an
// import cycle between files each fail with the file and the import named.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

/** The entry points (the command and the server's process) and the composition they build on. */
const ENTRY_FILES = new Set(['server.ts', 'cli.ts']);
const COMPOSITION_FILES = new Set(['app.ts', 'runtime.ts']);

/** Layer → the layers it may import (its own layer always). Lower layers never import higher ones. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  lib: [],
  config: ['lib'],
  db: ['lib', 'config'],
  auth: ['lib', 'config'],
  semantic: ['lib'],
  warehouse: ['lib', 'config', 'semantic'],
  adapters: ['lib', 'config'],
  modules: ['lib', 'config', 'db', 'auth', 'semantic', 'warehouse', 'adapters'],
  jobs: ['lib', 'config', 'db', 'adapters', 'modules'],
  plugins: ['lib', 'config', 'db', 'auth', 'modules'],
  // app.ts builds the app, runtime.ts opens the system of record: what commands and the server use.
  composition: ['lib', 'config', 'db', 'auth', 'semantic', 'warehouse', 'adapters', 'modules', 'jobs', 'plugins'],
  // Each command opens what it needs through the composition, never through an entry point.
  commands: ['lib', 'config', 'db', 'auth', 'semantic', 'warehouse', 'adapters', 'modules', 'jobs', 'plugins', 'composition'],
  entry: ['lib', 'config', 'db', 'auth', 'semantic', 'warehouse', 'adapters', 'modules', 'jobs', 'plugins', 'composition', 'commands'],
};

/** Layers whose code is domain logic or I/O: no Fastify there (routes, plugins and lib's HTTP helpers may). */
const NO_FASTIFY = new Set(['config', 'db', 'auth', 'semantic', 'warehouse', 'adapters', 'jobs']);

export type Graph = Map<string, { spec: string; target?: string }[]>;

export function layerOf(rel: string): string | undefined {
  const parts = rel.split('/');
  if (parts.length === 1) return ENTRY_FILES.has(parts[0]) ? 'entry' : COMPOSITION_FILES.has(parts[0]) ? 'composition' : undefined;
  return parts[0] in MAY_IMPORT && parts[0] !== 'entry' && parts[0] !== 'composition' ? parts[0] : undefined;
}

/** The engine folders of the warehouse: each implements the one port (warehouse/warehouse.ts). */
const ENGINES = ['duckdb', 'postgres', 'clickhouse'];
const engineOf = (rel: string) => (rel.startsWith('warehouse/') ? ENGINES.find((e) => rel.startsWith(`warehouse/${e}/`)) : undefined);

/**
 * Nothing engine-specific outside an engine's folder: an engine imports no other engine, and only
 * warehouse/open.ts (which opens the configured one) imports an engine from outside.
 */
export function engineViolations(graph: Graph): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) {
    for (const { spec, target } of imports) {
      const to = target && engineOf(target);
      if (!to || engineOf(file) === to || file === 'warehouse/open.ts') continue;
      out.push(`${file}: imports the ${to} engine (${spec}); speak to the Warehouse port instead`);
    }
  }
  return out;
}

const moduleOf = (rel: string) => (rel.startsWith('modules/') ? rel.split('/')[1] : undefined);

/** Every layering rule broken by the graph's edges (paths relative to src/). */
export function layeringViolations(graph: Graph): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) {
    const from = layerOf(file);
    if (!from) {
      out.push(`${file}: not on the map (add its folder to docs/architecture.md and this test)`);
      continue;
    }
    for (const { spec, target } of imports) {
      if (!target) {
        const fastify = spec === 'fastify' || spec.startsWith('@fastify/');
        const domainFile = NO_FASTIFY.has(from) || (from === 'modules' && !file.endsWith('.routes.ts'));
        if (fastify && domainFile) out.push(`${file}: imports ${spec}; only routes, plugins and the app speak HTTP`);
        continue;
      }
      const to = layerOf(target);
      if (!to) continue; // reported as not on the map when the target itself is checked
      if (to !== from && !MAY_IMPORT[from].includes(to)) out.push(`${file}: ${from} may not import ${to} (${spec})`);
      const [a, b] = [moduleOf(file), moduleOf(target)];
      if (a && b && a !== b && /\.(repository|routes)\.ts$/.test(target)) {
        out.push(`${file}: reaches into module ${b} (${spec}); use its service or a port`);
      }
    }
  }
  return out;
}

/** Import cycles between files (strongly connected components of more than one file, or a self-import). */
export function importCycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { target: w } of graph.get(v) ?? []) {
      if (!w || !graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfImport = (graph.get(v) ?? []).some((i) => i.target === v);
      if (component.length > 1 || selfImport) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The import graph of src/: every static, re-export and dynamic import, type-only ones included. */
function srcGraph(): Graph {
  const graph: Graph = new Map();
  for (const full of sourceFiles(SRC)) {
    const rel = path.relative(SRC, full).split(path.sep).join('/');
    const info = ts.preProcessFile(fs.readFileSync(full, 'utf8'), true, true);
    graph.set(
      rel,
      info.importedFiles.map(({ fileName: spec }) => {
        if (!spec.startsWith('.')) return { spec };
        const target = path
          .relative(SRC, path.resolve(path.dirname(full), spec))
          .split(path.sep)
          .join('/');
        return { spec, target };
      }),
    );
  }
  return graph;
}

test('every src file keeps to the layering of docs/architecture.md', () => {
  const graph = srcGraph();
  assert.ok(graph.size > 50, 'the import graph was read');
  assert.deepEqual(layeringViolations(graph), []);
});

test('engine-specific code stays in its engine folder', () => {
  assert.deepEqual(engineViolations(srcGraph()), []);
});

test('no import cycle between src files', () => {
  assert.deepEqual(importCycles(srcGraph()), []);
});

test('the checks catch what they are for', () => {
  const g: Graph = new Map([
    ['lib/errors.ts', [{ spec: '../modules/a/a.service.ts', target: 'modules/a/a.service.ts' }]],
    ['modules/a/a.service.ts', [{ spec: 'fastify' }, { spec: '../b/b.repository.ts', target: 'modules/b/b.repository.ts' }]],
    ['modules/a/a.routes.ts', [{ spec: 'fastify' }]],
    ['modules/b/b.repository.ts', [{ spec: '../a/a.service.ts', target: 'modules/a/a.service.ts' }]],
    ['scratch/x.ts', []],
    ['jobs/j.ts', [{ spec: '../plugins/p.ts', target: 'plugins/p.ts' }]],
    ['commands/c.ts', [{ spec: '../cli.ts', target: 'cli.ts' }]],
    ['warehouse/clickhouse/x.ts', [{ spec: '../duckdb/y.ts', target: 'warehouse/duckdb/y.ts' }]],
    ['modules/data/d.ts', [{ spec: '../../warehouse/postgres/p.ts', target: 'warehouse/postgres/p.ts' }]],
    ['warehouse/open.ts', [{ spec: './duckdb/y.ts', target: 'warehouse/duckdb/y.ts' }]],
  ]);
  assert.deepEqual(layeringViolations(g), [
    'lib/errors.ts: lib may not import modules (../modules/a/a.service.ts)',
    'modules/a/a.service.ts: imports fastify; only routes, plugins and the app speak HTTP',
    'modules/a/a.service.ts: reaches into module b (../b/b.repository.ts); use its service or a port',
    'scratch/x.ts: not on the map (add its folder to docs/architecture.md and this test)',
    'jobs/j.ts: jobs may not import plugins (../plugins/p.ts)',
    'commands/c.ts: commands may not import entry (../cli.ts)',
  ]);
  assert.deepEqual(engineViolations(g), [
    'warehouse/clickhouse/x.ts: imports the duckdb engine (../duckdb/y.ts); speak to the Warehouse port instead',
    'modules/data/d.ts: imports the postgres engine (../../warehouse/postgres/p.ts); speak to the Warehouse port instead',
  ]);
  assert.deepEqual(importCycles(g), [['modules/a/a.service.ts', 'modules/b/b.repository.ts']]);
});

test('the web app imports of src/ only what both draw with: src/lib/charts/', () => {
  const WEB = path.join(ROOT, 'web/src');
  const stray: string[] = [];
  for (const full of fs
    .readdirSync(WEB, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))) {
    for (const { fileName: spec } of ts.preProcessFile(fs.readFileSync(full, 'utf8'), true, true).importedFiles) {
      if (!spec.startsWith('.')) continue;
      const target = path
        .relative(ROOT, path.resolve(path.dirname(full), spec))
        .split(path.sep)
        .join('/');
      if (target.startsWith('src/') && !target.startsWith('src/lib/charts/')) stray.push(`${path.relative(ROOT, full)} → ${target}`);
    }
  }
  assert.deepEqual(stray, []);
  // And what they share stays pure: no Node module in src/lib/charts/.
  for (const full of sourceFiles(path.join(SRC, 'lib/charts'))) {
    const specs = ts.preProcessFile(fs.readFileSync(full, 'utf8'), true, true).importedFiles.map((i) => i.fileName);
    assert.deepEqual(
      specs.filter((s) => s.startsWith('node:') || (!s.startsWith('.') && !s.startsWith('typebox'))),
      [],
      full,
    );
  }
});

test("docs/architecture.md's map says what this test enforces, and names files that exist", () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const layers = Object.keys(MAY_IMPORT);
  const drawn = new Map<string, string[]>();
  for (const row of doc.split('\n').filter((l) => l.startsWith('| `src/'))) {
    const cells = row.split('|').map((c) => c.trim());
    const folder = /^`src\/([a-z]+)\//.exec(cells[1])?.[1];
    const layer =
      folder && folder in MAY_IMPORT
        ? folder
        : cells[1].includes('`src/cli.ts`')
          ? 'entry'
          : cells[1].includes('`src/app.ts`')
            ? 'composition'
            : 'none';
    const mayImport = cells[cells.length - 2];
    // The entry points and the commands import anything below them; every other row lists the layers it may import.
    if (layer === 'entry' || layer === 'commands') assert.match(mayImport, /^anything/, row);
    else
      drawn.set(
        layer,
        [...new Set(mayImport.match(new RegExp(`\\b(${layers.join('|')})\\b`, 'g')) ?? [])].filter((l) => l !== layer),
      );
  }
  for (const layer of layers.filter((l) => l !== 'entry' && l !== 'commands')) {
    assert.deepEqual(drawn.get(layer)?.sort(), [...MAY_IMPORT[layer]].sort(), `the map's row for src/${layer}/`);
  }
  // A file the map names by its own name is a file of src/ (or, with its folder, of the repository).
  const files = new Set([...sourceFiles(SRC)].map((f) => path.basename(f)));
  const missing = [...doc.matchAll(/`([\w./*<>-]+\.(?:ts|sql|md))`/g)]
    .map((m) => m[1])
    .filter((name) => !name.includes('*') && !name.includes('<') && name.endsWith('.ts'))
    .filter((name) =>
      name.includes('/') ? !fs.existsSync(path.join(ROOT, name)) && !fs.existsSync(path.join(SRC, name)) : !files.has(name),
    );
  assert.deepEqual(missing, []);
});
