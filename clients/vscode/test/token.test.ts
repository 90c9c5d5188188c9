import assert from 'node:assert/strict';
import { test } from 'node:test';

import { type Secrets, TOKEN_KEY, TokenStore, tokenProblem } from '../src/token';

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

test('paste mistakes are explained', () => {
  assert.equal(tokenProblem('0123456789abcdef0123456789abcdef01234567'), undefined);
  assert.equal(tokenProblem(''), undefined);
  assert.match(tokenProblem('Token 0123456789abcdef0123456789abcdef01234567') ?? '', /without the word/);
  assert.match(tokenProblem('abc') ?? '', /40 hexadecimal/);
  assert.match(tokenProblem('0123456789abcdef 0123456789abcdef01234567') ?? '', /spaces/);
});
