/**
 * Fills the Monitor tool's ports (tools/monitor/ports.ts) with the Bash tool's spawn path and
 * shell analysis and the WebFetch host rules, so the Monitor folder imports neither tool and
 * neither is duplicated. Loaded by the registry only when the `MONITOR` flag is on.
 */
import { ToolExecutionError } from '../core/index.js';
import type { WebFetchSettings } from '../core/web-settings.js';
import { bashLimitsFromEnv } from './bash/bash-input.js';
import { startCwd } from './bash/cwd.js';
import { monitorDescriber } from './bash/describe.js';
import { startProcess } from './bash/exec.js';
import { defaultShellPort, type ShellAnalysisPort } from './bash/shell-port.js';
import { type BashSandbox, buildShellSpawnSpec } from './bash/spawn-spec.js';
import type { MonitorPorts } from './monitor/ports.js';
import { BlockedAddressError, guardedLookup, type Resolver } from './web-fetch/network-guard.js';
import { compileNetworkPolicy, hostRefusal, urlHost } from './web-fetch/url-policy.js';

export interface MonitorPortOptions {
  /** The session's OS sandbox (the one Bash uses). */
  sandbox?: BashSandbox;
  /** `webFetch.allowPrivateHosts` applies to `ws` hosts too. */
  webFetch?: Pick<WebFetchSettings, 'allowPrivateHosts'>;
  /** Environment of commands (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Shell analysis (default: `src/shell`). */
  shell?: ShellAnalysisPort;
  /** Name resolution of the connect-time guard (tests map names to 127.0.0.1). */
  resolver?: Resolver;
  /** SIGTERM → SIGKILL grace of a stopped command, ms (default: Bash's). */
  killGraceMs?: number;
}

/** The ports of a Monitor tool for one session's settings. */
export function monitorPorts(options: MonitorPortOptions = {}): MonitorPorts {
  const env = options.env ?? process.env;
  const shell = options.shell ?? defaultShellPort;
  const graceMs = options.killGraceMs ?? bashLimitsFromEnv(env).killGraceMs;
  const envFile = env.GANTRY_ENV_FILE ?? env.CLAUDE_ENV_FILE;
  const policy = compileNetworkPolicy({ allowPrivateHosts: options.webFetch?.allowPrivateHosts ?? [] });
  const sandbox = options.sandbox;
  return {
    shell: {
      spec: ({ command, cwd }) =>
        buildShellSpawnSpec({
          command,
          cwd,
          env,
          // A watch never changes the session cwd: the EXIT trap writes nowhere.
          cwdFile: '/dev/null',
          ...(envFile ? { envFile } : {}),
        }),
      start: (spec, outputFile) => startProcess({ spec, outputFile, graceMs, unref: true, stdoutPipe: true }),
      ...(sandbox
        ? {
            sandbox: {
              wrap: (spec, info) => sandbox.wrap(spec, info),
              ...(sandbox.decide ? { decide: (input) => sandbox.decide!(input) } : {}),
            },
          }
        : {}),
      startCwd: (state) => startCwd(state).cwd,
    },
    network: {
      refusal: (url) => {
        const refusal = hostRefusal(urlHost(url), policy);
        if (refusal?.kind !== 'blocked') return undefined;
        return { host: refusal.host, ...(refusal.address !== undefined ? { address: refusal.address } : {}) };
      },
      lookup: guardedLookup(policy, options.resolver) as (...args: never[]) => void,
      blocked: (error) => {
        let e: unknown = error;
        for (let i = 0; i < 4 && e instanceof Error; i++) {
          if (e instanceof BlockedAddressError) return { host: e.host, address: e.address };
          e = e.cause;
        }
        return undefined;
      },
    },
    describer: monitorDescriber(async (command, world) => {
      await shell.init();
      const analysis = shell.analyzeAsync
        ? await shell.analyzeAsync(command, world.cwd)
        : shell.analyzeSync(command, world.cwd);
      if (!analysis)
        throw new ToolExecutionError(
          'The shell analysis of this command failed, so it cannot be checked and was not run.',
        );
      return shell.describeAnalysis(analysis);
    }),
  };
}
