/**
 * The describers the security evaluation uses (`npm run eval:security`, the corpus tests, the
 * permission benchmark): Gantry's own tool describers (src/tools/describers.ts), with Bash and
 * Monitor described synchronously by the loaded shell analysis in the case's world.
 */
import type { EvaluateOptions } from '../../permissions/corpus/evaluate.js';
import { loadBashDescriber } from '../../permissions/corpus/shell-describer.js';
import { createToolDescribers, toolDescriberFor } from '../../tools/describers.js';

/** Loads the shell parser once; returns the evaluation's describers. */
export async function loadCorpusDescribers(): Promise<
  Pick<EvaluateOptions, 'describeBash' | 'describerFor'>
> {
  const describeBash = await loadBashDescriber();
  const describers = createToolDescribers({
    describeCommand: (command, world) => describeBash(command, world),
  });
  return { describeBash, describerFor: (name) => toolDescriberFor(name, describers) };
}
