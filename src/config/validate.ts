import type { z } from 'zod';
import { formatPath, InputError, type SourceProblem } from '../shared/errors.js';
import { yamlValue, locate, parseLocatedYaml, type LocatedYaml } from './yaml-positions.js';

/* YAML read against a zod schema: its issues as problems located in the YAML source, in words a writer understands. */

type Issue = z.core.$ZodIssue;

/**
 * YAML text read and checked by `schema` (the config, or a page's frontmatter below its first line); throws
 * InputError listing the YAML's problems, else the schema's (their paths under `under`, when given).
 */
export function parseValid<T>(schema: z.ZodType<T>, source: string, file: string, lineOffset = 0, under?: string): { data: T; located: LocatedYaml } {
  const { located, problems } = parseLocatedYaml(source, file, lineOffset);
  if (problems.length) throw new InputError(problems);
  const result = schema.safeParse(yamlValue(located) ?? {});
  if (result.success) return { data: result.data, located };
  const found = zodProblems(result.error.issues, located);
  throw new InputError(under ? found.map((p) => ({ ...p, path: p.path === '(root)' ? under : `${under}.${p.path}` })) : found);
}

function zodProblems(issues: readonly Issue[], located: LocatedYaml): SourceProblem[] {
  return issues.flatMap((issue) => {
    // A union where the value has the type of one alternative only (a mapping, of a string-or-mapping key): that alternative's problems, in place.
    if (issue.code === 'invalid_union' && !(issue as { note?: string }).note) {
      // (Or of a mapping of several forms: the one whose keys it uses, such as a language { code, label } beside a link { title, url }.)
      const typed = issue.errors.filter((list) => !list.some((e) => e.path.length === 0 && e.code === 'invalid_type'));
      const keyed = typed.filter((list) => !list.some((e) => e.path.length === 0 && e.code === 'unrecognized_keys'));
      const fitting = keyed.length === 1 ? keyed : typed;
      if (fitting.length === 1) return zodProblems(fitting[0]!.map((e) => ({ ...e, path: [...issue.path, ...e.path] }) as Issue), located);
    }
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const path = [...issue.path, key];
        return { file: located.file, ...locate(located, path, true), path: formatPath(path), message: `unknown key "${key}"` };
      });
    }
    return [{ file: located.file, ...locate(located, issue.path, issue.code === 'invalid_key'), path: formatPath(issue.path) || '(root)', message: describeIssue(issue, located) }];
  });
}

function describeIssue(issue: Issue, located: LocatedYaml): string {
  switch (issue.code) {
    case 'invalid_type': {
      const value = valueAt(located, issue.path);
      if (value === undefined) return `missing required field (expected ${issue.expected})`;
      return `expected ${issue.expected}, received ${describeValue(value)}`;
    }
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' | ')}, received ${describeValue(valueAt(located, issue.path))}`;
    case 'invalid_union': {
      const received = describeValue(valueAt(located, issue.path));
      // A discriminated union reports its discriminator; plain unions list the alternatives.
      const note = (issue as { note?: string }).note;
      if (note && /discriminator/i.test(note)) {
        const options = (issue as { options?: unknown[] }).options ?? [];
        return `expected ${options.map((o) => JSON.stringify(o)).join(' | ')}, received ${received}`;
      }
      const alternatives = issue.errors.map((list) => list.find((e) => e.path.length === 0));
      if (alternatives.every((e) => e?.code === 'invalid_type')) {
        const expected = [...new Set(alternatives.map((e) => (e as { expected: string }).expected))].join(' | ');
        if (valueAt(located, issue.path) === undefined) return `missing required field (expected ${expected})`;
        return `expected ${expected}, received ${received}`;
      }
      const messages = new Set(issue.errors.flat().map((e) => e.message.replace(/^Invalid input: /, '')));
      return [...messages].join(', or ');
    }
    case 'invalid_key': {
      const inner = (issue as { issues?: Issue[] }).issues?.[0];
      return `bad key: ${inner ? describeIssue(inner, located) : issue.message}`;
    }
    case 'too_small':
      if (issue.origin === 'array') return `expected at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`;
      if (issue.origin === 'string') return 'expected a non-empty string';
      return issue.message;
    default:
      return issue.message.replace(/^Invalid input: /, '').replace(/^Invalid string: /, '');
  }
}

function valueAt(located: LocatedYaml, path: readonly PropertyKey[]): unknown {
  let value: unknown = yamlValue(located);
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part as string];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
