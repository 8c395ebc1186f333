// API tokens verified recently, by the SHA-256 of the token: a cached request then costs a hash and
// a Map lookup instead of a query (on PGlite, a trip through its single connection, which also
// serialized every other query behind it). Revocation stays immediate: every change to api_tokens
// is announced by a trigger (migration 040) and empties the cache, in this process and on every
// instance sharing the PostgreSQL database; while that announcement cannot be heard (the listening
// connection is lost), nothing is cached or answered from the cache (src/db/change-cache.ts).
// docs/performance.md.
import type { AuthContext } from '../../auth/context.ts';
import { ChangeCache } from '../../db/change-cache.ts';

/** Entries live at most 60 s (a backstop only), at most 10,000 are kept. */
export class VerifiedTokens extends ChangeCache<AuthContext> {
  constructor() {
    super(60_000, 10_000);
  }
}
