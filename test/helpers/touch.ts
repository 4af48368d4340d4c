import type { Page } from 'playwright-core';

/*
 * Real touch input for the browser tests: Chromium's own touch events, sent
 * through the DevTools protocol (Input.dispatchTouchEvent) in touch contexts
 * (hasTouch, isMobile), never events made up in the page.
 */

export interface Point {
  x: number;
  y: number;
}

/**
 * One finger down at the first point, through every other point one frame
 * (16 ms) apart as a finger moves, and up: real touch events of the browser.
 * (Moves sent all at once make a fling so fast that the browser takes the
 * next tap to stop it, as a phone does with a tap during a fling.)
 */
export async function gesture(page: Page, points: Point[]): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [points[0]!] });
  for (const point of points.slice(1)) {
    await new Promise((r) => setTimeout(r, 16));
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
  await settle(page);
}

/** A straight swipe in `steps` moves. */
export const swipe = (page: Page, from: Point, to: Point, steps = 8) =>
  gesture(page, Array.from({ length: steps + 1 }, (_, i) => ({ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps })));

export const tap = (page: Page, at: Point) => gesture(page, [at]);

/**
 * Touch events and the click after a tap are handled asynchronously: wait two frames. A tap that follows a
 * link may navigate within them, which ends the page being waited on: its effect happened, so that is settled too.
 */
export function settle(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))).catch((e: unknown) => {
    if (!/Execution context was destroyed/.test(String(e))) throw e;
  });
}

/** The centre of the first element the selector finds. */
export async function centre(page: Page, selector: string): Promise<Point> {
  const box = (await page.locator(selector).first().boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
