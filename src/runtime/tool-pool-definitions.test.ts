/**
 * Snapshot of what the model sees: the definitions of the assembled pool of every built-in tool
 * (`{name, description, input_schema}`, in pool order), with every feature flag on. A change to a
 * description, a schema or the order shows up here in review. After an intended change (or adding
 * a tool to src/tools/index.ts), refresh with
 * `npx vitest run src/runtime/tool-pool-definitions.test.ts -u` and review the diff.
 */
import { describe, expect, it } from 'vitest';
import { FEATURE_FLAGS, getAllBaseTools } from '../tools/index.js';
import { assembleToolPool } from './tool-pool.js';

const allFeatures = Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, true]));

async function pool() {
  return assembleToolPool({ builtIn: await getAllBaseTools({ features: allFeatures }) });
}

describe('built-in tool definitions', () => {
  it('match the pinned snapshot', async () => {
    await expect(`${JSON.stringify((await pool()).definitions(), null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/tool-definitions.json.snap',
    );
  });

  it('every definition has a non-empty description and an object input_schema', async () => {
    const p = await pool();
    const definitions = p.definitions();
    expect(definitions.length).toBe(p.callable.length);
    for (const definition of definitions) {
      expect(definition.description.trim().length, definition.name).toBeGreaterThan(20);
      expect(definition.input_schema.type, definition.name).toBe('object');
    }
  });
});
