// `insights serve` (what npm start runs) and `insights migrate`.
import { openRuntime } from '../runtime.ts';
import type { Command } from './args.ts';

export const serve: Command = async (config) => {
  const { serve } = await import('../server.ts');
  await serve(config);
};

export const migrate: Command = async (config) => {
  const runtime = await openRuntime(config);
  await runtime.close();
  console.log('Migrations applied.');
};
