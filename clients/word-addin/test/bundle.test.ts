import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const here = path.resolve(__dirname, '..', '..');
const committed = path.resolve(here, '..', '..', 'server', 'citecheck', 'serve', 'static');

test('the pane citecheck serve ships is the pane built from these sources', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'citecheck-pane-'));
  const script = pathToFileURL(path.join(here, 'esbuild.mjs')).href;
  const { buildPane } = (await import(script)) as { buildPane: (dir: string) => Promise<void> };
  await buildPane(out);
  assert.deepEqual(readdirSync(out), ['taskpane.js']); // the page, stylesheet, icons and manifest are not copies
  assert.ok(
    readFileSync(path.join(out, 'taskpane.js')).equals(readFileSync(path.join(committed, 'taskpane.js'))),
    'taskpane.js is stale: run "npm run build" in clients/word-addin',
  );
});
