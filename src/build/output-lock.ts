import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { faultPoint } from './faults.js';
import { UsageError } from './out-guard.js';

/** How long a build waits for another build into the same output folder before it gives up. */
const WAIT_LIMIT_MS = 10 * 60_000;
const POLL_MS = 150;

/** Temporary folders of builds into `target` (`.dist-build-XXXXXX`, `.dist-build-XXXXXX-old`, `.dist-build-XXXXXX-gone`). */
export function tempFolderPrefix(target: string): string {
  return `.${basename(target)}-build-`;
}

/**
 * The end of the name under which a commit sets the old output aside for the instant between its two
 * renames (see OutputWriter.commit): a folder of that name is a whole output, put back by the next build.
 */
export const SET_ASIDE = '-old';

/** What a lock file says of the build that holds it. */
interface Holder {
  pid: number;
  /** The machine's name, for messages. */
  host?: string;
  /** The kernel's boot id (Linux): the same on a machine and in its containers, new at each boot. */
  boot?: string;
  /** When the process started (ms since the epoch, from the kernel), to tell it from a later process given the same id. */
  started?: number;
}

/** Reads a lock: "docs-lock" JSON, or an older lock's bare process id; undefined for anything else (an empty or torn file). */
function readHolder(file: string): Holder | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  if (/^\d+\s*$/.test(text)) {
    const pid = Number.parseInt(text, 10);
    return pid > 0 ? { pid } : undefined;
  }
  try {
    const lock = JSON.parse(text) as Partial<Holder> & { docsLock?: number };
    return lock.docsLock === 1 && Number.isInteger(lock.pid) && lock.pid! > 0 ? (lock as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/** The kernel's boot id, where the system has one (Linux). (Read each time: a small file, read a few times a build.) */
function machineBoot(): string | undefined {
  return readText('/proc/sys/kernel/random/boot_id')?.trim() || undefined;
}

/**
 * When a process started, in ms since the epoch, where the system tells (Linux: /proc), to within
 * a hundredth of a second; undefined where it does not or the process is gone.
 */
export function processStarted(pid: number): number | undefined {
  const bootTimeMs = Number(/^btime (\d+)$/m.exec(readText('/proc/stat') ?? '')?.[1]) * 1000 || undefined;
  const stat = readText(`/proc/${pid}/stat`);
  if (bootTimeMs === undefined || stat === undefined) return undefined;
  // The fields after the command name (which may hold spaces and parentheses); the start time is the 22nd field, in clock ticks.
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  return Number.isFinite(ticks) ? bootTimeMs + ticks * 10 : undefined;
}

/** A text file's contents, or undefined when it cannot be read (gone, or a system without /proc). */
function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Output folders this process holds the lock of. */
const heldHere = new Set<string>();

/**
 * Whether the build that wrote this lock may still be running: false when it is certainly gone (its
 * process ended, the machine restarted, or its id now names a process that started after it).
 */
function mayBeRunning(lock: Holder, lockWritten: number): boolean {
  const boot = machineBoot();
  if (lock.boot !== undefined && boot !== undefined && lock.boot !== boot) {
    // Another boot of this machine (the build died with it), or another machine, which cannot be asked.
    return lock.host !== hostname();
  }
  // (In a container a build's id is often 1, as this one's may be: it is not this build, which holds no lock for the folder.)
  if (lock.pid === process.pid) return false;
  try {
    process.kill(lock.pid, 0);
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A build is a Node.js process: an id that now names another program (the system's init as process 1, say) is not one.
  // (The program's file name, where the system tells: Linux's /proc.)
  const program = readText(`/proc/${lock.pid}/cmdline`)?.split('\0')[0];
  if (program && !/node/i.test(basename(program))) return false;
  const started = processStarted(lock.pid);
  if (started === undefined) return true;
  // A process that started after the lock was written did not write it (an id used again); nor one whose start is not the lock's.
  if (lock.started !== undefined) return Math.abs(started - lock.started) < 1000;
  return started <= lockWritten + 1000;
}

/** How long lockOutput waits, its clock and its hard links: a test's own, so that it need not wait minutes or find a file system without links. */
interface LockOptions {
  waitLimitMs?: number;
  pollMs?: number;
  now?: () => number;
  link?: (existing: string, path: string) => void;
}

export type OutputLock = Awaited<ReturnType<typeof lockOutput>>;

/** Puts the lock written to `temp` in place at `file`, unless a lock is there: whether it did. */
function takeLock(temp: string, file: string, contents: string, link: (existing: string, path: string) => void): boolean {
  try {
    link(temp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    // A file system without hard links: the lock is made exclusively in place (a build that reads it while it is written takes it for torn).
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(code)) throw e;
  }
  try {
    writeFileSync(file, contents, { mode: 0o644, flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Takes the lock of an output folder: a file naming this process (id, machine, boot and start time),
 * written whole beside it and then linked into place, so that no build ever reads half a lock.
 * While a build that may still be running holds it, waits (telling `onWait` once); a lock whose
 * build is certainly gone, or that is no lock (empty, torn, an empty folder), is taken over at once.
 * Then removes the temporary folders that interrupted builds into the same folder left behind: no
 * other build into it can be running.
 */
export async function lockOutput(target: string, onWait?: (pid: number) => void, options: LockOptions = {}) {
  const { waitLimitMs = WAIT_LIMIT_MS, pollMs = POLL_MS, now = Date.now, link = linkSync } = options;
  // The lock file: beside the output folder, in its parent, so that replacing the folder keeps it.
  const file = join(dirname(target), `.${basename(target)}.lock`);
  if (heldHere.has(file)) throw new Error(`this process already builds into ${target}`);
  // An output folder may be named inside folders that do not exist yet (--out build/site): they are made, as the output is.
  mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
  const mine = JSON.stringify({ docsLock: 1, pid: process.pid, host: hostname(), boot: machineBoot(), started: processStarted(process.pid) }) + '\n';
  const started = now();
  let told = false;
  for (;;) {
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    let taken = false;
    try {
      try {
        writeFileSync(temp, mine, { mode: 0o644, flag: 'wx' });
      } catch (e) {
        // (Named as the lock: the temporary name beside it means nothing to the reader.)
        if (e && typeof e === 'object' && 'code' in e) Object.assign(e, { path: file });
        throw e;
      }
      taken = takeLock(temp, file, mine, link);
    } finally {
      try {
        rmSync(temp, { force: true });
      } catch {
        // Not there, nor could it be (a name too long for the file system): the error above says why.
      }
    }
    if (taken) break;
    let st;
    try {
      st = statSync(file);
    } catch {
      continue; // Gone meanwhile: try again.
    }
    if (st.isDirectory()) {
      try {
        rmdirSync(file);
        continue;
      } catch {
        throw new UsageError(`${file} is a folder with files in it, where a build keeps its lock; move it away and build again`);
      }
    }
    const lock = readHolder(file);
    if (!lock || !mayBeRunning(lock, st.mtimeMs)) {
      // Left by a build that is gone, or not a lock at all: taken over (an exclusive link decides between two builds that both see it).
      try {
        unlinkSync(file);
      } catch {
        // Another build took it over first.
      }
      continue;
    }
    if (!told) {
      told = true;
      onWait?.(lock.pid);
    }
    if (now() - started > waitLimitMs) {
      const where = lock.host && lock.host !== hostname() ? ` on ${lock.host}` : '';
      throw new UsageError(`another build (process ${lock.pid}${where}) has been writing ${target} for over ${waitLimitMs / 60_000} minutes; stop it or remove ${file}`);
    }
    await sleep(pollMs);
  }
  heldHere.add(file);
  removeLeftovers(target);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}

/**
 * Removes the temporary folders of earlier builds into `target` that never finished. A build killed
 * between the two renames of its commit (see OutputWriter.commit) left no output folder and the
 * old output whole under `<temporary folder>-old`: that goes back in its place first (the latest,
 * should there be several).
 */
function removeLeftovers(target: string): void {
  const parent = dirname(target);
  const prefix = tempFolderPrefix(target);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  if (!existsSync(target)) {
    let latest: { name: string; time: number } | undefined;
    for (const name of names) {
      if (!name.startsWith(prefix) || !name.endsWith(SET_ASIDE)) continue;
      const time = statSync(join(parent, name)).mtimeMs;
      if (!latest || time > latest.time) latest = { name, time };
    }
    if (latest) {
      renameSync(join(parent, latest.name), target);
      faultPoint('recover-restored');
    }
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // Not ours to remove (made by another user, say): it costs only space, and must not stop every later build.
    }
  }
}
