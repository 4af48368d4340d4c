import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from '../pids.js';
import { UsageError } from './out-guard.js';

/** How long a build waits for another build into the same output folder before it gives up. */
const WAIT_LIMIT_MS = 10 * 60_000;
const POLL_MS = 150;

/** The lock file of an output folder: beside it, in its parent, so that replacing the folder keeps it. */
export function lockPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.lock`);
}

/** Temporary folders of builds into `target` (`.dist-build-XXXXXX`, `.dist-build-XXXXXX-old`). */
export function tempFolderPrefix(target: string): string {
  return `.${basename(target)}-build-`;
}

function holder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export interface OutputLock {
  release(): void;
}

/**
 * Takes the lock of an output folder: a file holding this process's PID,
 * made exclusively. While another live process holds it, waits (telling
 * `onWait` once); a lock left by a process that is gone is taken over.
 * Then removes the temporary folders that interrupted builds into the same
 * folder left behind: no other build into it can be running.
 */
export async function lockOutput(target: string, onWait?: (pid: number) => void): Promise<OutputLock> {
  const file = lockPath(target);
  // An output folder may be named inside folders that do not exist yet (--out build/site): they are made, as the output is.
  mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = holder(file);
    if (pid === process.pid) throw new Error(`this process already builds into ${target}`);
    if (pid === undefined || !processAlive(pid)) {
      // Left by a build that was killed (or is being written this instant: then the other process's
      // exclusive create of a fresh file decides who goes first).
      if (pid !== undefined || Date.now() - started > 2000) {
        try {
          unlinkSync(file);
        } catch {
          // Another build took it over first.
        }
        continue;
      }
    } else if (!told) {
      told = true;
      onWait?.(pid);
    }
    if (Date.now() - started > WAIT_LIMIT_MS) {
      throw new UsageError(`another build (process ${pid}) has been writing ${target} for over ${WAIT_LIMIT_MS / 60_000} minutes; stop it or remove ${file}`);
    }
    await sleep(POLL_MS);
  }
  removeLeftovers(target);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (holder(file) === process.pid) rmSync(file, { force: true });
    },
  };
}

/** Removes the temporary folders of earlier builds into `target` that never finished. */
function removeLeftovers(target: string): void {
  const prefix = tempFolderPrefix(target);
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    try {
      rmSync(join(dirname(target), name), { recursive: true, force: true });
    } catch {
      // Not ours to remove (made by another user, say): it costs only space, and must not stop every later build.
    }
  }
}
