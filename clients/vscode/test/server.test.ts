import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CloseAction, type LanguageClientOptions, type ServerOptions, State } from 'vscode-languageclient/node';

import { RestartPolicy } from '../src/restart';
import { type Client, CitecheckServer, movesDiagnosticsFeature, type ServerHooks } from '../src/server';
import type { ServerSettings } from '../src/settings';

type Behaviour = 'ok' | 'reject' | 'die';

/** A LanguageClient stand-in: records what the server module asks of it. */
class FakeClient {
  state: State = State.Stopped;
  initializeResult: unknown = { capabilities: { executeCommandProvider: { commands: ['citecheck.checkDocument', 'citecheck.extra'] } } };
  notifications: { type: unknown; params: unknown }[] = [];
  requests: { type: unknown; params: unknown }[] = [];
  handlers = new Map<string, (p: unknown) => void>();
  private stateListeners: ((e: { oldState: State; newState: State }) => void)[] = [];
  stops = 0;
  closeResult: unknown;
  launchOptionsReady: PromiseLike<unknown> | undefined;
  constructor(
    readonly serverOptions: ServerOptions,
    readonly options: LanguageClientOptions,
    private readonly startBehaviour: Behaviour,
  ) {}
  onDidChangeState(l: (e: { oldState: State; newState: State }) => void) {
    this.stateListeners.push(l);
    return { dispose: () => undefined };
  }
  onNotification(method: string, h: (p: unknown) => void) {
    this.handlers.set(method, h);
    return { dispose: () => undefined };
  }
  setState(s: State): void {
    const old = this.state;
    this.state = s;
    for (const l of this.stateListeners) l({ oldState: old, newState: s });
  }
  async start(): Promise<void> {
    this.setState(State.Starting);
    if (this.startBehaviour === 'die') {
      // the process exits during initialize: the client asks the error handler, then start() fails
      this.closeResult = await this.options.errorHandler!.closed();
      this.setState(State.Stopped);
      throw new Error('Connection to server got closed.');
    }
    if (this.startBehaviour === 'reject') {
      this.setState(State.Stopped);
      throw new Error('spawn /x/citecheck-lsp ENOENT');
    }
    this.setState(State.Running);
  }
  async stop(): Promise<void> {
    this.stops += 1;
    this.setState(State.Stopped);
  }
  async sendNotification(type: unknown, params: unknown): Promise<void> {
    this.notifications.push({ type, params });
  }
  async sendRequest(type: unknown, params: unknown): Promise<unknown> {
    this.requests.push({ type, params });
    return { ok: true };
  }
}

function setup(startBehaviour: Behaviour = 'ok', settings: () => ServerSettings = () => ({ offline: true })) {
  const events = { states: [] as string[], failures: [] as string[], citations: [] as unknown[], sent: [] as [string, number][] };
  const hooks: ServerHooks = {
    settings: () => settings(),
    onState: (s, d) => events.states.push(d ? `${s}: ${d}` : s),
    onFailed: (m) => events.failures.push(m),
    onCitations: (p) => events.citations.push(p),
    onDocumentSent: (u, v) => events.sent.push([u, v]),
  };
  const clients: FakeClient[] = [];
  const output = { appendLine: () => undefined };
  const srv = new CitecheckServer(
    hooks,
    output as never,
    new RestartPolicy({ baseDelayMs: 1, maxDelayMs: 4, maxRestarts: 2, windowMs: 60_000 }),
    (so, co, ready) => {
      const c = new FakeClient(so, co, startBehaviour);
      c.launchOptionsReady = ready;
      clients.push(c);
      return c as unknown as Client;
    },
  );
  return { srv, events, clients };
}

/** What `initialize` will carry: the options are read when it is sent, not when the client is made. */
function launchOptions(c: FakeClient): unknown {
  const opt = c.options.initializationOptions as unknown;
  assert.equal(typeof opt, 'function');
  return (opt as () => unknown)();
}

const CMD = { command: '/venv/bin/python', args: ['-m', 'citecheck.lsp', '--stdio'], origin: 'citecheck.python' as const };

test('start passes the command, selector and initial settings, and reports running', async () => {
  const { srv, events, clients } = setup();
  await srv.start(CMD, ['markdown']);
  const c = clients[0];
  assert.deepEqual((c.serverOptions as { run: unknown }).run, { command: '/venv/bin/python', args: ['-m', 'citecheck.lsp', '--stdio'] });
  assert.equal((c.serverOptions as { run: { transport?: unknown } }).run.transport, undefined); // so --stdio is not appended twice
  assert.deepEqual(c.options.documentSelector, [
    { scheme: 'file', language: 'markdown' },
    { scheme: 'untitled', language: 'markdown' },
  ]);
  assert.deepEqual(launchOptions(c), { offline: true });
  assert.equal(srv.isRunning, true);
  assert.deepEqual(events.states, ['starting', 'starting', 'running']);
  assert.deepEqual(srv.serverCommands(), ['citecheck.checkDocument', 'citecheck.extra']);
});

test('the launch options are read when initialize is sent: a token read still under way is waited for there, not before the start', async () => {
  let token: string | undefined = undefined;
  const { srv, clients } = setup('ok', () => ({ courtlistenerToken: token }));
  let tokenRead!: () => void;
  const ready = new Promise<void>((resolve) => (tokenRead = resolve));
  const started = srv.start(CMD, ['plaintext'], ready);
  await new Promise((r) => setImmediate(r));
  assert.equal(clients.length, 1, 'the client (and so the process) is started before the token is read');
  assert.equal(clients[0].launchOptionsReady, ready);
  token = 'secret';
  tokenRead();
  await started;
  assert.deepEqual(launchOptions(clients[0]), { courtlistenerToken: 'secret' });
  // without a promise there is nothing to wait for
  await srv.start(CMD, ['plaintext']);
  await clients[1].launchOptionsReady;
});

test('a start that fails tells the user once, naming the command', async () => {
  const { srv, events } = setup('reject');
  await srv.start(CMD, ['plaintext']);
  assert.equal(srv.isRunning, false);
  assert.equal(events.failures.length, 1);
  assert.match(events.failures[0], /could not start its server \(\/venv\/bin\/python -m citecheck\.lsp --stdio, from citecheck\.python\): spawn \/x\/citecheck-lsp ENOENT/);
  assert.equal(events.states.at(-1), 'failed: spawn /x/citecheck-lsp ENOENT');
});

test('workspace/configuration: citecheck gets our mapping without the token and user-only keys, other sections pass through', async () => {
  const { srv, clients } = setup('ok', () => ({ courtlistenerToken: 'secret', modelUrl: 'https://gpu/v1', offline: false }));
  await srv.start(CMD, ['plaintext']);
  const mw = clients[0].options.middleware?.workspace?.configuration;
  assert.ok(mw);
  const next = async (p: { items: unknown[] }) => p.items.map(() => ({ fromVsCode: true }));
  const answer = await mw({ items: [{ section: 'citecheck' }, { section: 'editor' }] }, {} as never, next as never);
  assert.deepEqual(answer, [{ offline: false }, { fromVsCode: true }]);
  // the launch options are the user's own: they carry both
  assert.deepEqual(launchOptions(clients[0]), { courtlistenerToken: 'secret', modelUrl: 'https://gpu/v1', offline: false });
});

test('opened and changed documents are reported as being checked', async () => {
  const { srv, events, clients } = setup();
  await srv.start(CMD, ['plaintext']);
  const mw = clients[0].options.middleware!;
  const doc = { uri: { toString: () => 'file:///a.txt' }, version: 3 };
  await mw.didOpen!(doc as never, async () => undefined);
  await mw.didChange!({ document: { ...doc, version: 4 } } as never, async () => undefined);
  assert.deepEqual(events.sent, [
    ['file:///a.txt', 3],
    ['file:///a.txt', 4],
  ]);
});

test('citations notifications reach the hook', async () => {
  const { srv, events, clients } = setup();
  await srv.start(CMD, ['plaintext']);
  clients[0].handlers.get('citecheck/citations')?.({ uri: 'file:///a.txt', citations: [] });
  assert.deepEqual(events.citations, [{ uri: 'file:///a.txt', citations: [] }]);
});

test('settings changes are sent once, and not at all when nothing changed', async () => {
  let offline = true;
  const { srv, clients } = setup('ok', () => ({ offline }));
  await srv.start(CMD, ['plaintext']);
  await srv.notifyConfigurationChanged();
  await srv.notifyConfigurationChanged();
  offline = false;
  await clients[0].options.middleware!.workspace!.didChangeConfiguration!([], async () => undefined);
  assert.deepEqual(
    clients[0].notifications.map((n) => n.params),
    [{ settings: { citecheck: { offline: true } } }, { settings: { citecheck: { offline: false } } }],
  );
});

test('commands go to workspace/executeCommand; no arguments are sent as none', async () => {
  const { srv, clients } = setup();
  await assert.rejects(srv.executeCommand('citecheck.clearCache', []), /not running/);
  await srv.start(CMD, ['plaintext']);
  await srv.executeCommand('citecheck.clearCache', []);
  await srv.executeCommand('citecheck.checkDocument', [{ uri: 'file:///a.txt' }]);
  assert.deepEqual(
    clients[0].requests.map((r) => r.params),
    [
      { command: 'citecheck.clearCache', arguments: undefined },
      { command: 'citecheck.checkDocument', arguments: [{ uri: 'file:///a.txt' }] },
    ],
  );
});

test('a crash after running restarts with back-off, then gives up and tells the user', async () => {
  const { srv, events, clients } = setup();
  await srv.start(CMD, ['plaintext']);
  const closed = () => clients[0].options.errorHandler!.closed();
  // crash 1 and 2: restart (after 1 ms, then 2 ms)
  for (let i = 0; i < 2; i++) {
    clients[0].setState(State.Running); // the client restarted and came up
    const r = await closed();
    assert.equal(r.action, CloseAction.Restart);
  }
  assert.match(events.states.join('\n'), /starting: restarting after a crash/);
  clients[0].setState(State.Running);
  const last = await closed();
  assert.equal(last.action, CloseAction.DoNotRestart);
  assert.equal(last.handled, true);
  assert.match(events.failures.at(-1) ?? '', /crashed 3 times/);
  assert.equal(events.states.at(-1), 'failed: crashed repeatedly');
});

test('exiting before it ever ran is a start-up problem: no restart loop, one message', async () => {
  const { srv, events, clients } = setup('die');
  await srv.start(CMD, ['plaintext']);
  assert.equal((clients[0].closeResult as { action: CloseAction }).action, CloseAction.DoNotRestart);
  assert.equal(srv.isRunning, false);
  assert.equal(events.failures.length, 1); // not a second one when start() then fails too
  assert.match(events.failures[0], /exited while starting.*citecheck\.python/);
});

test('stop is quiet: closing after stop() is not a crash', async () => {
  const { srv, events, clients } = setup();
  await srv.start(CMD, ['plaintext']);
  const c = clients[0];
  await srv.stop();
  assert.equal(c.stops, 1);
  const r = await c.options.errorHandler!.closed();
  assert.equal(r.action, CloseAction.DoNotRestart);
  assert.equal(events.failures.length, 0);
  assert.equal(events.states.at(-1), 'stopped');
});

test('restarting (start again) stops the old client first', async () => {
  const { srv, clients } = setup();
  await srv.start(CMD, ['plaintext']);
  await srv.start(CMD, ['plaintext', 'latex']);
  assert.equal(clients.length, 2);
  assert.equal(clients[0].stops, 1);
  assert.equal(srv.isRunning, true);
});

test('the client tells the server it moves the diagnostics it shows, keeping other experimental capabilities', () => {
  const caps: { experimental?: unknown } = { experimental: { other: 1, citecheck: { more: true } } };
  movesDiagnosticsFeature.fillClientCapabilities(caps);
  assert.deepEqual(caps.experimental, { other: 1, citecheck: { more: true, movesDiagnostics: true } });
  const bare: { experimental?: unknown } = {};
  movesDiagnosticsFeature.fillClientCapabilities(bare);
  assert.deepEqual(bare.experimental, { citecheck: { movesDiagnostics: true } });
  assert.deepEqual(movesDiagnosticsFeature.getState(), { kind: 'static' });
});
