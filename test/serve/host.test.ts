import { describe, expect, it } from 'vitest';
import { hostAllowed } from '../../src/serve/respond.js';

// The predicate alone; that the preview applies it to every request is tested with real requests in http.test.ts.
describe('hostAllowed, the Host check of the preview (DNS rebinding)', () => {
  it('answers loopback names on a loopback address', () => {
    for (const host of ['localhost:4000', '127.0.0.1:4000', '[::1]:4000', 'docs.localhost:4000', 'LOCALHOST']) {
      expect(hostAllowed(host, '127.0.0.1'), host).toBe(true);
    }
  });
  it('refuses other names and a missing Host header on a loopback address', () => {
    for (const host of ['evil.example:4000', 'attacker.com', '127.0.0.1.evil.example', undefined]) {
      expect(hostAllowed(host, '127.0.0.1'), String(host)).toBe(false);
    }
  });
  it('answers any name when bound to another interface on purpose', () => {
    expect(hostAllowed('my-laptop.local:4000', '0.0.0.0')).toBe(true);
  });
});
