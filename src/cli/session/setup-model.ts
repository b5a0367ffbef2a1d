/**
 * Agent set-up, phase 2: the model client, from `--model`/`--provider`, the environment and the
 * settings' `model`/`provider`/`env` (model/config.ts resolves them). A main agent's own model
 * (`--agent`) that cannot be used with this configuration gives way to the session's, with a
 * warning. A configuration that cannot work is a start-up error.
 */
import { ModelConfigError } from '../../model/config.js';
import { type ConfiguredModelClient, createModelClient } from '../../model/create-model-client.js';
import { AgentSetupError, type AgentFlags } from './agent-setup-types.js';
import type { MainAgent } from './main-agent.js';
import type { SettingsExtras } from './settings-extras.js';

/** Builds the session's model client. Throws `AgentSetupError`. */
export function createSetupModelClient(
  flags: AgentFlags,
  env: Readonly<Record<string, string | undefined>>,
  extras: SettingsExtras,
  mainAgent: MainAgent | undefined,
  warnings: string[],
): ConfiguredModelClient {
  const clientFor = (model: string | undefined): ConfiguredModelClient =>
    createModelClient({
      flags: {
        ...(model !== undefined ? { model } : {}),
        ...(flags.provider !== undefined ? { provider: flags.provider } : {}),
      },
      env,
      settings: {
        ...(extras.model ? { model: extras.model } : {}),
        ...(extras.provider ? { provider: extras.provider } : {}),
        env: extras.env,
      },
    });
  try {
    const agentModel = flags.model === undefined ? mainAgent?.model : undefined;
    try {
      return clientFor(flags.model ?? agentModel);
    } catch (e) {
      // The agent's model (an Anthropic alias on another provider, say) gives way to the session's.
      if (!(e instanceof ModelConfigError) || agentModel === undefined) throw e;
      warnings.push(`--agent: model "${agentModel}" ignored: ${e.message}`);
      return clientFor(undefined);
    }
  } catch (e) {
    if (e instanceof ModelConfigError) throw new AgentSetupError(e.message);
    throw e;
  }
}
