/**
 * Entry point: wires settings, the server, the status bar, the Citations tree and the commands
 * together. No logic lives here; each piece is in its own module.
 */
import * as os from 'node:os';
import type * as vscode from 'vscode';

import { courtListenerReach, parseCitations, unverifiedCount } from './citations';
import { CitationsProvider, VIEW_ID } from './citationsView';
import { registerCommands, registerForwarders } from './commands';
import { followedUri } from './follow';
import { hostEnv, resolveServerCommand, ServerNotFound } from './launch';
import { CitecheckServer } from './server';
import { folderSettings, needsRestart, readClientSettings, SECTION, serverSettings } from './settings';
import { STALE_CHECK_MS } from './status';
import { StatusBar } from './statusBar';
import { TokenStore } from './token';
import { VISIBLE_RANGES_NOTIFICATION, VisibleRangesReporter, visibleRangesParams } from './visibleRanges';
import * as api from './vscodeapi';

let server: CitecheckServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = api.createLogOutputChannel('citecheck');
  const tokens = new TokenStore(context.secrets, context.globalState);
  // Not awaited here: the server is spawned meanwhile, and only its `initialize` (which carries the
  // token) waits for this round trip to the workbench — and only when this profile last saw a token
  // (globalState says so without a round trip; issue 40, the first squiggle).
  const waitForToken = tokens.lastSawToken;
  const tokenRead = tokens.load().then(
    () => undefined,
    (err: unknown) => output.warn(`could not read the CourtListener token from secret storage: ${err instanceof Error ? err.message : String(err)}`),
  );
  const status = new StatusBar();
  const tree = new CitationsProvider((uri) => api.findOpenDocument(uri)?.getText());
  let languages = readClientSettings(api.getConfiguration(SECTION)).languages;
  let citationsSeen = false;
  let forwarders: api.Disposable[] = [];
  let staleTimer: NodeJS.Timeout | undefined;
  context.subscriptions.push({
    dispose: () => {
      for (const d of forwarders) d.dispose();
      clearTimeout(staleTimer);
    },
  });

  // What the user sees goes to the server, so CourtListener lookups for citations on screen go first.
  const view = new VisibleRangesReporter(
    () => visibleRangesParams(api.visibleTextEditors(), languages),
    (params) => srv.notify(VISIBLE_RANGES_NOTIFICATION, params),
  );
  context.subscriptions.push(view);

  const pathContext = () => ({ workspaceFolder: api.workspaceFolderPath(), home: os.homedir() });
  const setActive = (editor: vscode.TextEditor | undefined) => {
    const seen = editor
      ? { uri: editor.document.uri.toString(), scheme: editor.document.uri.scheme, languageId: editor.document.languageId }
      : undefined;
    const uri = followedUri(tree.active, seen, languages, (u) => api.findOpenDocument(u) !== undefined);
    status.model.setActive(uri);
    tree.setActive(uri);
    status.render();
  };

  const srv = new CitecheckServer(
    {
      settings: (scopeUri) =>
        serverSettings(api.getConfiguration(SECTION, scopeUri ? api.parseUri(scopeUri) : undefined), tokens.value, pathContext()),
      folderSettings: (scopeUri) =>
        folderSettings(api.getConfiguration(SECTION, scopeUri ? api.parseUri(scopeUri) : undefined), pathContext()),
      onState: (state, detail) => {
        status.model.setServer(state, detail);
        status.render();
        for (const d of forwarders) d.dispose();
        forwarders =
          state === 'running'
            ? registerForwarders(srv.serverCommands(), { executeServerCommand: (c, a) => srv.executeCommand(c, a) })
            : [];
        if (state === 'running') view.flush();
      },
      onFailed: (message) => {
        void api.showErrorMessage(message, 'Open settings', 'Restart server').then((choice) => {
          if (choice === 'Open settings') void api.openSettings('citecheck');
          else if (choice === 'Restart server') void restart();
        });
      },
      onCitations: (payload) => {
        const parsed = parseCitations(payload);
        if ('error' in parsed) {
          output.appendLine(`ignored a citecheck/citations notification: ${parsed.error}`);
          return;
        }
        citationsSeen = true;
        const doc = parsed.ok;
        tree.update(doc);
        const reach = courtListenerReach(doc);
        if (reach !== 'unknown') status.model.setCourtListener(reach);
        status.model.setUnverified(doc.uri, unverifiedCount(doc));
        status.model.checked(doc.uri, doc.version);
        status.render();
      },
      onDocumentSent: (uri, version) => {
        status.model.checking(uri, version);
        status.render();
        // A check that never reports back (document too large, server busy) stops showing as
        // "checking…" after STALE_CHECK_MS; render again then.
        clearTimeout(staleTimer);
        staleTimer = setTimeout(() => status.render(), STALE_CHECK_MS + 100);
      },
    },
    output,
  );
  server = srv;

  const start = async () => {
    const clientSettings = readClientSettings(api.getConfiguration(SECTION), pathContext());
    languages = clientSettings.languages;
    try {
      await srv.start(resolveServerCommand(clientSettings, hostEnv()), languages, waitForToken ? tokenRead : undefined);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      status.model.setServer('failed', message);
      status.render();
      const setting = err instanceof ServerNotFound ? err.setting : 'citecheck.server.path';
      const choice = await api.showErrorMessage(`citecheck: ${message}`, 'Open settings');
      if (choice) await api.openSettings(setting);
    }
  };
  const restart = async () => {
    srv.restartPolicy.reset();
    tree.clear();
    await start();
  };

  context.subscriptions.push(
    output,
    status,
    tree,
    api.createTreeView(VIEW_ID, tree),
    ...registerCommands({
      isRunning: () => srv.isRunning,
      executeServerCommand: (command, args) => srv.executeCommand(command, args),
      restartServer: restart,
      // secrets.onDidChange (below) tells the server, for this window and any other.
      setToken: (value) => tokens.set(value),
      hasToken: () => tokens.value !== undefined,
      isChecked: (doc) => languages.includes(doc.languageId) && ['file', 'untitled'].includes(doc.uri.scheme),
    }),
    api.onDidChangeActiveTextEditor(setActive),
    api.onDidChangeVisibleTextEditors(() => view.changed()),
    api.onDidChangeTextEditorVisibleRanges(() => view.changed()),
    api.onDidCloseTextDocument((doc) => {
      status.model.forget(doc.uri.toString());
      tree.forget(doc.uri.toString());
      status.render();
    }),
    api.onDidChangeDiagnostics((e) => {
      // Without the citations notification, a diagnostics update is the only "check finished" signal.
      if (!citationsSeen) for (const uri of e.uris) status.model.checked(uri.toString());
      status.refreshCounts(e.uris);
    }),
    api.onDidChangeConfiguration((e) => {
      if (needsRestart((key) => e.affectsConfiguration(key))) void restart();
    }),
    context.secrets.onDidChange((e) => {
      // the token travels only in the launch options: a new one needs a new server
      if (e.key === 'citecheck.courtlistenerToken') void tokens.load().then(() => restart());
    }),
  );
  setActive(api.activeEditor());
  const started = start();
  if (!waitForToken) {
    // This profile last saw no token (or never read one: a new profile), yet the read found one (stored
    // by an older version or another window, or the hint was lost): the server gets it as any new
    // token reaches it, by a restart.
    void Promise.all([tokenRead, started]).then(() => (tokens.value !== undefined ? restart() : undefined));
  }
  await started;
}

export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}
