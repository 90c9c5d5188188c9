import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import {
  CLIENT_SETTING_KEYS,
  type Configuration,
  documentSelector,
  folderSettings,
  needsRestart,
  readClientSettings,
  SERVER_SETTING_KEYS,
  serverSettings,
  STRICTER_KEYS,
  USER_ONLY_KEYS,
  workspaceSettings,
} from '../src/settings';

function config(values: Record<string, unknown>): Configuration {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
};
const contributed = pkg.contributes.configuration.properties;

/**
 * Configuration as VS Code gives it: `get` returns the package.json default for anything unset,
 * `inspect` tells which keys the user set (here: those in `overrides`).
 */
function defaults(overrides: Record<string, unknown> = {}): Configuration {
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(contributed)) values[k.replace(/^citecheck\./, '')] = v.default;
  Object.assign(values, overrides);
  return {
    get: <T>(key: string) => values[key] as T | undefined,
    inspect: <T>(key: string) => (key in overrides ? { globalValue: overrides[key] as T } : {}),
  };
}

test('with nothing set only languages reach the server, so its own configuration (toml, env) applies', () => {
  assert.deepEqual(serverSettings(defaults(), undefined), { languages: ['plaintext', 'markdown'] });
});

test('a setting explicitly set to its default value is still sent', () => {
  assert.deepEqual(serverSettings(defaults({ offline: false, capFetch: true }), undefined), {
    capFetch: true,
    offline: false,
    languages: ['plaintext', 'markdown'],
  });
});

test('without inspect (a plain mapping), every value counts as set', () => {
  assert.deepEqual(serverSettings(config({ offline: true, debounceMs: 50 }), undefined), {
    offline: true,
    debounceMs: 50,
    languages: ['plaintext', 'markdown'],
  });
});

test('each setting maps to the camelCase key the server accepts', () => {
  const s = serverSettings(
    defaults({
      corpusPath: '/data/corpus.sqlite',
      cachePath: '/data/cache.sqlite',
      courtlistenerUrl: ' http://127.0.0.1:9/api/ ',
      capFetch: false,
      offline: true,
      enabledKinds: ['fabricated-case', 'misquote'],
      severityOverrides: { 'year-mismatch': 'Error', misquote: 'bogus' },
      languages: ['markdown', 'latex', 'latex'],
      sizeLimit: 5000.7,
      debounceMs: 0,
      capUrl: 'http://127.0.0.1:8/cap/',
      httpTimeout: 2.5,
      modelUrl: 'http://127.0.0.1:9/v1',
      modelName: 'm',
      court: ' S.D.N.Y. ',
      question: 'State',
    }),
    'abc123',
  );
  assert.deepEqual(s, {
    corpusPath: '/data/corpus.sqlite',
    cachePath: '/data/cache.sqlite',
    courtlistenerUrl: 'http://127.0.0.1:9/api/',
    capFetch: false,
    offline: true,
    enabledKinds: ['fabricated-case', 'misquote'],
    severityOverrides: { 'year-mismatch': 'error' }, // bad severities are dropped, not sent
    languages: ['markdown', 'latex'],
    maxDocumentChars: 5000,
    debounceMs: 0,
    capUrl: 'http://127.0.0.1:8/cap/',
    httpTimeout: 2.5,
    modelUrl: 'http://127.0.0.1:9/v1',
    modelName: 'm',
    court: 'S.D.N.Y.',
    question: 'state',
    courtlistenerToken: 'abc123',
  });
});

test('an empty enabledKinds list means all kinds, not none', () => {
  assert.equal(serverSettings(defaults({ enabledKinds: [] }), undefined).enabledKinds, undefined);
});

test('the former name enabledChecks is still read, and the new name wins', () => {
  const only = serverSettings(defaults({ enabledChecks: ['misquote'] }), undefined);
  assert.deepEqual(only.enabledKinds, ['misquote']);
  const both = serverSettings(defaults({ enabledChecks: ['misquote'], enabledKinds: ['fabricated-case'] }), undefined);
  assert.deepEqual(both.enabledKinds, ['fabricated-case']);
});

test('nonsense numbers are dropped rather than sent', () => {
  const s = serverSettings(defaults({ sizeLimit: 0, debounceMs: -5 }), undefined);
  assert.equal(s.maxDocumentChars, undefined);
  assert.equal(s.debounceMs, undefined);
});

test('the token is never sent when blank', () => {
  assert.equal(serverSettings(defaults(), '  ').courtlistenerToken, undefined);
});

test('${workspaceFolder} and ~ are expanded in paths', () => {
  const ctx = { workspaceFolder: '/ws', home: '/home/me' };
  const s = serverSettings(defaults({ corpusPath: '${workspaceFolder}/c.sqlite', cachePath: '~/cache.sqlite' }), undefined, ctx);
  assert.equal(s.corpusPath, '/ws/c.sqlite');
  assert.equal(s.cachePath, '/home/me/cache.sqlite');
  // without a folder open the path is left to the server's default
  assert.equal(serverSettings(defaults({ corpusPath: '${workspaceFolder}/c.sqlite' }), undefined, {}).corpusPath, undefined);
});

test('client settings: paths, and languages fall back to plaintext + markdown', () => {
  assert.deepEqual(readClientSettings(defaults()), { serverPath: undefined, python: undefined, languages: ['plaintext', 'markdown'] });
  assert.deepEqual(readClientSettings(defaults({ 'server.path': ' /opt/citecheck-lsp ', python: '~/venv/bin/python', languages: [] }), { home: '/h' }), {
    serverPath: '/opt/citecheck-lsp',
    python: '/h/venv/bin/python',
    languages: ['plaintext', 'markdown'],
  });
});

test('document selector covers saved and untitled documents of each language', () => {
  assert.deepEqual(documentSelector(['plaintext', 'latex']), [
    { scheme: 'file', language: 'plaintext' },
    { scheme: 'untitled', language: 'plaintext' },
    { scheme: 'file', language: 'latex' },
    { scheme: 'untitled', language: 'latex' },
  ]);
});

test('the folder being checked cannot choose a host or a file: user-only keys come from user settings alone', () => {
  const values: Record<string, unknown> = { modelUrl: 'https://evil.example/v1', corpusPath: '/evil.sqlite', offline: true };
  const folderOnly: Configuration = {
    get: <T>(key: string) => values[key] as T | undefined,
    inspect: <T>(key: string) => (key in values ? { workspaceValue: values[key] as T } : {}),
  };
  const s = serverSettings(folderOnly, undefined);
  assert.equal(s.modelUrl, undefined);
  assert.equal(s.corpusPath, undefined);
  assert.equal(s.offline, undefined); // the launch options are the user's own ...
  assert.equal(folderSettings(folderOnly).offline, true); // ... the folder's layer may make it stricter
  const user = serverSettings(defaults({ modelUrl: 'https://gpu.firm.example/v1' }), 'tok');
  assert.equal(user.modelUrl, 'https://gpu.firm.example/v1');
  // the workspace/configuration answer (the server's folder layer) never carries them, nor the token
  const answer = workspaceSettings(user);
  assert.equal(answer.modelUrl, undefined);
  assert.equal(answer.courtlistenerToken, undefined);
  for (const key of USER_ONLY_KEYS) assert.equal(needsRestart((k) => k === `citecheck.${key}`), true, key);
});

test('only server start-up settings need a restart', () => {
  assert.equal(needsRestart((k) => k === 'citecheck.python'), true);
  assert.equal(needsRestart((k) => k === 'citecheck.languages'), true);
  assert.equal(needsRestart((k) => k === 'citecheck.offline'), false);
});

test('package.json contributes exactly the settings the code reads', () => {
  const expected = new Set([...Object.keys(SERVER_SETTING_KEYS), ...CLIENT_SETTING_KEYS].map((k) => `citecheck.${k}`));
  assert.deepEqual(new Set(Object.keys(contributed)), expected);
});

test('no setting stores the CourtListener token', () => {
  assert.ok(!Object.keys(contributed).some((k) => /token/i.test(k)));
});

test('the finding kinds offered in settings are exactly the server\'s (citecheck.findings.Kind)', (t) => {
  const code = 'import json; from citecheck.findings import Kind; print(json.dumps([k.value for k in Kind]))';
  const pythons = process.env.CITECHECK_PYTHON ? [process.env.CITECHECK_PYTHON] : ['python3', 'python'];
  const r = pythons.map((p) => spawnSync(p, ['-c', code], { encoding: 'utf8' })).find((x) => x.status === 0);
  if (!r) {
    t.skip(`no Python (${pythons.join(', ')}) can import citecheck.findings; install the package or set CITECHECK_PYTHON`);
    return;
  }
  const kinds = JSON.parse(r.stdout) as string[];
  const enabled = (contributed['citecheck.enabledKinds'] as { items: { enum: string[] } }).items.enum;
  const overrides = (contributed['citecheck.severityOverrides'] as { propertyNames: { enum: string[] } }).propertyNames.enum;
  assert.deepEqual([...enabled].sort(), [...kinds].sort());
  assert.deepEqual([...overrides].sort(), [...kinds].sort());
});

test('a folder cannot undo what the user turned off: offline and capFetch launch from user settings alone', () => {
  // the user turned the network off and CAP downloads off; .vscode/settings.json
  // of the folder being checked says the opposite (VS Code's get() gives the workspace's value)
  const user: Record<string, unknown> = { offline: true, capFetch: false };
  const folder: Record<string, unknown> = { offline: false, capFetch: true, modelName: 'fake-judge', debounceMs: 5 };
  const both: Configuration = {
    get: <T>(key: string) => (key in folder ? folder[key] : user[key]) as T | undefined,
    inspect: <T>(key: string) => ({ globalValue: user[key] as T, workspaceValue: folder[key] as T }),
  };
  const launch = serverSettings(both, 'tok');
  assert.equal(launch.offline, true);
  assert.equal(launch.capFetch, false);
  assert.equal(launch.modelName, 'fake-judge'); // which model at the user's endpoint: not a switch
  assert.equal(launch.debounceMs, 5); // what sends nothing may still come from the workspace
  // the folder's layer carries the workspace's values; the server takes them only where they send less
  const answer = folderSettings(both);
  assert.equal(answer.offline, false);
  assert.equal(answer.courtlistenerToken, undefined);
  for (const key of STRICTER_KEYS) assert.ok(key in SERVER_SETTING_KEYS, key);
});
