/*
 * The starter's showcase page (content/guide/components.md): each writers' component with a short
 * explanation, its Markdown and the component it makes (the same text, so the two never differ).
 */

const FENCE = '```';

/** The Markdown of an example in a code block (four backticks: an example may hold a fence), then the example itself. */
const shown = (markdown: string) => `${FENCE}\`md\n${markdown}${FENCE}\`\n\n${markdown}`;

export const SHOWCASE_PAGE = `---
title: Components
sidebar:
  order: 3
description: Cards, link cards, steps, file trees, badges and the hero, each with what it is for and how it is written.
---

Beyond plain Markdown, a page may use a few components: cards, link cards, steps, file trees and badges. Each is written as a directive, like the asides of the [Markdown page](/guide/markdown/), and becomes HTML at build time, with no script. Each section below says what a component is for, shows the Markdown, then what it makes. The home page's hero is the one component written in frontmatter.

## Cards

A card sets a short piece of content apart, under a title. Use one for an idea that stands on its own beside the text. Its body is any Markdown.

${shown(`:::card[One idea per card]
A card's body is any Markdown: *emphasis*, \`code\`, [links](/reference/) and lists.
:::
`)}
## Card grids

A grid lines up cards side by side: one column on a phone, two or more where there is room. It suits a page that introduces several things at once, such as what a project offers.

${shown(`::::cards
:::card[Fast]
Pages are built ahead of time, so they open at once.
:::
:::card[Searchable]
Every page is in the search index, with no service to set up.
:::
:::card[Checked]
A link to a missing page or heading stops the build.
:::
::::
`)}
## Link cards

A link card is one link made into a card, with an optional description. Use link cards to send the reader on to the next page; they mix with cards in a grid, and their addresses are checked like any link.

${shown(`::::cards
::link-card[Getting started]{href=/guide/getting-started/ description="Install My Project and take the first steps."}
::link-card[Configuration]{href=/reference/configuration/ description="Every option, with its type and default."}
::::
`)}
## Steps

Steps number the items of a list in circles joined by a line, for a procedure the reader follows in order. An item may hold any Markdown, a code block indented under it included.

${shown(`:::steps
1. Install My Project:

   ${FENCE}bash
   npm install my-project
   ${FENCE}

2. Write its options in \`my-project.config.js\`.
3. Run \`npx my-project\` and open the result.
:::
`)}
## File trees

A file tree shows the files of a folder, nested by indentation. A name that ends with \`/\` is a folder, a name in bold is highlighted, and the text after a name is a comment.

${shown(`:::file-tree
- content/
  - index.md the home page
  - guide/
    - **components.md** this page
- static/
  - logo.svg
- site.config.yaml the configuration
:::
`)}
## Badges

A badge is a short label in a sentence or a heading: what is new, since which version, what to be careful with. Its \`variant\` is \`note\`, \`tip\`, \`caution\` or \`danger\`, or none for the default look.

${shown(`Sync runs in the background :badge[New] and keeps a log :badge[Since 2.0]{variant=tip}. The other variants: :badge[Note]{variant=note} :badge[Caution]{variant=caution} :badge[Danger]{variant=danger}.
`)}
## Hero

The hero is the large block at the top of the [home page](/): the site's title, a tagline, buttons and, on wide screens, a picture beside them. It is written in the frontmatter of \`content/index.md\`, with \`theme.home: landing\` in \`site.config.yaml\`, together with the feature cards under it:

${FENCE}yaml title="content/index.md"
hero:
  tagline: A short sentence that says what My Project does and for whom.
  actions:
    - text: Get started
      url: /guide/getting-started/
      primary: true
  image:
    src: /hero.svg
    alt: A page of documentation with a heading, lines of text and a code block
features:
  - title: Quick to learn
    text: The guide walks through a first project in a few minutes.
    url: /guide/
${FENCE}
`;
