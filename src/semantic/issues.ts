// What model checks report: a problem (or warning) with its file, line and path, and the nodes a
// shape problem leaves out of the later checks. Shared by the loader, the shape check, the cube and
// insight checks and the warehouse probe.
import { isMap, isScalar, type Document, type LineCounter } from 'yaml';
import type { ModelFile } from './model.schema.ts';

export type PathPart = string | number;

export interface ModelIssue {
  severity: 'error' | 'warning';
  file: string;
  line?: number;
  /** `cubes[2].measures[0].sql` */
  path: string;
  message: string;
  /**
   * What a reference problem names (`orders`, `orders.revenue`, `joins` for reachability): it is
   * left out when that node is itself malformed and already reported. Never printed.
   */
  ref?: string;
}

/** One parsed file: its data and what is needed to find the line of any path in it. */
export interface ModelSource {
  file: string;
  data: ModelFile;
  doc: Document;
  lines: LineCounter;
  /** What the shape check found wrong, so the cross-checks run on the rest (shape.ts). */
  damage?: Damage;
}

/**
 * Nodes left out of the cross-checks because their shape is wrong (each is reported once, by the
 * schema check). The rest of the model is still cross-checked in the same run.
 */
export interface Damage {
  /** References not to report as missing: `cube`, `cube.member`, `cube.*`, `*` (any cube), `joins`. */
  refs: Set<string>;
  /** Paths whose cross-check problems (there and below) would only repeat a shape problem; `cubes[0]=`: that node only. */
  paths: Set<string>;
  /** Insights of the wrong shape, by index: their wrong keys (`*`: the entry itself). */
  insights: Map<number, Set<string>>;
}

export const noDamage = (): Damage => ({ refs: new Set(), paths: new Set(), insights: new Map() });

export class ModelError extends Error {
  constructor(readonly issues: ModelIssue[]) {
    const errors = issues.filter((i) => i.severity === 'error');
    super(`The model is invalid (${errors.length} problem${errors.length === 1 ? '' : 's'}):\n${errors.map(formatIssue).join('\n')}`);
  }
}

export function formatPath(parts: readonly PathPart[]): string {
  return parts.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export function formatIssue(i: ModelIssue): string {
  return `  ${i.file}${i.line ? `:${i.line}` : ''}  ${i.path ? `${i.path}: ` : ''}${i.message}`;
}

/** The issue at `parts` of a source, with the line of the nearest node that exists. */
export function issueAt(
  src: ModelSource,
  parts: readonly PathPart[],
  message: string,
  severity: ModelIssue['severity'] = 'error',
  ref?: string,
): ModelIssue {
  let line: number | undefined;
  for (let n = parts.length; n >= 0 && line === undefined; n--) {
    let node = n === 0 ? src.doc.contents : src.doc.getIn(parts.slice(0, n), true);
    // A key's own line: a block value (a list under `insights:`) starts on the next one.
    const key = parts[n - 1];
    if (n > 0 && typeof key === 'string') {
      const parent = n === 1 ? src.doc.contents : src.doc.getIn(parts.slice(0, n - 1), true);
      const pair = isMap(parent) ? parent.items.find((i) => isScalar(i.key) && i.key.value === key) : undefined;
      if (pair) node = pair.key as typeof node;
    }
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) line = src.lines.linePos(range[0]).line;
  }
  return { severity, file: src.file, line, path: formatPath(parts), message, ...(ref ? { ref } : {}) };
}
