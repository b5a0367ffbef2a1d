/**
 * The LSP tool's answer as the model reads it: compact lines, paths relative to the working
 * directory (absolute outside it), 1-based `line:character` positions. Locations are grouped by
 * file with the source line (`lineText`) when the tool read it. Long answers are cut at
 * {@link MAX_RENDERED_ENTRIES} entries with a count of the rest (the full list stays in `data`).
 */
import { displayPath } from '../../core/paths.js';
import type {
  LspCallData,
  LspCallItemData,
  LspLocationData,
  LspOutput,
  LspSymbolData,
} from './operations.js';

/** Most entries (locations, symbols, calls) written out for the model. */
export const MAX_RENDERED_ENTRIES = 200;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function more(total: number, shown: number): string[] {
  return total > shown ? [`… and ${total - shown} more (the full list is in the structured result)`] : [];
}

function renderLocations(
  out: LspOutput,
  cwd: string,
  noun: { one: string; many: string; none: string },
): string {
  const at = `${displayPath(out.filePath, cwd)}:${out.line}:${out.character}`;
  const locations = out.locations ?? [];
  if (!locations.length) return `No ${noun.none} found at ${at}.`;
  const files = new Map<string, LspLocationData[]>();
  for (const l of locations.slice(0, MAX_RENDERED_ENTRIES)) {
    const list = files.get(l.filePath) ?? [];
    list.push(l);
    files.set(l.filePath, list);
  }
  const fileCount = new Set(locations.map((l) => l.filePath)).size;
  const lines = [
    `Found ${plural(locations.length, noun.one, noun.many)} in ${plural(fileCount, 'file')} (for ${at}):`,
  ];
  for (const [file, list] of files) {
    lines.push(displayPath(file, cwd));
    for (const l of list) {
      lines.push(`  ${l.line}:${l.character}${l.lineText ? `  ${l.lineText}` : ''}`);
    }
  }
  lines.push(...more(locations.length, Math.min(locations.length, MAX_RENDERED_ENTRIES)));
  return lines.join('\n');
}

function renderSymbolTree(
  symbols: readonly LspSymbolData[],
  depth: number,
  lines: string[],
  budget: { left: number },
) {
  for (const s of symbols) {
    if (budget.left <= 0) return;
    budget.left--;
    const detail = s.detail ? ` ${s.detail}` : '';
    lines.push(`${'  '.repeat(depth)}${s.kind} ${s.name}${detail} (${s.line}:${s.character})`);
    if (s.children) renderSymbolTree(s.children, depth + 1, lines, budget);
  }
}

function countSymbols(symbols: readonly LspSymbolData[]): number {
  return symbols.reduce((n, s) => n + 1 + countSymbols(s.children ?? []), 0);
}

function itemText(item: LspCallItemData, cwd: string): string {
  return `${item.kind} ${item.name} — ${displayPath(item.filePath, cwd)}:${item.line}:${item.character}`;
}

function renderCalls(out: LspOutput, cwd: string): string {
  const at = `${displayPath(out.filePath, cwd)}:${out.line}:${out.character}`;
  const items = out.items ?? [];
  if (!items.length) return `No function or method at ${at} to build a call hierarchy for.`;
  const incoming = out.operation === 'incomingCalls';
  const calls: LspCallData[] = out.calls ?? [];
  const target = items.map((i) => itemText(i, cwd)).join('; ');
  if (!calls.length) return `${incoming ? 'No calls to' : 'No calls from'} ${target}.`;
  const lines = [
    `${incoming ? 'Called by' : 'Calls'} ${plural(calls.length, 'function')} (${incoming ? 'callers of' : 'called from'} ${target}):`,
  ];
  for (const c of calls.slice(0, MAX_RENDERED_ENTRIES)) {
    const sites = c.callSites.map((s) => `${s.line}:${s.character}`).join(', ');
    const where = incoming ? '' : ` in ${displayPath(out.items?.[0]?.filePath ?? out.filePath, cwd)}`;
    lines.push(`  ${itemText(c.item, cwd)}${sites ? ` (call sites${where}: ${sites})` : ''}`);
  }
  lines.push(...more(calls.length, Math.min(calls.length, MAX_RENDERED_ENTRIES)));
  return lines.join('\n');
}

/** The text of an LSP answer (see the module comment). */
export function renderLspOutput(out: LspOutput, cwd: string): string {
  const file = displayPath(out.filePath, cwd);
  switch (out.operation) {
    case 'goToDefinition':
      return renderLocations(out, cwd, { one: 'definition', many: 'definitions', none: 'definition' });
    case 'goToImplementation':
      return renderLocations(out, cwd, {
        one: 'implementation',
        many: 'implementations',
        none: 'implementation',
      });
    case 'findReferences':
      return renderLocations(out, cwd, { one: 'reference', many: 'references', none: 'references' });
    case 'hover':
      return out.hover ?? `No hover information at ${file}:${out.line}:${out.character}.`;
    case 'documentSymbol': {
      const symbols = out.symbols ?? [];
      if (!symbols.length) return `No symbols in ${file}.`;
      const total = countSymbols(symbols);
      const lines = [`${plural(total, 'symbol')} in ${file}:`];
      renderSymbolTree(symbols, 0, lines, { left: MAX_RENDERED_ENTRIES });
      lines.push(...more(total, Math.min(total, MAX_RENDERED_ENTRIES)));
      return lines.join('\n');
    }
    case 'workspaceSymbol': {
      const symbols = out.symbols ?? [];
      if (!symbols.length) return `No symbols match "${out.query ?? ''}" in the workspace.`;
      const lines = [`Found ${plural(symbols.length, 'symbol')} for "${out.query ?? ''}":`];
      for (const s of symbols.slice(0, MAX_RENDERED_ENTRIES)) {
        const where = s.filePath ? ` — ${displayPath(s.filePath, cwd)}:${s.line}:${s.character}` : '';
        lines.push(`  ${s.kind} ${s.name}${where}${s.containerName ? ` (in ${s.containerName})` : ''}`);
      }
      lines.push(...more(symbols.length, Math.min(symbols.length, MAX_RENDERED_ENTRIES)));
      return lines.join('\n');
    }
    case 'prepareCallHierarchy': {
      const items = out.items ?? [];
      if (!items.length)
        return `No function or method at ${file}:${out.line}:${out.character} to build a call hierarchy for.`;
      return items.map((i) => itemText(i, cwd)).join('\n');
    }
    case 'incomingCalls':
    case 'outgoingCalls':
      return renderCalls(out, cwd);
  }
}
