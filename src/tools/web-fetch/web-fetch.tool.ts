/**
 * `WebFetch {url, prompt, offset?}`: fetches a page and answers `prompt` about it (README.md in
 * this folder describes every choice; Claude Code documentation, "Tools reference": WebFetch).
 *
 * Sequence: validate the URL (shape, IP literals and single-label hosts, before any prompt) →
 * upgrade `http:` → cache lookup → GET with the connect-time address guard, same-site redirects
 * followed by hand, a cross-site redirect returned as a notice → binary refused, HTML → Markdown,
 * text passed through → cached → the window from `offset` → the model's answer to `prompt` (or the
 * window itself when no model is configured) → `{bytes, code, codeText, result, durationMs, url}`.
 *
 * Read-only and concurrency-safe. Permissions: `WebFetch(domain:…)` rules through the describer;
 * the tool's own check pre-approves a short list of documentation hosts (`preapproved-hosts.ts`),
 * which any deny or ask rule overrides.
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import {
  buildTool,
  type CallDescription,
  ToolExecutionError,
  type ToolUseContext,
} from '../../core/index.js';
import { gantryTraits } from '../../core/tool-traits.js';
import type { WebFetchSettings } from '../../core/web-settings.js';
import { loadPrompt } from '../file-io/load-prompt.js';
import { answerModel, answerPrompt } from './answer-prompt.js';
import { webFetchDescriber, webUrlHost } from './describe.js';
import { DEFAULT_FETCH_LIMITS, type FetchLimits, PageFetcher } from './http-fetch.js';
import type { Resolver } from './network-guard.js';
import { type CachedPage, DEFAULT_CACHE_MAX_BYTES, DEFAULT_CACHE_TTL_MS, PageCache } from './page-cache.js';
import { pageKind, pageText, parseContentType } from './page-content.js';
import { preapprovedHost } from './preapproved-hosts.js';
import { compileNetworkPolicy, type NetworkPolicy, prepareUrl } from './url-policy.js';

/** Characters of the page sent to the model per call. */
export const MODEL_WINDOW_CHARS = 100_000;
/** Characters of the page returned per call when no model answers (under the runtime's 50K spill cap). */
export const TEXT_WINDOW_CHARS = 40_000;
/** The `User-Agent` WebFetch sends. */
export const WEB_FETCH_USER_AGENT = 'Gantry-User/0.1 (AI coding agent; fetches a page at a user request)';

const WebFetchInput = z.strictObject({
  url: z.string().describe('The URL to fetch: a complete http or https URL.'),
  prompt: z.string().describe('What to extract from the page or answer about it.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Character position to continue a long page from. Use the value a previous WebFetch result for this URL gave; omit it to start at the beginning.',
    ),
});
export type WebFetchInput = z.infer<typeof WebFetchInput>;

/** Structured result (Claude Code's WebFetch output shape). */
export interface WebFetchOutput {
  /** Size of the body in bytes (after decompression); 0 for a redirect notice. */
  bytes: number;
  /** HTTP status of the last response. */
  code: number;
  codeText: string;
  /** What the model gets: the answer, the page text, or the redirect notice. */
  result: string;
  durationMs: number;
  /** The URL as the call gave it. */
  url: string;
  /** Present when the page continues: the `offset` of the next window. */
  nextOffset?: number;
}

/** Options of a WebFetch tool instance. */
export interface WebFetchToolOptions {
  /** The settings `webFetch` object (core/web-settings.ts). */
  settings?: WebFetchSettings;
  /** Environment for `CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS`, `GANTRY_WEBFETCH_MODEL` (default `process.env`, read per call). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Name resolution (tests map names to 127.0.0.1 with `tableResolver`). */
  resolver?: Resolver;
  limits?: Partial<FetchLimits>;
  modelWindowChars?: number;
  textWindowChars?: number;
  cacheMaxBytes?: number;
  userAgent?: string;
  /** Extra trusted certificate authorities (PEM), e.g. a company CA; `NODE_EXTRA_CA_CERTS` works too. */
  tlsCa?: string | readonly string[];
}

const prompt = loadPrompt(import.meta.url, './web-fetch.prompt.md');

function ttlFrom(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_CACHE_TTL_MS;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : DEFAULT_CACHE_TTL_MS;
}

/** `text.slice(start, end)` without cutting a surrogate pair at `end`. */
function windowEnd(text: string, start: number, size: number): number {
  let end = Math.min(text.length, start + size);
  if (end < text.length && end > start) {
    const c = text.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  }
  return end;
}

function redirectNotice(
  from: string,
  to: string,
  status: number,
  statusText: string,
  input: WebFetchInput,
): string {
  return [
    `The page redirects to another host, so WebFetch did not follow it (HTTP ${status}${statusText ? ` ${statusText}` : ''}).`,
    '',
    `Original URL: ${from}`,
    `Redirect URL: ${to}`,
    '',
    'To read the redirected page, call WebFetch again with:',
    `- url: ${to}`,
    `- prompt: ${input.prompt}`,
  ].join('\n');
}

/** Builds a WebFetch tool. */
export function createWebFetchTool(options: WebFetchToolOptions = {}) {
  const settings = options.settings ?? {};
  const policy: NetworkPolicy = compileNetworkPolicy(settings);
  const limits: FetchLimits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
  const modelWindow = options.modelWindowChars ?? MODEL_WINDOW_CHARS;
  const textWindow = options.textWindowChars ?? TEXT_WINDOW_CHARS;
  const env = () => options.env ?? process.env;
  let cache: PageCache | undefined;
  let fetcher: PageFetcher | undefined;
  const pages = () =>
    (cache ??= new PageCache({
      ttlMs: ttlFrom(env()),
      maxBytes: options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES,
    }));
  const http = () =>
    (fetcher ??= new PageFetcher({
      policy,
      limits,
      userAgent: options.userAgent ?? WEB_FETCH_USER_AGENT,
      ...(options.resolver ? { resolver: options.resolver } : {}),
      ...(options.tlsCa ? { tlsCa: options.tlsCa } : {}),
    }));

  async function loadPage(
    input: WebFetchInput,
    url: URL,
    context: ToolUseContext,
  ): Promise<CachedPage | { redirect: WebFetchOutput }> {
    const key = url.href;
    const hit = pages().get(key);
    if (hit) return hit;
    const started = Date.now();
    const got = await http().fetch(url, context.abortController.signal);
    if (got.kind === 'redirect') {
      return {
        redirect: {
          bytes: 0,
          code: got.status,
          codeText: got.statusText,
          result: redirectNotice(got.url, got.location, got.status, got.statusText, input),
          durationMs: Date.now() - started,
          url: input.url,
        },
      };
    }
    const kind = pageKind(got.contentType, got.body);
    if (kind === 'binary') {
      const type = parseContentType(got.contentType).mediaType || 'no content type';
      throw new ToolExecutionError(
        `${got.url} is a binary file (${type}, ${got.body.length} bytes), not a text page. WebFetch reads HTML and text only; download binary files with a command-line tool through Bash if you need them.`,
      );
    }
    const text = await pageText(got.body, got.contentType, kind, got.url);
    if (got.status >= 400) {
      const excerpt = text.slice(0, 1000).trim();
      throw new ToolExecutionError(
        `${got.url} answered HTTP ${got.status}${got.statusText ? ` ${got.statusText}` : ''}.${excerpt ? `\n\nThe page says:\n${excerpt}` : ''}`,
      );
    }
    const page: CachedPage = {
      url: got.url,
      code: got.status,
      codeText: got.statusText,
      bytes: got.body.length,
      contentType: got.contentType,
      text,
    };
    pages().set(key, page);
    return page;
  }

  const tool = buildTool({
    name: 'WebFetch',
    aliases: gantryTraits('WebFetch').aliases,
    description: prompt,
    inputSchema: WebFetchInput,
    shouldDefer: true,
    maxResultSizeChars: 100_000,
    searchHint: 'fetch web page url http download read documentation website',
    isReadOnly: webFetchDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Fetch',
    toAutoClassifierInput: webFetchDescriber.toAutoClassifierInput,

    async validateInput(input: WebFetchInput) {
      const prepared = prepareUrl(input.url, policy);
      if (!prepared.ok) return { ok: false, field: 'url', message: prepared.message };
      if (input.prompt.trim() === '')
        return {
          ok: false,
          field: 'prompt',
          message: 'prompt is empty: say what you want to know about the page.',
        };
      return { ok: true };
    },

    async checkPermissions(input: WebFetchInput) {
      if (settings.preapprovedHosts === false) return { behavior: 'passthrough' as const };
      const host = webUrlHost(input.url);
      const entry = host === undefined ? undefined : preapprovedHost(host);
      return entry
        ? {
            behavior: 'allow' as const,
            reason: `${entry.host} is a pre-approved documentation host (${entry.reason}).`,
          }
        : { behavior: 'passthrough' as const };
    },

    async describeCall(input: WebFetchInput, context): Promise<CallDescription> {
      return webFetchDescriber.describe(input, describeWorldOf(context));
    },

    async *call(input: WebFetchInput, context) {
      const started = Date.now();
      const prepared = prepareUrl(input.url, policy);
      if (!prepared.ok) throw new ToolExecutionError(prepared.message);
      const loaded = await loadPage(input, prepared.url, context);
      if ('redirect' in loaded) return { data: loaded.redirect };
      const page = loaded;
      const total = page.text.length;
      const offset = input.offset ?? 0;
      if (offset > 0 && offset >= total)
        throw new ToolExecutionError(
          `offset ${offset} is past the end of the page, which has ${total} characters. Omit offset to read it from the start.`,
        );
      const client = context.services.modelClient;
      const model = answerModel(client, settings.model ?? env().GANTRY_WEBFETCH_MODEL);
      const end = windowEnd(page.text, offset, model ? modelWindow : textWindow);
      const windowText = page.text.slice(offset, end);
      const partial = offset > 0 || end < total;
      const span = `characters ${offset}–${end} of ${total}`;
      const more =
        end < total
          ? `\n\n[The page continues: this covers ${span}. Call WebFetch again with the same url and offset ${end} to read the next part.]`
          : '';
      let result: string;
      if (model && client) {
        const answer = await answerPrompt({
          client,
          model,
          url: page.url,
          text: windowText,
          prompt: input.prompt,
          ...(partial ? { windowNote: `this is part of the page: ${span}` } : {}),
          signal: context.abortController.signal,
        });
        result = `${answer}${more}`;
      } else {
        const why = client
          ? 'No model is configured to answer prompts for WebFetch'
          : 'No model is available to answer the prompt';
        result = `[${why}, so this is the page content itself as Markdown${partial ? ` (${span})` : ''}. Read it to answer: ${input.prompt}]\n\n${windowText}${more}`;
      }
      const data: WebFetchOutput = {
        bytes: page.bytes,
        code: page.code,
        codeText: page.codeText,
        result,
        durationMs: Date.now() - started,
        url: input.url,
        ...(end < total ? { nextOffset: end } : {}),
      };
      return { data };
    },

    mapToolResultToContent(output: WebFetchOutput) {
      return output.result;
    },
  });
  return Object.assign(tool, {
    /** Closes the tool's connection pool (tests, hosts that drop the tool). */
    async dispose(): Promise<void> {
      await fetcher?.close();
      fetcher = undefined;
      cache?.clear();
    },
  });
}

/** The WebFetch tool with no allowances (the registry's default). */
export const WebFetchTool = createWebFetchTool();
