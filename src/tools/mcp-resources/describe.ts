/**
 * What the MCP resource tools would do, for the permission engine: read from MCP servers the user
 * configured; nothing on this machine. The trait table marks both `noEffect` and open world.
 */
import type { FullToolDescriberEntry } from '../../core/call-describer.js';

const str = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 200) : '');

export const listMcpResourcesDescriber: FullToolDescriberEntry = {
  name: 'ListMcpResourcesTool',
  describe: (input) => ({
    ruleContents: [],
    effects: [],
    findings: [],
    readOnly: true,
    summary: `list MCP resources${str(input.server) ? ` of ${str(input.server)}` : ''}`,
  }),
  isReadOnly: () => true,
  toAutoClassifierInput: (input) => `list MCP resources ${str(input.server)}`.trim(),
};

export const readMcpResourceDescriber: FullToolDescriberEntry = {
  name: 'ReadMcpResourceTool',
  describe: (input) => ({
    ruleContents: [],
    effects: [],
    findings: [],
    readOnly: true,
    summary: `read MCP resource ${str(input.uri)} from ${str(input.server)}`,
  }),
  isReadOnly: () => true,
  toAutoClassifierInput: (input) => `read MCP resource ${str(input.server)} ${str(input.uri)}`,
};
