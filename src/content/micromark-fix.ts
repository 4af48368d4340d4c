import { EditMap } from 'micromark-util-edit-map';
import type { Event } from 'micromark-util-types';

/*
 * A fix for a quadratic step of the Markdown parser, applied where it lives.
 *
 * micromark moves the exits of a container (a list, a block quote) into
 * place with an EditMap each time the container closes. EditMap#consume
 * copied the whole event list out and back for every such batch of edits,
 * although the edits touch only its end: parsing a page cost time in the
 * square of its length times its lists (1 MB of prose with lists took 27 s,
 * 20 MB never finished). This version keeps the events before the first edit
 * in place, and gives the same events (tested on every page of the site and
 * on generated documents: the same HTML). It replaces the method on the
 * class the parser uses, once, when this module is imported, and only while
 * that method is the one it was written against.
 */
type Change = [at: number, remove: number, add: Event[]];
interface EditMapInternals {
  map: Change[];
  index?: Map<number, Change>;
}

const QUADRATIC_LINE = 'vecs.push(events.slice())';

function consume(this: EditMapInternals, events: Event[]): void {
  this.map.sort((a, b) => a[0] - b[0]);
  if (this.map.length === 0) return;
  const tails: Event[][] = [];
  for (let index = this.map.length - 1; index >= 0; index--) {
    const [at, remove, add] = this.map[index]!;
    tails.push(events.slice(at + remove), add);
    events.length = at;
  }
  // `events` holds what comes before the first change: it stays where it is.
  for (let slice = tails.pop(); slice; slice = tails.pop()) for (const event of slice) events.push(event);
  this.map.length = 0;
  this.index?.clear();
}

const proto = EditMap.prototype as unknown as { consume: (events: Event[]) => void };
/** Whether the parser runs with the linear consume (false if the installed micromark changed the method). */
export const editMapPatched = proto.consume.toString().includes(QUADRATIC_LINE);
if (editMapPatched) proto.consume = consume as unknown as (events: Event[]) => void;
