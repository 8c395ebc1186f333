// The shape check of one model file: the JSON Schema of the format (Ajv, every error at once) in
// words a person who wrote the file by hand can act on, and the file with each malformed node left
// out, so the cross-checks (cubes.ts, resolve.ts) still run on everything else in the same pass.
import { Ajv, type ErrorObject } from 'ajv';
import type { Document, YAMLError } from 'yaml';
import { formatPath, issueAt, noDamage, type Damage, type ModelIssue, type ModelSource, type PathPart } from './issues.ts';
import { CubeSchema, ModelFileSchema, type ModelFile } from './model.schema.ts';

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const validateFile = ajv.compile(ModelFileSchema);

function pointerParts(pointer: string): PathPart[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** Edit distance, for "did you mean" (a handful of short words: no library needed). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** ` (did you mean x?)` for a near miss among the allowed words, else nothing. */
export function didYouMean(value: unknown, allowed: readonly string[]): string {
  if (typeof value !== 'string' || !value) return '';
  const v = value.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const a of allowed) {
    const d = a.startsWith(v) || v.startsWith(a) ? Math.abs(a.length - v.length) / 2 : distance(v, a);
    if (d < bestD) [best, bestD] = [a, d];
  }
  const allowedD = v.length <= 4 ? 1 : v.length <= 8 ? 2 : 3;
  return best !== undefined && bestD <= allowedD && best !== value ? ` (did you mean ${best}?)` : '';
}

const TYPE_WORDS: Record<string, string> = {
  array: 'a list (lines starting with "- ", or [a, b])',
  object: 'a mapping (key: value lines)',
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
};

const PATTERN_WORDS: Record<string, (v: string) => string> = {
  '^[a-z_][a-z0-9_]*$': (v) => `"${v}" is not a name of lower-case letters, digits and _ (such as ${snake(v)})`,
  '^[a-z_][a-z0-9_]*\\.[a-z_][a-z0-9_]*$': (v) =>
    v.includes('.')
      ? `"${v}" must be cube.member in lower case (such as ${v.split('.').map(snake).join('.')})`
      : `"${v}" must name its cube too: cube.${snake(v)}`,
  '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?$': (v) =>
    `"${v}" is not a table name (letters, digits and _, optionally schema.table)`,
  '^[A-Za-z_][A-Za-z0-9_]*$': (v) => `"${v}" is not a column name of letters, digits and _`,
};

function snake(v: string): string {
  const s = v
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z_]/.test(s) ? s : `_${s}`;
}

const TOP_KEYS = Object.keys(ModelFileSchema.properties);
const CUBE_KEYS = Object.keys(CubeSchema.properties);

/** A key of an outer level indented too deep: where it belongs. */
function misplaced(key: string, depth: number): string | undefined {
  if (depth > 1 && TOP_KEYS.includes(key)) return ` here: ${key}: belongs at the top level of the file, not indented`;
  if (depth > 3 && CUBE_KEYS.includes(key)) return ` here: ${key}: belongs to the cube, indented like its name:`;
  return undefined;
}

/** Ajv's errors as one message per place: a union of literals reads "must be one of: …". */
function schemaIssues(src: ModelSource, errors: ErrorObject[]): ModelIssue[] {
  const allowed = new Map<string, string[]>();
  for (const e of errors)
    if (e.keyword === 'const') allowed.set(e.instancePath, [...(allowed.get(e.instancePath) ?? []), String(e.params.allowedValue)]);
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const out: ModelIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const parts = pointerParts(e.instancePath);
    const value = src.doc.getIn(parts);
    let message: string;
    if (e.keyword === 'const') {
      // A literal of a union is reported once, by the union; a lone literal here.
      if (unions.has(e.instancePath)) continue;
      message = `must be ${String(e.params.allowedValue)}${value === undefined ? '' : `, not "${String(value)}"`}`;
      if (parts.at(-1) === 'relationship') message += ': declare the join on the cube of the many side (orders joins customers)';
    } else if (e.keyword === 'anyOf' && allowed.has(e.instancePath)) {
      const words = allowed.get(e.instancePath)!;
      message = `must be one of: ${words.join(', ')}${typeof value === 'string' ? `, not "${value}"${didYouMean(value, words)}` : ''}`;
    } else if (e.keyword === 'required') {
      parts.push(e.params.missingProperty as string);
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      const key = e.params.additionalProperty as string;
      parts.push(key);
      const keys = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const hint = misplaced(key, parts.length) ?? didYouMean(key, keys);
      message = `is not a key of the model format${hint || (keys.length ? ` here (the keys are: ${keys.join(', ')})` : '')}`;
    } else if (e.keyword === 'pattern') {
      const words = PATTERN_WORDS[e.params.pattern as string];
      message = words ? words(String(value)) : `"${String(value)}" must match ${e.params.pattern}`;
    } else if (e.keyword === 'type') {
      message = `must be ${TYPE_WORDS[e.params.type as string] ?? e.params.type}`;
    } else if (e.keyword === 'minItems' && e.params.limit === 1) message = 'must not be empty';
    else if (e.keyword === 'minLength' && e.params.limit === 1) message = 'must not be empty';
    else if (e.keyword === 'minProperties') message = 'must give at least one language (en, de, fr, es)';
    else message = e.message ?? 'is invalid';
    const key = `${formatPath(parts)}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issueAt(src, parts, message));
  }
  // A union that failed as a whole also reports each branch; when one branch says more, keep that.
  return out.filter((i) => !(i.message === 'must match a schema in anyOf' && out.some((o) => o !== i && o.path.startsWith(i.path))));
}

const MEMBER_LISTS = new Set(['measures', 'dimensions', 'segments', 'joins', 'pre_aggregations']);

type Loose = Record<string, unknown>;
const isMap = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const holdsNodes = (v: unknown) => Array.isArray(v) || isMap(v);

/**
 * The file without its malformed nodes: a malformed measure, dimension, segment, join or rollup
 * is left out of its cube (its index kept, as a hole, so later paths stay true), a cube whose name
 * is wrong is left out, a wrong scalar of a cube is dropped (a missing tenant column gets a stand-in).
 * References to what was left out are not reported again as missing (Damage.refs).
 */
function prune(data: ModelFile, errors: ErrorObject[]): { pruned: ModelFile; damage: Damage } {
  const damage = noDamage();
  const pruned = structuredClone(data) as Loose;
  const cubes = (data as Loose).cubes;
  const rawCubes = Array.isArray(cubes) ? (cubes as unknown[]) : [];
  for (const e of errors) {
    const at = pointerParts(e.instancePath);
    const key =
      e.keyword === 'required' ? e.params.missingProperty : e.keyword === 'additionalProperties' ? e.params.additionalProperty : undefined;
    const parts: PathPart[] = key === undefined ? at : [...at, key];
    const [section, index, field, member] = parts;
    if (section !== 'cubes' && section !== 'insights') {
      // An unknown top-level key (cube:, a misplaced measures:) may hold the cubes meant.
      if (typeof section === 'string') {
        if (holdsNodes(pruned[section])) damage.refs.add('*');
        delete pruned[section];
      }
      continue;
    }
    if (typeof index !== 'number') {
      pruned[section] = [];
      if (section === 'cubes') damage.refs.add('*');
      continue;
    }
    if (section === 'insights') {
      const keys = damage.insights.get(index) ?? new Set<string>();
      keys.add(field === undefined ? '*' : String(field));
      damage.insights.set(index, keys);
      continue;
    }
    const raw = rawCubes[index];
    const name = isMap(raw) && typeof raw.name === 'string' ? raw.name : undefined;
    const cube = (pruned.cubes as Loose[])[index];
    if (!isMap(cube)) continue;
    if (field === undefined || field === 'name' || name === undefined) {
      delete (pruned.cubes as Loose[])[index];
      for (const n of name === undefined ? ['*'] : [name, snake(name)]) damage.refs.add(n);
      continue;
    }
    const path = formatPath(['cubes', index, field]);
    if (MEMBER_LISTS.has(String(field))) {
      const list = cube[field as string];
      const entry = Array.isArray((raw as Loose)[field as string])
        ? ((raw as Loose)[field as string] as unknown[])[member as number]
        : undefined;
      if (typeof member === 'number' && Array.isArray(list)) delete list[member];
      else delete cube[field as string];
      if (field === 'joins') damage.refs.add('joins');
      else if (field !== 'pre_aggregations') {
        if (typeof member === 'number' && isMap(entry) && typeof entry.name === 'string')
          damage.refs.add(`${name}.${entry.name}`).add(`${name}.${snake(entry.name)}`);
        else damage.refs.add(`${name}.*`);
      }
      continue;
    }
    if (e.keyword === 'additionalProperties') {
      // A misspelt key (dimension:, measure:, join:) may hold members that references name.
      if (holdsNodes(cube[field as string])) damage.refs.add(`${name}.*`).add('joins');
      delete cube[field as string];
    } else if (field === 'tenant_column') {
      cube.tenant_column = 'tenant_id';
      damage.paths.add(path);
    } else {
      delete cube[field as string];
      damage.paths.add(path);
      // Without its source, "needs exactly one of sql_table and sql" would only repeat this.
      if (field === 'sql_table' || field === 'sql') damage.paths.add(`${formatPath(['cubes', index])}=`);
    }
  }
  return { pruned: pruned as ModelFile, damage };
}

/** The schema's problems of one file, and the file with the malformed nodes left out. */
export function checkShape(src: ModelSource): { issues: ModelIssue[]; pruned: ModelFile; damage?: Damage } {
  if (validateFile(src.data)) return { issues: [], pruned: src.data };
  const errors = validateFile.errors ?? [];
  return { issues: schemaIssues(src, errors), ...prune(src.data, errors) };
}

const INDENT = 'keys of one mapping start in the same column, and list items ("- ") one step under their key';
const YAML_HINTS: Partial<Record<YAMLError['code'], string>> = {
  BAD_INDENT: `check the indentation: ${INDENT}`,
  MISSING_CHAR:
    'check the indentation and the colons: a key is followed by ": ", and a line indented like the keys of a list item belongs to it',
  MULTILINE_IMPLICIT_KEY: `a line below is indented deeper than this key's mapping: ${INDENT}`,
  BLOCK_AS_IMPLICIT_KEY: `a line below is indented deeper than this key's mapping: ${INDENT}`,
  DUPLICATE_KEY: 'a key appears twice in one mapping',
  TAB_AS_INDENT: 'indent with spaces, not tabs',
  UNEXPECTED_TOKEN: 'check the indentation and the quoting of this line (quote text holding ": " or starting with {, [, *, &, !)',
};

/** A YAML syntax error as one line, with what to look at when the parser's words are cryptic. */
export function yamlMessage(e: YAMLError): string {
  const first = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const hint = YAML_HINTS[e.code];
  return hint ? `${first} (${hint})` : first;
}

/** The cube names a file that failed to parse seems to declare (best effort, to silence echoes). */
export function cubeNamesOf(doc: Document): Set<string> {
  const names = new Set<string>();
  try {
    const data = doc.toJS() as { cubes?: unknown };
    if (!Array.isArray(data?.cubes)) return new Set(['*']);
    for (const c of data.cubes) if (isMap(c) && typeof c.name === 'string') names.add(c.name);
    return names.size ? names : new Set(['*']);
  } catch {
    return new Set(['*']);
  }
}
