/**
 * What the model should know when Bash commands run sandboxed (the Claude Code sandboxing docs [ANALYSIS]: default to
 * running sandboxed, recognise sandbox refusals, explain them, only then retry outside; use
 * $TMPDIR). Our own words; a host appends it to the Bash tool's prompt when the sandbox is on.
 */
import type { SandboxSettings } from '../core/sandbox-settings.js';

/** The prompt section for `settings` ('' when the sandbox is off). */
export function sandboxPromptSection(settings: SandboxSettings): string {
  if (!settings.enabled) return '';
  const domains = settings.network.allowedDomains;
  const lines = [
    'Commands run in an OS sandbox:',
    '- Files: writable only inside the working directories and $TMPDIR (use $TMPDIR for temporary files, not /tmp). Shell, git and agent configuration files stay read-only even there, and credential directories such as ~/.ssh are hidden.',
    domains.length > 0
      ? `- Network: only these hosts are reachable, through the HTTP(S) proxy already set in the environment: ${domains.join(', ')}. Other hosts are refused by the proxy (403); programs that ignore HTTP_PROXY/HTTPS_PROXY cannot connect at all.`
      : '- Network: none. Every connection fails.',
    '- A refusal shows up as "Read-only file system", "Operation not permitted", a missing file, or a failed connection; the result then carries [sandbox] notes naming what was refused.',
    settings.allowUnsandboxedCommands
      ? '- When a command fails because of the sandbox and really needs that access, explain which path or host was refused, then retry with dangerouslyDisableSandbox: true; the user will be asked to approve it. Never use it for a command that did not hit the sandbox.'
      : '- Running outside the sandbox is disabled by policy: do not use dangerouslyDisableSandbox; tell the user what access the task needs.',
  ];
  return lines.join('\n');
}
