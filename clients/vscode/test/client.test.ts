/**
 * The real vscode-languageclient, driven by CitecheckServer against the real Python server, with
 * the fake `vscode` API standing in for the editor. It checks the wiring the other tests cannot:
 * the client starts the server with our command, answers workspace/configuration through our
 * middleware, sends the open document, turns the server's diagnostics into editor diagnostics at
 * the right UTF-16 range, delivers `citecheck/citations` to our hook, and restarts the server with
 * back-off when it dies.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { RestartPolicy } from '../src/restart';
import { CitecheckServer } from '../src/server';
import { fake, outputLines, window } from './fake-vscode';

const pythons = process.env.CITECHECK_PYTHON ? [process.env.CITECHECK_PYTHON] : ['python3', 'python'];
const PYTHON = pythons.find((p) => spawnSync(p, ['-c', 'import citecheck.lsp']).status === 0);
const skip = PYTHON ? false : `no Python (${pythons.join(', ')}) can import citecheck.lsp; install the package or set CITECHECK_PYTHON`;

const CITE = '446 Cal. Rptr. 4th 183';
const TEXT = `Intro.\nSee 😀 Boone v. Vinson, ${CITE} (2019).\n`;

async function until<T>(what: string, pick: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = pick();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${outputLines.slice(-40).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('the real LanguageClient: start, settings, diagnostics, citations, crash and restart', { skip, timeout: 120_000 }, async () => {
  fake.reset();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'citecheck-vscode-client-'));
  const uri = pathToFileURL(path.join(tmp, 'brief.txt')).toString();
  fake.document(uri, TEXT, 'plaintext', 1);
  const states: string[] = [];
  const citations: { uri?: string }[] = [];
  const sent: [string, number][] = [];
  const failures: string[] = [];
  let settingsAsked = 0;
  const srv = new CitecheckServer(
    {
      settings: () => {
        settingsAsked += 1;
        return { offline: true, capFetch: false, corpusPath: path.join(tmp, 'c.sqlite'), cachePath: path.join(tmp, 'k.sqlite'), debounceMs: 10 };
      },
      onState: (s, d) => states.push(d ? `${s}: ${d}` : s),
      onFailed: (m) => failures.push(m),
      onCitations: (p) => citations.push(p as { uri?: string }),
      onDocumentSent: (u, v) => sent.push([u, v]),
    },
    window.createOutputChannel('citecheck'),
    new RestartPolicy({ baseDelayMs: 10 }),
  );
  try {
    await srv.start({ command: PYTHON as string, args: ['-m', 'citecheck.lsp', '--stdio'], origin: 'PATH' }, ['plaintext']);
    assert.deepEqual(failures, [], outputLines.join('\n'));
    assert.equal(srv.isRunning, true);
    assert.deepEqual(sent[0], [uri, 1]); // the open document went through our didOpen middleware

    // VS Code's client pulls diagnostics; they land in the editor's collection (fake.diagnostics)
    const diag = await until('the impossible-citation diagnostic in the editor', () =>
      (fake.diagnostics.get(uri) as unknown as { code?: unknown; range: { start: { line: number; character: number }; end: { character: number } } }[] | undefined)?.find(
        (d) => (typeof d.code === 'object' ? (d.code as { value?: unknown }).value : d.code) === 'impossible-citation',
      ),
    );
    assert.equal(diag.range.start.line, 1);
    assert.equal(TEXT.split('\n')[1].slice(diag.range.start.character, diag.range.end.character), CITE);
    await until('citecheck/citations for the document', () => citations.find((c) => c.uri === uri));
    assert.ok(settingsAsked >= 2, 'initializationOptions and workspace/configuration both came from our hook');

    // The server dies (exit without shutdown): our close handler restarts it after the back-off.
    const client = (srv as unknown as { client: { sendNotification(m: string): Promise<void> } }).client;
    const before = citations.length;
    await client.sendNotification('exit');
    await until('a restart after the crash', () => (states.some((s) => s.startsWith('starting: restarting after a crash')) ? true : undefined));
    await until('running again', () => (srv.isRunning ? true : undefined));
    await until('the document checked again by the new server', () => (citations.slice(before).some((c) => c.uri === uri) ? true : undefined));
    assert.deepEqual(failures, []);
  } finally {
    await srv.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  assert.equal(srv.isRunning, false);
  assert.equal(states.at(-1), 'stopped');
});

test('the real LanguageClient spawns the server before the launch options are ready, and initialize waits for them', { skip, timeout: 120_000 }, async () => {
  fake.reset();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'citecheck-vscode-client-'));
  let token: string | undefined = undefined;
  const asked: (string | undefined)[] = [];
  const srv = new CitecheckServer(
    {
      settings: () => {
        asked.push(token);
        return { offline: true, capFetch: false, corpusPath: path.join(tmp, 'c.sqlite'), cachePath: path.join(tmp, 'k.sqlite'), courtlistenerToken: token };
      },
      onState: () => undefined,
      onFailed: (m) => assert.fail(m),
      onCitations: () => undefined,
      onDocumentSent: () => undefined,
    },
    window.createOutputChannel('citecheck'),
    new RestartPolicy({ baseDelayMs: 10 }),
  );
  let tokenRead!: () => void;
  const ready = new Promise<void>((resolve) => (tokenRead = resolve));
  try {
    const started = srv.start({ command: PYTHON as string, args: ['-m', 'citecheck.lsp', '--stdio'], origin: 'PATH' }, ['plaintext'], ready);
    const pid = await until('the server process', () => (srv as unknown as { client?: { serverProcess?: { pid?: number } } }).client?.serverProcess?.pid);
    assert.ok(pid > 0);
    assert.equal(srv.isRunning, false);
    assert.deepEqual(asked, [], 'the launch options were read before they were ready');
    token = '0123456789abcdef0123456789abcdef01234567';
    tokenRead();
    await started;
    assert.equal(srv.isRunning, true);
    assert.equal(asked[0], token, 'initialize carried the token read meanwhile');
  } finally {
    await srv.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
