import { launch, serveStatic, offline, DESKTOP, PHONE } from '../test/helpers/browser.ts';
const dir = process.argv[2]!; const paths = process.argv.slice(3);
const server = await serveStatic(dir);
const browser = await launch();
for (const [name, opts] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    const ctx = await browser.newContext({ ...opts, colorScheme: scheme });
    const page = await ctx.newPage();
    await offline(page);
    page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
    page.on('pageerror', (e) => console.log('pageerror:', e.message));
    for (const p of paths) {
      await page.goto(server.url + p);
      const file = `/tmp/shot-${name}-${scheme}-${p.replace(/\W+/g, '_')}.png`;
      await page.screenshot({ path: file, fullPage: false });
      console.log(file);
    }
    await ctx.close();
  }
}
await browser.close(); await server.close();
