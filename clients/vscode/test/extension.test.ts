import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import type { CitationsProvider } from '../src/citationsView';

import { activate, deactivate } from '../src/extension';
import { EventEmitter, fake, outputLines } from './fake-vscode';

const pythons = process.env.CITECHECK_PYTHON ? [process.env.CITECHECK_PYTHON] : ['python3', 'python'];
const PYTHON = pythons.find((p) => spawnSync(p, ['-c', 'import citecheck.lsp']).status === 0);
const noServer = PYTHON ? false : `no Python (${pythons.join(', ')}) can import citecheck.lsp; install the package or set CITECHECK_PYTHON`;

async function until<T>(what: string, pick: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = pick();
    if (got !== undefined && got !== false) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${outputLines.slice(-40).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function context() {
  const secrets = new Map<string, string>();
  const onDidChange = new EventEmitter<{ key: string }>();
  return {
    subscriptions: [] as { dispose(): unknown }[],
    secrets: {
      get: async (k: string) => secrets.get(k),
      store: async (k: string, v: string) => {
        secrets.set(k, v);
        onDidChange.fire({ key: k });
      },
      delete: async (k: string) => {
        secrets.delete(k);
        onDidChange.fire({ key: k });
      },
      onDidChange: onDidChange.event,
    },
  };
}

beforeEach(() => fake.reset());

test('activation with a missing server path: commands, status bar and tree exist, and the user is told which setting to fix', async () => {
  fake.config.set('citecheck.server.path', '/nonexistent/citecheck-lsp');
  fake.answers.push('Open settings');
  const ctx = context();
  await activate(ctx as never);
  for (const id of ['citecheck.checkDocument', 'citecheck.showReport', 'citecheck.restartServer', 'citecheck.clearCache', 'citecheck.setCourtListenerToken', 'citecheck.ignore']) {
    assert.ok(fake.commands.has(id), id);
  }
  assert.equal(fake.messages[0].level, 'error');
  assert.match(fake.messages[0].text, /citecheck\.server\.path is "\/nonexistent\/citecheck-lsp", but no such file exists/);
  assert.deepEqual(fake.messages[0].actions, ['Open settings']);
  assert.deepEqual(fake.executed.at(-1), { id: 'workbench.action.openSettings', args: ['citecheck.server.path'] });
  const item = fake.statusItems[0];
  assert.match(item.text, /server stopped/);
  assert.equal(item.command, 'citecheck.restartServer');
  // a command while the server is down explains instead of failing
  fake.activeDocument = fake.document('file:///brief.txt', 'See 1 U.S. 1.');
  fake.answers.push(undefined);
  await fake.commands.get('citecheck.checkDocument')?.();
  assert.match(fake.messages.at(-1)?.text ?? '', /server is not running/);
  for (const d of ctx.subscriptions) d.dispose();
  await deactivate();
  assert.equal(fake.commands.size, 0);
});

test('a CourtListener token that cannot be read from secret storage is logged; the extension still activates', async () => {
  fake.config.set('citecheck.server.path', '/nonexistent/citecheck-lsp');
  fake.answers.push(undefined);
  const ctx = context();
  ctx.secrets.get = async () => {
    throw new Error('the keychain is locked');
  };
  await activate(ctx as never);
  assert.ok(fake.commands.has('citecheck.setCourtListenerToken'));
  assert.ok(outputLines.some((l) => /could not read the CourtListener token from secret storage: the keychain is locked/.test(l)), outputLines.join('\n'));
  for (const d of ctx.subscriptions) d.dispose();
  await deactivate();
});

for (const [profile, hint] of [
  ['a profile that last saw no token', false],
  ['a new profile (never read a token)', undefined],
] as const) {
  test(`${profile} starts the server without waiting for the secret store; a token found after all restarts it`, { skip: noServer, timeout: 120_000 }, async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'citecheck-vscode-ext-'));
    fake.config.set('citecheck.python', PYTHON);
    fake.config.set('citecheck.offline', true);
    fake.config.set('citecheck.capFetch', false);
    fake.config.set('citecheck.corpusPath', path.join(tmp, 'c.sqlite'));
    fake.config.set('citecheck.cachePath', path.join(tmp, 'k.sqlite'));
    const state = new Map<string, unknown>(hint === undefined ? [] : [['citecheck.hasCourtListenerToken', hint]]);
    let answer!: (token: string) => void;
    const ctx = {
      ...context(),
      globalState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => void state.set(k, v) },
    };
    ctx.secrets.get = () => new Promise<string | undefined>((resolve) => (answer = resolve)); // the workbench has not answered yet
    try {
      await activate(ctx as never);
      const item = fake.statusItems[0];
      assert.doesNotMatch(item.text, /starting|stopped|failed/, item.text); // running, the secret still unread
      const before = item.history.length;
      answer('0123456789abcdef0123456789abcdef01234567');
      await until('a restart with the token', () => item.history.slice(before).includes('$(sync~spin) citecheck: starting…'));
      await until('running again', () => !/starting|stopped|failed/.test(item.text));
      assert.equal(state.get('citecheck.hasCourtListenerToken'), true);
    } finally {
      for (const d of ctx.subscriptions) d.dispose();
      await deactivate();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}

test('activation against the real server: status bar, Citations view, Check document, Show report', { skip: noServer, timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'citecheck-vscode-ext-'));
  const uri = pathToFileURL(path.join(tmp, 'brief.txt')).toString();
  const text = 'Intro.\nSee 😀 Boone v. Vinson, 446 Cal. Rptr. 4th 183 (2019).\n';
  fake.config.set('citecheck.python', PYTHON);
  fake.config.set('citecheck.offline', true);
  fake.config.set('citecheck.capFetch', false);
  fake.config.set('citecheck.corpusPath', path.join(tmp, 'c.sqlite'));
  fake.config.set('citecheck.cachePath', path.join(tmp, 'k.sqlite'));
  fake.config.set('citecheck.debounceMs', 10);
  fake.activeDocument = fake.document(uri, text, 'plaintext', 1);
  const ctx = context();
  try {
    await activate(ctx as never);
    const item = fake.statusItems[0];
    await until('the status bar to count the finding', () => item.text === '$(error) citecheck: 1 finding');
    assert.equal(item.command, 'workbench.actions.view.problems');
    // starting → checking… (the document was sent) → the count (the server's citations arrived)
    const seen = item.history.filter((t, i, all) => all.indexOf(t) === i);
    assert.ok(seen.indexOf('$(sync~spin) citecheck: checking…') > seen.indexOf('$(sync~spin) citecheck: starting…'), JSON.stringify(seen));
    assert.ok(seen.indexOf('$(error) citecheck: 1 finding') > seen.indexOf('$(sync~spin) citecheck: checking…'), JSON.stringify(seen));
    const tree = fake.treeViews.find((v) => v.id === 'citecheck.citations')?.treeDataProvider as CitationsProvider;
    const nodes = await until('the Citations view to list the citation', () => {
      const n = tree.getChildren();
      return n.length > 0 ? n : undefined;
    });
    assert.equal(nodes[0].label, 'Boone v. Vinson, 446 Cal. Rptr. 4th 183');
    const treeItem = tree.getTreeItem(nodes[0]) as unknown as { command: { command: string; arguments: unknown[] } };
    assert.equal(treeItem.command.command, 'citecheck.revealCitation');

    await fake.commands.get('citecheck.checkDocument')?.();
    assert.match(fake.messages.at(-1)?.text ?? '', /^citecheck: checked 1 citation: 1 error\(s\)/);
    await fake.commands.get('citecheck.showReport')?.();
    assert.equal(fake.webviews.length, 1, JSON.stringify(fake.messages));
    assert.match(fake.webviews[0].html, /446 Cal\. Rptr\. 4th 183/);
    assert.deepEqual(fake.messages.filter((m) => m.level === 'error'), []);
  } finally {
    for (const d of ctx.subscriptions) d.dispose();
    await deactivate();
    rmSync(tmp, { recursive: true, force: true });
  }
});
