// Headless Chromium for the web app's tests and benchmark: Debian's package (no browser download),
// driven by playwright-core.
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

/**
 * Collects console errors and uncaught exceptions of a page. An expected failed request (a wrong
 * token on purpose) is forgiven by pattern; anything else fails assertNone().
 */
export function watchConsole(page: Page): { forgive(pattern: RegExp): void; assertNone(): void } {
  const errors: string[] = [];
  const forgiven: RegExp[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  return {
    forgive: (pattern) => forgiven.push(pattern),
    assertNone: () => {
      const left = errors.filter((e) => !forgiven.some((p) => p.test(e)));
      if (left.length) throw new Error(`console errors:\n${left.join('\n')}`);
    },
  };
}

/** The owner token a fresh server prints on its first start (after it starts listening). */
export async function firstOwnerToken(server: { output(): string }, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const m = /First start: an owner token[^\n]*\n\n\s+(\S+)/.exec(server.output());
    if (m) return m[1];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no first-start token in the server's output:\n${server.output()}`);
}
