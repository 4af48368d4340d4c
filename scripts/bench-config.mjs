// Writes a site.config.yaml (and a section index page where one is missing) for a synthetic corpus.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeBenchConfig(root) {
  const content = join(root, 'content');
  const sections = readdirSync(content, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const lines = [
    'site:',
    '  title: bench',
    '  url: https://bench.example.org',
    '  description: A synthetic corpus for build benchmarks.',
    '  repository: https://github.com/example/bench',
    'navigation:',
    ...sections.map((s) => `  - title: ${s}\n    url: /${s}/`),
    'links:',
    '  repository: https://github.com/example/bench',
    '  questions: https://stackoverflow.com/questions/tagged/bench',
    'sections:',
    '  - title: Home',
    '    url: ""',
  ];
  for (const section of sections) {
    const index = join(content, section, 'index.md');
    if (!existsSync(index)) writeFileSync(index, `---\ntitle: ${section}\ndescription: The ${section} pages.\n---\n\nPages about ${section}.\n`);
    const pages = readdirSync(join(content, section)).filter((f) => f.endsWith('.md') && f !== 'index.md').sort();
    lines.push(`  - title: ${section}`, `    url: ${section}`, '    pages:', ...pages.map((p) => `      - ${section}/${p.slice(0, -3)}`));
  }
  writeFileSync(join(root, 'site.config.yaml'), lines.join('\n') + '\n');
}
