// The F5 debug configuration (.vscode/launch.json, .vscode/tasks.json) points at what this package
// really builds: a stale path or task name would open an Extension Development Host without the extension.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';

const root = path.join(__dirname, '..', '..');
const read = <T>(...parts: string[]): T => JSON.parse(readFileSync(path.join(root, ...parts), 'utf8')) as T;

interface Launch {
  configurations: { type: string; request: string; args: string[]; outFiles: string[]; preLaunchTask: string; env?: Record<string, string> }[];
}
interface Tasks {
  tasks: { label: string; type: string; script: string }[];
}
interface Pkg {
  main: string;
  scripts: Record<string, string>;
}

test('F5 builds the bundle package.json names and opens the example folder with this extension', () => {
  const pkg = read<Pkg>('package.json');
  const [config] = read<Launch>('.vscode', 'launch.json').configurations;
  assert.equal(config.type, 'extensionHost');
  assert.equal(config.request, 'launch');
  assert.ok(config.args.includes('--extensionDevelopmentPath=${workspaceFolder}'));
  const opened = config.args.find((a) => !a.startsWith('--'));
  assert.ok(opened, 'a folder to open');
  assert.ok(readFileSync(path.join(root, opened.replace('${workspaceFolder}', '.'), 'brief.md'), 'utf8').length > 0);
  const server = (config.env?.PYTHONPATH ?? '').replace('${workspaceFolder}', '.');
  assert.ok(readFileSync(path.join(root, server, 'citecheck', 'lsp', '__main__.py'), 'utf8').length > 0, 'PYTHONPATH is the checkout');
  const task = read<Tasks>('.vscode', 'tasks.json').tasks.find((t) => t.label === config.preLaunchTask);
  assert.ok(task, `a task labelled ${config.preLaunchTask}`);
  assert.equal(task.type, 'npm');
  assert.match(pkg.scripts[task.script] ?? '', /esbuild\.mjs extension/);
  assert.ok(config.outFiles.some((glob) => path.join('.', pkg.main).startsWith(glob.replace('${workspaceFolder}/', '').split('*')[0])));
});

test('npm test runs ESLint, so .ci/run fails on its findings', () => {
  const pkg = read<Pkg>('package.json');
  assert.match(pkg.scripts.test, /^eslint \. && /);
  assert.equal(pkg.scripts.lint, 'eslint .');
});
