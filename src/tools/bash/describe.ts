/**
 * What a Bash call would do, for the permission engine: the shell analysis of `command`
 * (sub-commands for rule matching, effects, findings; docs/tool-traits.md "Describers"). The
 * analysis itself is injected (`DescribeCommand`), so this module stays light: the guard loads the
 * shell parser only when a Bash call arrives, and the Bash tool passes its shell port.
 *
 * A `command` that is missing or not a string is described as an ask-level finding, never thrown.
 */
import type { DescribeWorld, ToolDescriberEntry } from '../../core/call-describer.js';
import { knownEffect } from '../../core/effects.js';
import { normalizeHostName } from '../../core/host-name.js';
import type { CallDescription } from '../../core/permission-types.js';

/** The shell analysis of one command line in a world (`src/shell`'s `describeBashCommand`). */
export type DescribeCommand = (
  command: string,
  world: DescribeWorld,
) => CallDescription | Promise<CallDescription>;

/** Describes a shell tool's call (Bash, and Monitor's `command`) with `describeCommand`. */
export function describeShellInput(
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  world: DescribeWorld,
  describeCommand: DescribeCommand,
): CallDescription | Promise<CallDescription> {
  const command = Object.hasOwn(input, 'command') ? input.command : undefined;
  if (typeof command !== 'string')
    return {
      ruleContents: [],
      effects: [],
      findings: [
        { id: 'INVALID_INPUT', message: `${toolName} input has no string \`command\``, behavior: 'ask' },
      ],
      readOnly: false,
      summary: `${toolName} (invalid input)`,
    };
  return describeCommand(command, world);
}

/** The Bash describer over an injected shell analysis. */
export function bashDescriber(describeCommand: DescribeCommand) {
  return {
    name: 'Bash',
    describe: (input, world) => describeShellInput('Bash', input, world, describeCommand),
    toAutoClassifierInput: (input) => (typeof input.command === 'string' ? input.command : ''),
  } satisfies ToolDescriberEntry;
}

/**
 * The Monitor describer (Claude Code's `Monitor`, and Gantry's behind the `MONITOR` flag). It sits
 * beside Bash's so the guard describes a Monitor call without loading the Monitor tool itself.
 *
 * - `command`: exactly a Bash call with that command (sub-commands, effects, findings), so Bash
 *   rules, shell analysis and read-only detection judge it the same way (docs/monitor.md).
 * - `ws`: a network effect on the URL's host, never read-only (so it asks unless a rule decides);
 *   an unusable `ws` value is an ask-level finding. Which hosts may be reached at all is the tool's
 *   own check (private, loopback, link-local and metadata hosts are refused before any prompt).
 */
export function monitorDescriber(describeCommand: DescribeCommand) {
  return {
    name: 'Monitor',
    describe: (input, world) => describeMonitorInput(input, world, describeCommand),
    toAutoClassifierInput: (input) => {
      if (typeof input.command === 'string') return input.command;
      const url = wsUrlOf(input);
      return url === undefined ? '' : `websocket ${url}`;
    },
  } satisfies ToolDescriberEntry;
}

/** The `ws.url` string of a Monitor input, if there is one. */
function wsUrlOf(input: Readonly<Record<string, unknown>>): string | undefined {
  const ws = Object.hasOwn(input, 'ws') ? input.ws : undefined;
  if (typeof ws !== 'object' || ws === null || !Object.hasOwn(ws, 'url')) return undefined;
  const url = (ws as Record<string, unknown>).url;
  return typeof url === 'string' ? url : undefined;
}

function describeMonitorInput(
  input: Readonly<Record<string, unknown>>,
  world: DescribeWorld,
  describeCommand: DescribeCommand,
): CallDescription | Promise<CallDescription> {
  if (Object.hasOwn(input, 'command') || !Object.hasOwn(input, 'ws'))
    return describeShellInput('Monitor', input, world, describeCommand);
  const raw = wsUrlOf(input);
  let host: string | undefined;
  try {
    host = raw === undefined ? undefined : normalizeHostName(new URL(raw).hostname) || undefined;
  } catch {
    host = undefined;
  }
  if (raw === undefined || host === undefined)
    return {
      ruleContents: [],
      effects: [],
      findings: [{ id: 'INVALID_INPUT', message: 'Monitor input has no usable `ws.url`', behavior: 'ask' }],
      readOnly: false,
      summary: 'Monitor (invalid input)',
    };
  return {
    ruleContents: [],
    effects: [knownEffect('network', host, 'tool-input', 'Monitor WebSocket')],
    findings: [],
    readOnly: false,
    summary: `Monitor WebSocket ${raw.slice(0, 200)}`,
  };
}
