/**
 * Sandbox violation notes for the tool result (the Claude Code sandboxing docs "escape hatch"; docs/architecture.md
 * `annotateStderrWithSandboxFailures`). Pure: the command's output, what the sandbox knew about the
 * call (its writable/protected/hidden paths, the proxy's refusals, protected names created) in;
 * lines the model can act on out — which path or host was refused, that the sandbox did it, and the
 * next step (use $TMPDIR, change the settings, or retry with `dangerouslyDisableSandbox`).
 */
import path from 'node:path';
import { fsPathResolver, isInsideAny, isPathInside } from '../core/paths.js';
import type { ProtectedChange, ProtectedRecord } from './filesystem-policy.js';
import type { ProxyEvent } from './network-proxy.js';

/** What the sandbox knew about one finished command. */
export interface ViolationContext {
  cwd: string;
  writable: readonly string[];
  readOnly: readonly ProtectedRecord[];
  hidden: readonly string[];
  sessionTmpDir: string;
  /** Proxy decisions attributed to this command. */
  proxyEvents: readonly ProxyEvent[];
  protectedChanges: readonly ProtectedChange[];
  /** The allow-listed proxy was running for this command. */
  proxyEnabled: boolean;
  allowLocalBinding: boolean;
  allowUnsandboxedCommands: boolean;
}

const MAX_NOTES = 12;

/**
 * Paths mentioned in an error line, in order: quoted ('x', ‘x’, "x", `x') and the
 * `prog: x: message` form (`bash: line 5: .bashrc: Read-only file system`).
 */
export function pathsInLine(line: string): string[] {
  const found: { at: number; path: string }[] = [];
  for (const m of line.matchAll(/[\u2018'`"]([^\u2018\u2019'`"\n]+)[\u2019'"]/g))
    found.push({ at: m.index, path: m[1] as string });
  for (const m of line.matchAll(
    /(?:^|[:\s])([^\s:'"\u2018\u2019`]+)(?=: (?:Read-only file system|No such file or directory|Permission denied|Operation not permitted))/g,
  )) {
    found.push({ at: m.index, path: m[1] as string });
  }
  return found
    .sort((a, b) => a.at - b.at)
    .map((f) => f.path)
    .filter(
      (p) =>
        p.length > 0 && !/\s{2,}/.test(p) && (p.includes('/') || p.startsWith('.') || /^[\w.-]+$/.test(p)),
    );
}

function describeWrite(abs: string, ctx: ViolationContext): string {
  const protectedRec = ctx.readOnly.find((r) => isPathInside(abs, r.path));
  if (protectedRec) {
    return `[sandbox] writing to ${abs} was blocked by the sandbox: ${protectedRec.path} is protected (${protectedRec.why}); protected paths stay read-only even inside the working directories.`;
  }
  if (ctx.hidden.some((h) => isPathInside(abs, h))) {
    return `[sandbox] writing to ${abs} was blocked by the sandbox: the path is hidden by sandbox.filesystem.denyRead.`;
  }
  return `[sandbox] writing to ${abs} was blocked by the sandbox (not in the allowed write paths: ${ctx.writable.join(', ')}). Use $TMPDIR (${ctx.sessionTmpDir}) for temporary files, or add the path to sandbox.filesystem.allowWrite.`;
}

/**
 * Returns the violation notes for one command ('' when none). `text` is the command's output
 * (stdout and stderr interleaved) plus any harness notes.
 */
export function sandboxViolationNotes(text: string, ctx: ViolationContext): string {
  const notes: string[] = [];
  const add = (note: string) => {
    if (!notes.includes(note)) notes.push(note);
  };
  // Symlinks resolved as the kernel would (`link/x` where link → /outside is a write to /outside/x).
  const resolve = (p: string) => (p.startsWith('~/') ? p : fsPathResolver.realpath(path.resolve(ctx.cwd, p)));

  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (notes.length >= MAX_NOTES) break;
    const context = lines.slice(Math.max(0, index - 3), index + 1).join('\n');
    if (/Read-only file system|EROFS/.test(line)) {
      const paths = pathsInLine(line)
        .map(resolve)
        .filter((p) => p.startsWith('/'));
      // Prefer a protected target; else the last refused path (the destination of `cp a b`).
      const writeTarget =
        paths.find((p) => ctx.readOnly.some((r) => isPathInside(p, r.path))) ??
        paths.filter((p) => !isInsideAny(p, ctx.writable)).at(-1);
      if (writeTarget) add(describeWrite(writeTarget, ctx));
      else
        add(
          `[sandbox] a write was blocked by the sandbox (read-only file system). Writable: ${ctx.writable.join(', ')}.`,
        );
      continue;
    }
    if (/No such file or directory|ENOENT|Permission denied|EACCES/.test(line)) {
      const hiddenPath = pathsInLine(line)
        .map(resolve)
        .find((p) => ctx.hidden.some((h) => isPathInside(p, h)));
      if (hiddenPath) {
        add(
          `[sandbox] ${hiddenPath} is hidden by the sandbox (sandbox.filesystem.denyRead: credentials are unreadable to sandboxed commands).`,
        );
        continue;
      }
    }
    if (/(Operation not permitted|EPERM)/.test(line) && /listen/i.test(line) && !ctx.allowLocalBinding) {
      add(
        '[sandbox] listening on a port was blocked by the sandbox (sandbox.network.allowLocalBinding is false).',
      );
      continue;
    }
    if (/(Operation not permitted|EPERM)/.test(line) && /socket|unix|AF_UNIX|\.sock\b/i.test(context)) {
      add(
        '[sandbox] creating a Unix-domain socket was blocked by the sandbox (it would reach host services such as the Docker or ssh-agent sockets).',
      );
      continue;
    }
    const unresolved =
      /Could not resolve (?:host|proxy): (\S+)|getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (\S+)|Temporary failure in name resolution|Name or service not known/.exec(
        line,
      );
    if (unresolved) {
      const host = unresolved[1] ?? unresolved[2];
      add(
        `[sandbox] ${host ? `${host} could not be resolved` : 'a host name could not be resolved'}: sandboxed commands have no direct network access${ctx.proxyEnabled ? '; only hosts in sandbox.network.allowedDomains are reachable, through the proxy in $HTTPS_PROXY (programs that ignore HTTP(S)_PROXY cannot connect)' : ' (network is closed: no proxy is running)'}.`,
      );
      continue;
    }
    if (
      /Network is unreachable|ENETUNREACH|Connection refused|ECONNREFUSED|Failed to connect to/.test(line) &&
      !/127\.0\.0\.1:3128/.test(line)
    ) {
      add(
        `[sandbox] a direct network connection failed inside the sandbox: only its private loopback exists${ctx.proxyEnabled ? '; allowed hosts are reachable through the proxy in $HTTPS_PROXY' : ''}.`,
      );
    }
  }

  const blocked = new Map<string, ProxyEvent>();
  for (const e of ctx.proxyEvents) if (!e.allowed) blocked.set(`${e.host}:${e.port}`, e);
  for (const [hostPort, e] of blocked) {
    if (notes.length >= MAX_NOTES) break;
    add(`[sandbox] network access to ${hostPort} was blocked by the sandbox proxy: ${e.detail}.`);
  }
  for (const c of ctx.protectedChanges) {
    add(
      `[sandbox] the command ${c.change} the protected path ${c.path}; the sandbox blocks writes to existing protected files but cannot stop new ones being created (it never places markers in the user's tree). Tell the user, and do not rely on that file.`,
    );
  }
  if (notes.length === 0) return '';
  notes.push(
    ctx.allowUnsandboxedCommands
      ? '[sandbox] If this access is really needed, explain why; the command can be retried with dangerouslyDisableSandbox: true, which asks the user for permission.'
      : '[sandbox] Running outside the sandbox is disabled by policy (sandbox.allowUnsandboxedCommands: false).',
  );
  return notes.join('\n');
}
