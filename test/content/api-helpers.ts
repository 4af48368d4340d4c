import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Compilation, Compiler, Configuration, Stats } from 'webpack';
import { expect } from 'vitest';
import { listFiles, readPage as readPageUncached, removeDir, ROOT, scratchDir, writeFiles, type CodeBlock, type PageSource } from '../helpers/content.js';
import { evaluateConfig, webpack } from '../helpers/webpack.js';

/*
 * Shared helpers for the API reference tests (test/content/api-*.test.ts).
 *
 * - sectionsOf(page): the headings of a page with the Markdown text under each
 * - hookProblems(...): compares documented hooks (heading + signature) with real hook objects
 * - captureInternals(): one small real compilation exposing compiler, compilation, factories and parser
 * - exampleTracker(page): reads titled examples from a page and remembers which ones a test used
 * - buildWith(...): writes files into a scratch project and compiles them with the real webpack
 */

export const API_FIXTURES = join(ROOT, 'test', 'fixtures', 'api');

const pages = new Map<string, PageSource>();
/** readPage, parsed once per test file (the CLI page is large). */
export function readPage(pageId: string): PageSource {
  let page = pages.get(pageId);
  if (!page) {
    page = readPageUncached(pageId);
    pages.set(pageId, page);
  }
  return page;
}

export interface Section {
  depth: number;
  /** Heading text with inline-code backticks removed. */
  text: string;
  /** 1-based line of the heading in the page body. */
  line: number;
  /** Markdown between this heading and the next heading of the same or a higher level. */
  body: string;
  /** Text of the nearest enclosing h2 (the heading itself for an h2). */
  h2: string;
}

/** Every heading (h2–h6) of a page with the Markdown under it; fenced code is skipped when looking for headings. */
export function sectionsOf(pageId: string): Section[] {
  const lines = readPage(pageId).body.split('\n');
  const found: { depth: number; text: string; line: number }[] = [];
  let fence: string | null = null;
  lines.forEach((line, index) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!.slice(0, 3);
      else if (line.trim().startsWith(fence)) fence = null;
      return;
    }
    if (fence !== null) return;
    const h = /^(#{2,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) found.push({ depth: h[1]!.length, text: h[2]!.replace(/`/g, '').trim(), line: index + 1 });
  });
  let h2 = '';
  return found.map((heading, i) => {
    if (heading.depth === 2) h2 = heading.text;
    let end = lines.length;
    for (let j = i + 1; j < found.length; j++) {
      if (found[j]!.depth <= heading.depth) {
        end = found[j]!.line - 1;
        break;
      }
    }
    return { ...heading, body: lines.slice(heading.line, end).join('\n'), h2 };
  });
}

/** The h3 sections under the h2 whose text equals `h2` or matches it (all h3 sections when h2 is omitted). */
export function h3sUnder(pageId: string, h2?: string | RegExp): Section[] {
  const under = (text: string) => h2 === undefined || (typeof h2 === 'string' ? text === h2 : h2.test(text));
  return sectionsOf(pageId).filter((s) => s.depth === 3 && under(s.h2));
}

/** Names that are documented more than once in a list of sections. */
export function duplicates(names: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return [...dup];
}

// ---------------------------------------------------------------------------
// Hooks

export interface RealHook {
  name: string;
  /** Constructor name: SyncHook, AsyncSeriesHook, HookMap, MultiHook, … ("Object" for webpack's deprecated fake hooks). */
  type: string;
  /** Argument names (hook._args); for a HookMap or MultiHook, those of the hooks it holds. */
  args: string[];
  /** For a HookMap: the class of the hooks it creates ("FakeHook" when it creates fake hooks); for a MultiHook: the class of the hooks it spans. */
  inner?: string;
}

interface HookLike {
  constructor: { name: string };
  _args?: string[];
  _fakeHook?: boolean;
  for?: (key: string) => HookLike;
  hooks?: HookLike[];
}

/** Describes every key of a `hooks` object from the real hook instances. */
export function describeHooks(hooks: object): RealHook[] {
  const previous = process.noDeprecation;
  process.noDeprecation = true;
  try {
    return Object.keys(hooks).map((name) => {
      const hook = (hooks as Record<string, HookLike>)[name]!;
      const type = hook.constructor.name;
      if (type === 'HookMap' && typeof hook.for === 'function') {
        const probe = hook.for('__api_docs_probe__');
        return { name, type, inner: probe._fakeHook ? 'FakeHook' : probe.constructor.name, args: [...(probe._args ?? [])] };
      }
      if (type === 'MultiHook' && Array.isArray(hook.hooks) && hook.hooks.length > 0) {
        const first = hook.hooks[0]!;
        return { name, type, inner: first.constructor.name, args: [...(first._args ?? [])] };
      }
      return { name, type, args: [...(hook._args ?? [])] };
    });
  } finally {
    process.noDeprecation = previous;
  }
}

export interface Signature {
  wrapper?: 'HookMap' | 'FakeHook' | 'MultiHook';
  /** HookMap<FakeHook<…>>: a map whose hooks are fake hooks. */
  fakeInner?: boolean;
  type: string;
  args: string[];
}

/** Splits on commas that are not nested in <>, (), [] or {}. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if ('<([{'.includes(ch)) depth++;
    if ('>)]}'.includes(ch) && !(ch === '>' && current.endsWith('='))) depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}

const SIGNATURE = /^(?:(HookMap|FakeHook|MultiHook)<)?(?:(FakeHook)<)?((?:Sync|Async)\w*Hook)<\[(.*)\]>(>*)$/s;

/** Parses `SyncHook<[compilation: Compilation, params: CompilationParams]>` and the HookMap/FakeHook/MultiHook forms. */
export function parseSignature(code: string): Signature | undefined {
  const m = SIGNATURE.exec(code.trim());
  if (!m) return undefined;
  // One closing bracket per wrapper.
  if (m[2] && m[1] !== 'HookMap') return undefined;
  if (m[5]!.length !== (m[1] ? 1 : 0) + (m[2] ? 1 : 0)) return undefined;
  const args = splitTopLevel(m[4]!).map((a) => a.split(':')[0]!.replace(/\?$/, '').trim());
  return { wrapper: m[1] as Signature['wrapper'], fakeInner: m[2] ? true : undefined, type: m[3]!, args };
}

/** The first inline code span of a section that reads as a hook signature. */
export function signatureIn(body: string): Signature | undefined {
  for (const m of body.matchAll(/`([^`\n]+)`/g)) {
    const sig = parseSignature(m[1]!);
    if (sig) return sig;
  }
  return undefined;
}

export interface HookReport {
  documented: number;
  missing: string[];
  stale: string[];
  wrong: string[];
}

/**
 * Compares the h3 sections under the matching h2(s) with the real hooks: every hook needs a
 * heading named exactly like it, and its signature must state the real class
 * and argument names. A HookMap is written HookMap<InnerHook<[…]>>; webpack's
 * deprecated fake hooks (plain objects) are written FakeHook<…>.
 */
export function hookProblems(pageId: string, h2: string | RegExp, real: RealHook[]): HookReport {
  const sections = h3sUnder(pageId, h2);
  const byName = new Map(sections.map((s) => [s.text, s]));
  const realNames = new Set(real.map((h) => h.name));
  const report: HookReport = {
    documented: sections.length,
    missing: real.filter((h) => !byName.has(h.name)).map((h) => h.name),
    stale: sections.filter((s) => !realNames.has(s.text)).map((s) => s.text),
    wrong: duplicates(sections.map((s) => s.text)).map((d) => `${d}: documented twice`),
  };
  for (const hook of real) {
    const section = byName.get(hook.name);
    if (!section) continue;
    const sig = signatureIn(section.body);
    if (!sig) {
      report.wrong.push(`${hook.name}: no signature such as \`SyncHook<[a: A]>\``);
      continue;
    }
    if (hook.type === 'HookMap' && hook.inner === 'FakeHook') {
      // The inner fake hooks have no class or argument list of their own to compare.
      if (sig.wrapper !== 'HookMap' || !sig.fakeInner) report.wrong.push(`${hook.name}: is a HookMap of fake hooks, page says ${sig.wrapper ?? ''} ${sig.type}`);
      continue;
    } else if (hook.type === 'HookMap') {
      if (sig.wrapper !== 'HookMap' || sig.fakeInner || sig.type !== hook.inner) {
        report.wrong.push(`${hook.name}: page says ${sig.wrapper ?? ''} ${sig.type}, real is HookMap<${hook.inner}>`);
      }
    } else if (hook.type === 'MultiHook') {
      if (sig.wrapper !== 'MultiHook' || sig.type !== hook.inner) {
        report.wrong.push(`${hook.name}: page says ${sig.wrapper ?? ''} ${sig.type}, real is MultiHook<${hook.inner}>`);
      }
    } else if (hook.type === 'Object') {
      if (sig.wrapper !== 'FakeHook') report.wrong.push(`${hook.name}: is a deprecated fake hook, page says ${sig.type}`);
      continue;
    } else if (sig.wrapper || sig.type !== hook.type) {
      report.wrong.push(`${hook.name}: page says ${sig.wrapper ? `${sig.wrapper}<${sig.type}>` : sig.type}, real is ${hook.type}`);
    }
    if (sig.args.join(',') !== hook.args.join(',')) {
      report.wrong.push(`${hook.name}: page names arguments [${sig.args.join(', ')}], real are [${hook.args.join(', ')}]`);
    }
  }
  return report;
}

/**
 * Checks what the page says about deprecated hooks against what tapping them does.
 * For every h3 under the matching h2(s) whose description starts with "Deprecated":
 * when it names a `DEP_…` code, reading and tapping the hook must print a
 * DeprecationWarning with that code; when it names none, it must print no
 * deprecation warning at all. Returns the hooks checked and the mismatches.
 * Node prints each code once per process, so call this before anything else
 * in the test file touches these hooks.
 */
export async function deprecationProblems(pageId: string, h2: string | RegExp, hooks: object): Promise<{ checked: string[]; problems: string[] }> {
  const checked: string[] = [];
  const problems: string[] = [];
  const deprecated = h3sUnder(pageId, h2).filter((s) => /^Deprecated\b/.test(s.body.trim().split('\n\n')[1] ?? ''));
  for (const section of deprecated) {
    const code = /`(DEP_[A-Z0-9_]+)`/.exec(section.body)?.[1];
    const warnings: string[] = [];
    const listener = (warning: Error & { code?: string }) => {
      if (warning.name === 'DeprecationWarning') warnings.push(warning.code ?? '(no code)');
    };
    const previous = process.noDeprecation;
    process.noDeprecation = false;
    process.on('warning', listener);
    try {
      const hook = (hooks as Record<string, { tap?: (name: string, fn: () => void) => void }>)[section.text];
      if (!hook || typeof hook.tap !== 'function') {
        problems.push(`${section.text}: not a hook that can be tapped`);
        continue;
      }
      hook.tap('ApiDocsDeprecationProbe', () => {});
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
      process.noDeprecation = previous;
    }
    checked.push(section.text);
    if (code && !warnings.includes(code)) problems.push(`${section.text}: page names ${code}, tapping printed ${warnings.join(', ') || 'nothing'}`);
    if (!code && warnings.length > 0) problems.push(`${section.text}: page names no code, tapping printed ${warnings.join(', ')}`);
  }
  return { checked, problems };
}

// ---------------------------------------------------------------------------
// One real compilation, shared by the tests of a file

export interface Internals {
  compiler: Compiler;
  compilation: Compilation;
  normalModuleFactory: { hooks: object };
  contextModuleFactory: { hooks: object };
  javascriptParser: { hooks: object };
  stats: Stats;
}

let internals: Promise<Internals> | undefined;

/** Compiles test/fixtures/api/app once (per test file) and keeps the objects plugin authors meet. */
export function captureInternals(): Promise<Internals> {
  internals ??= (async () => {
    const captured: Partial<Internals> = {};
    const capture = {
      apply(compiler: Compiler) {
        captured.compiler = compiler;
        compiler.hooks.thisCompilation.tap('ApiDocsCapture', (compilation, params) => {
          captured.compilation = compilation;
          captured.normalModuleFactory = params.normalModuleFactory;
          captured.contextModuleFactory = params.contextModuleFactory;
          params.normalModuleFactory.hooks.parser.for('javascript/auto').tap('ApiDocsCapture', (parser) => {
            captured.javascriptParser ??= parser;
          });
        });
      },
    };
    const build = await buildWith('api-internals', fixtureFiles('app'), { mode: 'development', devtool: false, plugins: [capture] });
    build.cleanup();
    return { ...(captured as Internals), stats: build.stats };
  })();
  return internals;
}

// ---------------------------------------------------------------------------
// Projects and examples

/** Every file of test/fixtures/api/<name> as path → text. */
export function fixtureFiles(name: string): Record<string, string> {
  const dir = join(API_FIXTURES, name);
  const files: Record<string, string> = {};
  for (const file of listFiles(dir)) files[file.split('\\').join('/')] = readFileSync(join(dir, file), 'utf8');
  return files;
}

export interface Build {
  dir: string;
  stats: Stats;
  /** Emitted files (relative to dist/) and their text. */
  outputs: Record<string, string>;
  /** Everything written to console.log while the build ran (as strings, one entry per call). */
  logs: string[];
  cleanup(): void;
}

/**
 * Writes `files` (plus a package.json without "type", so .js files are CommonJS for
 * Node and "auto" for webpack) into a scratch project and compiles `config` there.
 * `config` may be a function of the project folder. Rejects on compilation errors
 * unless allowErrors is set.
 */
export async function buildWith(
  name: string,
  files: Record<string, string>,
  config: Configuration | ((dir: string) => Configuration),
  options: { allowErrors?: boolean } = {},
): Promise<Build> {
  const dir = scratchDir(name);
  const logs: string[] = [];
  const original = console.log;
  try {
    writeFiles(dir, { 'package.json': '{ "private": true }\n', ...files });
    const resolved = typeof config === 'function' ? config(dir) : config;
    const final: Configuration = {
      mode: 'development',
      devtool: false,
      ...resolved,
      context: resolved.context ?? dir,
      output: { ...resolved.output, path: resolved.output?.path ?? join(dir, 'dist') },
      infrastructureLogging: { level: 'error', ...resolved.infrastructureLogging },
    };
    console.log = (...args: unknown[]) => {
      logs.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    };
    const stats = await new Promise<Stats>((resolve, reject) => {
      webpack(final, (err, result) => (err ? reject(err) : resolve(result as Stats)));
    });
    console.log = original;
    if (stats.hasErrors() && !options.allowErrors) {
      const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
      throw new Error(`webpack reported errors:\n${errors.map((e) => e.message).join('\n')}`);
    }
    const outputs: Record<string, string> = {};
    const outDir = final.output!.path!;
    try {
      for (const file of listFiles(outDir)) outputs[file.split('\\').join('/')] = readFileSync(join(outDir, file), 'utf8');
    } catch {
      // nothing emitted
    }
    return { dir, stats, outputs, logs, cleanup: () => removeDir(dir) };
  } catch (error) {
    console.log = original;
    removeDir(dir);
    throw error;
  }
}

/** Loads a CommonJS module from page source (a plugin class, a config) as if it lived in `dir`. */
export function loadModule<T>(source: string, dir: string): T {
  return evaluateConfig(source, dir) as T;
}

export interface ExampleTracker {
  /** The code of the block with this title (the `index`-th one when a title repeats); remembers that it was used. */
  code(title: string, index?: number): string;
  /** The block itself. */
  block(title: string, index?: number): CodeBlock;
  /** The block that follows the block with this title (for example its output). */
  after(title: string, index?: number): CodeBlock | undefined;
  /** Titled blocks of the page whose title matches `pattern` and that no test used. */
  unused(pattern?: RegExp): string[];
}

/** Reads titled code blocks of a page; `unused()` reports the ones no test asked for. */
export function exampleTracker(pageId: string): ExampleTracker {
  const used = new Set<number>();
  const blocks = () => readPage(pageId).blocks;
  const find = (title: string, index = 0) => {
    const matches = blocks().filter((b) => b.title === title);
    const block = matches[index];
    if (!block) throw new Error(`${pageId}: no code block #${index + 1} titled ${title} (found ${matches.length})`);
    used.add(block.line);
    return block;
  };
  return {
    code: (title, index) => find(title, index).code,
    block: find,
    after(title, index) {
      const line = find(title, index).line;
      const all = blocks();
      return all[all.findIndex((b) => b.line === line) + 1];
    },
    unused: (pattern = /./) =>
      blocks()
        .filter((b) => b.title !== undefined && pattern.test(b.title) && !used.has(b.line))
        .map((b) => `${pageId}: ${b.title} (line ${b.line})`),
  };
}

/** Prints a count line that the test run shows (used for the coverage figures). */
export function reportCount(what: string, count: number): void {
  console.log(`[api docs] ${what}: ${count}`);
}

// ---------------------------------------------------------------------------
// What webpack's JavaScript parser recognizes

/**
 * The keys of every HookMap of the JavaScript parser (such as `expression`,
 * `call`, `typeof`) after webpack's own plugins tapped them, merged over a few
 * typical configurations: a web build, one with hot module replacement, and a
 * node build. Symbol keys are left out.
 */
export async function parserHookKeys(): Promise<Map<string, Set<string>>> {
  const merged = new Map<string, Set<string>>();
  const variants: Configuration[] = [
    {},
    { plugins: [new webpack.HotModuleReplacementPlugin()] },
    { target: 'node' },
  ];
  for (const [index, variant] of variants.entries()) {
    const parsers = new Set<object>();
    const capture = {
      apply(compiler: Compiler) {
        compiler.hooks.thisCompilation.tap('ApiDocsParserKeys', (_compilation, { normalModuleFactory }) => {
          for (const type of ['javascript/auto', 'javascript/dynamic', 'javascript/esm']) {
            normalModuleFactory.hooks.parser.for(type).tap('ApiDocsParserKeys', (parser) => {
              parsers.add(parser as object);
            });
          }
        });
      },
    };
    const build = await buildWith(`api-parser-keys-${index}`, fixtureFiles('app'), { ...variant, plugins: [...(variant.plugins ?? []), capture] });
    build.cleanup();
    // Read the keys after the build, when webpack's plugins have tapped everything they tap.
    for (const parser of parsers) {
      const hooks = (parser as { hooks: Record<string, { _map?: Map<unknown, { taps?: unknown[] }> }> }).hooks;
      for (const [hookName, hook] of Object.entries(hooks)) {
        if (!(hook._map instanceof Map)) continue;
        const keys = merged.get(hookName) ?? new Set<string>();
        // Only keys somebody tapped: a HookMap also holds hooks created by mere look-ups.
        for (const [key, inner] of hook._map) if (typeof key === 'string' && (inner.taps?.length ?? 0) > 0) keys.add(key);
        merged.set(hookName, keys);
      }
    }
  }
  return merged;
}

/** Checks each table of hooks of a page (its h2 and the real hooks object) against the installed package, both ways. */
export function expectHookTables(pageId: string, registries: ReadonlyArray<readonly [h2: string, hooks: object]>): void {
  for (const [h2, hooks] of registries) {
    const real = describeHooks(hooks);
    const report = hookProblems(pageId, h2, real);
    reportCount(h2, real.length);
    expect(real.length, h2).toBeGreaterThan(0);
    expect(report.missing, `${h2}: hooks without a heading`).toEqual([]);
    expect(report.stale, `${h2}: headings for hooks that do not exist`).toEqual([]);
    expect(report.wrong, `${h2}: signatures that differ from the real hooks`).toEqual([]);
  }
}
