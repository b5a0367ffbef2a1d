import { describe, expect, it } from 'vitest';
import { probeSandbox } from './availability.js';

describe('probeSandbox', () => {
  it('not Linux → unavailable, with the reason', async () => {
    const a = await probeSandbox({ platform: 'darwin' });
    expect(a).toMatchObject({ available: false, proxyBridge: false });
    expect(a.reason).toBe('the OS sandbox needs Linux with bubblewrap; this is darwin');
  });

  it('a bwrap path that does not exist → unavailable, naming the path and the fix', async () => {
    const a = await probeSandbox({ bwrapPath: '/nonexistent/bwrap' });
    expect(a.available).toBe(false);
    expect(a.reason).toMatch(
      /bubblewrap could not be started \(\/nonexistent\/bwrap: .*ENOENT.*\); install it/,
    );
  });

  it('a binary that is not bubblewrap → unavailable with its error line', async () => {
    const a = await probeSandbox({ bwrapPath: 'false' });
    expect(a.available).toBe(false);
    expect(a.reason).toMatch(/bubblewrap cannot create a sandbox here \(exit 1\)/);
  });

  it('socat missing → the sandbox is available but the proxy bridge is not', async () => {
    const a = await probeSandbox({ socatPath: '/nonexistent/socat' });
    expect(a).toMatchObject({ available: true, proxyBridge: false });
    expect(a.proxyReason).toMatch(/socat is not usable/);
  });

  it('the result is cached per option set', () => {
    expect(probeSandbox({ bwrapPath: '/nonexistent/bwrap' })).toBe(
      probeSandbox({ bwrapPath: '/nonexistent/bwrap' }),
    );
  });
});
