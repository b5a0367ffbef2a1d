/**
 * The sandbox's filtering HTTP/HTTPS proxy (the Claude Code sandboxing docs). It runs in the parent
 * Node process and listens on a Unix socket; inside the sandbox, socat bridges 127.0.0.1:3128 to
 * that socket (network-bridge.ts). Because it lives in this event loop, sandboxed commands must be
 * spawned asynchronously (docs/dependencies.md "Sandboxing").
 *
 * Per request: `CONNECT host:port` (HTTPS and any TCP) or an absolute-form `GET http://host/…`
 * (plain HTTP) → {@link DomainPolicy.decide} → refused: `403` with a body naming the host and
 * "blocked by Gantry sandbox policy"; allowed: resolve the name here, refuse an address of the
 * machine itself or of a private network unless an entry names it exactly (`judge`; DNS rebinding
 * to host services or cloud metadata), then tunnel / forward to the addresses that were checked. Every decision is recorded with the
 * caller's token (from `Proxy-Authorization: Basic gantry:<token>`, which clients send when the
 * proxy URL carries credentials) so violations can be reported in the right tool result.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import { classifyAddress } from './address-guard.js';
import { type DomainPolicy, isLoopbackHost, normalizeHost } from './domain-policy.js';

/** One decision the proxy made. */
export interface ProxyEvent {
  atMs: number;
  /** Token of the sandboxed command that asked, when its client sent one. */
  token?: string;
  host: string;
  port: number;
  allowed: boolean;
  /** Why it was refused (for the model), or the matching allow entry. */
  detail: string;
}

export interface SandboxProxy {
  readonly socketPath: string;
  /** Stops listening and destroys open tunnels. */
  close(): Promise<void>;
}

export interface StartProxyOptions {
  socketPath: string;
  policy: DomainPolicy;
  onEvent: (event: ProxyEvent) => void;
  /** Name resolution (default: the system resolver, all addresses). */
  resolveHost?: HostResolver;
  /** Let names reach private networks (10/8, 172.16/12, 192.168/16, 100.64/10); default false. */
  allowPrivateNetworks?: boolean;
}

const BLOCK_HINT =
  'Add the host to sandbox.network.allowedDomains in the settings, or retry with dangerouslyDisableSandbox: true if the user approves running it outside the sandbox.';

/** The body of a refusal (also what the model reads in curl's output with `-i`/`-v`). */
export function blockedMessage(host: string, port: number, why: string): string {
  return `Connection to ${host}:${port} blocked by Gantry sandbox policy: ${why}. ${BLOCK_HINT}\n`;
}

function tokenOf(header: string | undefined): string | undefined {
  if (!header?.toLowerCase().startsWith('basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

/** Splits `host:port` / `[v6]:port` (CONNECT authority). */
function splitAuthority(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(authority);
  if (!m) return undefined;
  const host = (m[1] ?? m[2]) as string;
  const port = m[3] === undefined ? defaultPort : Number(m[3]);
  if (!(port > 0 && port < 65536)) return undefined;
  return { host, port };
}

type Verdict = { ok: true; addresses: string[] } | { ok: false; why: string };

/** Resolves a host name to its addresses (injectable for tests of the rebinding guard). */
export type HostResolver = (host: string) => Promise<string[]>;

const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true })).map((a) => a.address);

/**
 * The policy decision, then the address guard after resolution (address-guard.ts): an address of
 * the host itself (loopback, 0.0.0.0, link-local, unique-local, however spelled) is reached only
 * through an entry that names it exactly — the literal address, or `localhost` — and a private
 * network address only through an exact entry (a name the user listed, never `*` or `*.x`) unless
 * private networks are allowed. Wildcard entries never reach either.
 */
async function judge(
  policy: DomainPolicy,
  resolveHost: HostResolver,
  host: string,
  port: number,
  allowPrivate: boolean,
): Promise<Verdict & { rule?: string }> {
  const d = policy.decide(host, port);
  if (!d.allowed) {
    return d.reason === 'denied'
      ? { ok: false, why: `${host} is in sandbox.network.deniedDomains (${d.rule})` }
      : { ok: false, why: `${host}:${port} is not in sandbox.network.allowedDomains` };
  }
  const name = normalizeHost(host);
  const literal = net.isIP(name) !== 0;
  let addresses: string[];
  try {
    addresses = literal ? [name] : await resolveHost(name);
  } catch {
    return { ok: false, why: `could not resolve ${host}` };
  }
  if (addresses.length === 0) return { ok: false, why: `could not resolve ${host}` };
  const namedExactly = d.exact && (literal || isLoopbackHost(name));
  for (const a of addresses) {
    const cls = classifyAddress(a, !allowPrivate);
    if (cls === 'host' && !namedExactly)
      return {
        ok: false,
        why: `${host} ${literal ? 'is' : `resolves to ${a}, which is`} an address of this machine or its link (loopback, 0.0.0.0, link-local, unique-local); list the address itself to allow it`,
      };
    if (cls === 'private' && !d.exact)
      return {
        ok: false,
        why: `${host} ${literal ? 'is' : `resolves to ${a}, which is`} on a private network; list the host itself (not a wildcard) or set sandbox.network.allowPrivateNetworks`,
      };
  }
  // IPv4 first: `localhost` servers usually listen on 127.0.0.1 only.
  addresses.sort((a, b) => net.isIP(a) - net.isIP(b));
  return { ok: true, addresses, rule: d.rule };
}

/** Connects to the first address that accepts. */
function connectAny(addresses: readonly string[], port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const attempt = (i: number, lastError?: Error) => {
      const address = addresses[i];
      if (address === undefined) {
        reject(lastError ?? new Error('no address'));
        return;
      }
      const socket = net.connect({ host: address, port });
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        resolve(socket);
      });
      socket.once('error', (error) => {
        socket.destroy();
        attempt(i + 1, error);
      });
    };
    attempt(0);
  });
}

/** Starts the proxy on `socketPath` (which must not exist). Resolves once it listens. */
export async function startSandboxProxy(options: StartProxyOptions): Promise<SandboxProxy> {
  const { policy, onEvent } = options;
  const resolveHost = options.resolveHost ?? systemResolver;
  const allowPrivate = options.allowPrivateNetworks === true;
  const sockets = new Set<net.Socket>();
  const record = (
    token: string | undefined,
    host: string,
    port: number,
    verdict: Verdict & { rule?: string },
  ) =>
    onEvent({
      atMs: Date.now(),
      ...(token ? { token } : {}),
      host,
      port,
      allowed: verdict.ok,
      detail: verdict.ok ? `allowed by ${verdict.rule ?? 'policy'}` : verdict.why,
    });

  const server = http.createServer(async (req, res) => {
    const token = tokenOf(req.headers['proxy-authorization']);
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Gantry sandbox proxy: expected an absolute http:// URL.\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Gantry sandbox proxy: use CONNECT for https.\n');
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = url.port ? Number(url.port) : 80;
    const verdict = await judge(policy, resolveHost, host, port, allowPrivate);
    record(token, host, port, verdict);
    if (!verdict.ok) {
      res
        .writeHead(403, { 'content-type': 'text/plain', 'x-gantry-sandbox': 'blocked' })
        .end(blockedMessage(host, port, verdict.why));
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      {
        host: verdict.addresses[0],
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`Gantry sandbox proxy: ${host}:${port} failed: ${error.message}\n`);
    });
    req.pipe(upstream);
  });

  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const token = tokenOf(req.headers['proxy-authorization']);
    const target = splitAuthority(req.url ?? '', 443);
    if (!target) {
      client.end(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\n\r\nGantry sandbox proxy: bad CONNECT target.\n',
      );
      return;
    }
    const verdict = await judge(policy, resolveHost, target.host, target.port, allowPrivate);
    record(token, target.host, target.port, verdict);
    if (!verdict.ok) {
      const body = blockedMessage(target.host, target.port, verdict.why);
      client.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nX-Gantry-Sandbox: blocked\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    let upstream: net.Socket;
    try {
      upstream = await connectAny(verdict.addresses, target.port);
    } catch (error) {
      client.end(
        `HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\n\r\nGantry sandbox proxy: ${target.host}:${target.port} failed: ${(error as Error).message}\n`,
      );
      return;
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });

  server.on('upgrade', (_req: http.IncomingMessage, client: net.Socket) => {
    client.end(
      'HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain\r\n\r\nGantry sandbox proxy: use CONNECT.\n',
    );
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();

  return {
    socketPath: options.socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
