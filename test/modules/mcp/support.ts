// Shared by the MCP tests: the SDK's own client on either transport, and the checks every result
// must pass (structured content with rows, a summary whose numbers are cells of those rows).
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type Row = Record<string, string | number | boolean | null>;

export async function connectHttp(url: string, authorization?: string): Promise<Client> {
  const client = new Client({ name: 'insights-test', version: '1.0.0' });
  const headers: Record<string, string> = authorization ? { authorization } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/v1/mcp', url), { requestInit: { headers } }));
  // Listing first makes the client check every later structuredContent against the tool's outputSchema.
  await client.listTools();
  return client;
}

/** A successful call's structured content (the client has checked it against the outputSchema). */
export async function callOk<T = any>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ data: T; summary: string; result: CallToolResult }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const summary = (result.content[0] as { text: string }).text;
  assert.ok(!result.isError, `${name} failed: ${summary}`);
  assert.ok(result.structuredContent, `${name} has structured content`);
  // The second block is the same content as JSON, for clients that read text only.
  assert.deepEqual(JSON.parse((result.content[1] as { text: string }).text), result.structuredContent);
  return { data: result.structuredContent as T, summary, result };
}

/** A tool error (isError), never a transport or protocol error: its text. */
export async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(result.isError, true, `${name} should have failed: ${JSON.stringify(result.content)}`);
  assert.equal(result.structuredContent, undefined);
  return (result.content[0] as { text: string }).text;
}

/**
 * Every number and ISO date the summary states is a cell of the rows, as written there. Names of
 * things (insight names, labels, titles, filter values) are taken out first: they are not figures.
 */
export function assertSummaryFromRows(summary: string, rows: Row[], names: string[] = []): void {
  const cells = rows.flatMap((r) => Object.values(r));
  // The rows' own names (products, countries) may hold digits ("Keyboard 100"); they are not figures.
  const rowNames = cells.filter((c): c is string => typeof c === 'string' && !/^\d{4}-\d{2}-\d{2}$/.test(c));
  let text = summary;
  for (const n of [...names, ...rowNames].sort((a, b) => b.length - a.length)) if (n) text = text.split(n).join(' ');
  const dates = new Set(cells.filter((c): c is string => typeof c === 'string'));
  const numbers = cells.filter((c): c is number => typeof c === 'number');
  let found = 0;
  for (const d of text.match(/\d{4}-\d{2}-\d{2}/g) ?? []) {
    assert.ok(dates.has(d), `the date ${d} of "${summary}" is a cell of the rows`);
    found++;
  }
  for (const m of text.replace(/\d{4}-\d{2}-\d{2}/g, ' ').match(/-?\d+(?:\.\d+)?/g) ?? []) {
    assert.ok(numbers.includes(Number(m)), `the number ${m} of "${summary}" is a cell of the rows`);
    found++;
  }
  if (rows.length) assert.ok(found > 0, `the summary states figures of the rows: "${summary}"`);
}

/** The first day of the quarter a YYYY-MM-DD date falls in. */
export function quarterStart(day: string): string {
  const month = Number(day.slice(5, 7));
  return `${day.slice(0, 4)}-${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
}
