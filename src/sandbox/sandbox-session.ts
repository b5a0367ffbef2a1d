/**
 * What one session's sandbox sets up once, on its first sandboxed call: a private temp
 * root (`mkdtemp`, mode 0700) holding `tmp/` (the commands' TMPDIR), the seccomp program, and the
 * proxy's Unix socket; the filtering proxy; the network holder (shared network namespace + socat
 * bridge). Degrades instead of failing: no seccomp table for this CPU → no filter (said once);
 * no socat/nsenter, or the proxy/holder cannot start → a private, closed network per command
 * (said once).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SandboxSettings } from '../core/sandbox-settings.js';
import type { SandboxAvailability } from './availability.js';
import { compileDomainPolicy } from './domain-policy.js';
import { type NetworkBridge, startNetworkBridge } from './network-bridge.js';
import { type ProxyEvent, type SandboxProxy, startSandboxProxy } from './network-proxy.js';
import { buildSeccompFilter } from './seccomp.js';

export interface SandboxSession {
  root: string;
  /** The commands' TMPDIR (writable inside). */
  tmpDir: string;
  seccompFile?: string;
  /** Degradations to tell the model once (without the `[sandbox]` prefix). */
  notices: string[];
  /** The running network holder, if any. */
  bridge(): NetworkBridge | undefined;
  /** True when the shared network namespace is up; restarts a holder that died. */
  bridgeAlive(): Promise<boolean>;
  /** Stops the holder and the proxy, removes the temp root. */
  close(): Promise<void>;
}

export interface SessionOptions {
  settings: SandboxSettings;
  availability: Promise<SandboxAvailability>;
  tmpRoot?: string;
  onProxyEvent: (event: ProxyEvent) => void;
}

/** Sets the session up (see the module comment). Throws only when the temp root cannot be created. */
export async function createSandboxSession(options: SessionOptions): Promise<SandboxSession> {
  const root = mkdtempSync(path.join(options.tmpRoot ?? tmpdir(), 'gantry-sandbox-'));
  const tmpDir = path.join(root, 'tmp');
  mkdirSync(tmpDir, { mode: 0o700 });
  const notices: string[] = [];
  let seccompFile: string | undefined;
  const filter = buildSeccompFilter({ allowLocalBinding: options.settings.network.allowLocalBinding });
  if (filter) {
    seccompFile = path.join(root, 'seccomp.bpf');
    writeFileSync(seccompFile, filter, { mode: 0o600 });
  } else {
    notices.push(
      `no seccomp filter for ${process.arch}: Unix-domain sockets are not blocked inside the sandbox.`,
    );
  }

  const availability = await options.availability;
  let proxy: SandboxProxy | undefined;
  let bridge: NetworkBridge | undefined;
  const startBridge = (socketPath: string) =>
    startNetworkBridge({
      bwrapPath: availability.bwrapPath,
      socatPath: availability.socatPath,
      nsenterPath: availability.nsenterPath,
      proxySocketPath: socketPath,
    });
  if (!availability.proxyBridge) {
    notices.push(
      `network is fully closed inside the sandbox (${availability.proxyReason}); sandbox.network.allowedDomains cannot be honoured.`,
    );
  } else {
    try {
      proxy = await startSandboxProxy({
        socketPath: path.join(root, 'proxy.sock'),
        policy: compileDomainPolicy(options.settings.network),
        onEvent: options.onProxyEvent,
        allowPrivateNetworks: options.settings.network.allowPrivateNetworks === true,
      });
      bridge = await startBridge(proxy.socketPath);
    } catch (error) {
      await proxy?.close();
      proxy = undefined;
      notices.push(
        `network is fully closed inside the sandbox (the proxy could not start: ${(error as Error).message}).`,
      );
    }
  }

  return {
    root,
    tmpDir,
    ...(seccompFile ? { seccompFile } : {}),
    notices,
    bridge: () => bridge,
    async bridgeAlive() {
      if (!bridge || !proxy) return false;
      if (bridge.alive()) return true;
      try {
        bridge = await startBridge(proxy.socketPath);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await bridge?.close();
      await proxy?.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
