// The rule for failed authentications (docs/security.md): failures count against the client's
// address and against the credential presented; successes never count, and a valid credential
// always passes. Over its limit, a credential is answered 429 for the rest of the minute without
// being looked at again; an address over its limit still has every credential looked at, and only
// the refusals become 429s. The API's tokens and the embed tokens both authenticate under it.
import crypto from 'node:crypto';
import { AppError } from '../lib/errors.ts';
import type { FixedWindowCounter } from '../lib/fixed-window.ts';

/** What a request presents: the client's address and the credential of its Authorization header. */
export interface Presented {
  ip: string;
  /** The Authorization header's value; undefined when there is none. */
  authorization: string | undefined;
}

// The credential's key is its token68 part (so `svc x` and `Svc  x` are one credential), hashed:
// the counters hold no secret.
function credentialKey(authorization: string): string {
  const credential = / +([A-Za-z0-9._~+/-]+=*)$/.exec(authorization)?.[1] ?? authorization;
  return `credential:${crypto.createHash('sha256').update(credential).digest('base64url')}`;
}

function limited(failures: FixedWindowCounter, retry: number, whose: string): AppError {
  return new AppError('RATE_LIMITED', `Too many failed authentications ${whose} (${failures.perMinute} per minute); retry in ${retry} s.`, {
    headers: { 'Retry-After': String(retry) },
  });
}

export async function underFailureLimit<T>(failures: FixedWindowCounter, presented: Presented, authenticate: () => Promise<T>): Promise<T> {
  const credential = presented.authorization ? credentialKey(presented.authorization) : undefined;
  // A credential refused this often in this minute is not valid: it is not looked at again.
  const credentialRetry = credential === undefined ? undefined : failures.exhausted(credential);
  if (credentialRetry !== undefined) throw limited(failures, credentialRetry, 'with this credential');
  try {
    return await authenticate();
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'UNAUTHENTICATED')) throw err;
    const address = `ip:${presented.ip}`;
    const addressRetry = failures.exhausted(address);
    failures.add(address);
    if (credential !== undefined) failures.add(credential);
    if (addressRetry !== undefined) throw limited(failures, addressRetry, 'from your address');
    throw err;
  }
}
