// Headless Chromium for the web app's tests and benchmark: Debian's package (no browser download),
// driven by playwright-core.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { EMBEDDED_ONLY, ROOT, migratedDataDir, seedTinyWarehouse, startServer, type RunningServer } from './process.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** How long a page's waits (a locator, waitForFunction) may take: the suite runs three files at a time. */
export const PAGE_TIMEOUT_MS = 60_000;

export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  // Playwright's own 30 s is too short on two busy cores: every context gets a minute, well inside
  // the tests' own time limits (90 s and more).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    return context;
  };
  return browser;
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

/**
 * Signs the page in with `token` on the sign-in form and waits until the app has landed (the starter
 * dashboard or the list): the sign-in page has a heading of its own, so "any h1" is not yet signed in,
 * and navigating before the landing loses the tab's session.
 */
export async function signInPage(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url + '/');
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: /^(Dashboards|Start here)$/ }).waitFor();
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

/**
 * Builds web/dist when it is missing or older than the embedded pages' entry (a build without the
 * manifest that src/plugins/embed-pages.ts reads).
 */
export function ensureWebBuilt(): void {
  const dist = path.join(ROOT, 'web/dist');
  if (fs.existsSync(path.join(dist, 'index.html')) && fs.existsSync(path.join(dist, '.vite/manifest.json'))) return;
  execFileSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
}

/** Why the browser tests skip: Chromium is not installed (false when it is). */
export const CHROMIUM_MISSING = fs.existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (apt-get install chromium; .ci/run does)`;

/**
 * The skip option of a webApp() file: Chromium is missing, or DATABASE_URL is set (its server is a
 * child process on the embedded database, so the PostgreSQL pass would run it unchanged: EMBEDDED_ONLY).
 */
export const WEB_APP_SKIP: string | false = CHROMIUM_MISSING || EMBEDDED_ONLY;

/** The real service on a fresh data dir with the tiny demo warehouse, its first owner's token, and Chromium. */
export interface WebApp {
  server: RunningServer | undefined;
  browser: Browser | undefined;
  token: string;
  /** A JSON call to /api/v1 as the owner (or `auth`); throws on any status but 2xx. */
  api<T = any>(method: string, p: string, body?: unknown, auth?: string): Promise<T>;
}

/**
 * One browser test file's set-up: registers the before hook (web/dist built when missing, the
 * server started, the token read, Chromium launched) and the after hook that stops both. Nothing
 * starts when the tests skip (WEB_APP_SKIP). `ready` runs last, with
 * everything up (a file's own seed: one hook, so it cannot run before the server is there).
 */
export function webApp(dataDirPrefix: string, ready?: () => Promise<void>): WebApp {
  const web: WebApp = {
    server: undefined,
    browser: undefined,
    token: '',
    async api<T = any>(method: string, p: string, body?: unknown, auth = web.token): Promise<T> {
      const res = await fetch(web.server!.url + '/api/v1' + p, {
        method,
        headers: { Authorization: `Svc ${auth}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
      return (res.status === 204 ? undefined : await res.json()) as T;
    },
  };
  before(async () => {
    if (WEB_APP_SKIP) return;
    ensureWebBuilt();
    const dir = await migratedDataDir(dataDirPrefix);
    await seedTinyWarehouse(dir);
    web.server = await startServer(dir);
    web.token = await firstOwnerToken(web.server);
    web.browser = await launchChromium();
    await ready?.();
  });
  after(async () => {
    await web.browser?.close();
    if (web.server) {
      web.server.child.kill('SIGTERM');
      await web.server.exited;
    }
  });
  return web;
}

/** SCREENSHOTS=/some/dir: pictures of the page at 1280 and 375 px, light and dark (nothing when unset). */
export async function snapAll(page: Page, name: string): Promise<void> {
  const shots = process.env.SCREENSHOTS;
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(shots, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}
