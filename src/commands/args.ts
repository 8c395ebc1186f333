// Argument helpers shared by the `insights` sub-commands (src/commands/).
import { parseArgs } from 'node:util';
import type { Config } from '../config/index.ts';

export class UsageError extends Error {}

export type Command = (config: Config, args: string[]) => Promise<void>;

/** Parses --name value options; every option of our commands takes a value. */
export function options(args: string[], names: string[]): { values: Record<string, string | undefined>; positionals: string[] } {
  const spec = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
  try {
    const { values, positionals } = parseArgs({ args, options: spec, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | undefined>, positionals };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function need(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v.trim();
}
