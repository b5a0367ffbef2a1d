/**
 * WebFetch's page cache (README.md "Cache"): the converted text of each fetched URL, kept for
 * `ttlMs` (15 minutes by default; `CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS`, 0 turns the cache off) and
 * bounded by size (about `maxBytes` of text, least recently used pages dropped first). Keys are
 * the URL as requested after the `http:` → `https:` upgrade, so a later call for the same URL,
 * with any prompt or offset, reads the page from memory.
 *
 * The cache belongs to one tool instance, whose network policy is fixed, so a cached page is one
 * the same policy fetched.
 */
import { LRUCache } from 'lru-cache';

/** One cached page. */
export interface CachedPage {
  /** The URL the text came from (after same-site redirects). */
  url: string;
  code: number;
  codeText: string;
  /** Body size in bytes (after decompression). */
  bytes: number;
  contentType: string;
  /** Markdown (HTML pages) or the text itself. */
  text: string;
}

export interface PageCacheOptions {
  ttlMs: number;
  /** Upper bound of the cached text, in bytes (UTF-16: two per character). */
  maxBytes: number;
}

export const DEFAULT_CACHE_TTL_MS = 15 * 60 * 1000;
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

export class PageCache {
  private readonly lru: LRUCache<string, CachedPage> | undefined;

  constructor(options: PageCacheOptions) {
    this.lru =
      options.ttlMs > 0 && options.maxBytes > 0
        ? new LRUCache<string, CachedPage>({
            ttl: options.ttlMs,
            maxSize: options.maxBytes,
            sizeCalculation: (page) => Math.max(1, page.text.length * 2 + page.url.length * 2),
            // A page larger than the whole cache is simply not kept.
            maxEntrySize: options.maxBytes,
          })
        : undefined;
  }

  /** The cached page for `key`, if still fresh. */
  get(key: string): CachedPage | undefined {
    return this.lru?.get(key);
  }

  set(key: string, page: CachedPage): void {
    this.lru?.set(key, page);
  }

  clear(): void {
    this.lru?.clear();
  }
}
