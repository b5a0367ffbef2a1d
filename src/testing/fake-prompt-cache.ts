/**
 * Simulated prompt caching for the fake servers, so tests and benches can measure cache shares.
 *
 * A request is cut into ordered units — each tool, each system block, each message content block
 * (Messages API); each tool and each message (OpenAI-compatible) — and every unit boundary gets a
 * prefix hash: sha256 over the model and the canonical JSON of the units so far (keys sorted,
 * `cache_control` removed, string content written as one text block, so a message that loses its
 * marker and turns back into a string keeps its hash). Token counts are ceil(chars / 4) of the
 * canonical JSON, cumulated per boundary.
 *
 * Explicit breakpoints (Messages API), as the API documents them:
 * - a read is the longest prefix, ending at a breakpoint or up to `lookbackBlocks` (20) units
 *   before one, that an earlier request wrote; `cache_read_input_tokens` = its tokens;
 * - the request then writes its prefix at every breakpoint; `cache_creation_input_tokens` = the
 *   tokens between the read prefix and the last breakpoint;
 * - `input_tokens` = everything after that.
 * Prefixes shorter than `minCacheableTokens` are neither read nor written (default 0; the real API
 * needs about 1,024).
 *
 * Automatic caching (OpenAI-compatible): every message boundary is written, and the read is the
 * longest boundary seen before (`cached_tokens`).
 */
import { createHash } from 'node:crypto';
import { estimateTokens } from './fake-model-script.js';

/** Canonical JSON: object keys sorted, `cache_control` dropped. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => k !== 'cache_control' && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface CacheUnit {
  /** The canonical text of the unit (what is hashed and counted). */
  key: string;
  /** The unit carries an explicit breakpoint. */
  breakpoint: boolean;
}

export interface CacheResult {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Tokens of the whole request (all three summed). */
  total_tokens: number;
}

interface Boundary {
  hash: string;
  tokens: number;
}

export class FakePromptCache {
  private readonly seen = new Set<string>();

  constructor(private readonly options: { minCacheableTokens?: number; lookbackBlocks?: number } = {}) {}

  private boundaries(model: string, units: readonly CacheUnit[]): Boundary[] {
    let hash = createHash('sha256').update(`model:${model}`).digest('hex');
    let chars = 0;
    return units.map((u) => {
      hash = createHash('sha256').update(hash).update('\n').update(u.key).digest('hex');
      chars += u.key.length;
      return { hash, tokens: estimateTokens(chars) };
    });
  }

  private cacheable(b: Boundary): boolean {
    return b.tokens >= (this.options.minCacheableTokens ?? 0);
  }

  /** Explicit-breakpoint caching (Messages API); records the writes. */
  explicit(model: string, units: readonly CacheUnit[]): CacheResult {
    const bounds = this.boundaries(model, units);
    const total = bounds.at(-1)?.tokens ?? 0;
    const lookback = this.options.lookbackBlocks ?? 20;
    const breakpoints = units.flatMap((u, i) => (u.breakpoint ? [i] : []));
    let read = -1;
    for (const bp of breakpoints) {
      for (let i = bp; i >= 0 && i > bp - lookback; i--) {
        const b = bounds[i]!;
        if (i > read && this.cacheable(b) && this.seen.has(b.hash)) {
          read = i;
          break;
        }
      }
    }
    const readTokens = read >= 0 ? bounds[read]!.tokens : 0;
    const last = breakpoints.at(-1);
    const lastTokens =
      last !== undefined && last > read && this.cacheable(bounds[last]!) ? bounds[last]!.tokens : readTokens;
    for (const bp of breakpoints) if (this.cacheable(bounds[bp]!)) this.seen.add(bounds[bp]!.hash);
    return {
      input_tokens: total - lastTokens,
      cache_creation_input_tokens: lastTokens - readTokens,
      cache_read_input_tokens: readTokens,
      total_tokens: total,
    };
  }

  /** Automatic prefix caching (OpenAI-compatible); records every boundary. */
  automatic(model: string, units: readonly CacheUnit[]): CacheResult {
    const bounds = this.boundaries(model, units);
    const total = bounds.at(-1)?.tokens ?? 0;
    let readTokens = 0;
    for (let i = bounds.length - 1; i >= 0; i--) {
      const b = bounds[i]!;
      if (this.cacheable(b) && this.seen.has(b.hash)) {
        readTokens = b.tokens;
        break;
      }
    }
    for (const b of bounds) if (this.cacheable(b)) this.seen.add(b.hash);
    return {
      input_tokens: total - readTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: readTokens,
      total_tokens: total,
    };
  }

  /** Forgets every cached prefix. */
  clear(): void {
    this.seen.clear();
  }
}

/** Messages API request → units (tools, system blocks, message blocks). */
export function anthropicCacheUnits(body: any): CacheUnit[] {
  const units: CacheUnit[] = [];
  const marked = (b: any) => Boolean(b && typeof b === 'object' && b.cache_control);
  for (const tool of Array.isArray(body?.tools) ? body.tools : []) {
    units.push({ key: `tool:${canonicalJson(tool)}`, breakpoint: marked(tool) });
  }
  const system =
    typeof body?.system === 'string' ? [{ type: 'text', text: body.system }] : (body?.system ?? []);
  for (const block of Array.isArray(system) ? system : []) {
    units.push({ key: `system:${canonicalJson(block)}`, breakpoint: marked(block) });
  }
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    const blocks = typeof m?.content === 'string' ? [{ type: 'text', text: m.content }] : (m?.content ?? []);
    (Array.isArray(blocks) ? blocks : []).forEach((block: unknown, j: number) => {
      const head = j === 0 ? `<${String(m?.role)}>` : '';
      units.push({ key: `${head}${canonicalJson(block)}`, breakpoint: marked(block) });
    });
  }
  return units;
}

/** Chat Completions / Responses request → units (tools, then messages or input items). */
export function openaiCacheUnits(body: any): CacheUnit[] {
  const units: CacheUnit[] = [];
  for (const tool of Array.isArray(body?.tools) ? body.tools : []) {
    units.push({ key: `tool:${canonicalJson(tool)}`, breakpoint: false });
  }
  if (typeof body?.instructions === 'string') {
    units.push({ key: `instructions:${canonicalJson(body.instructions)}`, breakpoint: false });
  }
  const items = Array.isArray(body?.messages) ? body.messages : Array.isArray(body?.input) ? body.input : [];
  for (const m of items) units.push({ key: canonicalJson(m), breakpoint: false });
  if (typeof body?.input === 'string') units.push({ key: canonicalJson(body.input), breakpoint: false });
  return units;
}
