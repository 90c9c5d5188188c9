import assert from 'node:assert/strict';
import { test } from 'node:test';

import { followedUri } from '../src/follow';

const LANGS = ['plaintext', 'markdown'];
const brief = { uri: 'file:///brief.md', scheme: 'file', languageId: 'markdown' };
const open = (uris: string[]) => (u: string) => uris.includes(u);

test('a checked document becomes the one followed', () => {
  assert.equal(followedUri(undefined, brief, LANGS, open([])), 'file:///brief.md');
  const other = { uri: 'untitled:Untitled-1', scheme: 'untitled', languageId: 'plaintext' };
  assert.equal(followedUri('file:///brief.md', other, LANGS, open(['file:///brief.md'])), 'untitled:Untitled-1');
});

test('the Output panel, settings or an unchecked language do not empty the Citations view', () => {
  const output = { uri: 'output:extension-output-citecheck', scheme: 'output', languageId: 'log' };
  assert.equal(followedUri('file:///brief.md', output, LANGS, open(['file:///brief.md'])), 'file:///brief.md');
  const python = { uri: 'file:///x.py', scheme: 'file', languageId: 'python' };
  assert.equal(followedUri('file:///brief.md', python, LANGS, open(['file:///brief.md'])), 'file:///brief.md');
  assert.equal(followedUri('file:///brief.md', undefined, LANGS, open(['file:///brief.md'])), 'file:///brief.md');
});

test('a closed document is no longer followed', () => {
  assert.equal(followedUri('file:///brief.md', undefined, LANGS, open([])), undefined);
  const output = { uri: 'output:x', scheme: 'output', languageId: 'log' };
  assert.equal(followedUri('file:///brief.md', output, LANGS, open([])), undefined);
});
