/**
 * The OS sandbox for Bash commands (the Claude Code sandboxing docs): bubblewrap + seccomp + a filtering proxy.
 *
 * A host creates one manager per session and passes it to the Bash tool:
 * ```ts
 * const sandbox = createSandboxManager({
 *   settings: loadedSettings.sandbox,                      // core/sandbox-settings.ts (merged by permissions/)
 *   workingDirectories: => [state.projectRoot, ...state.additionalDirectories],
 * });
 * const bash = createBashTool({ sandbox });               // wrap / annotate / decide seam
 * …
 * await sandbox.dispose();                                // stops the proxy and the network holder
 * ```
 */
export { sandboxViolationNotes, type ViolationContext } from './annotate.js';
export { probeSandbox, type SandboxAvailability } from './availability.js';
export { compileDomainPolicy, type DomainDecision, type DomainPolicy } from './domain-policy.js';
export { type FilesystemPlan, planFilesystem } from './filesystem-policy.js';
export { blockedMessage, type ProxyEvent, startSandboxProxy } from './network-proxy.js';
export { sandboxPromptSection } from './prompt.js';
export {
  createSandboxManager,
  proxyEnv,
  type SandboxCallInfo,
  SandboxManager,
  type SandboxManagerOptions,
  type SandboxSpawnSpec,
} from './sandbox-manager.js';
export {
  type CommandShape,
  exclusionBlocker,
  matchesCommandPattern,
  type SandboxCallInput,
  type SandboxDecision,
  shouldUseSandbox,
} from './should-use-sandbox.js';
