import { checkSiteFolder, UsageError } from '../build/out-guard.js';
import { ListenError } from './listen.js';
import { openBrowser } from './open.js';
import { PreviewServer, type Io, type ServeOptions } from './serve.js';

/* The `docs serve` command: checks its options, runs the preview until it is stopped, and gives the exit code. */

/** Runs `docs serve` until SIGINT or SIGTERM; resolves to the exit code. */
export async function serve(options: ServeOptions, io: Io): Promise<number> {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    io.err.write(`--port must be a number from 0 to 65535 (got "${options.portText ?? options.port}").\n`);
    return 2;
  }
  if (options.host.trim() === '') {
    io.err.write(`--host must name an address to listen on, such as 127.0.0.1 (the default) or 0.0.0.0 (got "${options.host}").\n`);
    return 2;
  }
  try {
    checkSiteFolder(options.root, options.root);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err.write(`${e.message}\n`);
    return 2;
  }
  // Listen for Ctrl+C from the start: a stop during the first build still ends cleanly.
  let stop!: () => void;
  const stopped = new Promise<void>((resolvePromise) => {
    stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolvePromise();
    };
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const preview = new PreviewServer(options, io);
  // A stop while the first build runs ends it there (the build's thread with the server), not once it is done.
  const starting = preview.start().then(
    () => undefined,
    (e: unknown) => ({ failed: e }),
  );
  const first = await Promise.race([starting, stopped.then(() => 'stopped' as const)]);
  if (first && first !== 'stopped') {
    stop();
    await preview.close();
    if (!(first.failed instanceof ListenError)) throw first.failed;
    io.err.write(`${first.failed.message}\n`);
    return 1;
  }
  if (!first) {
    if (options.open) openBrowser(preview.url, io);
    await stopped;
  }
  io.out.write('\nStopping the preview server…\n');
  await preview.close();
  return 0;
}
