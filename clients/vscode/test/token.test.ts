import assert from 'node:assert/strict';
import { test } from 'node:test';

import { HAS_TOKEN_KEY, type Memo, type Secrets, TOKEN_KEY, TokenStore, tokenProblem } from '../src/token';

function secrets(): Secrets & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: async (k) => data.get(k),
    store: async (k, v) => void data.set(k, v),
    delete: async (k) => void data.delete(k),
  };
}

test('a token is stored in secret storage and cached', async () => {
  const s = secrets();
  const store = new TokenStore(s);
  assert.equal(await store.load(), undefined);
  assert.equal(await store.set('  0123456789abcdef0123456789abcdef01234567 '), true);
  assert.equal(s.data.get(TOKEN_KEY), '0123456789abcdef0123456789abcdef01234567');
  assert.equal(store.value, '0123456789abcdef0123456789abcdef01234567');
  assert.equal(await new TokenStore(s).load(), '0123456789abcdef0123456789abcdef01234567');
});

test('an empty value removes the token', async () => {
  const s = secrets();
  const store = new TokenStore(s);
  await store.set('0123456789abcdef0123456789abcdef01234567');
  assert.equal(await store.set(''), false);
  assert.equal(s.data.has(TOKEN_KEY), false);
  assert.equal(store.value, undefined);
});

function memo(): Memo & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(k: string) => data.get(k) as T | undefined,
    update: async (k, v) => void data.set(k, v),
  };
}

test('whether a token exists is remembered in globalState (never the token): a start waits for the secret only when the last read found one', async () => {
  const s = secrets();
  const m = memo();
  const store = new TokenStore(s, m);
  assert.equal(store.lastSawToken, false); // never read on this profile: a new user, no token yet
  await store.load();
  assert.equal(m.data.get(HAS_TOKEN_KEY), false);
  assert.equal(new TokenStore(s, m).lastSawToken, false);
  await store.set('0123456789abcdef0123456789abcdef01234567');
  assert.equal(m.data.get(HAS_TOKEN_KEY), true);
  assert.equal(new TokenStore(s, m).lastSawToken, true);
  assert.ok(![...m.data.values()].some((v) => typeof v === 'string'), 'the token itself is not in globalState');
  await store.set('');
  assert.equal(new TokenStore(s, m).lastSawToken, false);
  s.data.set(TOKEN_KEY, '0123456789abcdef0123456789abcdef01234567'); // stored by another window
  await new TokenStore(s, m).load();
  assert.equal(new TokenStore(s, m).lastSawToken, true);
  assert.equal(new TokenStore(s).lastSawToken, false); // no globalState: never known
});

test('paste mistakes are explained', () => {
  assert.equal(tokenProblem('0123456789abcdef0123456789abcdef01234567'), undefined);
  assert.equal(tokenProblem(''), undefined);
  assert.match(tokenProblem('Token 0123456789abcdef0123456789abcdef01234567') ?? '', /without the word/);
  assert.match(tokenProblem('abc') ?? '', /40 hexadecimal/);
  assert.match(tokenProblem('0123456789abcdef 0123456789abcdef01234567') ?? '', /spaces/);
});
