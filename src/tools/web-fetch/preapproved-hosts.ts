/**
 * Documentation hosts WebFetch may read without asking (README.md "Permissions"). Kept as data,
 * each with the reason it is here: a public reference site of a language, runtime or widely used
 * tool, serving documentation rather than user content. Exact hosts only (no subdomains, no
 * paths): a site that also hosts user uploads or forums is not listed.
 *
 * The tool's own permission check allows these hosts; the engine consults deny rules, ask rules,
 * hooks and plan mode before it, so an explicit `WebFetch(domain:…)` deny or ask rule overrides
 * the list. `webFetch.preapprovedHosts: false` in settings turns the list off.
 */

export interface PreapprovedHost {
  host: string;
  reason: string;
}

export const PREAPPROVED_HOSTS: readonly PreapprovedHost[] = Object.freeze([
  { host: 'developer.mozilla.org', reason: 'MDN: the web platform reference (HTML, CSS, JavaScript, HTTP)' },
  { host: 'docs.python.org', reason: 'the Python language and standard library documentation' },
  { host: 'nodejs.org', reason: 'the Node.js API documentation' },
  { host: 'www.typescriptlang.org', reason: 'the TypeScript handbook and compiler options' },
  { host: 'doc.rust-lang.org', reason: 'the Rust book, standard library and reference' },
  { host: 'go.dev', reason: 'the Go language specification and documentation' },
  { host: 'docs.oracle.com', reason: 'the Java SE API and language specification' },
  { host: 'learn.microsoft.com', reason: '.NET, C# and Windows documentation' },
  { host: 'en.cppreference.com', reason: 'the C and C++ language and library reference' },
  { host: 'git-scm.com', reason: 'the Git reference manual' },
  { host: 'docs.github.com', reason: 'GitHub features, Actions and REST API documentation' },
  { host: 'docs.docker.com', reason: 'Docker and Compose reference' },
  { host: 'kubernetes.io', reason: 'the Kubernetes documentation and API reference' },
  { host: 'react.dev', reason: 'the React documentation' },
  { host: 'www.postgresql.org', reason: 'the PostgreSQL manual' },
  { host: 'sqlite.org', reason: 'the SQLite documentation' },
  { host: 'man7.org', reason: 'the Linux man pages' },
]);

const HOSTS: ReadonlyMap<string, PreapprovedHost> = new Map(PREAPPROVED_HOSTS.map((h) => [h.host, h]));

/** The entry for a normalised host, if it is pre-approved. */
export function preapprovedHost(host: string): PreapprovedHost | undefined {
  return HOSTS.get(host);
}
