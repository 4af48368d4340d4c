import { execFile, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The Nu HTML Checker (the checker behind validator.w3.org), from the vnu-jar
 * package; it runs on Java. Outside CI, a missing Java skips the checker's
 * tests with a loud notice; in CI (which installs Debian's default-jre-headless)
 * it is an error.
 */

export const JAVA = process.env.JAVA ?? 'java';
const VNU_JAR: string = createRequire(import.meta.url)('vnu-jar');

export const hasJava = spawnSync(JAVA, ['-version'], { stdio: 'ignore' }).status === 0;
if (!hasJava) {
  if (process.env.CI) throw new Error(`Java is required for the Nu HTML Checker in CI, but "${JAVA} -version" did not run`);
  console.warn(`\n*** NU HTML CHECKER TESTS SKIPPED: no Java (${JAVA}); install Debian's default-jre-headless ***\n`);
}

/*
 * A short run on a shared machine: the quick compiler only and the serial
 * collector (on the 160 pages of the site: 9 s of CPU and 340 MB instead of
 * 16 s and 1.2 GB), and the deeper thread stack that the quick compiler's
 * frames need (the checker stops with a StackOverflowError otherwise).
 */
const JVM_OPTIONS = ['-Xss4m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'];

interface NuMessage {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  message: string;
  extract?: string;
}

/**
 * Checks HTML files in one run of the checker (it takes seconds to start) and
 * returns its errors, one line each: file (relative to `root`), line, column,
 * message and the markup it points at. Warnings are not asked for.
 */
export async function nuHtmlErrors(root: string, files: string[]): Promise<string[]> {
  const stderr = await new Promise<string>((resolve, reject) => {
    execFile(JAVA, [...JVM_OPTIONS, '-jar', VNU_JAR, '--errors-only', '--format', 'json', ...files], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, err) => {
      // The checker exits with 1 when it found errors; the JSON on stderr says which.
      if (error && typeof error.code !== 'number') reject(error);
      else resolve(err);
    });
  });
  let messages: NuMessage[];
  try {
    messages = (JSON.parse(stderr) as { messages: NuMessage[] }).messages;
  } catch {
    throw new Error(`the Nu HTML Checker did not answer with JSON:\n${stderr.slice(0, 2000)}`);
  }
  return messages.map((m) => {
    const file = m.url?.startsWith('file:') ? relative(root, fileURLToPath(m.url)) : (m.url ?? '?');
    const extract = m.extract ? ` [${m.extract.replace(/\s+/g, ' ').trim()}]` : '';
    return `${file}:${m.lastLine ?? 0}:${m.firstColumn ?? 0}: ${m.type}${m.subType ? `/${m.subType}` : ''}: ${m.message}${extract}`;
  });
}
