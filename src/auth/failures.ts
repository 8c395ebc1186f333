// The rule for failed authentications (docs/security.md): an address whose authentications keep
// failing is answered 429 for the rest of the minute without its credentials being looked at, and
// each refusal counts against it. The API's tokens and the embed tokens both authenticate under it.
import { AppError } from '../lib/errors.ts';
import type { FixedWindowCounter } from '../lib/fixed-window.ts';

export async function underFailureLimit<T>(failures: FixedWindowCounter, ip: string, authenticate: () => Promise<T>): Promise<T> {
  const address = `ip:${ip}`;
  const retry = failures.exhausted(address);
  if (retry !== undefined) {
    throw new AppError(
      'RATE_LIMITED',
      `Too many failed authentications from your address (${failures.perMinute} per minute); retry in ${retry} s.`,
      { headers: { 'Retry-After': String(retry) } },
    );
  }
  try {
    return await authenticate();
  } catch (err) {
    if (err instanceof AppError && err.code === 'UNAUTHENTICATED') failures.add(address);
    throw err;
  }
}
