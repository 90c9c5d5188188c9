// Build script. `node esbuild.mjs extension [--minify]` bundles the extension into dist/extension.js
// (vscode stays external: VS Code provides it). `node esbuild.mjs tests` bundles each test/*.test.ts
// into out/test/ with `vscode` aliased to the small fake in test/fake-vscode.ts, because Node 20 cannot
// run TypeScript directly and no VS Code can be downloaded in CI.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [what = 'extension', ...flags] = process.argv.slice(2);
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' };

if (what === 'extension') {
  await build({
    ...common,
    entryPoints: [path.join(here, 'src/extension.ts')],
    outfile: path.join(here, 'dist/extension.js'),
    external: ['vscode'],
    minify: flags.includes('--minify'),
    sourcemap: !flags.includes('--minify'),
  });
} else if (what === 'tests') {
  const testDir = path.join(here, 'test');
  const entryPoints = readdirSync(testDir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(testDir, f));
  await build({
    ...common,
    entryPoints,
    outdir: path.join(here, 'out/test'),
    alias: { vscode: path.join(testDir, 'fake-vscode.ts') },
    sourcemap: 'inline',
  });
} else {
  console.error(`unknown target ${what}; use "extension" or "tests"`);
  process.exit(2);
}
