/**
 * `gantry replay --suggest` (docs/guard.md "Replay suggestions"): the smallest set of allow rules
 * that removes the most prompts of the replayed sessions without allowing anything risky.
 *
 * 1. Candidates come only from asks whose cause is benign: no rule matched a call that is not
 *    provably read-only (`default`), or a read-only call outside the working directories. Asks
 *    raised by a security check, a protected path, an unknown effect or an error never produce a
 *    rule. Each candidate is the engine's own narrow, arity-aware suggestion for the call.
 * 2. A suggestion for a destructive program (`rm`, `git push`, `dd`, …) is never a prefix rule:
 *    it becomes the exact command, or nothing when the command is long or spans lines.
 * 3. Rules are ranked by how many prompts they remove (greedy set cover over identical rules) and
 *    cut at {@link MAX_RULES}; a rule that removes a single prompt is kept only when it is exact.
 * 4. {@link verifySuggestions} replays again with the rules added and drops any rule under which a
 *    call that was not a candidate changed its answer — so a suggested rule never turns a risky
 *    ask into an allow — and reports the prompts actually removed.
 */
import { traitsOf } from '../../core/tool-traits.js';
import type { ReplayRow } from './replay.js';

/** Most rules suggested at once. */
export const MAX_RULES = 12;

/** Programs whose prefix rules would allow destruction (`Bash(rm:*)`): exact commands or nothing. */
const DESTRUCTIVE_HEADS = new Set([
  'rm',
  'rmdir',
  'dd',
  'mkfs',
  'shred',
  'truncate',
  'chmod',
  'chown',
  'kill',
  'pkill',
  'killall',
  'sudo',
  'su',
  'mv',
  'git push',
  'git reset',
  'git clean',
  'git checkout',
  'git restore',
  'git branch',
  'git rebase',
  'docker rm',
  'docker rmi',
  'docker system',
  'kubectl delete',
  'terraform destroy',
  'npm publish',
  'find',
  'xargs',
  // Programs that run arbitrary code given to them: a prefix rule would allow anything.
  'ssh',
  'scp',
  'rsync',
  'bash',
  'sh',
  'zsh',
  'dash',
  'fish',
  'powershell',
  'powershell.exe',
  'pwsh',
  'cmd',
  'cmd.exe',
  'eval',
  'exec',
  'env',
  'nohup',
  'timeout',
  'watch',
  'docker exec',
  'docker run',
  'kubectl exec',
  'npx',
  'bunx',
  'pnpx',
  // Secrets and cloud accounts: reading a vault or changing an account is never a prefix rule.
  'op',
  'security',
  'vault',
  'aws',
  'gcloud',
  'az',
  'curl',
  'wget',
]);

export interface SuggestedRule {
  rule: string;
  /** Prompts this rule removes (estimated from identical suggestions; verified when re-replayed). */
  removes: number;
  /** Share of all asks, 0–1. */
  share: number;
}

export interface Suggestions {
  asks: number;
  /** Asks that could get a rule at all (benign cause). */
  eligible: number;
  rules: SuggestedRule[];
  /** Rules dropped by verification, with why. */
  dropped: { rule: string; why: string }[];
  /** After re-replaying with the rules: the asks left (undefined when not verified). */
  asksAfter?: number;
}

/** Whether an ask's cause allows proposing a rule for it. */
export function isEligibleAsk(r: ReplayRow): boolean {
  if (r.decision !== 'ask') return false;
  if (r.reasonType === 'default') return true;
  return r.reasonType === 'working-directory' && r.readOnly;
}

function headOf(content: string): string {
  const words = content
    .replace(/:\*$|\s\*$/, '')
    .trim()
    .split(/\s+/);
  const two = words.slice(0, 2).join(' ');
  return DESTRUCTIVE_HEADS.has(two) ? two : (words[0] ?? '');
}

/** The rule to propose for one eligible call's suggestion, or undefined when none is safe. */
export function safeRuleFor(r: ReplayRow, suggestion: string): string | undefined {
  const m = /^Bash\((.*)\)$/s.exec(suggestion);
  if (!m) {
    // A bare tool name allows every call of that tool: only for tools Gantry knows (their effects
    // are modelled) and MCP tools (the host's own approval unit); never for unknown tools.
    const bare = /^[\w.-]+$/.test(suggestion);
    if (bare && !suggestion.startsWith('mcp__') && !traitsOf(suggestion)) return undefined;
    return suggestion;
  }
  const content = m[1] as string;
  const isPrefix = /:\*$|\s\*$/.test(content);
  if (!isPrefix || !DESTRUCTIVE_HEADS.has(headOf(content))) return suggestion;
  const command = typeof r.input.command === 'string' ? r.input.command.trim() : '';
  if (!command || command.includes('\n') || command.length > 120 || /[()*]/.test(command)) return undefined;
  return `Bash(${command})`;
}

const isExact = (rule: string) => !/:\*\)$|\s\*\)$|\*\*\)$/.test(rule);

/** Ranks candidate rules over the replayed rows (step 1–3 above). */
export function suggestRules(rows: readonly ReplayRow[]): Suggestions {
  const asks = rows.filter((r) => r.decision === 'ask');
  const eligible = asks.filter(isEligibleAsk);
  // For each call, the rules that would cover it; a call counts for the first rule chosen.
  const perCall = eligible.map((r) => [
    ...new Set((r.suggestions ?? []).map((s) => safeRuleFor(r, s)).filter((s): s is string => !!s)),
  ]);
  const covered = new Array<boolean>(perCall.length).fill(false);
  const rules: SuggestedRule[] = [];
  while (rules.length < MAX_RULES) {
    const counts = new Map<string, number>();
    perCall.forEach((list, i) => {
      // A call whose ask came from several sub-commands needs all of its rules; count it only for
      // single-rule calls, so a rule's count is prompts it removes alone.
      if (covered[i] || list.length !== 1) return;
      const rule = list[0] as string;
      counts.set(rule, (counts.get(rule) ?? 0) + 1);
    });
    const best = [...counts.entries()]
      .filter(([rule, n]) => n >= 2 || isExact(rule))
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    if (!best) break;
    const [rule, n] = best;
    rules.push({ rule, removes: n, share: asks.length ? n / asks.length : 0 });
    perCall.forEach((list, i) => {
      if (list.length === 1 && list[0] === rule) covered[i] = true;
    });
  }
  return { asks: asks.length, eligible: eligible.length, rules, dropped: [] };
}

/**
 * Step 4: compares the replay without (`before`) and with (`after`) the rules, row by row (same
 * files, same order). Returns the rules to keep: a rule is dropped when a call that was not an
 * eligible ask changed its answer under the rules (`blame` says which rule allows it).
 */
export function verifySuggestions(
  s: Suggestions,
  before: readonly ReplayRow[],
  after: readonly ReplayRow[],
  blame: (row: ReplayRow) => string | undefined,
): Suggestions {
  const dropped = new Map<string, string>();
  for (let i = 0; i < Math.min(before.length, after.length); i++) {
    const b = before[i] as ReplayRow;
    const a = after[i] as ReplayRow;
    if (b.decision === a.decision || isEligibleAsk(b)) continue;
    const rule = blame(a);
    if (rule && !dropped.has(rule))
      dropped.set(
        rule,
        `it would change ${b.toolName} "${b.summary}" from ${b.decision} to ${a.decision} (${b.reasonType ?? 'unknown'} ask)`,
      );
  }
  const asksAfter = after.filter((r) => r.decision === 'ask').length;
  return {
    ...s,
    rules: s.rules.filter((r) => !dropped.has(r.rule)),
    dropped: [...dropped.entries()].map(([rule, why]) => ({ rule, why })),
    asksAfter,
  };
}

/** The text `--suggest` prints: the rules, their shares, and the settings JSON to paste. */
export function formatSuggestions(s: Suggestions, asksByReason: Readonly<Record<string, number>>): string {
  const lines: string[] = [];
  const reasons = Object.entries(asksByReason)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  lines.push(`Asks: ${s.asks} (${reasons || 'none'}); ${s.eligible} have a benign cause a rule may remove.`);
  if (s.rules.length === 0) {
    lines.push(
      s.eligible > 0
        ? 'No allow rule to suggest: no narrow rule removes more than one of the benign prompts (the others come from checks, protected paths or unknown effects).'
        : 'No allow rule to suggest: the asks come from checks, protected paths or unknown effects.',
    );
    return `${lines.join('\n')}\n`;
  }
  const total = s.rules.reduce((n, r) => n + r.removes, 0);
  lines.push(
    `Suggested allow rules (together about ${total} of ${s.asks} prompts, ${Math.round((100 * total) / Math.max(1, s.asks))}%):`,
  );
  for (const r of s.rules)
    lines.push(`  ${String(r.removes).padStart(4)}  ${(100 * r.share).toFixed(1).padStart(5)}%  ${r.rule}`);
  if (s.asksAfter !== undefined)
    lines.push(`Verified by replaying with these rules: asks ${s.asks} → ${s.asksAfter}.`);
  for (const d of s.dropped) lines.push(`  dropped ${d.rule}: ${d.why}`);
  lines.push('Paste into .claude/settings.local.json (or settings.json):');
  lines.push(JSON.stringify({ permissions: { allow: s.rules.map((r) => r.rule) } }, null, 2));
  return `${lines.join('\n')}\n`;
}
