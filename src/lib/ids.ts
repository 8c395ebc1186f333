import { v7 } from 'uuid';

/** Opaque, time-ordered ids (UUIDv7): newest-first lists can page on them. */
export const newId = (): string => v7();

/**
 * The one shape of every id this service hands out (what newId() makes: lowercase UUIDv7). Path
 * parameters are checked against it at the edge, so a malformed id never reaches a query.
 */
export const ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';
