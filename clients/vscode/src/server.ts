/**
 * Starts and supervises `citecheck-lsp --stdio` through vscode-languageclient.
 *
 * It owns the LanguageClient's lifetime: start, stop, restart (manual, after a settings change, or
 * after a crash with back-off from `RestartPolicy`), and it answers the server's
 * `workspace/configuration` request for section `citecheck` with `workspaceSettings`; the user-only
 * settings and the CourtListener token (from secret storage, never written to settings.json) go only in
 * the launch options (`initializationOptions`), which the server treats as the user's own.
 * Everything the user sees (notifications, status bar, tree) is reached through `ServerHooks`.
 */
import type * as vscode from 'vscode';
import {
  type BaseLanguageClient,
  type ClientCapabilities,
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  type MessageTransports,
  RevealOutputChannelOn,
  type ServerOptions,
  State,
  type StaticFeature,
} from 'vscode-languageclient/node';

import { CITATIONS_NOTIFICATION } from './citations';
import type { ServerCommand } from './launch';
import { RestartPolicy } from './restart';
import { documentSelector, SECTION, type ServerSettings, workspaceSettings } from './settings';
import type { ServerState } from './status';

export interface ServerHooks {
  /** The user's settings for `citecheck` (scopeUri when the server names one), token included: the
   * launch options; `workspace/configuration` answers get them without the user-only keys. */
  settings(scopeUri?: string): ServerSettings;
  /** The answer to `workspace/configuration` (the folder's layer: the workspace's values, no user-only key,
   * no token); without it, `settings` less the user-only keys. */
  folderSettings?(scopeUri?: string): ServerSettings;
  onState(state: ServerState, detail?: string): void;
  /** The server stopped for good (start-up failure, or too many crashes). */
  onFailed(message: string): void;
  onCitations(payload: unknown): void;
  /** A document was sent to the server (opened or changed): a check is under way. */
  onDocumentSent(uri: string, version: number): void;
}

/**
 * A LanguageClient that leaves `workspace/executeCommand` to the extension. The server's command ids
 * (citecheck.checkDocument, …) are also the extension's palette commands; registering them in
 * commands.ts, rather than letting the client register them when the server starts, keeps them
 * available (with a "server is not running" answer) while the server is down, and lets them fill in
 * the active document and show results.
 */
class CitecheckLanguageClient extends LanguageClient {
  constructor(
    id: string,
    name: string,
    serverOptions: ServerOptions,
    clientOptions: LanguageClientOptions,
    private readonly launchOptionsReady: PromiseLike<unknown>,
  ) {
    super(id, name, serverOptions, clientOptions);
    this.registerFeature(movesDiagnosticsFeature);
  }

  /**
   * The server process is started first, then `initialize` waits for `launchOptionsReady` (the
   * CourtListener token read from SecretStorage, a round trip to the workbench): the process imports
   * its modules meanwhile instead of after it (issue 40, the first squiggle).
   */
  protected override async createMessageTransports(encoding: string): Promise<MessageTransports> {
    const transports = await super.createMessageTransports(encoding);
    await this.launchOptionsReady;
    return transports;
  }

  override registerFeature(feature: Parameters<BaseLanguageClient['registerFeature']>[0]): void {
    const method = (feature as { registrationType?: { method?: string } }).registrationType?.method;
    if (method === ExecuteCommandRequest.method) return;
    super.registerFeature(feature);
  }
}

/**
 * Tells the server that VS Code moves the diagnostics it shows through the user's edits itself (its
 * markers are tracked decorations), as `experimental.citecheck.movesDiagnostics`: the server then
 * does not publish every diagnostic of a long brief again on each keystroke just to move them
 * (docs/editors.md). Other capabilities in `experimental` are kept.
 */
export const movesDiagnosticsFeature: StaticFeature = {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const experimental = (capabilities.experimental ?? {}) as Record<string, unknown>;
    const ours = experimental.citecheck;
    const kept = ours !== null && typeof ours === 'object' && !Array.isArray(ours) ? ours : {};
    capabilities.experimental = { ...experimental, citecheck: { ...kept, movesDiagnostics: true } };
  },
  initialize(): void {},
  getState: () => ({ kind: 'static' }),
  clear(): void {},
};

/** The part of LanguageClient this module uses (tests substitute a fake). */
export type Client = Pick<
  LanguageClient,
  'state' | 'onDidChangeState' | 'onNotification' | 'start' | 'stop' | 'sendNotification' | 'sendRequest' | 'initializeResult'
>;
/** `launchOptionsReady`: what `initialize` waits for once the process is started (see `start`). */
export type ClientFactory = (
  serverOptions: ServerOptions,
  clientOptions: LanguageClientOptions,
  launchOptionsReady: PromiseLike<unknown>,
) => Client;

const createClient: ClientFactory = (serverOptions, clientOptions, launchOptionsReady) =>
  new CitecheckLanguageClient('citecheck', 'citecheck', serverOptions, clientOptions, launchOptionsReady);

export class CitecheckServer {
  private lastSentSettings: string | undefined;
  private client: Client | undefined;
  private reachedRunning = false;
  private stopping = false;
  /** The user was already told this start failed (the close handler and start() can both see it). */
  private failureShown = false;
  readonly restartPolicy: RestartPolicy;

  constructor(
    private readonly hooks: ServerHooks,
    private readonly outputChannel: vscode.LogOutputChannel,
    restartPolicy?: RestartPolicy,
    private readonly factory: ClientFactory = createClient,
  ) {
    this.restartPolicy = restartPolicy ?? new RestartPolicy();
  }

  get isRunning(): boolean {
    return this.client?.state === State.Running;
  }

  /**
   * Start the server. `launchOptionsReady` (default: nothing to wait for) is what `hooks.settings()`
   * needs before it is read for `initialize`, e.g. the token's read from secret storage: the process
   * is spawned without waiting for it, and the launch options are computed only after it settles.
   */
  async start(command: ServerCommand, languages: readonly string[], launchOptionsReady: PromiseLike<unknown> = Promise.resolve()): Promise<void> {
    await this.stop();
    this.stopping = false;
    this.reachedRunning = false;
    this.failureShown = false;
    const exe = { command: command.command, args: command.args };
    const serverOptions: ServerOptions = { run: exe, debug: exe };
    this.lastSentSettings = undefined;
    const client = this.factory(serverOptions, this.clientOptions(languages), launchOptionsReady);
    this.client = client;
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.reachedRunning = true;
        this.hooks.onState('running');
      } else if (e.newState === State.Starting) {
        this.hooks.onState('starting');
      }
    });
    client.onNotification(CITATIONS_NOTIFICATION, (payload: unknown) => this.hooks.onCitations(payload));
    this.hooks.onState('starting');
    try {
      await client.start();
    } catch (err) {
      if (this.client === client) this.client = undefined;
      if (this.failureShown) return;
      this.failureShown = true;
      const why = err instanceof Error ? err.message : String(err);
      this.hooks.onState('failed', why);
      this.hooks.onFailed(
        `citecheck could not start its server (${command.command} ${command.args.join(' ')}, from ${command.origin}): ${why}`,
      );
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    this.stopping = true;
    try {
      if (client.state !== State.Stopped) await client.stop(2000);
    } catch {
      // a server that is already gone cannot be stopped; nothing left to clean up
    }
    this.hooks.onState('stopped');
  }

  /**
   * Send the current settings with `workspace/didChangeConfiguration` (the server applies them without
   * a restart). Skipped when nothing the server reads changed: VS Code reports every settings change,
   * and both our registration and the server's dynamic one would otherwise send each change twice.
   */
  async notifyConfigurationChanged(): Promise<void> {
    const client = this.client;
    if (!client || client.state !== State.Running) return;
    const settings = this.folderSettings();
    const key = JSON.stringify(settings);
    if (key === this.lastSentSettings) return;
    this.lastSentSettings = key;
    await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: settings } });
  }

  private folderSettings(scopeUri?: string): ServerSettings {
    const hooks = this.hooks;
    return hooks.folderSettings ? hooks.folderSettings(scopeUri) : workspaceSettings(hooks.settings(scopeUri));
  }

  /** Run a server command (`workspace/executeCommand`); throws when the server is not running. */
  async executeCommand(command: string, args: unknown[]): Promise<unknown> {
    if (!this.isRunning || !this.client) throw new Error('the citecheck server is not running');
    // No arguments are sent as none at all, which every server accepts (pygls rejects an empty list
    // for handlers that take only *args).
    return this.client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args.length > 0 ? args : undefined });
  }

  /**
   * Send one of citecheck's own notifications (`citecheck/visibleRanges`). False when no server is
   * running to receive it (the caller sends it again after the next start).
   */
  notify(method: string, params: object): Promise<void> | false {
    const client = this.client;
    if (!client || client.state !== State.Running) return false;
    return client.sendNotification(method, params);
  }

  /** Commands the running server advertised in `executeCommandProvider`. */
  serverCommands(): string[] {
    return [...(this.client?.initializeResult?.capabilities.executeCommandProvider?.commands ?? [])];
  }

  private clientOptions(languages: readonly string[]): LanguageClientOptions {
    const hooks = this.hooks;
    return {
      documentSelector: documentSelector(languages),
      outputChannel: this.outputChannel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      // read when `initialize` is sent, after the launch options are ready (see `start`)
      initializationOptions: () => hooks.settings(),
      // Changes to `citecheck.*` reach the server as one didChangeConfiguration carrying our mapping.
      synchronize: { configurationSection: SECTION },
      diagnosticPullOptions: { onChange: true, onSave: true },
      errorHandler: {
        error: (_error, _message, count) => ({
          action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        }),
        closed: () => this.onClosed(),
      },
      middleware: {
        didOpen: (doc, next) => {
          hooks.onDocumentSent(doc.uri.toString(), doc.version);
          return next(doc);
        },
        didChange: (event, next) => {
          hooks.onDocumentSent(event.document.uri.toString(), event.document.version);
          return next(event);
        },
        workspace: {
          configuration: async (params, token, next) => {
            const answer = await next(params, token);
            const values: unknown[] = Array.isArray(answer) ? (answer as unknown[]) : params.items.map(() => null);
            return params.items.map((item, i) => {
              if (item.section !== SECTION) return values[i];
              const settings = this.folderSettings(item.scopeUri);
              if (item.scopeUri === undefined) this.lastSentSettings = JSON.stringify(settings);
              return settings;
            });
          },
          didChangeConfiguration: () => this.notifyConfigurationChanged(),
        },
      },
    };
  }

  private async onClosed(): Promise<{ action: CloseAction; message?: string; handled?: boolean }> {
    if (this.stopping) return { action: CloseAction.DoNotRestart, handled: true };
    if (!this.reachedRunning) {
      const message =
        'The citecheck server exited while starting. Check that citecheck-legal is installed for the ' +
        'configured Python (citecheck.python) or that citecheck.server.path points to citecheck-lsp; ' +
        'details are in Output › citecheck.';
      if (!this.failureShown) {
        this.failureShown = true;
        this.hooks.onState('failed', 'exited while starting');
        this.hooks.onFailed(message);
      }
      return { action: CloseAction.DoNotRestart, message, handled: true };
    }
    this.reachedRunning = false;
    const decision = this.restartPolicy.onCrash();
    if (!decision.restart) {
      const message = `The citecheck server crashed ${decision.crashes} times in a few minutes and was not restarted; details are in Output › citecheck.`;
      this.hooks.onState('failed', 'crashed repeatedly');
      this.hooks.onFailed(message);
      return { action: CloseAction.DoNotRestart, message, handled: true };
    }
    this.hooks.onState('starting', `restarting after a crash in ${Math.round(decision.delayMs / 1000)} s`);
    this.outputChannel.appendLine(`citecheck server exited; restarting in ${decision.delayMs} ms (crash ${decision.crashes}).`);
    await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
    return { action: CloseAction.Restart, handled: true };
  }
}
