import { execFileSync } from 'node:child_process';

/**
 * Date of the last commit touching each file under `dir`, from one `git log`
 * over the whole folder (never one call per file). Empty when there is no
 * history (no git, not a repository, a shallow clone with nothing in it).
 */
export function lastUpdated(root: string, dir: string): Map<string, string> {
  const dates = new Map<string, string>();
  let out: string;
  try {
    // (--relative: the paths from the site root, which may be a folder inside the repository.)
    out = execFileSync('git', ['log', '--format=%x00%cs', '--name-only', '--no-renames', '--relative', '--', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch {
    return dates;
  }
  for (const entry of out.split('\0')) {
    const [date, ...files] = entry.split('\n').filter(Boolean);
    if (!date) continue;
    for (const file of files) if (!dates.has(file)) dates.set(file, date);
  }
  return dates;
}
