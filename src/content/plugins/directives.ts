import type { BlockContent, Blockquote, PhrasingContent, Root, RootContent } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import type { Node, Parent } from 'unist';
import type { VFile } from 'vfile';
import { report, type PageContext } from '../context.js';
import { badgeNode, componentNode, COMPONENTS, element, plainText, splitLabel, text } from './components.js';

/*
 * Writer-facing Markdown extensions built on generic directives:
 *   :::note / :::tip / :::warning / :::danger   asides (an optional [Custom title])
 *   GitHub alerts (> [!NOTE], > [!TIP], > [!IMPORTANT], > [!WARNING], > [!CAUTION])
 *   ::::tabs containing :::tab[Label] blocks
 *   the writers' components: cards, link cards, steps, file trees and badges (components.ts)
 * An unknown container or leaf directive is an error. Text directives other than
 * `:badge[…]` (`:name` inside prose, as in "node:22") are put back as the text they were.
 */

const ASIDE_KINDS = { note: 'Note', tip: 'Tip', warning: 'Warning', danger: 'Danger' } as const;
type AsideKind = keyof typeof ASIDE_KINDS;

/** The kind of aside each GitHub alert is: IMPORTANT and CAUTION look like a note and a danger, under their own words. */
const ALERTS = { note: 'note', tip: 'tip', important: 'note', warning: 'warning', caution: 'danger' } as const;

export function remarkDirectives() {
  return (tree: Root, file: VFile) => {
    const ctx = file.data.ctx!;
    const source = String(file.value);

    /** The node that takes the place of a directive (or of a quote that is an alert), if any. */
    const transform = (node: Node, parent: Parent): unknown => {
      if (node.type === 'textDirective') {
        // (As every directive here, it comes from the parser, with its place in the source.)
        const written = source.slice(node.position!.start.offset, node.position!.end.offset);
        return badgeNode(node as TextDirective, written, ctx) ?? { type: 'text', value: written };
      }
      if (node.type === 'blockquote') {
        const kind = alertKind(node as Blockquote);
        return kind && asideNode(kind.kind, undefined, (node as Blockquote).children, node, kind.word);
      }
      if (node.type !== 'containerDirective' && node.type !== 'leafDirective') return undefined;
      const directive = node as ContainerDirective | LeafDirective;
      if (directive.type === 'containerDirective') checkClosed(directive, source, ctx, parent);
      if (directive.type === 'containerDirective' && directive.name in ASIDE_KINDS) {
        const { label, body } = splitLabel(directive);
        return asideNode(directive.name as AsideKind, labelText(label), body as BlockContent[], directive, undefined, label);
      }
      if (directive.type === 'containerDirective' && directive.name === 'tabs') return tabsNode(directive, ctx);
      if (directive.type === 'containerDirective' && directive.name === 'tab') {
        // Tabs consume their :::tab children themselves; one found here stands alone.
        if ((parent as ContainerDirective).name !== 'tabs') report(ctx, directive.position, 'a :::tab block must be inside a ::::tabs block');
        return undefined;
      }
      const component = componentNode(directive, ctx);
      if (!component) {
        report(ctx, directive.position, `unknown directive "${directive.name}" (expected one of ${[...Object.keys(ASIDE_KINDS), 'tabs', ...Object.keys(COMPONENTS)].join(', ')})`);
      }
      return component;
    };
    // Post-order: nested directives are transformed before the block that holds them,
    // so a replacement never leaves an untransformed copy behind.
    const walk = (parent: Parent) => {
      parent.children.forEach((child, i) => {
        if ('children' in child) walk(child as Parent);
        const replacement = transform(child, parent);
        if (replacement) parent.children[i] = replacement as never;
      });
    };
    walk(tree);
  };
}

/** A container's [label] as plain text. */
const labelText = (label: PhrasingContent[] | undefined) => label && plainText(label);

function alertKind(node: Blockquote): { kind: AsideKind; word: keyof typeof ALERTS } | undefined {
  const first = node.children[0];
  if (first?.type !== 'paragraph') return undefined;
  const text = first.children[0];
  if (text?.type !== 'text') return undefined;
  const m = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|$)/.exec(text.value);
  if (!m) return undefined;
  text.value = text.value.slice(m[0].length);
  if (!text.value) first.children.shift();
  if (!first.children.length) node.children.shift();
  const word = m[1]!.toLowerCase() as keyof typeof ALERTS;
  return { kind: ALERTS[word], word };
}

/** The titles an aside gets when the writer gives none, by the word's key (see DEFAULT_ASIDE in render.tsx), in English. */
const DEFAULT_TITLES = { ...ASIDE_KINDS, important: 'Important', caution: 'Caution' } as const;

/**
 * An aside. A title the writer gave keeps its Markdown (`:::tip[Use **this**]`: emphasis, code, links) in
 * `titleNodes`; its plain text labels the aside for assistive technology.
 */
function asideNode(kind: AsideKind, title: string | undefined, children: RootContent[], at: { position?: unknown }, word: keyof typeof DEFAULT_TITLES = kind, titleNodes?: RootContent[]) {
  const label = title || DEFAULT_TITLES[word];
  return {
    type: 'aside',
    position: at.position,
    data: {
      hName: 'div',
      hProperties: { className: ['aside', `aside-${kind}`], role: 'note', ariaLabel: label },
    },
    children: [
      {
        type: 'paragraph',
        // A title the writer did not give is the interface's word, put in the site's language when the page is written.
        data: { hProperties: title ? { className: ['aside-title'] } : { className: ['aside-title'], dataAsideDefault: word } },
        children: title && titleNodes?.length ? titleNodes : [text(label)],
      },
      ...children,
    ],
  };
}

function tabsNode(directive: ContainerDirective, ctx: PageContext) {
  const group = ++ctx.tabGroups;
  const tabs: Array<{ label: string; body: RootContent[] }> = [];
  for (const child of directive.children) {
    if (child.type === 'containerDirective' && child.name === 'tab') {
      const split = splitLabel(child);
      const [label, body] = [labelText(split.label), split.body];
      if (!label) report(ctx, child.position, 'a :::tab needs a label, as in :::tab[npm]');
      // The label names the tab, and the reader's choice is remembered by it: two tabs of one label cannot be told apart.
      else if (tabs.some((tab) => tab.label === label)) report(ctx, child.position, `two tabs of this block are labelled "${label}": give each its own label`);
      tabs.push({ label: label ?? `Tab ${tabs.length + 1}`, body });
    } else {
      report(ctx, child.position, 'a ::::tabs block may only contain :::tab[Label] blocks');
    }
  }
  if (!tabs.length) report(ctx, directive.position, 'a ::::tabs block needs at least one :::tab[Label] block');
  const id = (i: number) => `tabs-${group}-${i + 1}`;
  const buttons = tabs.map((tab, i) => ({
    type: 'tabButton',
    data: {
      hName: 'button',
      hProperties: {
        type: 'button',
        role: 'tab',
        id: `${id(i)}-tab`,
        ariaControls: `${id(i)}-panel`,
        ariaSelected: i === 0 ? 'true' : 'false',
        tabIndex: i === 0 ? 0 : -1,
        dataLabel: tab.label,
      },
      hChildren: [{ type: 'text', value: tab.label }],
    },
  }));
  const panels = tabs.map((tab, i) => ({
    type: 'tabPanel',
    data: {
      hName: 'div',
      hProperties: {
        role: 'tabpanel',
        id: `${id(i)}-panel`,
        ariaLabelledby: `${id(i)}-tab`,
        className: ['tabpanel', ...(i === 0 ? [] : ['inactive'])],
        tabIndex: 0,
        dataLabel: tab.label,
      },
    },
    children: [element('paragraph', 'p', ['tab-label'], [text(tab.label)]), ...tab.body],
  }));
  const tabList = { type: 'tabList', data: { hName: 'div', hProperties: { role: 'tablist', className: ['tablist'] } }, children: buttons };
  return element('tabs', 'div', ['tabs'], [tabList, ...panels], directive.position);
}

/**
 * A container that is never closed runs on to the end of the page (or of the
 * list item or quote that holds it), taking in every heading after it: a
 * problem at its opening line. Closed, its last line is its closing fence.
 */
function checkClosed(directive: ContainerDirective, source: string, ctx: PageContext, parent: Parent): void {
  const { start, end } = directive.position!;
  const lastLine = source.slice(source.lastIndexOf('\n', end.offset! - 1) + 1, end.offset);
  if (/^[ \t>]*:{3,}[ \t]*$/.test(lastLine) && end.line > start.line) return;
  /** The colons that open the block at `offset` of the source. */
  const fenceAt = (offset = 0) => /^:{3,}/.exec(source.slice(offset, offset + 100))?.[0];
  const fence = fenceAt(start.offset) ?? ':::';
  // Inside a block of as many colons, a line of them closes that outer block first: more colons on the outer one tell them apart.
  const outer = parent.type === 'containerDirective' ? (parent as ContainerDirective) : undefined;
  const outerFence = outer && fenceAt(outer.position!.start.offset);
  const nested =
    outer && outerFence && outerFence.length <= fence.length
      ? ` (it is inside the ${outerFence}${outer.name} block of line ${outer.position!.start.line + ctx.lineOffset}, which has as many colons, so that a line of ${fence} cannot close the inner block alone: give the outer block more colons, ${':'.repeat(fence.length + 1)}${outer.name} … ${':'.repeat(fence.length + 1)})`
      : '';
  report(ctx, directive.position, `the ${fence}${directive.name} block opened here is never closed, so it takes in the rest of the page: add a line of ${fence} where it ends${nested}`);
}
