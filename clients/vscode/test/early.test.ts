/**
 * The server process spawned while the extension loads (early.ts, prestart.ts): the first start takes it
 * when it runs the very command the start resolved, and only then; anything else is killed.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { spawnEarly, takeEarly } from '../src/early';
import { MODULE_ARGS, type ServerCommand } from '../src/launch';
import { serverCommandNow } from '../src/prestart';
import { RestartPolicy } from '../src/restart';
import { CitecheckServer } from '../src/server';
import { fake, outputLines, window } from './fake-vscode';

const pythons = process.env.CITECHECK_PYTHON ? [process.env.CITECHECK_PYTHON] : ['python3', 'python'];
const PYTHON = pythons.find((p) => spawnSync(p, ['-c', 'import citecheck.lsp']).status === 0);
const noServer = PYTHON ? false : `no Python (${pythons.join(', ')}) can import citecheck.lsp; install the package or set CITECHECK_PYTHON`;

// A stand-in server: node reading stdin until it closes (killed, or its pipe closed).
const WAITER: ServerCommand = { command: process.execPath, args: ['-e', 'process.stdin.resume()'], origin: 'PATH' };

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function until<T>(what: string, pick: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = pick();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${outputLines.slice(-40).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('the process spawned early is handed to the start that resolves the same command, once', async () => {
  const child = spawnEarly(WAITER);
  assert.ok(child.pid);
  assert.equal(takeEarly({ ...WAITER, args: [...WAITER.args] }), child); // equal command and arguments, not the same object
  assert.equal(takeEarly(WAITER), undefined, 'a second start (a restart) spawns its own');
  assert.equal(child.exitCode, null, 'taken, it is not killed');
  child.kill();
  await exited(child);
});

test('a process spawned early for another command, or not wanted at all, is killed', async () => {
  const other = spawnEarly(WAITER);
  assert.equal(takeEarly({ ...WAITER, args: ['-e', 'process.stdin.resume() // another'] }), undefined);
  await exited(other);
  assert.equal(other.signalCode, 'SIGTERM');

  const unwanted = spawnEarly(WAITER);
  assert.equal(takeEarly(undefined), undefined); // the start could not resolve a command
  await exited(unwanted);

  const replaced = spawnEarly(WAITER);
  const newer = spawnEarly(WAITER); // spawning again kills the one not taken
  await exited(replaced);
  assert.equal(takeEarly(WAITER), newer);
  newer.kill();
  await exited(newer);
});

test('a process nobody takes is killed after a while; a spawn that failed or a process that exited is not handed out', async () => {
  const forgotten = spawnEarly(WAITER, undefined, 50);
  await exited(forgotten);
  assert.equal(takeEarly(WAITER), undefined);

  const missing = { command: path.join(os.tmpdir(), 'no-such-dir', 'citecheck-lsp'), args: ['--stdio'], origin: 'PATH' as const };
  const failed = spawnEarly(missing); // ENOENT arrives as an event: no exception, no crash of the extension host
  await new Promise((resolve) => failed.once('error', resolve));
  assert.equal(takeEarly(missing), undefined);

  const quick: ServerCommand = { command: process.execPath, args: ['-e', ''], origin: 'PATH' };
  const gone = spawnEarly(quick);
  await exited(gone);
  assert.equal(takeEarly(quick), undefined);
});

test('prestart resolves the command as activate() does: the python setting, else nothing it can run', () => {
  fake.reset();
  fake.config.set('citecheck.python', process.execPath); // any existing file
  assert.deepEqual(serverCommandNow(), { command: process.execPath, args: [...MODULE_ARGS], origin: 'citecheck.python' });
  fake.config.set('citecheck.server.path', '/nonexistent/citecheck-lsp');
  assert.equal(serverCommandNow(), undefined); // activate() reports it; nothing is spawned early
  fake.reset();
});

test('the real LanguageClient talks to the process spawned early, and kills it on stop; a restart spawns anew', { skip: noServer, timeout: 120_000 }, async () => {
  fake.reset();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'citecheck-vscode-early-'));
  const uri = pathToFileURL(path.join(tmp, 'brief.txt')).toString();
  fake.document(uri, 'See Boone v. Vinson, 446 Cal. Rptr. 4th 183 (2019).\n', 'plaintext', 1);
  const failures: string[] = [];
  const states: string[] = [];
  const srv = new CitecheckServer(
    {
      settings: () => ({ offline: true, capFetch: false, corpusPath: path.join(tmp, 'c.sqlite'), cachePath: path.join(tmp, 'k.sqlite'), debounceMs: 10 }),
      onState: (s, d) => states.push(d ? `${s}: ${d}` : s),
      onFailed: (m) => failures.push(m),
      onCitations: () => undefined,
      onDocumentSent: () => undefined,
    },
    window.createOutputChannel('citecheck'),
    new RestartPolicy({ baseDelayMs: 10 }),
  );
  const command: ServerCommand = { command: PYTHON as string, args: [...MODULE_ARGS], origin: 'PATH' };
  const early = spawnEarly(command);
  const client = () => (srv as unknown as { client?: { serverProcess?: ChildProcess; sendNotification(m: string): Promise<void> } }).client;
  try {
    await srv.start(command, ['plaintext'], Promise.resolve(), takeEarly(command));
    assert.deepEqual(failures, [], outputLines.join('\n'));
    assert.equal(srv.isRunning, true);
    assert.equal(client()?.serverProcess, early, 'the client talks to the process spawned early');
    await until('the error diagnostic from the early process', () => (fake.diagnostics.get(uri)?.some((d) => d.severity === 0) ? true : undefined));

    // it dies (exit without shutdown): the restart spawns a process of its own
    await client()?.sendNotification('exit');
    await exited(early);
    await until('running again', () => (srv.isRunning && client()?.serverProcess?.pid ? true : undefined));
    const second = client()?.serverProcess;
    assert.notEqual(second?.pid, early.pid);
    assert.deepEqual(failures, []);
  } finally {
    await srv.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  assert.equal(srv.isRunning, false);
});

test('stopping the client stops the process spawned early', { skip: noServer, timeout: 120_000 }, async () => {
  fake.reset();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'citecheck-vscode-early-'));
  const srv = new CitecheckServer(
    {
      settings: () => ({ offline: true, capFetch: false, corpusPath: path.join(tmp, 'c.sqlite'), cachePath: path.join(tmp, 'k.sqlite') }),
      onState: () => undefined,
      onFailed: (m) => assert.fail(m),
      onCitations: () => undefined,
      onDocumentSent: () => undefined,
    },
    window.createOutputChannel('citecheck'),
  );
  const command: ServerCommand = { command: PYTHON as string, args: [...MODULE_ARGS], origin: 'PATH' };
  const early = spawnEarly(command);
  try {
    await srv.start(command, ['plaintext'], Promise.resolve(), takeEarly(command));
    assert.equal(srv.isRunning, true);
    await srv.stop();
    await exited(early); // shutdown and exit: the server ends itself
    assert.equal(early.exitCode, 0);
  } finally {
    await srv.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
