import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/content.js';

/*
 * The shape of the code, as ARCHITECTURE.md draws it: no import circle (type imports included), and
 * each module imports only from its own layer or the layers below it. A layer is a list of path
 * prefixes; the first that matches a file gives its layer.
 */

const LAYERS: ReadonlyArray<readonly [name: string, prefixes: readonly string[]]> = [
  ['shared', ['src/shared/']],
  ['io', ['src/io/']],
  ['words', ['src/theme/colors.ts', 'src/theme/social-icons.ts', 'src/theme/ui.ts']],
  ['config', ['src/config/']],
  ['theme', ['src/theme/']],
  ['content', ['src/content/']],
  ['site', ['src/site/']],
  ['templates', ['templates/']],
  ['build', ['src/build/']],
  ['engine', ['src/engine/']],
  ['serve', ['src/serve/']],
  ['init', ['src/init/']],
  ['cli', ['src/cli/']],
];
/** Code that runs in the browser: it imports only browser code and the interface's words. */
const BROWSER = ['templates/client/', 'src/serve/client/'];
/** Code shared by Node and the browser (the search index's words), which the build may import. */
const SHARED_WITH_BROWSER = ['templates/client/search-text.ts'];

const layerOf = (file: string) => LAYERS.findIndex(([, prefixes]) => prefixes.some((p) => file.startsWith(p)));
const inBrowser = (file: string) => BROWSER.some((p) => file.startsWith(p));

/** Every module of src/ and templates/, with the modules of both it imports (static, dynamic, re-exports and types). */
export function importGraph(root: string): Map<string, Set<string>> {
  const files: string[] = [];
  for (const top of ['src', 'templates']) {
    for (const name of readdirSync(join(root, top), { recursive: true }) as string[]) {
      if (/\.(ts|tsx|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) files.push(`${top}/${name.split('\\').join('/')}`);
    }
  }
  const known = new Set(files);
  const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const deps = new Set<string>();
    for (const m of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
      const target = relative(root, resolve(root, dirname(file), m[1] ?? m[2]!)).split('\\').join('/');
      const hit = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target.replace(/\.mjs$/, '.mts')].find((c) => known.has(c));
      if (hit) deps.add(hit);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The circles of the graph: each strongly connected set of two or more modules (Tarjan's algorithm). */
export function circles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) found.push(set.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The imports that break the layering, as "importer -> imported (layer -> layer)". */
export function layerBreaks(graph: Map<string, Set<string>>): string[] {
  const breaks: string[] = [];
  for (const [file, deps] of graph) {
    for (const dep of deps) {
      if (inBrowser(file)) {
        if (!inBrowser(dep) && layerOf(dep) !== 2) breaks.push(`${file} -> ${dep} (browser code imports Node code)`);
        continue;
      }
      if (inBrowser(dep)) {
        if (!SHARED_WITH_BROWSER.includes(dep)) breaks.push(`${file} -> ${dep} (Node code imports browser code)`);
        continue;
      }
      const [from, to] = [layerOf(file), layerOf(dep)];
      if (from < 0 || to < 0) breaks.push(`${file} -> ${dep} (in no layer)`);
      else if (to > from) breaks.push(`${file} -> ${dep} (${LAYERS[from]![0]} -> ${LAYERS[to]![0]})`);
    }
  }
  return breaks.sort();
}

describe('the shape of the code', () => {
  const graph = importGraph(ROOT);

  it('has no import circle, type imports included', () => {
    expect(graph.size).toBeGreaterThan(80);
    expect(circles(graph)).toEqual([]);
  });

  it('imports only from the same layer or a lower one (ARCHITECTURE.md, code map)', () => {
    expect(layerBreaks(graph)).toEqual([]);
  });

  it('leaves the building to the engine: src/serve/ reads no config, Markdown, site model, theme or cache itself', () => {
    const below = ['src/config/', 'src/content/', 'src/site/', 'src/theme/', 'src/io/'];
    const reads = [...graph].filter(([file]) => file.startsWith('src/serve/')).flatMap(([file, deps]) => [...deps].filter((dep) => below.some((p) => dep.startsWith(p))).map((dep) => `${file} -> ${dep}`));
    expect(reads).toEqual([]);
    // (What it takes from the engine: the preview, with its files and messages.)
    expect([...graph].some(([file, deps]) => file.startsWith('src/serve/') && deps.has('src/engine/preview.ts'))).toBe(true);
  });

  it('finds a circle and a break when there is one (the checks themselves)', () => {
    const sample = new Map([
      ['src/content/a.ts', new Set(['src/content/b.ts'])],
      ['src/content/b.ts', new Set(['src/content/c.ts'])],
      ['src/content/c.ts', new Set(['src/content/a.ts', 'src/build/x.ts'])],
      ['src/build/x.ts', new Set(['templates/client/menu.ts'])],
      ['templates/client/menu.ts', new Set(['src/theme/ui.ts'])],
      ['src/theme/ui.ts', new Set<string>()],
    ]);
    expect(circles(sample)).toEqual([['src/content/a.ts', 'src/content/b.ts', 'src/content/c.ts']]);
    expect(layerBreaks(sample)).toEqual([
      'src/build/x.ts -> templates/client/menu.ts (Node code imports browser code)',
      'src/content/c.ts -> src/build/x.ts (content -> build)',
    ]);
  });

  it('keeps every source file under 400 lines', () => {
    const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const long = [...graph.keys()].filter((file) => lines(readFileSync(join(ROOT, file), 'utf8')) > 400);
    expect(long).toEqual([]);
  });
});
