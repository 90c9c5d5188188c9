// Build script. `node esbuild.mjs pane` bundles src/taskpane.ts for the browser into
// server/citecheck/serve/static/taskpane.js, beside the pane's page, stylesheet, icons and manifest, which
// live only there: `citecheck serve` serves that folder (so `pip install` alone gives a working add-in;
// test/bundle.test.ts fails when the committed bundle is stale). `node esbuild.mjs tests` bundles each test/*.test.ts into out/test/ for
// `node --test` (Node 20 cannot run TypeScript directly).
import { build } from 'esbuild';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [what = 'pane', ...flags] = process.argv.slice(2);
const outFlag = flags.find((f) => f.startsWith('--out='));
const staticDir = outFlag ? path.resolve(outFlag.slice(6)) : path.join(here, '../../server/citecheck/serve/static');

export async function buildPane(outDir) {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [path.join(here, 'src/taskpane.ts')],
    outfile: path.join(outDir, 'taskpane.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['es2020', 'safari14'],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

const direct = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (!direct) {
  // imported (test/bundle.test.ts): only buildPane is wanted
} else if (what === 'pane') {
  await buildPane(staticDir);
} else if (what === 'tests') {
  const testDir = path.join(here, 'test');
  const entryPoints = readdirSync(testDir).filter((f) => f.endsWith('.test.ts')).map((f) => path.join(testDir, f));
  await build({
    entryPoints,
    outdir: path.join(here, 'out/test'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
    external: ['esbuild'],
  });
} else if (what === 'fake') {
  // the typed fake Word, as a browser script for tests/serve/test_browser.py (window.citecheckFake)
  await build({
    entryPoints: [path.join(here, 'test/fake-word-browser.ts')],
    outfile: path.join(here, 'out/fake-word.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    logLevel: 'warning',
  });
} else {
  console.error(`unknown target ${what}; use "pane", "tests" or "fake"`);
  process.exit(2);
}
