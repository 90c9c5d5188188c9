import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { type HostEnv, hostEnv, MODULE_ARGS, resolveServerCommand, ServerNotFound } from '../src/launch';

function env(files: string[], onPath: Record<string, string> = {}): HostEnv {
  return { isFile: (p) => files.includes(p), which: (n) => onPath[n] };
}
const base = { serverPath: undefined, python: undefined, languages: ['plaintext'] };

test('citecheck.server.path wins and gets --stdio exactly once', () => {
  const cmd = resolveServerCommand({ ...base, serverPath: '/opt/bin/citecheck-lsp', python: '/usr/bin/python3' }, env(['/opt/bin/citecheck-lsp', '/usr/bin/python3']));
  assert.deepEqual(cmd, { command: '/opt/bin/citecheck-lsp', args: ['--stdio'], origin: 'citecheck.server.path' });
});

test('a server.path that does not exist names the setting to fix', () => {
  assert.throws(
    () => resolveServerCommand({ ...base, serverPath: '/nope/citecheck-lsp' }, env([])),
    (e: unknown) => e instanceof ServerNotFound && e.setting === 'citecheck.server.path' && /\/nope\/citecheck-lsp/.test(e.message),
  );
});

test('citecheck.python runs the module', () => {
  const cmd = resolveServerCommand({ ...base, python: '/venv/bin/python' }, env(['/venv/bin/python']));
  assert.deepEqual(cmd, { command: '/venv/bin/python', args: ['-m', 'citecheck.lsp', '--stdio'], origin: 'citecheck.python' });
});

test('a bare python name is looked up on PATH', () => {
  const cmd = resolveServerCommand({ ...base, python: 'python3.11' }, env(['/usr/bin/python3.11'], { 'python3.11': '/usr/bin/python3.11' }));
  assert.equal(cmd.command, '/usr/bin/python3.11');
  assert.throws(() => resolveServerCommand({ ...base, python: 'python9' }, env([])), (e: unknown) => e instanceof ServerNotFound && e.setting === 'citecheck.python');
});

test('with nothing set: citecheck-lsp on PATH, else python3 -m citecheck.lsp', () => {
  assert.deepEqual(resolveServerCommand(base, env([], { 'citecheck-lsp': '/u/citecheck-lsp', python3: '/u/python3' })), {
    command: '/u/citecheck-lsp',
    args: ['--stdio'],
    origin: 'PATH',
  });
  assert.deepEqual(resolveServerCommand(base, env([], { python: '/u/python' })), { command: '/u/python', args: [...MODULE_ARGS], origin: 'PATH' });
  assert.throws(() => resolveServerCommand(base, env([])), ServerNotFound);
});

test('hostEnv.which finds an executable file on a real PATH', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'citecheck-which-'));
  try {
    const exe = path.join(dir, 'citecheck-lsp');
    writeFileSync(exe, '#!/bin/sh\n');
    chmodSync(exe, 0o755);
    const host = hostEnv({ PATH: ['/nonexistent', dir].join(path.delimiter) }, 'linux');
    assert.equal(host.which('citecheck-lsp'), exe);
    assert.equal(host.which('missing-tool'), undefined);
    assert.equal(host.isFile(exe), true);
    assert.equal(host.isFile(dir), false); // a directory is not a server
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
