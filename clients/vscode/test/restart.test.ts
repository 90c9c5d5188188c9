import assert from 'node:assert/strict';
import { test } from 'node:test';

import { RestartPolicy } from '../src/restart';

test('delays double after each crash, then the policy gives up', () => {
  let now = 0;
  const p = new RestartPolicy({ baseDelayMs: 1000, maxDelayMs: 5000, maxRestarts: 4, windowMs: 60_000 }, () => now);
  const delays = [];
  for (let i = 0; i < 4; i++) {
    const d = p.onCrash();
    assert.equal(d.restart, true);
    delays.push(d.delayMs);
    now += 1000;
  }
  assert.deepEqual(delays, [1000, 2000, 4000, 5000]); // capped at maxDelayMs
  const last = p.onCrash();
  assert.equal(last.restart, false);
  assert.equal(last.crashes, 5);
});

test('crashes older than the window are forgotten', () => {
  let now = 0;
  const p = new RestartPolicy({ maxRestarts: 2, windowMs: 10_000 }, () => now);
  p.onCrash();
  p.onCrash();
  now = 20_000;
  const d = p.onCrash();
  assert.equal(d.restart, true);
  assert.equal(d.crashes, 1);
  assert.equal(d.delayMs, 1000);
});

test('reset starts the back-off again', () => {
  const p = new RestartPolicy({ maxRestarts: 1 }, () => 0);
  p.onCrash();
  assert.equal(p.onCrash().restart, false);
  p.reset();
  assert.deepEqual(p.onCrash(), { restart: true, delayMs: 1000, crashes: 1 });
});
