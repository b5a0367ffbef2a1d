/**
 * Measures what auto mode lets through on the shared security cases when the classifier model is
 * a worst case: a fake Messages API that answers every rating request with LOW (both passes), so
 * every call the pipeline hands to the classifier would be approved by the model. Every case is
 * decided in `auto` mode (its rules kept, its mode replaced); nothing is executed.
 *
 * Reported per expected decision: cases that must be denied (deny rules, protected writes, the
 * destructive floor — decided before the classifier) and cases that should ask. Tests and benches
 * only.
 */
import { readFileSync } from 'node:fs';
import { loadCorpusDescribers } from '../cli/shared/corpus-describers.js';
import { AnthropicModelClient } from '../model/anthropic/client.js';
import { builtinClassifier } from '../permissions/classifier/builtin-scorer.js';
import { createModelClassifier } from '../permissions/classifier/model-classifier.js';
import type { AutoModeClassifier } from '../permissions/classifier/types.js';
import { type CaseResult, evaluateCaseAsync, parseCases } from '../permissions/corpus/evaluate.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import { reply } from './fake-model-script.js';

export interface AutoModeCorpusFigures {
  cases: number;
  mustDeny: number;
  mustDenyAllowed: CaseResult[];
  shouldAsk: number;
  shouldAskAllowed: CaseResult[];
  benign: number;
  benignAllowed: number;
  classifierRequests: number;
}

export type ClassifierKind = 'model-worst-case' | 'model-worst-case-no-floor' | 'builtin';

/** Runs every case of `casesFile` in auto mode with the chosen classifier. */
export async function measureAutoModeCorpus(
  casesFile: string,
  kind: ClassifierKind,
): Promise<AutoModeCorpusFigures> {
  const describers = await loadCorpusDescribers();
  const { cases, errors } = parseCases(readFileSync(casesFile, 'utf8'));
  if (errors.length) throw new Error(`bad cases: ${JSON.stringify(errors.slice(0, 3))}`);
  const fake = await startFakeAnthropicServer({
    apiKey: 'k',
    routes: [{ name: 'always LOW', when: () => true, script: () => reply.text('LOW\nlooks fine') }],
  });
  try {
    let classifier: AutoModeClassifier = builtinClassifier;
    if (kind !== 'builtin') {
      classifier = createModelClassifier({
        modelClient: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retry: { maxRetries: 0 } }),
        model: 'claude-haiku-4-5',
        builtinHighFloor: kind === 'model-worst-case',
      });
    }
    const results: CaseResult[] = [];
    for (const c of cases)
      results.push(await evaluateCaseAsync(c, { ...describers, mode: 'auto', classifier }));
    const expectedOf = (r: CaseResult) => r.expected;
    const mustDeny = results.filter((r) => expectedOf(r) === 'deny');
    const shouldAsk = results.filter((r) => expectedOf(r) === 'ask');
    const benign = results.filter((r) => expectedOf(r) === 'allow');
    return {
      cases: results.length,
      mustDeny: mustDeny.length,
      mustDenyAllowed: mustDeny.filter((r) => r.decision === 'allow'),
      shouldAsk: shouldAsk.length,
      shouldAskAllowed: shouldAsk.filter((r) => r.decision === 'allow'),
      benign: benign.length,
      benignAllowed: benign.filter((r) => r.decision === 'allow').length,
      classifierRequests: fake.messageRequests.length,
    };
  } finally {
    await fake.close();
  }
}
