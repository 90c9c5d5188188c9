import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { activate, deactivate } from '../src/extension';
import { EventEmitter, fake } from './fake-vscode';

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
