/**
 * `WebBrowser {action, …}`: a real headless Chromium for pages that need a browser (scripts,
 * forms, buttons). Behind the `BROWSER` feature flag. Actions:
 *
 * - `navigate {url}` → opens the page (same-host redirects followed, another host reported as a
 *   notice) → `{url, title, status}`;
 * - `read {format?: "text" | "accessibility"}` → the page's visible text, or its accessibility
 *   tree with element references (`[ref=e7]`) that click and type accept;
 * - `click {ref | selector}`, `type {ref | selector, text, submit?}` → acts, waits for the page to
 *   settle, returns the accessibility tree after the action;
 * - `screenshot {full_page?}` → a PNG image block.
 *
 * One browser per session (browser-session.ts), started on first use and registered with the
 * session's resources, so it is closed with the session. Network: WebFetch's rules and allowances
 * (`webFetch.allowPrivateHosts`, `webFetch.allowHttpHosts`) for every request the page makes
 * (network.ts). Permissions: `WebBrowser(domain:…)` rules (describe.ts). The Chromium executable:
 * the tool option, else `GANTRY_BROWSER_PATH`, else `/usr/bin/chromium`.
 */
import { z } from 'zod';
import {
  buildTool,
  type ImageBlock,
  ToolExecutionError,
  type ToolResultContentBlock,
  type ToolUseContext,
} from '../../core/index.js';
import { gantryTraits } from '../../core/tool-traits.js';
import {
  abortable,
  BROWSER_RESOURCE,
  BrowserSession,
  DEFAULT_CHROMIUM_PATH,
  VIEWPORT,
} from './browser-session.js';
import { describeWebBrowser, webBrowserDescriber } from './describe.js';
import type { BrowserNetworkPorts } from './ports.js';

/** Tallest screenshot returned, in pixels (the model API refuses images past 8000 pixels). */
export const SCREENSHOT_MAX_HEIGHT_PX = 7_500;
/** Characters of page text or accessibility tree returned per call. */
export const PAGE_TEXT_MAX_CHARS = 40_000;

const WebBrowserInput = z.strictObject({
  action: z
    .enum(['navigate', 'read', 'click', 'type', 'screenshot'])
    .describe(
      'navigate: open url. read: the page as text or accessibility tree. click / type: act on an element. screenshot: a PNG of the page.',
    ),
  url: z.string().describe('navigate: the http or https URL to open.').optional(),
  format: z
    .enum(['text', 'accessibility'])
    .describe('read: "text" (default) for the visible text, "accessibility" for the element tree with refs.')
    .optional(),
  ref: z
    .string()
    .describe('click / type: an element reference from the accessibility tree, such as "e7".')
    .optional(),
  selector: z
    .string()
    .describe(
      'click / type: a CSS or Playwright selector, when no ref fits (e.g. "button#save", "text=Sign in").',
    )
    .optional(),
  text: z.string().describe('type: the text to put into the element (replaces what it holds).').optional(),
  submit: z.boolean().describe('type: press Enter afterwards.').optional(),
  full_page: z.boolean().describe('screenshot: the whole page instead of the visible part.').optional(),
});
export type WebBrowserInput = z.infer<typeof WebBrowserInput>;

export interface WebBrowserOutput {
  action: WebBrowserInput['action'];
  /** The page's URL after the action. */
  url: string;
  title: string;
  /** HTTP status of a navigation. */
  status?: number;
  /** Text for the model (page text, tree, notice). */
  text: string;
  /** The screenshot, base64 PNG. */
  screenshot?: string;
}

export interface WebBrowserToolOptions {
  /** WebFetch's network rules under the session's `webFetch` allowances (tools/web-browser-ports.ts). */
  ports: BrowserNetworkPorts;
  /** Chromium executable (default: env `GANTRY_BROWSER_PATH`, else `/usr/bin/chromium`). */
  executablePath?: string;
  /** Environment read for `GANTRY_BROWSER_PATH` (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

function cut(text: string): string {
  return text.length > PAGE_TEXT_MAX_CHARS
    ? `${text.slice(0, PAGE_TEXT_MAX_CHARS)}\n[… cut at ${PAGE_TEXT_MAX_CHARS} characters]`
    : text;
}

export function createWebBrowserTool(options: WebBrowserToolOptions) {
  const ports = options.ports;
  const executablePath = () =>
    options.executablePath ?? (options.env ?? process.env).GANTRY_BROWSER_PATH ?? DEFAULT_CHROMIUM_PATH;
  /** Sessions whose browser is starting, so two calls never start two browsers. */
  const starting = new WeakMap<object, Promise<BrowserSession>>();

  const existing = (context: ToolUseContext): BrowserSession | undefined => {
    const found = context.services.resources?.get(BROWSER_RESOURCE);
    return found instanceof BrowserSession && !found.isClosed ? found : undefined;
  };

  async function browserFor(context: ToolUseContext): Promise<BrowserSession> {
    const open = existing(context);
    if (open) return open;
    const resources = context.services.resources;
    if (!resources)
      throw new ToolExecutionError(
        'This host keeps no session resources, so WebBrowser cannot start a browser.',
      );
    let pending = starting.get(resources);
    if (!pending) {
      pending = BrowserSession.launch({
        executablePath: executablePath(),
        ports,
      }).then((session) => {
        try {
          resources.register(BROWSER_RESOURCE, session);
        } catch (error) {
          void session.dispose();
          throw error;
        }
        return session;
      });
      starting.set(resources, pending);
      pending.then(
        () => starting.delete(resources),
        () => starting.delete(resources),
      );
    }
    return pending;
  }

  /** The element a click or type acts on. */
  function target(session: BrowserSession, input: WebBrowserInput) {
    if (input.ref) return session.page.locator(`aria-ref=${input.ref}`);
    if (input.selector) return session.page.locator(input.selector).first();
    throw new ToolExecutionError(
      `${input.action} needs ref (from read with format "accessibility") or selector.`,
    );
  }

  async function pageState(session: BrowserSession) {
    return { url: session.page.url(), title: await session.page.title().catch(() => '') };
  }

  /** The notes about what the page tried during the action (a blocked navigation, refused requests). */
  function notes(session: BrowserSession): string {
    const { events, refused } = session.network.take();
    const lines: string[] = [];
    for (const e of events) {
      if (e.kind === 'redirect')
        lines.push(
          `The page was redirected (HTTP ${e.status}) from ${e.from} to ${e.to}, another host; it was not followed. Call navigate with that URL to go there.`,
        );
      else lines.push(`The page's navigation to ${e.url} was stopped: ${e.reason}.`);
    }
    if (refused.length)
      lines.push(`Requests refused: ${refused.slice(0, 10).join('; ')}${refused.length > 10 ? ' …' : ''}`);
    return lines.join('\n');
  }

  async function settle(session: BrowserSession): Promise<void> {
    await session.page.waitForLoadState('load', { timeout: 5_000 }).catch(() => undefined);
  }

  return buildTool({
    name: 'WebBrowser',
    aliases: gantryTraits('WebBrowser').aliases,
    description:
      'Use a real web browser (headless Chromium) for pages that need one: pages built by scripts, forms, ' +
      'buttons, logins. Actions: navigate to a url; read the page as text, or as an accessibility tree whose ' +
      'element refs (like e7) you pass to click and type; click an element; type into a field (submit: true ' +
      'presses Enter); screenshot the page. The browser stays open between calls for the whole session. For ' +
      'reading a static page, WebFetch is faster.',
    inputSchema: WebBrowserInput,
    shouldDefer: true,
    maxResultSizeChars: 100_000,
    searchHint: 'browser chromium click type screenshot page javascript form',
    isReadOnly: (input: WebBrowserInput) => webBrowserDescriber.isReadOnly(input),
    isConcurrencySafe: () => false,
    userFacingName: () => 'Browser',
    toAutoClassifierInput: webBrowserDescriber.toAutoClassifierInput,

    async validateInput(input: WebBrowserInput) {
      if (input.action === 'navigate') {
        if (input.url === undefined) return { ok: false, field: 'url', message: 'navigate needs url.' };
        const prepared = ports.prepareUrl(input.url);
        if (!prepared.ok)
          return {
            ok: false,
            field: 'url',
            message: `WebBrowser follows WebFetch's network rules: ${prepared.message}`,
          };
      }
      if ((input.action === 'click' || input.action === 'type') && !input.ref && !input.selector)
        return {
          ok: false,
          message: `${input.action} needs ref (from read with format "accessibility") or selector.`,
        };
      if (input.action === 'type' && input.text === undefined)
        return { ok: false, field: 'text', message: 'type needs text.' };
      return { ok: true };
    },

    async describeCall(input: WebBrowserInput, context: ToolUseContext) {
      const open = existing(context);
      const current = open?.page.url();
      return describeWebBrowser(input, current && current !== 'about:blank' ? current : undefined);
    },

    async *call(input: WebBrowserInput, context: ToolUseContext) {
      const signal = context.abortController.signal;
      if (input.action !== 'navigate' && !existing(context))
        throw new ToolExecutionError(`No page is open. Call WebBrowser with action "navigate" first.`);
      const session = await browserFor(context);
      const page = session.page;
      let data: WebBrowserOutput;
      switch (input.action) {
        case 'navigate': {
          const prepared = ports.prepareUrl(input.url ?? '');
          if (!prepared.ok) throw new ToolExecutionError(prepared.message);
          let outcome: Awaited<ReturnType<BrowserSession['navigate']>>;
          try {
            outcome = await session.navigate(prepared.url.href, signal);
          } catch (error) {
            if (signal.aborted) throw error;
            throw new ToolExecutionError(
              `Opening ${input.url} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
            );
          }
          if (outcome.kind === 'stopped') {
            const e = outcome.event;
            const text =
              e.kind === 'redirect'
                ? `${e.from} redirects (HTTP ${e.status}) to ${e.to}, another host; it was not followed. Call navigate with that URL to open it.`
                : `Opening ${e.url} was stopped: ${e.reason}.`;
            data = { action: 'navigate', ...(await pageState(session)), text };
            break;
          }
          const extra = notes(session);
          data = {
            action: 'navigate',
            url: outcome.url,
            title: outcome.title,
            ...(outcome.status !== undefined ? { status: outcome.status } : {}),
            text: `Opened ${outcome.url}${outcome.status !== undefined ? ` (HTTP ${outcome.status})` : ''}: "${outcome.title}". Use read to see the page.${extra ? `\n${extra}` : ''}`,
          };
          break;
        }
        case 'read': {
          const text =
            input.format === 'accessibility'
              ? await abortable(page.ariaSnapshot({ mode: 'ai' }), signal)
              : await abortable(page.locator('body').innerText(), signal);
          data = { action: 'read', ...(await pageState(session)), text: cut(text) };
          break;
        }
        case 'click':
        case 'type': {
          const element = target(session, input);
          try {
            if (input.action === 'click') await abortable(element.click(), signal);
            else {
              await abortable(element.fill(input.text ?? ''), signal);
              if (input.submit) await abortable(element.press('Enter'), signal);
            }
          } catch (error) {
            if (signal.aborted) throw error;
            throw new ToolExecutionError(
              `${input.action} on ${input.ref ? `ref ${input.ref}` : input.selector} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}. Read the page with format "accessibility" for current refs.`,
            );
          }
          await settle(session);
          const extra = notes(session);
          const tree = await page.ariaSnapshot({ mode: 'ai' }).catch(() => '');
          data = {
            action: input.action,
            ...(await pageState(session)),
            text: cut(`${extra ? `${extra}\n` : ''}The page now:\n${tree}`),
          };
          break;
        }
        case 'screenshot': {
          // A full page taller than the model's image limit is cut at SCREENSHOT_MAX_HEIGHT_PX.
          const height = input.full_page
            ? Number(await page.evaluate('document.documentElement.scrollHeight').catch(() => 0)) || 0
            : 0;
          const clip =
            height > SCREENSHOT_MAX_HEIGHT_PX
              ? { x: 0, y: 0, width: VIEWPORT.width, height: SCREENSHOT_MAX_HEIGHT_PX }
              : undefined;
          const png = await abortable(
            page.screenshot({ type: 'png', fullPage: input.full_page === true, ...(clip ? { clip } : {}) }),
            signal,
          );
          data = {
            action: 'screenshot',
            ...(await pageState(session)),
            text: `Screenshot of ${page.url()}${clip ? ` (the first ${SCREENSHOT_MAX_HEIGHT_PX} pixels of a ${height}-pixel page)` : ''}`,
            screenshot: png.toString('base64'),
          };
          break;
        }
      }
      return { data };
    },

    mapToolResultToContent(output: WebBrowserOutput) {
      if (!output.screenshot) return output.text;
      const image: ImageBlock = {
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: output.screenshot },
      };
      const blocks: ToolResultContentBlock[] = [{ type: 'text', text: output.text }, image];
      return blocks;
    },
  });
}
