/*
 * Named points of the build where a test can stop it as a kill would (SIGKILL, no clean-up), to
 * check what a build killed exactly there leaves behind: DOCS_FAULT=<name> in the environment.
 * For the tests only; not an option of the command.
 */
export function faultPoint(name: string): void {
  if (process.env.DOCS_FAULT === name) process.kill(process.pid, 'SIGKILL');
}
