/**
 * The admission gate on its own: the concurrency rule (first come first served; safe calls
 * together up to the limit; an unsafe call alone; no overtaking), cancellation, and delegation
 * (a call whose sub-agent runs turns of its own stops counting while they run).
 */
import { describe, expect, it } from 'vitest';
import { AdmissionGate, type Permit } from './admission-gate.js';

/** Queues calls named by `spec` ("s1" safe, "u1" unsafe); records starts; returns their permits by name. */
function queue(gate: AdmissionGate, names: string[]) {
  const started: string[] = [];
  const permits = new Map<string, Permit>();
  const handles = new Map<string, ReturnType<AdmissionGate['enqueue']>>();
  for (const name of names) {
    handles.set(
      name,
      gate.enqueue({
        toolUseId: name,
        concurrencySafe: name.startsWith('s'),
        start: (permit) => {
          started.push(name);
          permits.set(name, permit);
        },
      }),
    );
  }
  const release = (name: string) => (permits.get(name) as Permit).release();
  return { started, permits, handles, release };
}

describe('AdmissionGate: the rule', () => {
  it.each([
    [['s1', 's2', 's3'], 10, ['s1', 's2', 's3'], 'consecutive safe calls start together'],
    [['s1', 's2', 's3'], 2, ['s1', 's2'], 'no more safe calls than the limit'],
    [['u1', 's1'], 10, ['u1'], 'nothing starts beside an unsafe call'],
    [
      ['s1', 'u1', 's2'],
      10,
      ['s1'],
      'an unsafe call waits for the safe ones before it, and blocks those after it',
    ],
    [['u1', 'u2'], 10, ['u1'], 'unsafe calls run one at a time'],
    [[], 10, [], 'an empty queue starts nothing'],
  ])('%j with limit %i starts %j at once (%s)', (names, limit, expected, _why) => {
    const gate = new AdmissionGate(limit);
    expect(queue(gate, names).started).toEqual(expected);
  });

  it('admits the next calls in queue order as running ones release', () => {
    const gate = new AdmissionGate(10);
    const q = queue(gate, ['s1', 's2', 'u1', 's3', 's4', 'u2']);
    expect(q.started).toEqual(['s1', 's2']);
    q.release('s2');
    expect(q.started).toEqual(['s1', 's2']);
    q.release('s1');
    expect(q.started).toEqual(['s1', 's2', 'u1']);
    q.release('u1');
    expect(q.started).toEqual(['s1', 's2', 'u1', 's3', 's4']);
    q.release('s3');
    q.release('s4');
    expect(q.started).toEqual(['s1', 's2', 'u1', 's3', 's4', 'u2']);
    q.release('u2');
    expect([gate.running, gate.waiting]).toEqual([0, 0]);
  });

  it('a released slot under the limit admits the next safe call', () => {
    const gate = new AdmissionGate(2);
    const q = queue(gate, ['s1', 's2', 's3']);
    q.release('s1');
    expect(q.started).toEqual(['s1', 's2', 's3']);
  });

  it('release is idempotent', () => {
    const gate = new AdmissionGate(1);
    const q = queue(gate, ['s1', 's2', 's3']);
    q.release('s1');
    q.release('s1');
    expect(q.started).toEqual(['s1', 's2']);
    expect(gate.running).toBe(1);
  });

  it('rejects a limit that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new AdmissionGate(bad)).toThrow(RangeError);
  });
});

describe('AdmissionGate: cancellation', () => {
  it('a cancelled queued call never starts and no longer blocks the calls behind it', () => {
    const gate = new AdmissionGate(10);
    const q = queue(gate, ['s1', 'u1', 's2']);
    expect(q.handles.get('u1')?.cancel()).toBe(true);
    expect(q.started).toEqual(['s1', 's2']);
    expect(q.handles.get('u1')?.cancel()).toBe(false);
  });

  it('cancelling a call that already started does nothing', () => {
    const gate = new AdmissionGate(10);
    const q = queue(gate, ['s1']);
    expect(q.handles.get('s1')?.cancel()).toBe(false);
    expect(gate.running).toBe(1);
  });
});

describe('AdmissionGate: delegation', () => {
  it('a delegating call stops counting: its sub-agent’s unsafe call starts, and it counts again afterwards', () => {
    const gate = new AdmissionGate(10);
    const parent = queue(gate, ['u-agent']);
    const undelegate = gate.delegate(parent.permits.get('u-agent') as Permit);
    const child = queue(gate, ['u-child']);
    expect(child.started).toEqual(['u-child']);
    child.release('u-child');
    undelegate();
    const later = queue(gate, ['s-later']);
    expect(later.started).toEqual([]);
    parent.release('u-agent');
    expect(later.started).toEqual(['s-later']);
  });

  it('two delegating siblings do not block each other’s sub-agents (no deadlock)', () => {
    const gate = new AdmissionGate(10);
    const parent = queue(gate, ['s-agentA', 's-agentB']);
    const doneA = gate.delegate(parent.permits.get('s-agentA') as Permit);
    const doneB = gate.delegate(parent.permits.get('s-agentB') as Permit);
    const childA = queue(gate, ['uA']);
    const childB = queue(gate, ['uB']);
    expect(childA.started).toEqual(['uA']);
    expect(childB.started).toEqual([]);
    childA.release('uA');
    expect(childB.started).toEqual(['uB']);
    childB.release('uB');
    doneA();
    doneB();
    parent.release('s-agentA');
    parent.release('s-agentB');
    expect([gate.running, gate.waiting]).toEqual([0, 0]);
  });

  it('ignores a permit of another gate or one already released', () => {
    const gate = new AdmissionGate(10);
    const other = new AdmissionGate(10);
    const q = queue(other, ['u1']);
    gate.delegate(q.permits.get('u1') as Permit)();
    expect(gate.owns(q.permits.get('u1'))).toBe(false);
    q.release('u1');
    expect(other.owns(q.permits.get('u1'))).toBe(false);
    expect(other.running).toBe(0);
  });
});

describe('AdmissionGate: tryAdmit (a call admitted without a queue entry)', () => {
  it.each([
    [[], 's', 10, true, 'nothing running or waiting: a safe call starts'],
    [[], 'u', 10, true, 'nothing running or waiting: an unsafe call starts'],
    [['s1'], 's', 10, true, 'beside running safe calls under the limit'],
    [['s1'], 'u', 10, false, 'an unsafe call never starts beside a running one'],
    [['s1', 's2'], 's', 2, false, 'not past the limit'],
    [['u1'], 's', 10, false, 'nothing starts beside an unsafe call'],
    [['u1', 's1'], 's', 10, false, 'a call is waiting (s1 behind u1): it is not overtaken'],
  ] as [string[], 's' | 'u', number, boolean, string][])(
    'queued %j, then %s (limit %i) → %s (%s)',
    (names, kind, limit, admitted, _reason) => {
      const gate = new AdmissionGate(limit);
      const { started } = queue(gate, names);
      const before = [...started];
      const permit = gate.tryAdmit('x', kind === 's');
      expect(permit !== undefined).toBe(admitted);
      expect(started).toEqual(before);
      if (permit) {
        expect(gate.running).toBe(before.length + 1);
        permit.release();
        expect(gate.running).toBe(before.length);
      }
    },
  );

  it('a released permit lets the queued calls start, as an enqueued one does', () => {
    const gate = new AdmissionGate(10);
    const permit = gate.tryAdmit('u0', false) as Permit;
    const { started } = queue(gate, ['s1', 's2']);
    expect(started).toEqual([]);
    permit.release();
    expect(started).toEqual(['s1', 's2']);
  });
});
