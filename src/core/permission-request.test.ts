import { describe, expect, it } from 'vitest';
import { buildPermissionRequest } from './permission-request.js';

const session = {
  cwd: '/p',
  projectRoot: '/p',
  additionalDirectories: [],
  permissionMode: 'default' as const,
  sessionId: 's',
};
const description = { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' };

describe('buildPermissionRequest: classifierInput', () => {
  it("is the tool's text, computed once per request", () => {
    let calls = 0;
    const tool = {
      name: 'mcp__s__t',
      toAutoClassifierInput: (i: Record<string, unknown>) => {
        calls++;
        return `t ${JSON.stringify(i)}`;
      },
    };
    const req = buildPermissionRequest({ tool, input: { a: 1 }, description, toolUseId: 'u', session });
    expect(req.classifierInput).toBe('t {"a":1}');
    expect(req.classifierInput).toBe('t {"a":1}');
    expect(calls).toBe(1);
    // copies (the engine spreads a request when a hook updates the input) and JSON carry the value
    expect({ ...req }.classifierInput).toBe('t {"a":1}');
    expect(JSON.parse(JSON.stringify(req)).classifierInput).toBe('t {"a":1}');
  });

  it.each([
    [
      () => {
        throw new Error('boom');
      },
      'a predicate that throws gives no text (fail closed)',
    ],
    [() => 42 as unknown as string, 'a non-string gives no text'],
  ])('%#: %s', (toAutoClassifierInput) => {
    const req = buildPermissionRequest({
      tool: { name: 'X', toAutoClassifierInput },
      input: {},
      description,
      toolUseId: 'u',
      session,
    });
    expect(req.classifierInput).toBe('');
  });

  it('is empty for a tool without the predicate', () => {
    const req = buildPermissionRequest({
      tool: { name: 'X' },
      input: {},
      description,
      toolUseId: 'u',
      session,
    });
    expect(req.classifierInput).toBe('');
  });
});
