/**
 * Snapshot of what the model sees: every built-in tool's `{name, description, input_schema}`, with
 * every feature flag on (conventions.md §0.7). A change to a description or schema shows up here in
 * review. After an intended change (or adding a tool to src/tools/index.ts), refresh with
 * `npx vitest run src/tools/definitions.test.ts -u` and review the diff.
 */
import { describe, expect, it } from 'vitest';
import { renderToolDefinitionsJson } from '../runtime/tool-definitions.js';
import { FEATURE_FLAGS, getAllBaseTools } from './index.js';

const allFeatures = Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, true]));

describe('built-in tool definitions', () => {
  it('match the pinned snapshot', async () => {
    const tools = await getAllBaseTools({ features: allFeatures });
    await expect(`${renderToolDefinitionsJson(tools)}\n`).toMatchFileSnapshot(
      './__snapshots__/tool-definitions.json.snap',
    );
  });

  it('every definition has a non-empty description and an object input_schema', async () => {
    const tools = await getAllBaseTools({ features: allFeatures });
    const json = JSON.parse(renderToolDefinitionsJson(tools)) as {
      name: string;
      description: string;
      input_schema: { type: string };
    }[];
    expect(json.length).toBe(tools.length);
    for (const definition of json) {
      expect(definition.description.trim().length, definition.name).toBeGreaterThan(20);
      expect(definition.input_schema.type, definition.name).toBe('object');
    }
  });
});
