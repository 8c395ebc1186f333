// `insights migrate`: the system of record's migrations, applied and nothing else.
import { openRuntime } from '../runtime.ts';
import type { Command } from './args.ts';

export const migrate: Command = async (config) => {
  const runtime = await openRuntime(config);
  await runtime.close();
  console.log('Migrations applied.');
};
