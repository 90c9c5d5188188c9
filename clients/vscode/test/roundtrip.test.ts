/**
 * Round trip with the real Python server over stdio, through the protocol library
 * vscode-languageclient itself uses (vscode-languageserver-protocol). It checks what the extension
 * depends on: the server answers a VS Code-like initialize with UTF-16 positions, reads the settings
 * `serverSettings` sends through workspace/configuration, reports an impossible citation at the right
 * UTF-16 range (an emoji sits before it on the same line) with its `data` payload, sends
 * `citecheck/citations` in a shape the Citations tree understands, and answers the commands the
 * extension forwards. Both diagnostic models are driven: push, and pull as VS Code itself uses.
 *
 * Python comes from CITECHECK_PYTHON, else python3 or python. The test is skipped only when no such
 * Python can import citecheck.lsp; any other failure is a real failure.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import {
  CodeActionRequest,
  ConfigurationRequest,
  createProtocolConnection,
  type Diagnostic,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  ExecuteCommandRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type InitializeResult,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';

import { citationNodes, CITATIONS_NOTIFICATION, courtListenerReach, parseCitations } from '../src/citations';
import { checkSummary, registerCommands, reportView, SERVER_COMMANDS } from '../src/commands';
import { type Configuration, serverSettings, workspaceSettings } from '../src/settings';
import { fake } from './fake-vscode';

/** CITECHECK_PYTHON, else the first of python3 / python that can import citecheck.lsp. */
function findPython(): { python: string; skip: string | false } {
  const candidates = process.env.CITECHECK_PYTHON ? [process.env.CITECHECK_PYTHON] : ['python3', 'python'];
  const why: string[] = [];
  for (const python of candidates) {
    const r = spawnSync(python, ['-c', 'import citecheck.lsp'], { encoding: 'utf8' });
    if (r.status === 0) return { python, skip: false };
    why.push(`${python}: ${(r.error?.message ?? r.stderr ?? '').trim().split('\n').pop()}`);
  }
  return {
    python: candidates[0],
    skip: `no Python can import citecheck.lsp (${why.join('; ')}); install the package (pip install -e .) or set CITECHECK_PYTHON`,
  };
}
const { python: PYTHON, skip } = findPython();

const CITE = '446 Cal. Rptr. 4th 183';
// The emoji before the citation makes UTF-16 columns differ from code-point columns by one:
// "See 😀 Boone v. Vinson, " is 23 code points but 24 UTF-16 units.
const TEXT = `Intro paragraph.\nSee 😀 Boone v. Vinson, ${CITE} (2019).\n`;
const CITE_COLUMN = 'See 😀 Boone v. Vinson, '.length; // UTF-16 units (JS string length)
const WAIT_MS = 40_000;

/** Settings as the extension would send them: by default the user turned the network off. */
function userConfig(tmp: string, extra: Record<string, unknown> = {}): Configuration {
  const values: Record<string, unknown> = {
    corpusPath: path.join(tmp, 'corpus.sqlite'),
    cachePath: path.join(tmp, 'cache.sqlite'),
    capFetch: false,
    offline: true,
    languages: ['plaintext', 'markdown'],
    sizeLimit: 2_000_000,
    debounceMs: 20,
    severityOverrides: {},
    ...extra,
  };
  return { get: <T>(key: string) => values[key] as T | undefined };
}

/** What vscode-languageclient 11 advertises that matters here; `pull` adds its pull-diagnostics support. */
function capabilities(pull: boolean): Record<string, unknown> {
  const textDocument: Record<string, unknown> = {
    synchronization: { dynamicRegistration: true, didSave: true },
    publishDiagnostics: {
      relatedInformation: true,
      versionSupport: false,
      tagSupport: { valueSet: [1, 2] },
      codeDescriptionSupport: true,
      dataSupport: true,
    },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    codeAction: { dataSupport: true, isPreferredSupport: true },
  };
  if (pull) textDocument.diagnostic = { dynamicRegistration: true, relatedDocumentSupport: false };
  return {
    general: { positionEncodings: ['utf-16'] },
    workspace: {
      configuration: true,
      didChangeConfiguration: { dynamicRegistration: true },
      diagnostics: { refreshSupport: pull },
    },
    window: { workDoneProgress: true, showMessage: {} },
    textDocument,
  };
}

/** One server process and the client side of its connection. */
class Session {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'citecheck-vscode-rt-'));
  proc: ChildProcess;
  conn: ProtocolConnection;
  init: InitializeResult | undefined;
  stderr = '';
  logs: string[] = [];
  configRequests: { items: { section?: string }[] }[] = [];
  published: PublishDiagnosticsParams[] = [];
  citations: unknown[] = [];
  private waiters: (() => void)[] = [];

  constructor(
    private readonly extraSettings: Record<string, unknown> = {},
    private readonly token?: string,
  ) {
    this.proc = spawn(PYTHON, ['-m', 'citecheck.lsp', '--stdio'], {
      cwd: this.tmp,
      env: {
        ...process.env,
        CITECHECK_OFFLINE: extraSettings.offline === false ? '0' : '1',
        CITECHECK_CAP_FETCH: '0',
        CITECHECK_COURTLISTENER_TOKEN: '',
        // the fake CourtListener is on loopback: the user allows that host for the token (docs/security.md)
        CITECHECK_TOKEN_HOSTS: '127.0.0.1',
        XDG_DATA_HOME: path.join(this.tmp, 'data'),
        XDG_CACHE_HOME: path.join(this.tmp, 'cache'),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.proc.stderr?.on('data', (d: Buffer) => {
      this.stderr += d.toString('utf8');
    });
    this.conn = createProtocolConnection(
      new StreamMessageReader(this.proc.stdout as NodeJS.ReadableStream),
      new StreamMessageWriter(this.proc.stdin as NodeJS.WritableStream),
    );
    const c = this.conn;
    c.onRequest(ConfigurationRequest.type, (params) => {
      this.configRequests.push(params);
      this.wake();
      return params.items.map((item) =>
        item.section === 'citecheck' ? workspaceSettings(serverSettings(userConfig(this.tmp, this.extraSettings), this.token)) : null,
      );
    });
    c.onRequest('client/registerCapability', () => null);
    c.onRequest('window/workDoneProgress/create', () => null);
    c.onRequest('workspace/diagnostic/refresh', () => {
      this.wake();
      return null;
    });
    c.onNotification('window/logMessage', (p: { type: number; message: string }) => {
      this.logs.push(`[log ${p.type}] ${p.message}`);
    });
    c.onNotification('window/showMessage', (p: { type: number; message: string }) => {
      this.logs.push(`[show ${p.type}] ${p.message}`);
    });
    c.onNotification('$/progress', () => undefined);
    c.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.published.push(p);
      this.wake();
    });
    c.onNotification(CITATIONS_NOTIFICATION, (p: unknown) => {
      this.citations.push(p);
      this.wake();
    });
    c.listen();
  }

  async initialize(pull: boolean): Promise<InitializeResult> {
    this.init = await this.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(this.tmp).toString(),
      capabilities: capabilities(pull),
      // as the extension does: the user's settings and the token in the launch options (server.ts)
      initializationOptions: serverSettings(userConfig(this.tmp, this.extraSettings), this.token),
      workspaceFolders: null,
    } as never);
    await this.conn.sendNotification(InitializedNotification.type, {});
    return this.init;
  }

  uri(name: string): string {
    return pathToFileURL(path.join(this.tmp, name)).toString();
  }

  async open(uri: string, text: string): Promise<void> {
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'plaintext', version: 1, text },
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolve when `pick()` returns something; fail after WAIT_MS showing the server's log. */
  async waitFor<T>(what: string, pick: () => T | undefined): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const got = pick();
      if (got !== undefined) return got;
      if (Date.now() > deadline) {
        throw new Error(
          `timed out waiting for ${what}\n--- server log ---\n${this.logs.join('\n').slice(-4000)}\n--- stderr ---\n${this.stderr.slice(-4000)}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async close(): Promise<void> {
    try {
      await Promise.race([this.conn.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 3000))]);
      await this.conn.sendNotification(ExitNotification.type);
    } catch {
      // the server may already be gone; the kill below is the fallback
    }
    await new Promise((r) => setTimeout(r, 300));
    if (this.proc.exitCode === null) this.proc.kill();
    this.conn.dispose();
    rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** Slice a UTF-16 LSP range out of the text (JS strings are UTF-16). */
function textOf(text: string, range: Diagnostic['range']): string {
  assert.equal(range.start.line, range.end.line, 'the citation is on one line');
  return text.split('\n')[range.start.line].slice(range.start.character, range.end.character);
}

function assertImpossibleCitation(diag: Diagnostic | undefined): void {
  assert.ok(diag, 'an impossible-citation diagnostic');
  assert.equal(diag.source, 'citecheck');
  assert.equal(diag.severity, 1); // Error
  assert.equal(diag.range.start.line, 1);
  // Only UTF-16 columns slice out exactly the citation; code-point columns would be off by one.
  assert.equal(textOf(TEXT, diag.range), CITE);
  assert.equal(diag.range.start.character, CITE_COLUMN);
  // data is what the server's code actions get back: the kind, the ignore key, the fixes
  const data = diag.data as { kind?: string; key?: { kind?: string; citation?: string }; fixes?: unknown };
  assert.equal(data.kind, 'impossible-citation');
  assert.equal(data.key?.kind, 'impossible-citation');
  assert.match(data.key?.citation ?? '', /446 cal\. rptr\. 4th 183/i); // normalised by the server
  assert.ok(Array.isArray(data.fixes));
  // no link to a documentation URL the package does not declare (issue 36)
  assert.equal(diag.codeDescription, undefined);
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

let push: Session;
let pull: Session;
let down: Session;

before(async () => {
  if (skip) return;
  push = new Session();
  pull = new Session();
  // Network on, a token from secret storage, and a CourtListener that does not answer.
  const url = `http://127.0.0.1:${await closedPort()}/api/rest/v4/`;
  down = new Session({ offline: false, courtlistenerUrl: url }, '0123456789abcdef0123456789abcdef01234567');
  await Promise.all([push.initialize(false), pull.initialize(true), down.initialize(false)]);
});

after(async () => {
  if (skip) return;
  await Promise.all([push?.close(), pull?.close(), down?.close()]);
});

test('the server negotiates UTF-16, as vscode-languageclient requires', { skip }, () => {
  for (const s of [push, pull]) {
    assert.equal(s.init?.capabilities.positionEncoding ?? 'utf-16', 'utf-16');
    assert.equal(s.init?.serverInfo?.name, 'citecheck-lsp');
  }
  // the extension registers these itself; the server must handle each id
  const advertised = push.init?.capabilities.executeCommandProvider?.commands ?? [];
  for (const id of Object.values(SERVER_COMMANDS)) assert.ok(advertised.includes(id), `server handles ${id}`);
});

test('push: an impossible citation after an emoji is published at its UTF-16 range, with data', { skip, timeout: 60_000 }, async () => {
  const uri = push.uri('brief.txt');
  await push.open(uri, TEXT);
  const diag = await push.waitFor('a published impossible-citation diagnostic', () =>
    push.published
      .filter((p) => p.uri === uri)
      .flatMap((p) => p.diagnostics)
      .find((d) => d.code === 'impossible-citation'),
  );
  assertImpossibleCitation(diag);
});

test('pull (as VS Code does): the diagnostic report has the same diagnostic, nothing is pushed', { skip, timeout: 60_000 }, async () => {
  const uri = pull.uri('brief.txt');
  await pull.open(uri, TEXT);
  // VS Code pulls when the server asks it to refresh, and on open/change; poll the way it does.
  let report: { kind: string; items?: Diagnostic[] } | undefined;
  const diag = await pull.waitFor('a pulled impossible-citation diagnostic', () => {
    void pull.conn
      .sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })
      .then((r) => {
        report = r;
      })
      .catch(() => undefined);
    return report?.items?.find((d) => d.code === 'impossible-citation');
  });
  assertImpossibleCitation(diag);
  assert.equal(pull.published.filter((p) => p.uri === uri && p.diagnostics.length > 0).length, 0, 'never both push and pull');
});

test('settings reach the server through workspace/configuration and didChangeConfiguration', { skip, timeout: 60_000 }, async () => {
  const req = await push.waitFor('a workspace/configuration request', () => push.configRequests[0]);
  assert.deepEqual(req.items.map((i) => i.section), ['citecheck']);
  await push.conn.sendNotification(DidChangeConfigurationNotification.type, {
    settings: { citecheck: serverSettings(userConfig(push.tmp), undefined) },
  });
  assert.equal(push.proc.exitCode, null, 'the server is still running');
});

test('citecheck/citations feeds the Citations tree with the citation and its finding', { skip, timeout: 60_000 }, async () => {
  const uri = push.uri('brief.txt');
  const doc = await push.waitFor('a citecheck/citations notification naming the impossible citation', () => {
    for (const raw of [...push.citations].reverse()) {
      const parsed = parseCitations(raw);
      if ('ok' in parsed && parsed.ok.uri === uri) {
        const c = parsed.ok.citations.find((x) => x.text.includes(CITE));
        if (c && c.findings.some((f) => f.kind === 'impossible-citation')) return parsed.ok;
      }
    }
    return undefined;
  });
  const node = citationNodes(doc, TEXT).find((n) => n.label.includes(CITE));
  assert.ok(node, 'a tree node for the citation');
  assert.equal(node.label, `Boone v. Vinson, ${CITE}`);
  assert.equal(node.icon, 'error');
  assert.ok(node.range, 'the node can be revealed');
  assert.equal(textOf(TEXT, node.range), CITE);
  assert.ok(node.children.some((f) => f.label === 'impossible-citation'));
  assert.notEqual(courtListenerReach(doc), 'unreachable'); // offline is a choice, not an outage
});

test('the commands the extension forwards work against the server', { skip, timeout: 60_000 }, async () => {
  const uri = push.uri('brief.txt');
  const checked: unknown = await push.conn.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.checkDocument, arguments: [{ uri }] });
  assert.match(checkSummary(checked), /^checked 1 citation: 1 error\(s\)/);
  const report: unknown = await push.conn.sendRequest(ExecuteCommandRequest.type, {
    command: SERVER_COMMANDS.showReport,
    arguments: [{ uri, format: 'html' }],
  });
  const view = reportView(report);
  assert.equal(view.kind, 'html');
  assert.match(view.kind === 'html' ? view.html : '', /impossible-citation|Cal\. Rptr\. 4th/);
  const bad: unknown = await push.conn.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.checkDocument, arguments: [{ uri: 'file:///not-open.txt' }] });
  assert.equal(typeof (bad as { error?: unknown }).error, 'string'); // an error the extension shows, not a crash
});

test('CourtListener down: the token reaches the server, the citation is cannot-verify, the status bar says unreachable', { skip, timeout: 60_000 }, async () => {
  const uri = down.uri('memo.txt');
  // A case no treatment data calls overruled (Roe v. Wade, used here before, is overruled now: a problem).
  const text = 'As held in Brown v. Board of Education, 347 U.S. 483 (1954), separate is not equal.\n';
  await down.open(uri, text);
  const doc = await down.waitFor('a checked citecheck/citations notification', () => {
    for (const raw of [...down.citations].reverse()) {
      const parsed = parseCitations(raw);
      if ('ok' in parsed && parsed.ok.uri === uri && parsed.ok.citations.some((c) => c.status && c.status !== 'pending')) return parsed.ok;
    }
    return undefined;
  });
  const roe = doc.citations.find((c) => c.text === '347 U.S. 483');
  assert.ok(roe, JSON.stringify(doc.citations));
  assert.equal(roe.status, 'cannot-verify');
  assert.ok(roe.findings.some((f) => f.kind === 'cannot-verify' && f.severity === 'info'), JSON.stringify(roe.findings));
  assert.ok(!roe.findings.some((f) => f.kind === 'fabricated-case'), 'a real case is never called fabricated');
  // Only with the token does the server try CourtListener (without one it says "no token"), so
  // "unreachable" also shows the token travelled through workspace/configuration.
  assert.equal(courtListenerReach(doc), 'unreachable', JSON.stringify(roe.findings));
});

test('"Ignore" quick fix: VS Code runs the command through the extension, the server drops the finding', { skip, timeout: 60_000 }, async () => {
  const uri = push.uri('ignore-me.txt');
  const text = 'See 😀 Smith v. Jones, 999 Cal. Rptr. 4th 1 (2020).\n';
  await push.open(uri, text);
  const diagnostics = () => push.published.filter((p) => p.uri === uri).at(-1)?.diagnostics;
  const diag = await push.waitFor('the impossible citation to ignore', () => diagnostics()?.find((d) => d.code === 'impossible-citation'));
  const actions = (await push.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: diag.range,
    context: { diagnostics: [diag], only: ['quickfix'] },
  })) as { title: string; command?: { command: string; arguments?: unknown[] } }[];
  const ignore = actions.find((a) => a.command?.command === SERVER_COMMANDS.ignore);
  assert.ok(ignore?.command, `an ignore action among ${JSON.stringify(actions.map((a) => a.title))}`);
  // VS Code executes the action's command by id; the extension registered that id (commands.ts).
  fake.reset();
  const disposables = registerCommands({
    isRunning: () => true,
    executeServerCommand: (command, args) => push.conn.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }),
    restartServer: async () => undefined,
    setToken: async () => false,
    hasToken: () => false,
    isChecked: () => true,
  });
  try {
    const handler = fake.commands.get(ignore.command.command);
    assert.ok(handler, 'the extension handles the code action command');
    await handler(...(ignore.command.arguments ?? []));
    assert.deepEqual(fake.messages.filter((m) => m.level === 'error'), []);
    await push.waitFor('diagnostics republished without the ignored finding', () =>
      diagnostics()?.some((d) => d.code === 'impossible-citation') === false ? true : undefined,
    );
  } finally {
    for (const d of disposables) d.dispose();
  }
});
