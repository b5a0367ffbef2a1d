/**
 * Can this machine run the sandbox?. Probed once per
 * binary set with real runs and cached for the life of the process:
 * - not Linux → unavailable;
 * - `bwrap --unshare-user --unshare-pid --unshare-net --disable-userns … -- true` must exit 0
 *   (catches a missing binary, a bubblewrap older than 0.8, no user namespaces, a seccomp/AppArmor
 *   policy that forbids them);
 * - socat and nsenter (util-linux) are needed for the network proxy bridge; without them the
 *   sandbox still runs, with the network fully closed (allowedDomains cannot be honoured).
 */
import { spawn } from 'node:child_process';

/** Result of the probe. */
export interface SandboxAvailability {
  available: boolean;
  /** Why not, in words for the model and the user (empty when available). */
  reason: string;
  bwrapPath: string;
  /** socat + nsenter usable: the allow-listed network proxy can run. */
  proxyBridge: boolean;
  /** Why the proxy bridge is unavailable (empty when it is). */
  proxyReason: string;
  socatPath: string;
  nsenterPath: string;
}

interface RunResult {
  code: number | null;
  stderr: string;
  spawnError?: string;
}

function run(file: string, args: string[], timeoutMs = 5000): Promise<RunResult> {
  return new Promise((resolve) => {
    let stderr = '';
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      resolve({ code: null, stderr: '', spawnError: String(error) });
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr, spawnError: error.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const cache = new Map<string, Promise<SandboxAvailability>>();

/** Options for {@link probeSandbox}. */
export interface ProbeOptions {
  bwrapPath?: string;
  socatPath?: string;
  nsenterPath?: string;
  /** Override `process.platform` (tests of the non-Linux path). */
  platform?: NodeJS.Platform;
}

/** Probes (once per option set; later calls share the cached promise). Never throws. */
export function probeSandbox(options: ProbeOptions = {}): Promise<SandboxAvailability> {
  const bwrapPath = options.bwrapPath ?? 'bwrap';
  const socatPath = options.socatPath ?? 'socat';
  const nsenterPath = options.nsenterPath ?? 'nsenter';
  const platform = options.platform ?? process.platform;
  const key = JSON.stringify([bwrapPath, socatPath, nsenterPath, platform]);
  let hit = cache.get(key);
  if (!hit) {
    hit = doProbe(bwrapPath, socatPath, nsenterPath, platform);
    cache.set(key, hit);
  }
  return hit;
}

async function doProbe(
  bwrapPath: string,
  socatPath: string,
  nsenterPath: string,
  platform: NodeJS.Platform,
): Promise<SandboxAvailability> {
  const base = { bwrapPath, socatPath, nsenterPath };
  if (platform !== 'linux') {
    const reason = `the OS sandbox needs Linux with bubblewrap; this is ${platform}`;
    return { ...base, available: false, reason, proxyBridge: false, proxyReason: reason };
  }
  const [bwrap, socat, nsenter] = await Promise.all([
    run(bwrapPath, [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--unshare-user',
      '--unshare-pid',
      '--unshare-net',
      '--unshare-ipc',
      '--unshare-uts',
      '--disable-userns',
      '--die-with-parent',
      '--',
      'true',
    ]),
    run(socatPath, ['-V']),
    run(nsenterPath, ['--version']),
  ]);
  let reason = '';
  if (bwrap.spawnError) {
    reason = `bubblewrap could not be started (${bwrapPath}: ${bwrap.spawnError}); install it with \`apt-get install bubblewrap\``;
  } else if (bwrap.code !== 0) {
    const detail = bwrap.stderr.trim().split('\n')[0] ?? '';
    reason = `bubblewrap cannot create a sandbox here (${detail || `exit ${bwrap.code}`}); user namespaces may be disabled`;
  }
  let proxyReason = '';
  if (socat.spawnError || socat.code !== 0)
    proxyReason = `socat is not usable (${socatPath}); install it with \`apt-get install socat\``;
  else if (nsenter.spawnError || nsenter.code !== 0)
    proxyReason = `nsenter (util-linux) is not usable (${nsenterPath})`;
  return {
    ...base,
    available: reason === '',
    reason,
    proxyBridge: reason === '' && proxyReason === '',
    proxyReason,
  };
}
