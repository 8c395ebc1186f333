import { v7 } from 'uuid';

/** Opaque, time-ordered ids (UUIDv7): newest-first lists can page on them. */
export const newId = (): string => v7();
