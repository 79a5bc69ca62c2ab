import { randomUUID } from 'node:crypto';

/** Random, unguessable ids: an id never reveals how many objects another tenant has. */
export const newId = (): string => randomUUID();

export const toIso = (ms: number): string => new Date(ms).toISOString();
export const toIsoOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());
