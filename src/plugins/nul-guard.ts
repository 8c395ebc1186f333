// PostgreSQL text cannot hold U+0000, and no field of this API has a use for it: a NUL anywhere in
// the path parameters, the query or the body is refused at the edge with a 400 naming the field,
// before validation, services or SQL see it. (Header-derived values — JWT claims — are checked by
// the JWT verifier.)
//
// The same walk bounds nesting: JSON.parse accepts 100 000 nested brackets, but any recursive walk
// after it (ours, a serializer, a service) would overflow the stack on them, a 500. No body of
// this API nests anywhere near MAX_BODY_DEPTH, so deeper ones are refused here, and the walk
// itself keeps its own stack so that no input can overflow it.
import type { FastifyInstance } from 'fastify';
import { AppError, type FieldError } from '../lib/errors.ts';

const NUL = '\u0000';
const MAX_REPORTED = 20;
/** Containers (objects and arrays) inside one another, the outermost counting as 1. */
export const MAX_BODY_DEPTH = 64;

function escapePointer(key: string): string {
  return key
    .replace(/~/g, '~0')
    .replace(/\//g, '~1')
    .replace(/\u0000/g, '\\u0000');
}

/** A value still to visit, with what it takes to name it should it hold a NUL. */
interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
  depth: number;
  /** The object member's name holds a NUL. */
  nulName?: boolean;
}

function pointer(visit: Visit): string {
  const keys: string[] = [];
  for (let v: Visit | undefined = visit; v; v = v.parent) keys.push(v.key);
  return keys.reverse().join('/');
}

/**
 * Collects the JSON-Pointer paths of strings (values or keys) that contain NUL, in document order.
 * Throws BODY_TOO_DEEP when containers nest deeper than maxDepth.
 */
export function findNul(value: unknown, path: string, out: FieldError[] = [], maxDepth = MAX_BODY_DEPTH): FieldError[] {
  const stack: Visit[] = [{ value, key: path, parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (visit.nulName && out.length < MAX_REPORTED) out.push({ path: pointer(visit), message: 'has a NUL character in its name' });
    const v = visit.value;
    if (typeof v === 'string') {
      if (out.length < MAX_REPORTED && v.includes(NUL)) out.push({ path: pointer(visit), message: 'must not contain a NUL character' });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const depth = visit.depth + 1;
    if (depth > maxDepth) {
      const where = path.replace(/^\//, '');
      throw new AppError('BODY_TOO_DEEP', `The ${where} nests objects and arrays more than ${maxDepth} levels deep.`, {
        errors: [{ path, message: `nests more than ${maxDepth} levels deep` }],
      });
    }
    // Pushed last to first, so that they are visited (and reported) in document order.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), parent: visit, depth });
    } else {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i];
        stack.push({ value: child, key: escapePointer(k), parent: visit, depth, nulName: k.includes(NUL) });
      }
    }
  }
  return out;
}

const URL_MAY_HOLD_NUL = /%00|\u0000/;

export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    // Path parameters and the query come from the URL, where a NUL can only arrive raw or as %00:
    // without either, only the body needs the walk (a cached answer's hot path, docs/performance.md).
    const fromUrl = URL_MAY_HOLD_NUL.test(req.url) ? [...findNul(req.params, '/params'), ...findNul(req.query, '/query')] : [];
    const errors = req.body === undefined ? fromUrl : [...fromUrl, ...findNul(req.body, '/body')];
    if (errors.length === 0) return;
    const detail = errors.map((e) => `${e.path.replace(/^\/(body|query|params)\/?/, '') || e.path.slice(1)}: ${e.message}`).join('; ');
    throw new AppError('VALIDATION_FAILED', detail, { errors });
  });
}
