/* The files of the starter site that `docs init` writes ({{schema}} becomes the path of the tool's JSON Schema). */

import { SHOWCASE_PAGE } from './showcase.js';

const FENCE = '```';

export const STARTER_FILES: Record<string, string> = {
  'site.config.yaml': `# yaml-language-server: $schema={{schema}}
# The site's configuration: every key is described in the JSON Schema named
# above (editors show the descriptions on hover).
$schema: {{schema}}

site:
  title: My Project
  url: https://docs.example.org
  description: Documentation of My Project.
  language: en

theme:
  logo:
    src: static/logo.svg
  home: landing

social:
  - icon: github
    url: https://github.com/example/my-project
    label: Source code on GitHub

navigation:
  - title: Guide
    url: /guide/
  - title: Reference
    url: /reference/

footer:
  links:
    - title: Guide
      url: /guide/
  secondary:
    - title: Reference
      url: /reference/
  copyright: Released under the MIT license.

sections:
  - title: Home
    url: ""
  - title: Guide
    url: guide
    # Every page of content/guide/, by their sidebar.order, then by title.
    autogenerate:
      directory: guide
  - title: Reference
    url: reference
    pages:
      - reference/configuration

# More languages or versions (see docs init --help): each other language's pages
# go under content/<code>/, each older version's under content/<name>/.
# languages:
#   - code: en
#     label: English
#   - code: zh-CN
#     label: 简体中文
# versions:
#   - name: '2.x'
#   - name: '1.x'
`,
  'content/index.md': `---
title: My Project
description: Documentation of My Project.
hero:
  tagline: A short sentence that says what My Project does and for whom.
  actions:
    - text: Get started
      url: /guide/getting-started/
      primary: true
    - text: Reference
      url: /reference/
  image:
    src: /hero.svg
    dark: /hero-dark.svg
    alt: A page of documentation with a heading, lines of text and a code block
features:
  - title: Quick to learn
    text: The guide walks through a first project in a few minutes.
    url: /guide/
  - title: Complete reference
    text: Every option, with its type and default.
    url: /reference/
---

Write what a first-time reader needs to know here. The hero and the cards above come from this page's frontmatter.
`,
  'content/guide/index.md': `---
title: Guide
---

The guide explains My Project step by step. Start with [Getting started](/guide/getting-started/).
`,
  'content/guide/getting-started.md': `---
title: Getting started
sidebar:
  order: 1
---

## Install

${FENCE}bash
npm install my-project
${FENCE}

## First steps

Create a file and run it. The [Markdown page](/guide/markdown/) shows what a page can contain.
`,
  'content/guide/markdown.md': `---
title: Markdown
sidebar:
  order: 2
description: Every Markdown extension a page may use.
---

Pages are GitHub-flavoured Markdown with a few extensions. The page title comes from the frontmatter, so sections start at \`##\`.

## Code blocks

A fence names its language; \`title=\` shows a file name and \`{2}\` highlights lines:

${FENCE}js title="app.config.js" {2}
export default {
  mode: 'production',
  entry: './src/index.js',
};
${FENCE}

\`diff\` shows an edit as \`git diff\` prints it: the first column marks added (\`+\`), removed (\`-\`) and unchanged (a space) lines:

${FENCE}js title="app.config.js" diff
 export default {
-  mode: 'development',
+  mode: 'production',
 };
${FENCE}

## Asides

:::note
A note sets a paragraph apart.
:::

:::tip[A custom title]
Tips, warnings and dangers work the same way.
:::

:::warning
Something to be careful about.
:::

:::danger
Something that loses data.
:::

> [!NOTE]
> GitHub's alert syntax works too.

## Tabs

::::tabs
:::tab[npm]
${FENCE}bash
npm install my-project
${FENCE}
:::
:::tab[pnpm]
${FENCE}bash
pnpm add my-project
${FENCE}
:::
::::

## Tables and lists

| Option | Default |
| --- | --- |
| \`mode\` | \`'production'\` |

- [x] A done task
- [ ] An open task

Text can be ~~struck through~~, and a footnote[^1] goes to the end of the page.

[^1]: The footnote's text.

## Diagrams

A \`mermaid\` block is drawn as a diagram when the site is built (flowcharts, sequence, state, class and entity relationship diagrams), in the page's colours:

${FENCE}mermaid title="From a page to the site"
flowchart TD
  A[Markdown page] --> B[docs build]
  B --> C[HTML page]
  B --> D[Search index]
${FENCE}

## Links

Link to pages by their path, as in [the reference](/reference/configuration/), and to headings with an anchor, as in [Code blocks](#code-blocks).

Cards, steps, file trees, badges and the hero are on the [Components page](/guide/components/).
`,
  'content/guide/components.md': SHOWCASE_PAGE,
  'content/reference/index.md': `---
title: Reference
---

Every option of My Project: see [Configuration](/reference/configuration/).
`,
  'content/reference/configuration.md': `---
title: Configuration
---

## mode

\`string\`, default \`'production'\`. Which defaults apply.

## entry

\`string\`. The file to start from.
`,
  'static/hero.svg': `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="360" viewBox="0 0 560 360"><rect width="560" height="360" rx="20" fill="#e7ecfb"/><rect x="110" y="40" width="340" height="280" rx="12" fill="#fff" stroke="#3b5bdb" stroke-width="4"/><rect x="140" y="72" width="180" height="18" rx="9" fill="#3b5bdb"/><path stroke="#9aa9d8" stroke-width="8" stroke-linecap="round" d="M140 122h280M140 148h240M140 174h260"/><rect x="140" y="204" width="280" height="88" rx="8" fill="#1f2a44"/><path stroke="#9fe3b4" stroke-width="6" stroke-linecap="round" d="M160 230h120M160 252h180M160 274h90"/></svg>
`,
  'static/hero-dark.svg': `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="360" viewBox="0 0 560 360"><rect width="560" height="360" rx="20" fill="#1a2135"/><rect x="110" y="40" width="340" height="280" rx="12" fill="#10151f" stroke="#7d96f2" stroke-width="4"/><rect x="140" y="72" width="180" height="18" rx="9" fill="#7d96f2"/><path stroke="#46557f" stroke-width="8" stroke-linecap="round" d="M140 122h280M140 148h240M140 174h260"/><rect x="140" y="204" width="280" height="88" rx="8" fill="#05080e"/><path stroke="#9fe3b4" stroke-width="6" stroke-linecap="round" d="M160 230h120M160 252h180M160 274h90"/></svg>
`,
  'static/logo.svg': `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect x="3" y="3" width="26" height="26" rx="7" fill="#3b5bdb"/><path fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round" d="M10 11h12M10 16h12M10 21h7"/></svg>
`,
};
