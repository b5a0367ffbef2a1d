/**
 * Prompt-cache breakpoint placement for the Messages API: a pure function from the request's
 * `system` and `messages` to the wire arrays with `cache_control: {type: "ephemeral"}` markers.
 * See docs/agent-wire.md ("Cache breakpoints") for why each marker sits where it does.
 *
 * Rules:
 * - System: the markers the caller put on system blocks are kept (at most 3, the last ones; the
 *   API allows 4 in all). When the caller marked none, the last non-empty system block gets one.
 * - Messages: every marker already present is removed, and the last block of the last message
 *   gets one, so the breakpoint moves forward every turn. A last message whose content is a single
 *   string is sent as a one-block text array carrying the marker; earlier string messages stay
 *   strings. Blocks that cannot carry a marker (thinking, redacted thinking, empty text) are
 *   skipped backwards within the last message.
 * - Tools never get a marker: their bytes are pinned by the definition cache and the system
 *   breakpoints cache them as part of the prefix (tools come first in the prefix).
 * - `enabled: false` strips every marker (prompt caching off).
 * Inputs are not modified; blocks are shallow-copied when their marker changes.
 */
import type { CacheControl, Message, SystemBlock } from '../core/messages.js';

/** A content block on the wire: any block with an optional marker. */
export type WireContentBlock = { type: string; cache_control?: CacheControl } & Record<string, unknown>;

export interface WireMessage {
  role: Message['role'];
  content: string | WireContentBlock[];
}

/** Where a marker sits, as Claude Code records it: `['system', i]` or `['messages', k, 'content', j]`. */
export type CacheBreakpointPath =
  | readonly ['system', number]
  | readonly ['messages', number, 'content', number];

export interface CachePlacement {
  system: SystemBlock[];
  messages: WireMessage[];
  /** Every marker placed, in request order. */
  breakpoints: CacheBreakpointPath[];
}

export interface CachePlacementOptions {
  /** False: no markers at all (default true). */
  enabled?: boolean;
  /** The marker placed on the last message block (default `{type: 'ephemeral'}`). */
  messageCacheControl?: CacheControl;
}

const EPHEMERAL: CacheControl = Object.freeze({ type: 'ephemeral' }) as CacheControl;
/** The API accepts at most 4 markers per request; one is kept for the message breakpoint. */
const MAX_SYSTEM_BREAKPOINTS = 3;

function withoutMarker<T extends { cache_control?: CacheControl }>(block: T): T {
  if (!('cache_control' in block)) return block;
  const { cache_control: _dropped, ...rest } = block;
  return rest as T;
}

function withMarker<T extends object>(block: T, marker: CacheControl): T & { cache_control: CacheControl } {
  const { cache_control: _old, ...rest } = block as T & { cache_control?: CacheControl };
  return { ...(rest as T), cache_control: { ...marker } };
}

function canCarryMarker(block: WireContentBlock): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  if (block.type === 'text') return typeof block.text === 'string' && block.text.length > 0;
  return true;
}

function placeSystem(
  system: readonly SystemBlock[],
  enabled: boolean,
  out: CacheBreakpointPath[],
): SystemBlock[] {
  if (!enabled) return system.map(withoutMarker);
  const marked = system.flatMap((b, i) => (b.cache_control ? [i] : []));
  const keep = new Set(
    marked.length > 0
      ? marked.slice(-MAX_SYSTEM_BREAKPOINTS)
      : (() => {
          for (let i = system.length - 1; i >= 0; i--) if (system[i]!.text.length > 0) return [i];
          return [];
        })(),
  );
  return system.map((b, i) => {
    if (!keep.has(i)) return withoutMarker(b);
    out.push(['system', i]);
    return b.cache_control ? b : withMarker(b, EPHEMERAL);
  });
}

/** Places the breakpoints; see the module comment. */
export function placeCacheBreakpoints(
  system: readonly SystemBlock[],
  messages: readonly Message[],
  options: CachePlacementOptions = {},
): CachePlacement {
  const enabled = options.enabled ?? true;
  const breakpoints: CacheBreakpointPath[] = [];
  const wireSystem = placeSystem(system, enabled, breakpoints);
  const wireMessages: WireMessage[] = messages.map((m) => ({
    role: m.role,
    content:
      typeof m.content === 'string'
        ? m.content
        : (m.content as unknown as WireContentBlock[]).map((b) => withoutMarker(b)),
  }));
  const lastIndex = wireMessages.length - 1;
  const last = wireMessages[lastIndex];
  if (enabled && last) {
    const marker = options.messageCacheControl ?? EPHEMERAL;
    if (typeof last.content === 'string') {
      if (last.content.length > 0) {
        last.content = [{ type: 'text', text: last.content, cache_control: { ...marker } }];
        breakpoints.push(['messages', lastIndex, 'content', 0]);
      }
    } else {
      for (let j = last.content.length - 1; j >= 0; j--) {
        const block = last.content[j]!;
        if (!canCarryMarker(block)) continue;
        last.content[j] = withMarker(block, marker);
        breakpoints.push(['messages', lastIndex, 'content', j]);
        break;
      }
    }
  }
  return { system: wireSystem, messages: wireMessages, breakpoints };
}
