/**
 * Agent set-up, phase 5: what the loop reads once per session besides tools: the custom and
 * appended system prompt (flags, prompt files, or the main agent's prompt), the thinking request,
 * the result-size thresholds from managed settings, and the permission mode (a main agent's
 * `permissionMode` applies when no flag set one).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ThinkingRequest } from '../../core/model-client.js';
import type { PermissionMode } from '../../core/permission-types.js';
import { readManagedToolLimits } from '../../loop/thresholds.js';
import type { ToolResultLimits } from '../../loop/types.js';
import type { LoadedSettings } from '../../permissions/index.js';
import { AgentSetupError, type AgentFlags } from './agent-setup-types.js';
import { type MainAgent, mainAgentMode } from './main-agent.js';

function readPromptFile(flag: string, file: string, cwd: string): string {
  const abs = path.resolve(cwd, file);
  try {
    return readFileSync(abs, 'utf8');
  } catch (e) {
    throw new AgentSetupError(
      `${flag}: cannot read ${abs} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
}

/** The thinking request of `--thinking` / `--max-thinking-tokens`. Throws `AgentSetupError`. */
export function thinkingFrom(flags: AgentFlags): ThinkingRequest | undefined {
  if (flags.thinking === 'disabled') return { type: 'disabled' };
  if (flags.thinking === 'adaptive') return { type: 'adaptive' };
  if (flags.maxThinkingTokens !== undefined)
    return flags.maxThinkingTokens === 0
      ? { type: 'disabled' }
      : { type: 'enabled', budgetTokens: flags.maxThinkingTokens };
  if (flags.thinking === 'enabled')
    throw new AgentSetupError('--thinking enabled needs --max-thinking-tokens <n>');
  return undefined;
}

export interface SetupPrompt {
  systemPrompt?: string;
  appendSystemPrompt?: string;
  thinking?: ThinkingRequest;
  toolResultLimits: ToolResultLimits;
  permissionMode: PermissionMode;
}

/** Reads the prompt files and the managed limits; problems go to `warnings`. Throws `AgentSetupError`. */
export function readSetupPrompt(input: {
  flags: AgentFlags;
  cwd: string;
  home: string;
  settings: LoadedSettings;
  mainAgent: MainAgent | undefined;
  warnings: string[];
}): SetupPrompt {
  const { flags, cwd, home, settings, mainAgent, warnings } = input;
  const systemPrompt =
    flags.systemPromptFile !== undefined
      ? readPromptFile('--system-prompt-file', flags.systemPromptFile, cwd)
      : (flags.systemPrompt ??
        (mainAgent?.definition.prompt.trim() ? mainAgent.definition.prompt : undefined));
  const appendSystemPrompt =
    flags.appendSystemPromptFile !== undefined
      ? readPromptFile('--append-system-prompt-file', flags.appendSystemPromptFile, cwd)
      : flags.appendSystemPrompt;
  const thinking = thinkingFrom(flags);
  const managedLimits = readManagedToolLimits({
    ...(flags.managedFiles ? { managedFiles: flags.managedFiles } : {}),
    projectRoot: cwd,
    home,
  });
  for (const p of managedLimits.problems) warnings.push(`managed settings: ${p.file}: ${p.message}`);

  const agentMode =
    mainAgent && flags.permissionMode === undefined && !flags.dangerouslySkipPermissions
      ? mainAgentMode(
          mainAgent,
          {
            trusted: settings.trust.trusted,
            bypassDisabled: settings.disableBypassPermissionsMode === true,
          },
          warnings,
        )
      : undefined;
  return {
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(appendSystemPrompt !== undefined ? { appendSystemPrompt } : {}),
    ...(thinking ? { thinking } : {}),
    toolResultLimits: managedLimits.limits,
    permissionMode: agentMode ?? settings.defaultMode,
  };
}
