// PostgreSQL text cannot hold U+0000, and no field of this API has a use for it: a NUL anywhere in
// the path parameters, the query or the body is refused at the edge with a 400 naming the field,
// before validation, services or SQL see it. (Header-derived values — JWT claims — are checked by
// the JWT verifier.)
import type { FastifyInstance } from 'fastify';
import { AppError, type FieldError } from '../lib/errors.ts';

const NUL = '\u0000';
const MAX_REPORTED = 20;

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1').replace(/\u0000/g, '\\u0000');
}

/** Collects the JSON-Pointer paths of strings (values or keys) that contain NUL. */
export function findNul(value: unknown, path: string, out: FieldError[] = []): FieldError[] {
  if (out.length >= MAX_REPORTED) return out;
  if (typeof value === 'string') {
    if (value.includes(NUL)) out.push({ path, message: 'must not contain a NUL character' });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => findNul(v, `${path}/${i}`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const child = `${path}/${escapePointer(k)}`;
      if (k.includes(NUL)) out.push({ path: child, message: 'has a NUL character in its name' });
      findNul(v, child, out);
    }
  }
  return out;
}

export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const errors = [...findNul(req.params, '/params'), ...findNul(req.query, '/query'), ...findNul(req.body, '/body')];
    if (errors.length === 0) return;
    const detail = errors.map((e) => `${e.path.replace(/^\/(body|query|params)\/?/, '') || e.path.slice(1)}: ${e.message}`).join('; ');
    throw new AppError('VALIDATION_FAILED', detail, { errors });
  });
}
