// The answer the Python tests produced for examples/brief.md's paragraphs (tests/serve/test_api.py
// writes out/check-answer.sample.json, {paragraphs, answer}, on every run); the committed fixture of
// the same form when the pane's tests run on their own.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const produced = path.join(root, 'out', 'check-answer.sample.json');
const committed = path.join(root, 'test', 'fixtures', 'check-answer.json');

function load(): { paragraphs: string[]; answer: unknown; from: string } {
  const from = existsSync(produced) ? produced : committed;
  const data = JSON.parse(readFileSync(from, 'utf8')) as { paragraphs: string[]; answer: unknown };
  return { ...data, from };
}

export function sampleAnswer(): { raw: unknown; from: string } {
  const { answer, from } = load();
  return { raw: answer, from };
}

/** The sample answer as loose JSON, for tests that break one field of it on purpose. */
export interface Mangle {
  api: unknown;
  report: { files: { findings: Record<string, unknown>[]; citations: Record<string, unknown>[] }[] };
}

export function mangleable(): Mangle {
  return JSON.parse(JSON.stringify(sampleAnswer().raw)) as Mangle;
}

/** The paragraphs the sample answer is about. */
export function briefParagraphs(): string[] {
  return load().paragraphs;
}
