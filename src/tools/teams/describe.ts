/**
 * What the agent-team tools would do, for the permission engine: TeamCreate and TeamDelete manage
 * the team's own folder under `~/.gantry/teams/` and its teammate processes, ListPeers reads it.
 * Each teammate's calls are decided in its own, narrowed permission context (docs/teams.md), so
 * the tools themselves have no effect the engine must weigh (`noEffect` in core/tool-traits.ts).
 * The tools live in `src/agents/teams/`.
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';

function describer(
  name: string,
  readOnly: boolean,
  what: (input: Readonly<Record<string, unknown>>) => string,
): FullToolDescriberEntry {
  return {
    name,
    describe: (input) => ({ ruleContents: [], effects: [], findings: [], readOnly, summary: what(input) }),
    isReadOnly: () => readOnly,
    toAutoClassifierInput: (input) => what(input),
  };
}

export const teamCreateDescriber = describer(
  'TeamCreate',
  false,
  (i) => `create agent team ${textField(i, 'team_name')}`,
);
export const teamDeleteDescriber = describer(
  'TeamDelete',
  false,
  () => 'delete the agent team and stop its teammates',
);
export const listPeersDescriber = describer(
  'ListPeers',
  true,
  () => 'list the agents and teammates of this session',
);
