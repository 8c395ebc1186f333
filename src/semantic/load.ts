// Reads model files (one YAML file, or every *.yml/*.yaml of a directory) keeping each node's
// line, and checks them against the format's schema (shape.ts). Every problem is collected, with its
// file, line and path (`cubes[2].measures[0].sql`), so one run of `insights model check` lists them all.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, parseDocument } from 'yaml';
import { issueAt, ModelError, noDamage, type Damage, type ModelIssue, type ModelSource } from './issues.ts';
import type { ModelFile } from './model.schema.ts';
import { checkShape, cubeNamesOf, yamlMessage } from './shape.ts';

export {
  formatIssue,
  formatPath,
  issueAt,
  ModelError,
  noDamage,
  type Damage,
  type ModelIssue,
  type ModelSource,
  type PathPart,
} from './issues.ts';

export const DEMO_MODEL_PATH = fileURLToPath(new URL('../../models/demo.yml', import.meta.url));

/** The model files a path names: the file itself, or the directory's *.yml/*.yaml in name order. */
export function modelFiles(target: string): string[] {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) throw new ModelError([{ severity: 'error', file: target, path: '', message: 'no such file or directory' }]);
  if (!stat.isDirectory()) return [target];
  const files = fs
    .readdirSync(target)
    .filter((f) => /\.ya?ml$/i.test(f))
    .sort()
    .map((f) => path.join(target, f));
  if (!files.length)
    throw new ModelError([{ severity: 'error', file: target, path: '', message: 'the directory holds no .yml or .yaml file' }]);
  return files;
}

/** Parses one file's text; YAML syntax and schema problems are returned, never thrown. */
export function parseModelText(file: string, text: string): { source?: ModelSource; issues: ModelIssue[]; damage?: Damage } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      // The first only: after a misplaced line the parser's reading of the rest is unreliable, and
      // one indentation mistake would be reported on every line below it.
      issues: doc.errors
        .slice(0, 1)
        .map((e) => ({ severity: 'error' as const, file, line: lines.linePos(e.pos[0]).line, path: '', message: yamlMessage(e) })),
      // References into a file that cannot be read are not reported as missing too.
      damage: { ...noDamage(), refs: cubeNamesOf(doc) },
    };
  }
  const data = (doc.toJS() ?? {}) as ModelFile;
  const source: ModelSource = { file, data, doc, lines };
  if (typeof data !== 'object' || Array.isArray(data))
    return {
      issues: [issueAt(source, [], 'must be a mapping with cubes: and insights:')],
      damage: { ...noDamage(), refs: new Set(['*']) },
    };
  const { issues, pruned, damage } = checkShape(source);
  return { source: { ...source, data: pruned, damage }, issues };
}

/** Reads and schema-checks every file of a model path. */
export function readModelSources(target: string): { sources: ModelSource[]; issues: ModelIssue[]; damage: Damage[] } {
  const sources: ModelSource[] = [];
  const issues: ModelIssue[] = [];
  const damage: Damage[] = [];
  for (const file of modelFiles(target)) {
    const r = parseModelText(file, fs.readFileSync(file, 'utf8'));
    issues.push(...r.issues);
    if (r.source) sources.push(r.source);
    if (r.damage) damage.push(r.damage);
    if (r.source?.damage) damage.push(r.source.damage);
  }
  return { sources, issues, damage };
}
