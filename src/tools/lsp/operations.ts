/**
 * The LSP tool's operations as protocol requests, and their answers normalised into plain data
 * with 1-based positions (what the model reads and what the tool returns as `data`).
 *
 * | operation | request | needs capability |
 * |---|---|---|
 * | goToDefinition | textDocument/definition | definitionProvider |
 * | findReferences | textDocument/references (declaration included) | referencesProvider |
 * | hover | textDocument/hover | hoverProvider |
 * | documentSymbol | textDocument/documentSymbol | documentSymbolProvider |
 * | workspaceSymbol | workspace/symbol (`query`, else the word at the position) | workspaceSymbolProvider |
 * | goToImplementation | textDocument/implementation | implementationProvider |
 * | prepareCallHierarchy | textDocument/prepareCallHierarchy | callHierarchyProvider |
 * | incomingCalls / outgoingCalls | prepareCallHierarchy, then callHierarchy/incomingCalls or outgoingCalls per item | callHierarchyProvider |
 *
 * documentSymbol answers are put in file order (children too); workspace symbols keep the server's
 * ranking. Positions: the model gives 1-based line and character; LSP wants 0-based (characters in UTF-16
 * code units, which is what JavaScript string indices count). Every position that comes back is
 * turned into 1-based again.
 */
import { fileURLToPath } from 'node:url';
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  MarkupContent,
  Range,
  ServerCapabilities,
  SymbolInformation,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol';
import { ToolExecutionError } from '../../core/errors.js';
import type { LspClient } from './client.js';

export const LSP_OPERATIONS = [
  'goToDefinition',
  'findReferences',
  'hover',
  'documentSymbol',
  'workspaceSymbol',
  'goToImplementation',
  'prepareCallHierarchy',
  'incomingCalls',
  'outgoingCalls',
] as const;
export type LspOperation = (typeof LSP_OPERATIONS)[number];

/** A span of a file, 1-based (end exclusive, as the server gave it). */
export interface LspSpan {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

/** A place in a file. `filePath` is absolute (or the URI itself when it is not a `file:` URI). */
export interface LspLocationData extends LspSpan {
  filePath: string;
  /** The source line at `line`, trimmed and shortened (definitions, references, implementations). */
  lineText?: string;
}

/** A symbol (documentSymbol: a tree through `children`; workspaceSymbol: flat with `filePath`). */
export interface LspSymbolData extends LspSpan {
  name: string;
  /** The LSP symbol kind by name (`Function`, `Class`, …). */
  kind: string;
  detail?: string;
  containerName?: string;
  filePath?: string;
  children?: LspSymbolData[];
}

/** A call-hierarchy item: a function-like symbol and where it is. */
export interface LspCallItemData extends LspLocationData {
  name: string;
  kind: string;
  detail?: string;
}

/** One caller (incomingCalls) or callee (outgoingCalls), with the call sites. */
export interface LspCallData {
  item: LspCallItemData;
  /** Where the calls are: in the caller's file (incoming) or in the item's own file (outgoing). */
  callSites: LspLocationData[];
}

/** The `data` of an LSP call. */
export interface LspOutput {
  operation: LspOperation;
  /** The configured server that answered. */
  server: string;
  /** The file asked about (absolute). */
  filePath: string;
  /** The 1-based position asked about. */
  line: number;
  character: number;
  locations?: LspLocationData[];
  /** Hover text (markdown or plain); null when the server had nothing. */
  hover?: string | null;
  symbols?: LspSymbolData[];
  /** workspaceSymbol: the query sent. */
  query?: string;
  items?: LspCallItemData[];
  calls?: LspCallData[];
}

const SYMBOL_KINDS = [
  'File',
  'Module',
  'Namespace',
  'Package',
  'Class',
  'Method',
  'Property',
  'Field',
  'Constructor',
  'Enum',
  'Interface',
  'Function',
  'Variable',
  'Constant',
  'String',
  'Number',
  'Boolean',
  'Array',
  'Object',
  'Key',
  'Null',
  'EnumMember',
  'Struct',
  'Event',
  'Operator',
  'TypeParameter',
] as const;

/** The name of an LSP `SymbolKind` number (`12` → `Function`). */
export function symbolKindName(kind: number): string {
  return SYMBOL_KINDS[kind - 1] ?? `Kind${kind}`;
}

/** A file URI as a path; any other URI unchanged. */
export function uriToPath(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

function span(range: Range): LspSpan {
  return {
    line: range.start.line + 1,
    character: range.start.character + 1,
    endLine: range.end.line + 1,
    endCharacter: range.end.character + 1,
  };
}

function location(uri: string, range: Range): LspLocationData {
  return { filePath: uriToPath(uri), ...span(range) };
}

/** Location | Location[] | LocationLink[] | null → locations (a link's target selection range). */
export function normaliseLocations(
  result: Location | Location[] | LocationLink[] | null | undefined,
): LspLocationData[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.map((l) =>
    'targetUri' in l
      ? location(l.targetUri, l.targetSelectionRange ?? l.targetRange)
      : location(l.uri, l.range),
  );
}

/** Hover contents (MarkupContent, MarkedString, MarkedString[]) → text; null when empty. */
export function hoverText(hover: Hover | null | undefined): string | null {
  if (!hover) return null;
  const part = (c: MarkedString | MarkupContent): string =>
    typeof c === 'string' ? c : 'kind' in c ? c.value : `\`\`\`${c.language}\n${c.value}\n\`\`\``;
  const contents = hover.contents;
  const text = (Array.isArray(contents) ? contents.map(part).join('\n\n') : part(contents)).trim();
  return text === '' ? null : text;
}

function documentSymbol(s: DocumentSymbol): LspSymbolData {
  return {
    name: s.name,
    kind: symbolKindName(s.kind),
    ...(s.detail ? { detail: s.detail } : {}),
    ...span(s.selectionRange ?? s.range),
    ...(s.children?.length ? { children: s.children.map(documentSymbol) } : {}),
  };
}

/** SymbolInformation / WorkspaceSymbol → a flat symbol with its file. */
function flatSymbol(s: SymbolInformation | WorkspaceSymbol): LspSymbolData {
  const loc = s.location;
  const range = 'range' in loc ? loc.range : undefined;
  return {
    name: s.name,
    kind: symbolKindName(s.kind),
    ...(s.containerName ? { containerName: s.containerName } : {}),
    filePath: uriToPath(loc.uri),
    ...(range ? span(range) : { line: 1, character: 1, endLine: 1, endCharacter: 1 }),
  };
}

/** documentSymbol's answer (tree or flat list) → symbols. */
export function normaliseDocumentSymbols(
  result: DocumentSymbol[] | SymbolInformation[] | null | undefined,
): LspSymbolData[] {
  if (!result) return [];
  return inFileOrder(result.map((s) => ('location' in s ? flatSymbol(s) : documentSymbol(s))));
}

/** Symbols (and their children) sorted by position: servers answer in their own order. */
function inFileOrder(symbols: LspSymbolData[]): LspSymbolData[] {
  return symbols
    .map((s) => (s.children ? { ...s, children: inFileOrder(s.children) } : s))
    .sort((a, b) => a.line - b.line || a.character - b.character);
}

function callItem(item: CallHierarchyItem): LspCallItemData {
  return {
    name: item.name,
    kind: symbolKindName(item.kind),
    ...(item.detail ? { detail: item.detail } : {}),
    ...location(item.uri, item.selectionRange),
  };
}

/** The identifier around `character` (0-based) of `lineText`; '' when there is none. */
export function wordAt(lineText: string, character: number): string {
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
  let start = Math.min(character, lineText.length);
  let end = start;
  while (start > 0 && isWord(lineText[start - 1])) start--;
  while (end < lineText.length && isWord(lineText[end])) end++;
  return lineText.slice(start, end);
}

const CAPABILITY: Record<LspOperation, keyof ServerCapabilities> = {
  goToDefinition: 'definitionProvider',
  findReferences: 'referencesProvider',
  hover: 'hoverProvider',
  documentSymbol: 'documentSymbolProvider',
  workspaceSymbol: 'workspaceSymbolProvider',
  goToImplementation: 'implementationProvider',
  prepareCallHierarchy: 'callHierarchyProvider',
  incomingCalls: 'callHierarchyProvider',
  outgoingCalls: 'callHierarchyProvider',
};

export interface OperationRequest {
  operation: LspOperation;
  /** The configured server's name (for messages). */
  server: string;
  uri: string;
  filePath: string;
  /** 1-based. */
  line: number;
  character: number;
  query?: string;
  /** The file's text (for the word under the cursor). */
  text: string;
  signal: AbortSignal;
}

/** Runs one operation against a started client and returns its data (see the module comment). */
export async function runOperation(client: LspClient, req: OperationRequest): Promise<LspOutput> {
  const capability = CAPABILITY[req.operation];
  const offered = client.capabilities[capability];
  if (offered === undefined || offered === null || offered === false)
    throw new ToolExecutionError(
      `The LSP server "${req.server}" does not support ${req.operation} (it does not offer ${capability}).`,
    );
  const textDocument = { uri: req.uri };
  const position = { line: req.line - 1, character: req.character - 1 };
  const base = {
    operation: req.operation,
    server: req.server,
    filePath: req.filePath,
    line: req.line,
    character: req.character,
  };
  const ask = <R>(method: string, params: unknown) => client.request<R>(method, params, req.signal);
  switch (req.operation) {
    case 'goToDefinition':
      return {
        ...base,
        locations: normaliseLocations(await ask('textDocument/definition', { textDocument, position })),
      };
    case 'goToImplementation':
      return {
        ...base,
        locations: normaliseLocations(await ask('textDocument/implementation', { textDocument, position })),
      };
    case 'findReferences':
      return {
        ...base,
        locations: normaliseLocations(
          await ask('textDocument/references', {
            textDocument,
            position,
            context: { includeDeclaration: true },
          }),
        ),
      };
    case 'hover':
      return {
        ...base,
        hover: hoverText(await ask<Hover | null>('textDocument/hover', { textDocument, position })),
      };
    case 'documentSymbol':
      return {
        ...base,
        symbols: normaliseDocumentSymbols(await ask('textDocument/documentSymbol', { textDocument })),
      };
    case 'workspaceSymbol': {
      const query = req.query ?? wordAt(req.text.split(/\r?\n/)[req.line - 1] ?? '', req.character - 1);
      if (query === '')
        throw new ToolExecutionError(
          `workspaceSymbol needs a query: give "query", or a line and character on an identifier (line ${req.line}, character ${req.character} is not on one).`,
        );
      const found = await ask<(SymbolInformation | WorkspaceSymbol)[] | null>('workspace/symbol', { query });
      return { ...base, query, symbols: (found ?? []).map(flatSymbol) };
    }
    case 'prepareCallHierarchy':
    case 'incomingCalls':
    case 'outgoingCalls': {
      const items =
        (await ask<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', {
          textDocument,
          position,
        })) ?? [];
      if (req.operation === 'prepareCallHierarchy') return { ...base, items: items.map(callItem) };
      const calls: LspCallData[] = [];
      for (const item of items) {
        if (req.operation === 'incomingCalls') {
          const incoming =
            (await ask<CallHierarchyIncomingCall[] | null>('callHierarchy/incomingCalls', { item })) ?? [];
          for (const c of incoming)
            calls.push({
              item: callItem(c.from),
              callSites: c.fromRanges.map((r) => location(c.from.uri, r)),
            });
        } else {
          const outgoing =
            (await ask<CallHierarchyOutgoingCall[] | null>('callHierarchy/outgoingCalls', { item })) ?? [];
          for (const c of outgoing)
            calls.push({ item: callItem(c.to), callSites: c.fromRanges.map((r) => location(item.uri, r)) });
        }
      }
      return { ...base, items: items.map(callItem), calls };
    }
  }
}
