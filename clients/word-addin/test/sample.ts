// The answer the Python tests produced (tests/serve/test_api.py writes out/check-answer.sample.json on
// every run); the committed fixture when the pane's tests run on their own. Also examples/brief.md as
// Word paragraphs, split exactly as tests/serve/conftest.py's brief_paragraphs does.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const produced = path.join(root, 'out', 'check-answer.sample.json');
const committed = path.join(root, 'test', 'fixtures', 'check-answer.json');

export function sampleAnswer(): { raw: unknown; from: string } {
  const from = existsSync(produced) ? produced : committed;
  return { raw: JSON.parse(readFileSync(from, 'utf8')), from };
}

export function briefParagraphs(): string[] {
  const text = readFileSync(path.join(root, '..', '..', 'examples', 'brief.md'), 'utf8');
  return text.split('\n\n').map((p) => p.trim()).filter((p) => p);
}
