/**
 * The elicitation bridge's two mappings (elicitation.ts): MCP request → `elicitation` control
 * request, host answer → MCP result. The round trip through a real MCP server and the real Agent
 * SDK is in test/integration/agent-sdk-protocol.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ElicitationRoute, elicitationControlRequest, parseElicitationAnswer } from './elicitation.js';

describe('elicitationControlRequest', () => {
  it('a form elicitation carries the schema as requested_schema', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    expect(
      elicitationControlRequest({ serverName: 's', message: 'Name?', mode: 'form', requestedSchema: schema }),
    ).toEqual({
      subtype: 'elicitation',
      mcp_server_name: 's',
      message: 'Name?',
      mode: 'form',
      requested_schema: schema,
    });
  });

  it('a url elicitation carries url and elicitation_id', () => {
    expect(
      elicitationControlRequest({
        serverName: 's',
        message: 'Sign in',
        mode: 'url',
        url: 'https://auth.test/x',
        elicitationId: 'e-1',
      }),
    ).toEqual({
      subtype: 'elicitation',
      mcp_server_name: 's',
      message: 'Sign in',
      mode: 'url',
      url: 'https://auth.test/x',
      elicitation_id: 'e-1',
    });
  });
});

describe('parseElicitationAnswer', () => {
  it.each([
    [
      { action: 'accept', content: { a: 'x', n: 2, b: true, l: ['p'] } },
      { action: 'accept', content: { a: 'x', n: 2, b: true, l: ['p'] } },
      'form values pass',
    ],
    [{ action: 'accept' }, { action: 'accept' }, 'url mode: accept without content'],
    [
      { action: 'accept', content: { a: { deep: 1 }, n: Number.NaN, ok: 'y' } },
      { action: 'accept', content: { ok: 'y' } },
      'values a form cannot hold are dropped',
    ],
    [{ action: 'cancel', content: { a: 'x' } }, { action: 'cancel' }, 'cancel carries nothing'],
    [{ action: 'decline' }, { action: 'decline' }, 'decline'],
    [{ behavior: 'allow' }, { action: 'decline' }, 'not an answer: decline (fail closed)'],
    [{}, { action: 'decline' }, 'an empty success: decline'],
  ])('%j → %j (%s)', (answer: Record<string, unknown>, expected: unknown, _why: string) => {
    expect(parseElicitationAnswer(answer)).toEqual(expected);
  });
});

describe('ElicitationRoute', () => {
  it('declines until connected, forwards while connected, declines again after disconnect', async () => {
    const route = new ElicitationRoute();
    const req = { serverName: 's', message: 'm', mode: 'form' as const };
    const signal = new AbortController().signal;
    expect(await route.handler(req, signal)).toEqual({ action: 'decline' });
    route.connect(async () => ({ action: 'accept', content: { a: '1' } }));
    expect(await route.handler(req, signal)).toEqual({ action: 'accept', content: { a: '1' } });
    route.disconnect();
    expect(await route.handler(req, signal)).toEqual({ action: 'decline' });
  });
});
