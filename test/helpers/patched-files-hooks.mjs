// Loaded with --import (see trees-child.ts): each file a patch of patches/ changes is written to
// standard error as it loads, for the test to see which files were loaded; with
// DOCS_TEST_UNPATCHED=1 (or a list of packages), it is loaded as installed (made by reversing its
// patch), from its own URL so that its imports resolve as before.
import { register } from 'node:module';

register(new URL('./patched-files-loader.mjs', import.meta.url));
