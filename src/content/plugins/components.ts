import type { List, ListItem, Nodes, PhrasingContent, RootContent, Text } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import type { Node, Parent, Position } from 'unist';
import { report, type PageContext } from '../context.js';

/*
 * The writers' components of landing and tutorial pages, as directives (see directives.ts, which
 * hands them over), rendered to plain HTML and CSS (templates/styles/35-components.css), with no
 * script:
 *   ::::cards holding :::card[Title] … ::: blocks and ::link-card[Title]{href=… description="…"} lines
 *   :::card[Title] … ::: and ::link-card[…]{…} on their own, outside a grid
 *   :::steps holding one numbered list
 *   :::file-tree holding one bulleted list: folders end with "/" (or hold entries), **a name** is
 *     highlighted, and text after the name is a comment
 *   :badge[Text]{variant=note|tip|caution|danger|default} inside prose
 * Whatever a writer types is text or Markdown (never markup); addresses go through the build's
 * link checks as any link does. Wrong usage is a problem at the directive, never a crash.
 */

/**
 * The components by directive name: whether each is a leaf directive or a container, how it is
 * written (for a problem about one written the other way), and the node it becomes.
 */
export const COMPONENTS = {
  cards: { leaf: false, form: '::::cards, holding :::card[Title] blocks, closed by ::::', node: cardsNode },
  card: { leaf: false, form: ':::card[Title], closed by :::', node: cardNode },
  'link-card': { leaf: true, form: 'one line, ::link-card[Title]{href=/guides/ description="…"}', node: linkCardNode },
  steps: { leaf: false, form: ':::steps, holding a numbered list, closed by :::', node: stepsNode },
  'file-tree': { leaf: false, form: ':::file-tree, holding a bulleted list, closed by :::', node: fileTreeNode },
};

const BADGE_VARIANTS = ['note', 'tip', 'caution', 'danger', 'default'] as const;

type Directive = ContainerDirective | LeafDirective;

/**
 * The node that takes a component directive's place (its children already transformed), with any
 * problem of its usage reported; undefined when `directive` names no component.
 */
export function componentNode(directive: Directive, ctx: PageContext): RootContent | undefined {
  const name = directive.name as keyof typeof COMPONENTS;
  if (!Object.hasOwn(COMPONENTS, name)) return undefined;
  const { leaf, form, node } = COMPONENTS[name];
  if (leaf !== (directive.type === 'leafDirective')) {
    report(ctx, directive.position, `${directive.type === 'containerDirective' ? ':::' : '::'}${name} is not how a ${name} is written: write ${form}`);
    return dropped(directive);
  }
  return (node as (directive: Directive, ctx: PageContext) => RootContent)(directive, ctx);
}

/** What stands for a directive used wrongly (its problem is reported): its content, in a plain block. */
function dropped(directive: Directive): RootContent {
  return { type: 'component', position: directive.position, data: { hName: 'div' }, children: directive.type === 'containerDirective' ? directive.children : [] } as never;
}

/** A problem for each option a directive does not take (`{…}` after it), in the order written. */
function checkOptions(directive: Directive | TextDirective, allowed: readonly string[], ctx: PageContext, form: string): void {
  for (const key of Object.keys(directive.attributes ?? {})) {
    if (allowed.includes(key)) continue;
    // `{#x}` and `{.x}` are read as id and class: the writer's words, not ours.
    const written = key === 'id' ? '#…' : key === 'class' ? '.…' : key;
    report(ctx, directive.position, allowed.length ? `unknown option "${written}" of ${form} (expected ${allowed.join(' or ')})` : `${form} takes no options in {…}, but "${written}" is given`);
  }
}

/** The text of Markdown nodes, without image descriptions. */
export const plainText = (nodes: Nodes | Nodes[]) => toString(nodes, { includeImageAlt: false });

/** A container's [label], as Markdown, and the rest of its children. */
export function splitLabel(directive: ContainerDirective): { label?: PhrasingContent[]; body: RootContent[] } {
  const [first, ...rest] = directive.children;
  if (first?.type === 'paragraph' && (first.data as { directiveLabel?: boolean } | undefined)?.directiveLabel) {
    return { label: first.children, body: rest };
  }
  return { body: directive.children };
}

export const text = (value: string): Text => ({ type: 'text', value });
/** A node of our own that becomes the element `hName` with these classes. */
export const element = (type: string, hName: string, className: string[], children: unknown[], position?: Position): RootContent =>
  ({ type, position, data: { hName, hProperties: { className } }, children }) as never;

/* Cards */

function cardNode(directive: ContainerDirective, ctx: PageContext): RootContent {
  const { label, body } = splitLabel(directive);
  checkOptions(directive, [], ctx, 'a :::card');
  const title = label && plainText(label).trim() ? label : undefined;
  if (!title) report(ctx, directive.position, 'a :::card needs a title, as in :::card[Fast rebuilds]');
  return element('card', 'div', ['card'], [
    ...(title ? [{ type: 'paragraph', data: { hProperties: { className: ['card-title'] } }, children: title }] : []),
    ...(body.length ? [element('cardBody', 'div', ['card-body'], body)] : []),
  ], directive.position);
}

function linkCardNode(directive: LeafDirective, ctx: PageContext): RootContent {
  checkOptions(directive, ['href', 'description'], ctx, 'a ::link-card');
  // One link, so its title is text: a link or a button inside it could not be reached.
  const title = plainText(directive.children).trim();
  const href = directive.attributes?.href?.trim();
  const description = directive.attributes?.description?.trim();
  if (!title) report(ctx, directive.position, 'a ::link-card needs a title, as in ::link-card[Guides]{href=/guides/}');
  if (!href) report(ctx, directive.position, 'a ::link-card needs an address, as in ::link-card[Guides]{href=/guides/}');
  return {
    type: 'linkCard',
    position: directive.position,
    data: { hName: 'a', hProperties: { className: ['link-card'], href: href ?? '#' } },
    children: [
      element('linkCardTitle', 'span', ['link-card-title'], [text(title || href || '')]),
      ...(description ? [element('linkCardDescription', 'span', ['link-card-description'], [text(description)])] : []),
    ],
  } as never;
}

function cardsNode(directive: ContainerDirective, ctx: PageContext): RootContent {
  checkOptions(directive, [], ctx, 'a ::::cards block');
  const items: Parent[] = [];
  const { label, body } = splitLabel(directive);
  if (label) report(ctx, directive.position, 'a ::::cards block takes no title: give each :::card[Title] its own');
  for (const child of body as Node[]) {
    if (child.type === 'card' || child.type === 'linkCard') {
      // Each card is an item of the grid's list; a link card is the link inside its item.
      items.push(element('cardItem', 'li', ['cards-item'], [child]) as Parent);
    } else {
      report(ctx, child.position ?? directive.position, 'a ::::cards block may only contain :::card[Title] blocks and ::link-card[Title]{href=…} lines');
    }
  }
  if (!items.length) report(ctx, directive.position, 'a ::::cards block needs at least one :::card[Title] block or ::link-card[Title]{href=…} line');
  return element('cards', 'ul', ['cards'], items, directive.position);
}

/* Steps */

/** The one list (numbered or not) a block holds, or undefined with a problem at what else it holds. */
function onlyList(directive: ContainerDirective, ordered: boolean, ctx: PageContext, message: string): List | undefined {
  const [list, ...rest] = directive.children;
  if (list?.type === 'list' && Boolean(list.ordered) === ordered && !rest.length) return list;
  const at = list && (list.type !== 'list' || Boolean(list.ordered) !== ordered) ? list : rest[0];
  report(ctx, at?.position ?? directive.position, message);
}

function stepsNode(directive: ContainerDirective, ctx: PageContext): RootContent {
  checkOptions(directive, [], ctx, 'a :::steps block');
  const list = onlyList(directive, true, ctx, 'a :::steps block must hold one numbered list (1. First step, 2. Next step, …) and nothing else');
  if (!list) return dropped(directive);
  list.data = { ...list.data, hProperties: { className: ['steps'] } } as never;
  return list;
}

/* File tree */

function fileTreeNode(directive: ContainerDirective, ctx: PageContext): RootContent {
  checkOptions(directive, [], ctx, 'a :::file-tree block');
  const list = onlyList(directive, false, ctx, 'a :::file-tree block must hold one bulleted list (- src/, then its files indented under it) and nothing else');
  return list ? element('fileTree', 'div', ['file-tree'], [treeList(list, ctx)], directive.position) : dropped(directive);
}

function treeList(list: List, ctx: PageContext): RootContent {
  return { type: 'treeList', position: list.position, data: { hName: 'ul' }, children: list.children.map((item) => treeEntry(item, ctx)) } as never;
}

/** One entry of a file tree: its name (highlighted when strong), the comment after it, and the entries inside a folder. */
function treeEntry(item: ListItem, ctx: PageContext): RootContent {
  const [first, ...rest] = item.children;
  const inner = rest[0]?.type === 'list' && !rest[0].ordered ? rest[0] : undefined;
  if (rest.length > (inner ? 1 : 0)) {
    report(ctx, rest[inner ? 1 : 0]!.position ?? item.position, 'an entry of a :::file-tree holds a name, an optional comment after it and the entries inside it (a bulleted list), nothing else');
  }
  let name = '';
  let highlighted = false;
  let comment: PhrasingContent[] = [];
  if (first?.type === 'paragraph') {
    const [lead, ...after] = first.children;
    if (lead?.type === 'strong') {
      name = plainText(lead).trim();
      highlighted = true;
      comment = after;
    } else if (lead?.type === 'text') {
      const m = /^\s*(\S+)/.exec(lead.value);
      if (m) {
        name = m[1]!;
        const left = lead.value.slice(m[0].length);
        comment = left ? [text(left), ...after] : after;
      }
    } else if (lead?.type === 'inlineCode') {
      name = lead.value;
      comment = after;
    }
  }
  // (A nested list's own problems still count: its entries are read too.)
  const children = inner ? [treeList(inner, ctx)] : [];
  if (!name) {
    report(ctx, (first ?? item).position ?? item.position, 'an entry of a :::file-tree needs a name first (a file such as index.js, or a folder such as src/)');
  }
  const folder = name.endsWith('/') || Boolean(inner);
  const shown = folder && !name.endsWith('/') ? `${name}/` : name;
  // The comment without the spaces that set it off from the name.
  if (comment[0]?.type === 'text') comment[0] = text(comment[0].value.replace(/^\s+/, ''));
  if (comment[0]?.type === 'text' && !comment[0].value) comment.shift();
  const line = element('treeLine', 'span', ['tree-line'], [
    element('treeName', 'span', ['tree-name'], [highlighted ? { type: 'strong', children: [text(shown)] } : text(shown)]),
    // (A space between name and comment, for the text as copied and as read aloud.)
    ...(comment.length ? [text(' '), element('treeComment', 'span', ['tree-comment'], comment)] : []),
  ]);
  return element('treeEntry', 'li', [folder ? 'tree-folder' : 'tree-file', ...(highlighted ? ['tree-highlight'] : [])], [line, ...children], item.position);
}

/* Badges */

/**
 * The badge a `:badge[Text]{variant=…}` in prose stands for; undefined for any other text
 * directive, or `:badge` without brackets or braces (prose, as "npm:badge"), which stay text.
 */
export function badgeNode(node: TextDirective, written: string, ctx: PageContext): RootContent | undefined {
  if (node.name !== 'badge' || !/^:badge[[{]/.test(written)) return undefined;
  checkOptions(node, ['variant'], ctx, 'a :badge');
  const label = plainText(node.children).trim();
  if (!label) report(ctx, node.position, 'a :badge needs its text in brackets, as in :badge[New]');
  const variant = node.attributes?.variant ?? 'default';
  const known = (BADGE_VARIANTS as readonly string[]).includes(variant);
  if (!known) report(ctx, node.position, `unknown badge variant "${variant}" (expected one of ${BADGE_VARIANTS.join(', ')})`);
  return element('badge', 'span', ['text-badge', `text-badge-${known ? variant : 'default'}`], [text(label)], node.position);
}
