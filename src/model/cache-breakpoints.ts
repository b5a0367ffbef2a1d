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
 * - Shared prefix (`sharedPrefixEnd`, a fork's context before its directive): that block keeps a
 *   marker too, so the first fork writes the prefix its siblings then read. It only counts when it
 *   lies before the last message's marker; with it the system keeps at most 2 markers (4 in all).
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
  /** A block that ends a prefix other requests share (see the module comment). */
  sharedPrefixEnd?: { readonly message: number; readonly block: number };
}

const EPHEMERAL: CacheControl = Object.freeze({ type: 'ephemeral' }) as CacheControl;
/** The API accepts at most 4 markers per request. */
const MAX_BREAKPOINTS = 4;

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
  max: number,
  out: CacheBreakpointPath[],
): SystemBlock[] {
  if (!enabled) return system.map(withoutMarker);
  const marked = system.flatMap((b, i) => (b.cache_control ? [i] : []));
  const keep = new Set(
    marked.length > 0
      ? marked.slice(-max)
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

/** `[message, block]` of the last message's marker, or undefined when nothing can carry one. */
function lastTarget(messages: readonly WireMessage[]): [number, number] | undefined {
  const k = messages.length - 1;
  const last = messages[k];
  if (!last) return undefined;
  if (typeof last.content === 'string') return last.content.length > 0 ? [k, 0] : undefined;
  for (let j = last.content.length - 1; j >= 0; j--) if (canCarryMarker(last.content[j]!)) return [k, j];
  return undefined;
}

/** The shared-prefix block when it exists, can carry a marker and lies before `before`. */
function sharedTarget(
  messages: readonly WireMessage[],
  at: CachePlacementOptions['sharedPrefixEnd'],
  before: [number, number] | undefined,
): [number, number] | undefined {
  if (!at || !before) return undefined;
  const { message: k, block: j } = at;
  if (k > before[0] || (k === before[0] && j >= before[1])) return undefined;
  const content = messages[k]?.content;
  if (typeof content === 'string') return j === 0 && content.length > 0 ? [k, 0] : undefined;
  const block = content?.[j];
  return block && canCarryMarker(block) ? [k, j] : undefined;
}

function mark(messages: WireMessage[], [k, j]: [number, number], marker: CacheControl): void {
  const m = messages[k]!;
  if (typeof m.content === 'string')
    m.content = [{ type: 'text', text: m.content, cache_control: { ...marker } }];
  else m.content[j] = withMarker(m.content[j]!, marker);
}

/** Places the breakpoints; see the module comment. */
export function placeCacheBreakpoints(
  system: readonly SystemBlock[],
  messages: readonly Message[],
  options: CachePlacementOptions = {},
): CachePlacement {
  const enabled = options.enabled ?? true;
  const wireMessages: WireMessage[] = messages.map((m) => ({
    role: m.role,
    content:
      typeof m.content === 'string'
        ? m.content
        : (m.content as unknown as WireContentBlock[]).map((b) => withoutMarker(b)),
  }));
  const last = enabled ? lastTarget(wireMessages) : undefined;
  const shared = enabled ? sharedTarget(wireMessages, options.sharedPrefixEnd, last) : undefined;
  const messageMarks = [shared, last].filter((t): t is [number, number] => t !== undefined);
  const breakpoints: CacheBreakpointPath[] = [];
  const wireSystem = placeSystem(
    system,
    enabled,
    MAX_BREAKPOINTS - Math.max(1, messageMarks.length),
    breakpoints,
  );
  for (const t of messageMarks) {
    mark(wireMessages, t, t === last ? (options.messageCacheControl ?? EPHEMERAL) : EPHEMERAL);
    breakpoints.push(['messages', t[0], 'content', t[1]]);
  }
  return { system: wireSystem, messages: wireMessages, breakpoints };
}
