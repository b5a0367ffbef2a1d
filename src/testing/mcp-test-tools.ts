/**
 * The tool definitions of the MCP test server (mcp-test-server.ts, which documents each tool):
 * the generated `<verb>_<noun>` catalog and the special tools, as plain `Tool` objects sent
 * exactly as written. Only tests and benches use them.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const VERBS = [
  'get',
  'list',
  'create',
  'update',
  'delete',
  'search',
  'send',
  'fetch',
  'archive',
  'sync',
];
export const NOUNS = [
  'issue',
  'pull_request',
  'weather_forecast',
  'calendar_event',
  'email',
  'file',
  'user',
  'channel',
  'message',
  'invoice',
  'report',
  'ticket',
  'page',
  'dataset',
  'build',
  'deployment',
  'metric',
  'alert',
  'note',
  'task',
];
const SERVICES = ['tracker', 'mail', 'chat', 'billing', 'docs', 'ci', 'monitoring'];

/** A 1×1 transparent PNG. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** The generated tools (deterministic). */
export function generatedTools(count: number): Tool[] {
  const tools: Tool[] = [];
  for (let i = 0; i < count; i++) {
    const verb = VERBS[i % VERBS.length] as string;
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length] as string;
    const round = Math.floor(i / (VERBS.length * NOUNS.length));
    const name = round === 0 ? `${verb}_${noun}` : `${verb}_${noun}_${round}`;
    const service = SERVICES[i % SERVICES.length] as string;
    const thing = noun.replace(/_/g, ' ');
    tools.push({
      name,
      description: `${verb[0]?.toUpperCase()}${verb.slice(1)} a ${thing} in the ${service} service. Returns the ${thing} as JSON with its id, title, owner and timestamps; pass an id, or a query and a limit.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: `Identifier of the ${thing}` },
          query: { type: 'string', description: `Free-text filter for ${thing}s` },
          limit: { type: 'number', description: 'Largest number of results', minimum: 1, maximum: 100 },
          fields: { type: 'array', items: { type: 'string' }, description: 'Fields to include' },
        },
        required: verb === 'list' || verb === 'search' ? ['query'] : ['id'],
        additionalProperties: false,
      },
      annotations: {
        readOnlyHint: ['get', 'list', 'search', 'fetch'].includes(verb),
        destructiveHint: verb === 'delete',
        openWorldHint: ['send', 'fetch', 'sync'].includes(verb),
      },
    });
  }
  return tools;
}

export const obj = (properties: Record<string, object>, required: string[] = []): Tool['inputSchema'] => ({
  type: 'object',
  properties,
  required,
});

export function specialTools(): Tool[] {
  return [
    {
      name: 'echo',
      description: 'Echoes the message back.',
      inputSchema: obj({ message: { type: 'string' } }, ['message']),
      annotations: { readOnlyHint: true },
    },
    { name: 'fail', description: 'Always fails.', inputSchema: obj({ message: { type: 'string' } }) },
    { name: 'image', description: 'Returns a caption and a tiny PNG.', inputSchema: obj({}) },
    { name: 'audio', description: 'Returns a short WAV clip.', inputSchema: obj({}) },
    { name: 'links', description: 'Returns a resource link and an embedded resource.', inputSchema: obj({}) },
    {
      name: 'structured',
      description: 'Returns structured content.',
      inputSchema: obj({ city: { type: 'string' } }),
    },
    {
      name: 'flood',
      description: 'Returns one huge text block.',
      inputSchema: obj({ chars: { type: 'number' } }, ['chars']),
    },
    {
      name: 'crash',
      description: 'Exits the server process in the middle of the call.',
      inputSchema: obj({}),
    },
    {
      name: 'slow',
      description: 'Works in steps, reporting progress; stops when cancelled.',
      inputSchema: obj({ steps: { type: 'number' }, stepMs: { type: 'number' } }),
    },
    { name: 'cancelled_calls', description: 'How many calls were cancelled so far.', inputSchema: obj({}) },
    {
      name: 'elicit',
      description: 'Asks the user a question.',
      inputSchema: obj({ question: { type: 'string' } }),
    },
    {
      name: 'elicit_url',
      description: 'Asks the user to visit a page (a URL-mode elicitation).',
      inputSchema: obj({ url: { type: 'string' } }),
    },
    {
      name: 'write_file',
      description: 'Writes a file.',
      inputSchema: obj(
        { path: { type: 'string', description: 'Path of the file to write' }, content: { type: 'string' } },
        ['path', 'content'],
      ),
    },
    {
      name: 'add_tool',
      description: 'Registers a new tool.',
      inputSchema: obj({ name: { type: 'string' } }, ['name']),
    },
    { name: 'rug_pull', description: "Changes echo's description and schema.", inputSchema: obj({}) },
    {
      name: 'approve',
      description: 'A permission prompt tool: allows calls whose input does not mention "secret".',
      inputSchema: obj({
        tool_name: { type: 'string' },
        input: { type: 'object' },
        tool_use_id: { type: 'string' },
      }),
    },
    { name: 'roots', description: "Lists the client's roots.", inputSchema: obj({}) },
    {
      name: 'pinned_hint',
      description: 'A tool that is always loaded.',
      inputSchema: obj({}),
      _meta: {
        'anthropic/alwaysLoad': true,
        'anthropic/searchHint': 'lighthouse beacon',
        'anthropic/maxResultSizeChars': 200_000,
      },
    },
  ];
}
