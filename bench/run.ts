// npm run bench -- <name>: runs bench/<name>.ts, whose run() prints its table.
const BENCHES = [
  'insights',
  'query',
  'time',
  'traffic',
  'deliveries',
  'chat',
  'charts',
  'memory',
  'load',
  'reports',
  'web',
  'clickhouse',
  'embed',
  'anomalies',
  'cached',
];

const name = process.argv[2];
if (!name || !BENCHES.includes(name)) {
  process.stderr.write(`Usage: npm run bench -- <${BENCHES.join('|')}>\n`);
  process.exit(2);
}
const mod = (await import(`./${name}.ts`)) as { run(args: string[]): Promise<void> };
await mod.run(process.argv.slice(3));
process.exit(0);
