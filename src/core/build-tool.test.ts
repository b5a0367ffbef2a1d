import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from './build-tool.js';

const minimal = () =>
  buildTool({
    name: 'Minimal',
    description: 'does nothing',
    inputSchema: z.object({}),
    async *call() {
      return { data: 'ok' };
    },
  });

describe('buildTool fail-closed defaults', () => {
  it.each([
    ['isConcurrencySafe', false, 'an undeclared tool must run alone'],
    ['isReadOnly', false, 'an undeclared tool is assumed to write'],
    ['isDestructive', false, 'destructiveness is a warning flag, opt-in'],
    ['isEnabled', true, 'tools are enabled unless they say otherwise'],
  ] as const)('%s() → %s (%s)', (member, expected, _why) => {
    const t = minimal();
    expect((t[member] as (i?: unknown) => boolean)({})).toBe(expected);
  });

  it('defers permission to the general engine (passthrough), which asks when nothing allows', async () => {
    expect(await minimal().checkPermissions({}, {} as never)).toEqual({ behavior: 'passthrough' });
  });

  it('gives the classifier nothing, so it never auto-approves', () => {
    expect(minimal().toAutoClassifierInput({})).toBe('');
  });

  it('describes an unknown call as not read-only with no effects', async () => {
    const d = await minimal().describeCall({}, {} as never);
    expect(d.readOnly).toBe(false);
    expect(d.effects).toEqual([]);
  });

  it('uses the tool name as the user-facing name', () => {
    expect(minimal().userFacingName(undefined)).toBe('Minimal');
  });

  it('keeps an override', () => {
    const t = buildTool({
      name: 'R',
      description: 'reads',
      inputSchema: z.object({}),
      isReadOnly: () => true,
      async *call() {
        return { data: 1 };
      },
    });
    expect(t.isReadOnly()).toBe(true);
    expect(t.isConcurrencySafe({})).toBe(false);
  });

  it('rejects a tool without a name', () => {
    expect(() =>
      buildTool({
        name: '',
        description: '',
        inputSchema: z.object({}),
        async *call() {
          return { data: 0 };
        },
      }),
    ).toThrow(TypeError);
  });
});
