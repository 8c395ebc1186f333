#!/usr/bin/env node
// The published entry point: TypeScript runs through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli.ts');
