import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildWith, exampleTracker, h3sUnder, parserHookKeys, reportCount } from './api-helpers.js';

const PAGE = 'api/module-variables';
const VALUE_HOOKS = ['expression', 'evaluateIdentifier', 'evaluateTypeof', 'typeof', 'expressionMemberChain'];

/**
 * Module variables: names webpack's parser plugins handle as values (expression,
 * evaluation and typeof hooks) in the shapes a module can use — dunder names,
 * import.meta.*, module.*, exports, require.* and define.amd, and global —
 * without the functions that are documented as module methods.
 */
function moduleVariables(keys: Map<string, Set<string>>): Set<string> {
  const calls = keys.get('call') ?? new Set<string>();
  const variables = new Set<string>();
  for (const hook of VALUE_HOOKS) {
    for (const key of keys.get(hook) ?? []) {
      const shape = /^(__\w+(\.id)?|import\.meta(\.\w+)*|module(\.\w+)*|exports|require\.\w+|define\.amd|global)$/.test(key);
      const method = calls.has(key) && /^(require(\.\w+)*|module\.require|module\.parent\.require|define)$/.test(key);
      if (shape && !method) variables.add(key);
    }
  }
  return variables;
}

describe('/api/module-variables/', () => {
  const examples = exampleTracker(PAGE);
  let keys: Map<string, Set<string>>;
  beforeAll(async () => {
    keys = await parserHookKeys();
  });

  it('has a heading for every module variable webpack recognizes, and none for names it does not', () => {
    const variables = moduleVariables(keys);
    const known = new Set([...keys.values()].flatMap((set) => [...set]));
    const documented = h3sUnder(PAGE).map((s) => s.text);
    reportCount('module variables', variables.size);
    expect([...variables].filter((v) => !documented.includes(v)).sort(), 'variables without a heading').toEqual([]);
    expect(documented.filter((d) => !known.has(d)), 'headings for names webpack does not recognize').toEqual([]);
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
