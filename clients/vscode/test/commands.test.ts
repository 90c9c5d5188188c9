import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import {
  checkSummary,
  type CommandDeps,
  COMMANDS,
  registerCommands,
  registerForwarders,
  reportView,
  SERVER_COMMANDS,
} from '../src/commands';
import { fake } from './fake-vscode';

interface Calls {
  executed: { command: string; args: unknown[] }[];
  restarts: number;
  tokens: (string | undefined)[];
}

function deps(overrides: Partial<CommandDeps> = {}, result: unknown = { checked: true, citations: 2, findings: [] }) {
  const calls: Calls = { executed: [], restarts: 0, tokens: [] };
  const d: CommandDeps = {
    isRunning: () => true,
    executeServerCommand: async (command, args) => {
      calls.executed.push({ command, args });
      return typeof result === 'function' ? (result as (c: string) => unknown)(command) : result;
    },
    restartServer: async () => {
      calls.restarts += 1;
    },
    setToken: async (v) => {
      calls.tokens.push(v);
      return Boolean(v);
    },
    hasToken: () => false,
    isChecked: (doc) => ['plaintext', 'markdown'].includes(doc.languageId),
    ...overrides,
  };
  return { d, calls };
}

async function run(id: string, ...args: unknown[]): Promise<unknown> {
  const handler = fake.commands.get(id);
  assert.ok(handler, `command ${id} is registered`);
  return handler(...args);
}

beforeEach(() => fake.reset());

test('every contributed command is registered once, including the server-side ignore', () => {
  const { d } = deps();
  const disposables = registerCommands(d);
  for (const id of [...Object.values(COMMANDS), ...Object.values(SERVER_COMMANDS)]) assert.ok(fake.commands.has(id), id);
  assert.equal(fake.commands.size, new Set([...Object.values(COMMANDS), ...Object.values(SERVER_COMMANDS)]).size);
  for (const x of disposables) x.dispose();
  assert.equal(fake.commands.size, 0);
});

test('Check document sends the active document to the server and summarises the answer', async () => {
  const { d, calls } = deps({}, { checked: true, citations: 3, findings: [{ severity: 'error' }, { severity: 'info' }] });
  registerCommands(d);
  fake.activeDocument = fake.document('file:///brief.md', 'text', 'markdown', 4);
  await run(COMMANDS.checkDocument);
  assert.deepEqual(calls.executed, [{ command: 'citecheck.checkDocument', args: [{ uri: 'file:///brief.md' }] }]);
  assert.equal(fake.messages.at(-1)?.text, 'citecheck: checked 3 citations: 1 error(s), 0 warning(s), 1 not verified / info.');
});

test('Check document with no editor, or a language not checked, explains instead of calling the server', async () => {
  const { d, calls } = deps();
  registerCommands(d);
  await run(COMMANDS.checkDocument);
  assert.match(fake.messages.at(-1)?.text ?? '', /open a document/);
  fake.activeDocument = fake.document('file:///x.py', 'print()', 'python');
  fake.answers.push('Open settings');
  await run(COMMANDS.checkDocument);
  assert.match(fake.messages.at(-1)?.text ?? '', /Add "python" to citecheck\.languages/);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(fake.executed.at(-1), { id: 'workbench.action.openSettings', args: ['citecheck.languages'] });
  assert.equal(calls.executed.length, 0);
});

test('a command while the server is down offers a restart', async () => {
  const { d, calls } = deps({ isRunning: () => false });
  registerCommands(d);
  fake.answers.push('Restart server');
  await run(COMMANDS.clearCache);
  assert.equal(fake.messages[0].level, 'error');
  assert.match(fake.messages[0].text, /server is not running/);
  assert.deepEqual(fake.messages[0].actions, ['Restart server']);
  assert.equal(calls.restarts, 1);
  assert.equal(calls.executed.length, 0);
});

test('an error answer from the server is shown as an error', async () => {
  const { d } = deps({}, { error: "no open document 'file:///brief.md'" });
  registerCommands(d);
  fake.activeDocument = fake.document('file:///brief.md', 'text');
  await run(COMMANDS.checkDocument);
  assert.equal(fake.messages.at(-1)?.level, 'error');
  assert.match(fake.messages.at(-1)?.text ?? '', /cannot check the document: no open document/);
});

test('a thrown request error is shown, not raised into VS Code', async () => {
  const { d } = deps({
    executeServerCommand: async () => {
      throw new Error('Request timed out');
    },
  });
  registerCommands(d);
  await run(COMMANDS.clearCache);
  assert.match(fake.messages.at(-1)?.text ?? '', /clear the cache failed: Request timed out/);
});

test('Show report asks for HTML and shows it in a webview without scripts', async () => {
  const html = '<!DOCTYPE html><html><body>report</body></html>';
  const { d, calls } = deps({}, { format: 'html', content: html });
  registerCommands(d);
  fake.activeDocument = fake.document('file:///dir/brief.md', 'text', 'markdown');
  await run(COMMANDS.showReport);
  assert.deepEqual(calls.executed[0].args, [{ uri: 'file:///dir/brief.md', format: 'html' }]);
  assert.equal(fake.webviews.length, 1);
  assert.equal(fake.webviews[0].html, html);
  assert.equal(fake.webviews[0].title, 'citecheck report: brief.md');
  assert.deepEqual(fake.webviews[0].options, { enableScripts: false });
});

test('a markdown report opens as an untitled markdown document', async () => {
  const { d } = deps({}, { format: 'markdown', content: '# Report\n' });
  registerCommands(d);
  fake.activeDocument = fake.document('file:///brief.txt', 'text');
  await run(COMMANDS.showReport);
  assert.deepEqual(fake.untitled, [{ content: '# Report\n', language: 'markdown' }]);
});

test('Clear cache calls the server without arguments and says what happened', async () => {
  const { d, calls } = deps({}, { cleared: false });
  registerCommands(d);
  await run(COMMANDS.clearCache);
  assert.deepEqual(calls.executed, [{ command: 'citecheck.clearCache', args: [] }]);
  assert.match(fake.messages.at(-1)?.text ?? '', /no lookup cache/);
});

test('ignore (from a code action) passes its arguments through unchanged', async () => {
  const { d, calls } = deps({}, { ignored: {} });
  registerCommands(d);
  const arg = { key: { kind: 'misquote', citation: '1 U.S. 1', quoteHash: 'ab' }, scope: 'finding' };
  await run(SERVER_COMMANDS.ignore, arg);
  assert.deepEqual(calls.executed, [{ command: 'citecheck.ignore', args: [arg] }]);
});

test('Set token uses a password box; cancelling changes nothing, empty removes', async () => {
  const { d, calls } = deps();
  registerCommands(d);
  fake.answers.push(undefined);
  await run(COMMANDS.setToken);
  assert.equal(fake.inputBoxes[0].password, true);
  const validate = fake.inputBoxes[0].validateInput as (v: string) => string | undefined;
  assert.match(validate('nope') ?? '', /40 hexadecimal/);
  assert.deepEqual(calls.tokens, []);
  fake.answers.push('0123456789abcdef0123456789abcdef01234567');
  await run(COMMANDS.setToken);
  fake.answers.push('');
  await run(COMMANDS.setToken);
  assert.deepEqual(calls.tokens, ['0123456789abcdef0123456789abcdef01234567', '']);
  assert.match(fake.messages.at(-1)?.text ?? '', /token removed/);
});

test('Reveal citation opens the document with the citation selected', async () => {
  const { d } = deps();
  registerCommands(d);
  fake.document('file:///brief.md', 'text', 'markdown');
  await run(COMMANDS.revealCitation, 'file:///brief.md', { start: { line: 1, character: 24 }, end: { line: 1, character: 46 } });
  assert.equal(fake.shown.length, 1);
  assert.equal(fake.shown[0].uri, 'file:///brief.md');
  assert.deepEqual(JSON.parse(JSON.stringify(fake.shown[0].selection)), { start: { line: 1, character: 24 }, end: { line: 1, character: 46 } });
  assert.equal(fake.revealed.length, 1);
});

test('unknown server commands get forwarders; known ones are left alone', async () => {
  const seen: unknown[] = [];
  const ds = registerForwarders(['citecheck.checkDocument', 'citecheck.newThing'], {
    executeServerCommand: async (c, a) => {
      seen.push([c, a]);
      return 1;
    },
  });
  assert.equal(ds.length, 1);
  assert.deepEqual([...fake.commands.keys()], ['citecheck.newThing']);
  await run('citecheck.newThing', 'x');
  assert.deepEqual(seen, [['citecheck.newThing', ['x']]]);
});

test('reportView picks how to show each kind of result', () => {
  assert.equal(reportView({ format: 'html', content: '<p>x</p>' }).kind, 'html');
  assert.equal(reportView('<!doctype html><p>x</p>').kind, 'html');
  assert.deepEqual(reportView({ format: 'json', content: '{}' }, 't'), { kind: 'text', content: '{}', language: 'json', title: 't' });
  assert.deepEqual(reportView('# md', 't'), { kind: 'text', content: '# md', language: 'markdown', title: 't' });
  assert.equal(reportView('').kind, 'none');
  assert.equal(reportView(null).kind, 'none');
  const other = reportView({ uri: 'file:///x', findings: [] });
  assert.equal(other.kind === 'text' && other.language, 'json');
});

test('checkSummary', () => {
  assert.equal(checkSummary({ checked: true, citations: 1, findings: [] }), 'checked 1 citation: no findings.');
  assert.match(checkSummary({ checked: false }), /changed during the check/);
  assert.equal(checkSummary({ findings: [{ severity: 'warning' }] }), 'checked: 0 error(s), 1 warning(s), 0 not verified / info.');
});
