import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopback } from './respond.js';

/** A port or host the preview cannot listen on, said in the user's terms. */
export class ListenError extends Error {}

const PORT_ATTEMPTS = 20;

/**
 * Starts `http` listening on `host` and `port`, or on the next free port
 * after it (not with port 0: the system picks one); returns the address to
 * print. Notes what a user should know on `out`.
 */
export async function listen(http: Server, host: string, port: number, out: { write(s: string): unknown }): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const candidate = port === 0 ? 0 : port + attempt;
    try {
      // (once() rejects with an error emitted first.)
      await once(http.listen(candidate, host), 'listening');
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' && port !== 0 && attempt < PORT_ATTEMPTS && candidate < 65535) {
        out.write(`Port ${candidate} is already in use; trying ${candidate + 1}.\n`);
        continue;
      }
      if (code === 'EADDRINUSE') throw new ListenError(`Cannot serve: ports ${port} to ${candidate} are all in use; choose another with --port.`);
      if (code === 'EACCES') throw new ListenError(`Cannot serve on port ${candidate}: permission denied; choose a port above 1023 with --port.`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new ListenError(`Cannot serve on host "${host}": no such interface on this computer (--host).`);
      throw e;
    }
  }
  const bound = (http.address() as AddressInfo).port;
  if (port !== 0 && bound !== port) out.write(`Port ${port} was in use, so the preview uses port ${bound} instead.\n`);
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  if (!isLoopback(host)) {
    out.write(
      `Listening on ${host === '0.0.0.0' || host === '::' ? 'every network interface' : `"${host}"`} (--host): other computers on the network can open the preview, and it answers any host name.\n`,
    );
  }
  return `http://${shown}:${bound}/`;
}
