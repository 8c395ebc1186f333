// The HTTP side shared by the messenger and webhook transports: every call goes through the
// egress guard, and every failure becomes a DeliveryError that says whether a retry can help.
import { EgressError, EgressRefused, EgressTooLarge, type EgressGuard, type EgressResponse } from '../egress.ts';
import { DeliveryError } from './types.ts';

export type HttpClient = Pick<EgressGuard, 'request'>;

/** Network trouble and timeouts may pass; a refused address or an oversized answer will not. */
export function fromEgressError(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  if (err instanceof EgressRefused) return new DeliveryError(`Refused: ${err.message}`, { retryable: false, cause: err });
  if (err instanceof EgressTooLarge) return new DeliveryError(err.message, { retryable: false, cause: err });
  if (err instanceof EgressError) return new DeliveryError(err.message, { retryable: true, cause: err });
  return new DeliveryError(`Request failed: ${(err as Error)?.message ?? String(err)}`, { retryable: true, cause: err });
}

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(res: EgressResponse, now = Date.now()): number | undefined {
  const value = res.headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  // An HTTP-date names its day and month; Date.parse would also read "1.5" or "-1" as some date.
  if (!/[a-z]{3}/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A short, single-line excerpt of an upstream answer, safe to store in the delivery log. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** 2xx → undefined; otherwise the DeliveryError for an HTTP status (3xx never followed). */
export function statusError(res: EgressResponse, what: string): DeliveryError | undefined {
  const s = res.status;
  if (s >= 200 && s < 300) return undefined;
  const body = excerpt(res.text());
  const suffix = body ? `: ${body}` : '';
  if (s >= 300 && s < 400) {
    const to = res.headers.get('location');
    return new DeliveryError(`${what} answered ${s} (redirect${to ? ` to ${excerpt(to, 120)}` : ''}); redirects are not followed`, {
      retryable: false,
    });
  }
  if (s === 408 || s === 429) {
    return new DeliveryError(`${what} answered ${s}${suffix}`, { retryable: true, retryAfterMs: retryAfterMs(res) });
  }
  if (s >= 500) return new DeliveryError(`${what} answered ${s}${suffix}`, { retryable: true, retryAfterMs: retryAfterMs(res) });
  return new DeliveryError(`${what} answered ${s}${suffix}`, { retryable: false });
}
