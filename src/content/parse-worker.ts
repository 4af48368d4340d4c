import { parentPort, workerData } from 'node:worker_threads';
import { parseMarkdown, type ParserKind } from './mdast-parse.js';

/*
 * The parse thread (see parse-thread.ts): parses the parts of a large page it
 * was given and sends each tree back as JSON as soon as it is made (a string
 * crosses threads as one copy; the main thread reads it back faster than a
 * structured clone of the tree).
 */
const { kind, texts } = workerData as { kind: ParserKind; texts: string[] };
const port = parentPort!;
for (let i = 0; i < texts.length; i++) port.postMessage({ index: i, json: JSON.stringify(parseMarkdown(kind, texts[i]!)) });
