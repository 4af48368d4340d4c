import { spawn } from 'node:child_process';

/**
 * Opens `url` in the default browser ($BROWSER when set, as many tools do;
 * BROWSER=none opens nothing). Never fails: when no browser can be started
 * it says so and the server carries on.
 */
export function openBrowser(url: string, io: { out: { write(s: string): unknown } }): void {
  const custom = process.env.BROWSER?.trim();
  if (custom === 'none') return;
  const [command, ...args] = custom
    ? [custom, url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  const note = (why: string) => io.out.write(`Could not open a browser (${why}); open ${url} yourself.\n`);
  try {
    const child = spawn(command!, args, { stdio: 'ignore', detached: true, windowsHide: true });
    child.on('error', (e: NodeJS.ErrnoException) => note(e.code === 'ENOENT' ? `${command} was not found` : e.message));
    child.on('exit', (code) => {
      if (code) note(`${command} exited with code ${code}`);
    });
    child.unref();
  } catch (e) {
    note((e as Error).message);
  }
}
