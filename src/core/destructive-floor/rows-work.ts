/**
 * Destructive-floor rows about work that cannot be recovered: discarding uncommitted or shared git
 * work, recursive removal outside the working directories or of the project itself, and the
 * infrastructure deletions table (databases, clusters, cloud storage, containers). They ask at the
 * standard level and deny at strict; the strict-only rows at the end ask at strict.
 */
import {
  type FloorCall,
  type FloorSub,
  gitSubcommand,
  hasFlag,
  holdsWorkingDir,
  insideWorkingDirs,
  operands,
  recursiveRemoval,
  removalScope,
} from './call.js';
import type { FloorMatch, FloorRow, FloorRowLevel } from './types.js';

/** A row that matches one sub-command at a time: `test` returns what matched, or undefined. */
function perSub(
  id: string,
  level: FloorRowLevel,
  reason: string,
  programs: readonly string[],
  test: (s: FloorSub, call: FloorCall) => string | undefined,
): FloorRow {
  return {
    id,
    level,
    reason,
    needs: { programs },
    match(call) {
      const out: FloorMatch[] = [];
      for (const s of call.subs) {
        const what = test(s, call);
        if (what) out.push({ subcommand: s.index, what });
      }
      return out;
    },
  };
}

/** A git row: `test` gets the git sub-command's own arguments. */
function gitRow(
  id: string,
  level: FloorRowLevel,
  reason: string,
  sub: string | readonly string[],
  test: (args: string[], sub: string) => boolean,
): FloorRow {
  const subs = typeof sub === 'string' ? [sub] : sub;
  return perSub(id, level, reason, ['git'], (s) => {
    const g = gitSubcommand(s);
    return g && subs.includes(g.sub) && test(g.args, g.sub)
      ? `git ${g.sub} ${g.args.join(' ')}`.trim()
      : undefined;
  });
}

const GIT_ROWS: readonly FloorRow[] = [
  gitRow(
    'git-reset-hard',
    'ask',
    'git reset --hard discards every uncommitted change in the working tree',
    'reset',
    (a) => a.includes('--hard'),
  ),
  gitRow(
    'git-checkout-paths',
    'ask',
    'git checkout -- <paths> (or ., --force) overwrites uncommitted changes to those files',
    'checkout',
    (a) =>
      hasFlag(a, 'f', 'force', 'ours', 'theirs') ||
      (a.includes('--') && a.indexOf('--') < a.length - 1) ||
      operands(a).includes('.'),
  ),
  gitRow(
    'git-switch-discard',
    'ask',
    'git switch --discard-changes/--force throws away uncommitted changes',
    'switch',
    (a) => hasFlag(a, 'f', 'force', 'discard-changes'),
  ),
  gitRow(
    'git-restore-worktree',
    'ask',
    'git restore <paths> overwrites uncommitted changes in the working tree (--staged alone only unstages)',
    'restore',
    (a) => operands(a).length > 0 && (!hasFlag(a, 'S', 'staged') || hasFlag(a, 'W', 'worktree')),
  ),
  gitRow(
    'git-clean-force',
    'ask',
    'git clean -f deletes untracked files, which git cannot restore',
    'clean',
    (a) => hasFlag(a, 'f', 'force') && !hasFlag(a, 'n', 'dry-run'),
  ),
  gitRow('git-stash-drop', 'ask', 'git stash drop/clear deletes stashed changes for good', 'stash', (a) =>
    ['drop', 'clear'].includes(a[0] ?? ''),
  ),
  gitRow(
    'git-branch-force-delete',
    'ask',
    'git branch -D deletes a branch even when its commits are merged nowhere',
    'branch',
    (a) => a.includes('-D') || (hasFlag(a, 'd', 'delete') && hasFlag(a, 'f', 'force')),
  ),
  gitRow(
    'git-push-force',
    'ask',
    'a force push (--force, -f, --force-with-lease, +refspec, --mirror) or a remote delete rewrites or removes commits other people may have',
    'push',
    (a) =>
      hasFlag(a, 'fd', 'force', 'force-with-lease', 'force-if-includes', 'mirror', 'delete', 'prune') ||
      operands(a)
        .slice(1)
        .some((r) => r.startsWith('+') || r.startsWith(':')),
  ),
];

const recursiveRemovalOutside: FloorRow = {
  id: 'recursive-removal-outside',
  level: 'ask',
  needs: { effects: ['delete'] },
  reason:
    'a recursive removal outside the working directories, or of the project root (or a directory holding it), deletes files the session was not given',
  match(call) {
    const out: FloorMatch[] = [];
    for (const e of call.effects) {
      if (e.kind !== 'delete' || e.certainty !== 'known') continue;
      const s = e.subcommand !== undefined ? call.subs[e.subcommand] : undefined;
      const scope = removalScope(s, e);
      if (scope === 'single') continue;
      const at = e.subcommand !== undefined ? { subcommand: e.subcommand } : {};
      if (scope === 'tree' && holdsWorkingDir(e.target, call.ctx))
        out.push({ ...at, what: `recursively removes ${e.target}, which holds a working directory` });
      else if (!insideWorkingDirs(e.target, call.ctx))
        out.push({ ...at, what: `recursively removes ${e.target}, outside the working directories` });
    }
    return out;
  },
};

/** SQL that destroys objects or all rows. Linear patterns (no nested quantifiers). */
const SQL_DROP =
  /\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA|INDEX|VIEW|USER|ROLE|COLLECTION|KEYSPACE|OWNED)|TRUNCATE\b)/i;
const SQL_DELETE = /\bDELETE\s+FROM\b/i;
const SQL_WHERE = /\bWHERE\b/i;
const DB_CLIENTS = new Set([
  'psql',
  'pgcli',
  'mysql',
  'mariadb',
  'mycli',
  'sqlite3',
  'litecli',
  'duckdb',
  'clickhouse-client',
  'clickhouse',
  'cockroach',
  'sqlcmd',
  'usql',
  'snowsql',
  'cqlsh',
  'bq',
]);

/** SQL handed to a database client: its own arguments, or the arguments of a command piped into it. */
function sqlTexts(s: FloorSub, call: FloorCall): string[] {
  if (!DB_CLIENTS.has(s.name)) return [];
  const texts = [...s.args];
  for (let k = s.index; k > 0; k--) {
    const cur = call.subs[k];
    if (cur?.info.connector !== '|') break;
    const prev = call.subs[k - 1];
    if (prev) texts.push(...prev.args);
  }
  return texts;
}

const INFRA_ROWS: readonly FloorRow[] = [
  perSub(
    'sql-drop',
    'ask',
    'DROP or TRUNCATE through a database client deletes tables, schemas or databases with their data',
    [...DB_CLIENTS],
    (s, call) =>
      sqlTexts(s, call).some((t) => SQL_DROP.test(t)) ? `${s.name} with DROP/TRUNCATE` : undefined,
  ),
  perSub(
    'sql-delete-all',
    'ask',
    'DELETE FROM without WHERE deletes every row of the table',
    [...DB_CLIENTS],
    (s, call) =>
      sqlTexts(s, call).some((t) => SQL_DELETE.test(t) && !SQL_WHERE.test(t))
        ? `${s.name} with DELETE and no WHERE`
        : undefined,
  ),
  perSub(
    'db-drop-tools',
    'ask',
    'dropdb, dropuser and mysqladmin drop delete a database or role',
    ['dropdb', 'dropuser', 'mysqladmin'],
    (s) =>
      s.name === 'dropdb' || s.name === 'dropuser' || (s.name === 'mysqladmin' && s.args.includes('drop'))
        ? `${s.name} ${s.args.join(' ')}`
        : undefined,
  ),
  perSub(
    'document-store-drop',
    'ask',
    'dropping a MongoDB database/collection or flushing Redis deletes all its data',
    ['mongosh', 'mongo', 'redis-cli'],
    (s) => {
      if (
        (s.name === 'mongosh' || s.name === 'mongo') &&
        s.args.some((a) => /\bdrop(?:Database)?\s*\(|deleteMany\s*\(\s*\{\s*\}/.test(a))
      )
        return `${s.name} --eval … drop`;
      if (s.name === 'redis-cli' && s.args.some((a) => /^flush(?:all|db)$/i.test(a)))
        return `redis-cli ${s.args.join(' ')}`;
      return undefined;
    },
  ),
  perSub(
    'kubernetes-delete',
    'ask',
    'kubectl/oc delete removes cluster resources (and the data of volumes they own)',
    ['kubectl', 'oc'],
    (s) =>
      (s.name === 'kubectl' || s.name === 'oc') && s.args.includes('delete') ? `${s.name} delete` : undefined,
  ),
  perSub(
    'helm-uninstall',
    'ask',
    'helm uninstall removes a release and the resources it created',
    ['helm'],
    (s) =>
      s.name === 'helm' && s.args.some((a) => ['uninstall', 'delete', 'del', 'un'].includes(a))
        ? 'helm uninstall'
        : undefined,
  ),
  perSub(
    'terraform-destroy',
    'ask',
    'terraform/tofu destroy (or apply -destroy) deletes the managed infrastructure',
    ['terraform', 'tofu', 'terragrunt'],
    (s) =>
      ['terraform', 'tofu', 'terragrunt'].includes(s.name) &&
      (s.args.includes('destroy') ||
        (s.args.includes('apply') && s.args.some((a) => a === '-destroy' || a === '--destroy')))
        ? `${s.name} destroy`
        : undefined,
  ),
  perSub(
    'stack-destroy',
    'ask',
    'pulumi destroy, cdk destroy, sam delete and serverless remove delete a deployed stack',
    ['pulumi', 'cdk', 'sam', 'serverless', 'sls'],
    (s) =>
      (s.name === 'pulumi' &&
        (s.args.includes('destroy') || (s.args.includes('stack') && s.args.includes('rm')))) ||
      (s.name === 'cdk' && s.args.includes('destroy')) ||
      (s.name === 'sam' && s.args.includes('delete')) ||
      ((s.name === 'serverless' || s.name === 'sls') && s.args.includes('remove'))
        ? `${s.name} ${s.args.join(' ')}`
        : undefined,
  ),
  perSub(
    'aws-delete',
    'ask',
    'aws s3 rm --recursive, s3 rb --force and the delete-*/terminate-* calls delete cloud resources or data',
    ['aws'],
    (s) => {
      if (s.name !== 'aws') return undefined;
      const a = s.args;
      if (a.includes('s3') && a.includes('rm') && a.includes('--recursive')) return 'aws s3 rm --recursive';
      if (a.includes('s3') && a.includes('rb') && a.includes('--force')) return 'aws s3 rb --force';
      const verb = a.find((w) => /^(?:delete|terminate|deregister|purge)-/.test(w));
      return verb ? `aws … ${verb}` : undefined;
    },
  ),
  perSub(
    'gcloud-delete',
    'ask',
    'gsutil rm -r/rb and gcloud … delete remove Google Cloud resources or data',
    ['gsutil', 'gcloud'],
    (s) => {
      if (s.name === 'gsutil')
        return (s.args.includes('rm') && hasFlag(s.args, 'rRa', 'recursive')) || s.args.includes('rb')
          ? `gsutil ${s.args.join(' ')}`
          : undefined;
      if (s.name === 'gcloud')
        return s.args.includes('delete') || (s.args.includes('rm') && hasFlag(s.args, 'r', 'recursive'))
          ? 'gcloud … delete'
          : undefined;
      return undefined;
    },
  ),
  perSub('azure-delete', 'ask', 'az … delete/purge removes Azure resources or data', ['az'], (s) =>
    s.name === 'az' && s.args.some((a) => a === 'delete' || a === 'purge') ? 'az … delete' : undefined,
  ),
  perSub(
    'platform-destroy',
    'ask',
    'deleting an app, repository or release on a hosting platform (doctl, heroku, fly, gh) is not undoable',
    ['doctl', 'heroku', 'fly', 'flyctl', 'gh'],
    (s) => {
      if (s.name === 'doctl' && s.args.includes('delete')) return 'doctl … delete';
      if (s.name === 'heroku' && s.args.some((a) => /^(?:apps:destroy|destroy|pg:reset)$/.test(a)))
        return `heroku ${s.args[0] ?? ''}`;
      if ((s.name === 'fly' || s.name === 'flyctl') && s.args.includes('destroy')) return `${s.name} destroy`;
      if (s.name === 'gh' && s.args.includes('delete') && ['repo', 'release'].includes(s.args[0] ?? ''))
        return `gh ${s.args[0]} delete`;
      return undefined;
    },
  ),
  perSub(
    'container-prune',
    'ask',
    "docker/podman system prune, volume rm/prune and compose down -v delete containers' data",
    ['docker', 'podman', 'docker-compose', 'compose', 'nerdctl'],
    (s) => {
      const prog = s.name === 'docker-compose' ? 'compose' : s.name;
      if (!['docker', 'podman', 'compose', 'nerdctl'].includes(prog)) return undefined;
      const a = s.name === 'docker-compose' ? ['compose', ...s.args] : s.args;
      if (a.includes('system') && a.includes('prune')) return `${s.name} system prune`;
      if (a.includes('volume') && (a.includes('rm') || a.includes('prune')))
        return `${s.name} volume rm/prune`;
      if (a.includes('compose') && a.includes('down') && hasFlag(a, 'v', 'volumes'))
        return `${s.name} compose down -v`;
      return undefined;
    },
  ),
];

/** Rows only the strict level adds (ask). */
const STRICT_ROWS: readonly FloorRow[] = [
  {
    id: 'recursive-removal',
    level: 'strict',
    needs: { effects: ['delete'] },
    reason:
      'a recursive removal deletes a whole directory tree with no way back (the strict floor asks for it inside the project too)',
    match(call) {
      const out: FloorMatch[] = [];
      for (const e of call.effects) {
        if (e.kind !== 'delete') continue;
        const s = e.subcommand !== undefined ? call.subs[e.subcommand] : undefined;
        if (recursiveRemoval(s, e))
          out.push({
            ...(e.subcommand !== undefined ? { subcommand: e.subcommand } : {}),
            what: `recursively removes ${e.target}`,
          });
      }
      return out;
    },
  },
  gitRow(
    'git-push',
    'strict',
    'a push changes what everyone sharing the remote sees (the strict floor asks for every push)',
    'push',
    () => true,
  ),
  gitRow(
    'git-history-rewrite',
    'strict',
    'rewriting history (rebase, commit --amend, filter-branch, reflog expire, gc --prune, update-ref -d) can lose commits (the strict floor asks for it)',
    ['rebase', 'commit', 'filter-branch', 'filter-repo', 'reflog', 'gc', 'update-ref'],
    (a, sub) =>
      sub === 'commit'
        ? a.includes('--amend')
        : sub === 'reflog'
          ? a[0] === 'expire' || a[0] === 'delete'
          : sub === 'gc'
            ? a.some((w) => w.startsWith('--prune'))
            : sub === 'update-ref'
              ? a.includes('-d')
              : true,
  ),
  perSub(
    'sql-delete',
    'strict',
    'DELETE removes rows for good (the strict floor asks for any DELETE)',
    [...DB_CLIENTS],
    (s, call) => (sqlTexts(s, call).some((t) => SQL_DELETE.test(t)) ? `${s.name} with DELETE` : undefined),
  ),
];

export const WORK_ROWS: readonly FloorRow[] = [
  ...GIT_ROWS,
  recursiveRemovalOutside,
  ...INFRA_ROWS,
  ...STRICT_ROWS,
];
