// Reads model files (one YAML file, or every *.yml/*.yaml of a directory) keeping each node's
// line, and checks them against the format's schema. Every problem is collected, with its file,
// line and path (`cubes[2].measures[0].sql`), so one run of `insights model check` lists them all.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { ModelFileSchema, type ModelFile } from './model.schema.ts';

export type PathPart = string | number;

export interface ModelIssue {
  severity: 'error' | 'warning';
  file: string;
  line?: number;
  /** `cubes[2].measures[0].sql` */
  path: string;
  message: string;
}

/** One parsed file: its data and what is needed to find the line of any path in it. */
export interface ModelSource {
  file: string;
  data: ModelFile;
  doc: Document;
  lines: LineCounter;
  /** Cubes and insights (by index) whose shape is wrong: left out of the cross-checks. */
  skip?: { cubes: Set<number>; insights: Set<number> };
}

export class ModelError extends Error {
  constructor(readonly issues: ModelIssue[]) {
    const errors = issues.filter((i) => i.severity === 'error');
    super(`The model is invalid (${errors.length} problem${errors.length === 1 ? '' : 's'}):\n${errors.map(formatIssue).join('\n')}`);
  }
}

export const DEMO_MODEL_PATH = fileURLToPath(new URL('../../models/demo.yml', import.meta.url));

export function formatPath(parts: readonly PathPart[]): string {
  return parts.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export function formatIssue(i: ModelIssue): string {
  return `  ${i.file}${i.line ? `:${i.line}` : ''}  ${i.path || '(file)'}: ${i.message}`;
}

/** The issue at `parts` of a source, with the line of the nearest node that exists. */
export function issueAt(src: ModelSource, parts: readonly PathPart[], message: string, severity: ModelIssue['severity'] = 'error'): ModelIssue {
  let line: number | undefined;
  for (let n = parts.length; n >= 0 && line === undefined; n--) {
    const node = n === 0 ? src.doc.contents : src.doc.getIn(parts.slice(0, n), true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) line = src.lines.linePos(range[0]).line;
  }
  return { severity, file: src.file, line, path: formatPath(parts), message };
}

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
  if (!files.length) throw new ModelError([{ severity: 'error', file: target, path: '', message: 'the directory holds no .yml or .yaml file' }]);
  return files;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validateFile = ajv.compile(ModelFileSchema);

function pointerParts(pointer: string): PathPart[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** Ajv's errors as one message per place: a union of literals reads "must be one of: …". */
function schemaIssues(src: ModelSource, errors: ErrorObject[]): ModelIssue[] {
  const allowed = new Map<string, unknown[]>();
  for (const e of errors) if (e.keyword === 'const') allowed.set(e.instancePath, [...(allowed.get(e.instancePath) ?? []), e.params.allowedValue]);
  const out: ModelIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const parts = pointerParts(e.instancePath);
    let message: string;
    if (e.keyword === 'const') continue;
    if (e.keyword === 'anyOf' && allowed.has(e.instancePath)) message = `must be one of: ${allowed.get(e.instancePath)!.join(', ')}`;
    else if (e.keyword === 'required') {
      parts.push(e.params.missingProperty as string);
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      parts.push(e.params.additionalProperty as string);
      message = 'is not a key of the model format';
    } else if (e.keyword === 'pattern') message = `"${String(src.doc.getIn(parts))}" must match ${e.params.pattern}`;
    else message = e.message ?? 'is invalid';
    const key = `${formatPath(parts)}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issueAt(src, parts, message));
  }
  // A union that failed as a whole also reports each branch; when one branch says more, keep that.
  return out.filter((i) => !(i.message === 'must match a schema in anyOf' && out.some((o) => o !== i && o.path.startsWith(i.path))));
}

/** Parses one file's text; YAML syntax and schema problems are returned, never thrown. */
export function parseModelText(file: string, text: string): { source?: ModelSource; issues: ModelIssue[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      issues: doc.errors.map((e) => ({ severity: 'error' as const, file, line: e.linePos?.[0]?.line, path: '', message: e.message.split('\n')[0] })),
    };
  }
  const data = (doc.toJS() ?? {}) as ModelFile;
  const source: ModelSource = { file, data, doc, lines };
  if (typeof data !== 'object' || Array.isArray(data)) return { issues: [issueAt(source, [], 'must be a mapping with cubes: and insights:')] };
  if (!validateFile(data)) {
    const errors = validateFile.errors ?? [];
    // Entries of the right shape are still cross-checked, so one run lists every problem; a
    // file whose top level is wrong is not.
    const skip = { cubes: new Set<number>(), insights: new Set<number>() };
    let whole = false;
    for (const e of errors) {
      const [section, index] = pointerParts(e.instancePath);
      if ((section === 'cubes' || section === 'insights') && typeof index === 'number') skip[section].add(index);
      else whole = true;
    }
    return { source: whole ? undefined : { ...source, skip }, issues: schemaIssues(source, errors) };
  }
  return { source, issues: [] };
}

/** Reads and schema-checks every file of a model path. */
export function readModelSources(target: string): { sources: ModelSource[]; issues: ModelIssue[] } {
  const sources: ModelSource[] = [];
  const issues: ModelIssue[] = [];
  for (const file of modelFiles(target)) {
    const r = parseModelText(file, fs.readFileSync(file, 'utf8'));
    issues.push(...r.issues);
    if (r.source) sources.push(r.source);
  }
  return { sources, issues };
}
