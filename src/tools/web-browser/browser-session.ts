/**
 * One headless Chromium per session, driven with playwright-core: launched on the first WebBrowser
 * call (Debian's `chromium` at `/usr/bin/chromium` unless configured otherwise; Playwright's own
 * browser downloads are never used), one browser context (no service workers, no downloads, every
 * request through `network.ts`) and one page. Registered as the session resource `web-browser`, so
 * the session's `dispose()` closes the page, the context and the browser process. Its profile,
 * artifacts and temp files live in one directory per session (browser-temp.ts), removed when the
 * browser closes, at process exit, or — after a SIGKILL — by the next launch's sweep.
 */
import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { AbortError, ToolExecutionError } from '../../core/index.js';
import { type BrowserDirs, makeBrowserDirs, sweepStaleBrowserDirs } from './browser-temp.js';
import { BrowserNetwork, type BrowserNetworkOptions, type NavigationEvent } from './network.js';

/** Where Debian's `chromium` package installs the browser. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
/** Name of the session resource. */
export const BROWSER_RESOURCE = 'web-browser';
/** Viewport of the page, CSS pixels. */
export const VIEWPORT = { width: 1280, height: 800 } as const;
/** How long one navigation or action may take, ms. */
export const ACTION_TIMEOUT_MS = 30_000;
/** Same-host redirects of one navigation followed before giving up. */
const MAX_PAGE_REDIRECTS = 10;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-sync',
  '--metrics-recording-only',
  '--no-first-run',
  '--no-default-browser-check',
  '--dns-prefetch-disable',
];

export interface BrowserSessionOptions extends BrowserNetworkOptions {
  executablePath: string;
}

/** What a navigation ended with. */
export type NavigationOutcome =
  | { kind: 'loaded'; url: string; status: number | undefined; title: string }
  | { kind: 'stopped'; url: string; event: NavigationEvent };

export class BrowserSession {
  private closed = false;

  private constructor(
    private readonly context: BrowserContext,
    readonly page: Page,
    readonly network: BrowserNetwork,
    private readonly dirs: BrowserDirs,
  ) {}

  /** Launches Chromium; a clear error when it is not installed or does not start. */
  static async launch(options: BrowserSessionOptions): Promise<BrowserSession> {
    if (!existsSync(options.executablePath))
      throw new ToolExecutionError(
        `WebBrowser needs Chromium, and ${options.executablePath} does not exist. Install it (Debian/Ubuntu: apt-get install chromium) or set GANTRY_BROWSER_PATH to a Chromium or Chrome executable.`,
      );
    const { chromium } = await import('playwright-core');
    // Everything Chromium writes goes under one directory of this session (browser-temp.ts);
    // directories left by a killed Gantry are removed first.
    sweepStaleBrowserDirs();
    const dirs = makeBrowserDirs();
    let context: BrowserContext;
    try {
      context = await chromium.launchPersistentContext(dirs.profile, {
        executablePath: options.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: ACTION_TIMEOUT_MS,
        artifactsDir: dirs.artifacts,
        env: { ...process.env, TMPDIR: dirs.tmp },
        // Gantry owns its signals: a SIGTERM/SIGINT ends the session, whose dispose() closes the
        // browser, and the exit handler of browser-temp.ts is the backstop.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        serviceWorkers: 'block',
        acceptDownloads: false,
        viewport: VIEWPORT,
      });
    } catch (error) {
      dirs.release();
      throw new ToolExecutionError(
        `Chromium at ${options.executablePath} did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    }
    const network = new BrowserNetwork(options);
    try {
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      await network.install(context);
      const page = context.pages()[0] ?? (await context.newPage());
      return new BrowserSession(context, page, network, dirs);
    } catch (error) {
      await context.close().catch(() => undefined);
      dirs.release();
      await network.close();
      throw error;
    }
  }

  /**
   * Opens `url` (already checked by the tool) in the page, following same-host redirects; a
   * redirect to another host, or a refused request, stops the navigation with its reason.
   */
  async navigate(url: string, signal: AbortSignal): Promise<NavigationOutcome> {
    let target = url;
    for (let hop = 0; hop <= MAX_PAGE_REDIRECTS; hop++) {
      this.network.approve(target);
      this.network.take();
      let status: number | undefined;
      let failure: unknown;
      try {
        const response = await abortable(this.page.goto(target, { waitUntil: 'load' }), signal);
        status = response?.status();
      } catch (error) {
        failure = error;
      }
      const { events } = this.network.take();
      const event = events[0];
      if (event?.kind === 'redirect') {
        const from = new URL(event.from);
        const to = new URL(event.to);
        if (from.hostname.toLowerCase() === to.hostname.toLowerCase() && from.port === to.port) {
          target = to.href;
          continue;
        }
        return { kind: 'stopped', url: target, event };
      }
      if (event) return { kind: 'stopped', url: target, event };
      if (failure) throw failure;
      return { kind: 'loaded', url: this.page.url(), status, title: await this.page.title() };
    }
    throw new ToolExecutionError(`${url} redirected more than ${MAX_PAGE_REDIRECTS} times; stopped.`);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Closes the page, the context and the browser, and removes the session's directory (idempotent). */
  async dispose(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.page.close().catch(() => undefined);
    // A persistent context owns the browser: closing it ends the Chromium process.
    await this.context.close().catch(() => undefined);
    this.dirs.release();
    await this.network.close();
  }
}

/** `work`, rejected early when `signal` aborts. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortError('The browser action was interrupted.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError('The browser action was interrupted.'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
