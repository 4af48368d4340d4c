import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../src/serve/events.js';

/** A page's stream as the hub sees it: what was written, and how much of it the page has not read yet. */
function stream(unread = 0) {
  const req = Object.assign(new EventEmitter(), { method: 'GET' });
  const res = {
    written: [] as string[],
    writableLength: unread,
    destroyed: false,
    writeHead() {},
    write(text: string) {
      this.written.push(text);
      return true;
    },
    end() {},
    destroy() {
      this.destroyed = true;
    },
  };
  return { req: req as unknown as IncomingMessage, res, asResponse: res as unknown as ServerResponse };
}

describe('the reload streams of open pages', () => {
  it('a page that reads what it is sent gets every state; one that has left a megabyte unread is closed, not queued for', () => {
    const hub = new EventHub(() => 'hash');
    const reading = stream();
    const stalled = stream();
    hub.connect(reading.req, reading.asResponse, new URL('http://x/__docs/events?path=/'), {});
    hub.connect(stalled.req, stalled.asResponse, new URL('http://x/__docs/events?path=/guides/'), {});
    expect([reading, stalled].map((s) => s.res.written[0])).toEqual(['retry: 1000\n\n', 'retry: 1000\n\n']);
    stalled.res.writableLength = 1024 * 1024 + 1;
    hub.setState({ ok: false, title: 'Build failed', problems: ['content/a.md:1:1 a problem'] });
    expect(stalled.res.destroyed).toBe(true);
    expect(reading.res.destroyed).toBe(false);
    expect(reading.res.written.at(-1)).toBe('event: state\ndata: {"ok":false,"title":"Build failed","problems":["content/a.md:1:1 a problem"]}\n\n');
    // Nothing more is written to the closed one.
    const before = stalled.res.written.length;
    hub.changed(true);
    expect(stalled.res.written.length).toBe(before);
    hub.close();
  });
});
