/**
 * The extension's commands. Check document, Show report, Clear cache and Ignore have the same ids as
 * the server's `workspace/executeCommand` commands (server/citecheck/lsp/features/commands.py): the
 * extension registers them (see CitecheckLanguageClient in server.ts), fills in the active document,
 * forwards them and shows the result. Restart and the token act on the client. Results are shown,
 * never interpreted: the server makes the report, this module only picks how to display it.
 */
import { tokenProblem } from './token';
import * as api from './vscodeapi';

/** Command ids contributed in package.json. */
export const COMMANDS = {
  checkDocument: 'citecheck.checkDocument',
  showReport: 'citecheck.showReport',
  restartServer: 'citecheck.restartServer',
  clearCache: 'citecheck.clearCache',
  setToken: 'citecheck.setCourtListenerToken',
  revealCitation: 'citecheck.revealCitation',
} as const;

/** Command ids the server handles (server/citecheck/lsp/features/commands.py). */
export const SERVER_COMMANDS = {
  checkDocument: 'citecheck.checkDocument',
  showReport: 'citecheck.showReport',
  clearCache: 'citecheck.clearCache',
  /** Sent by the server's "ignore" code actions with their own arguments. */
  ignore: 'citecheck.ignore',
} as const;

export interface CommandDeps {
  isRunning(): boolean;
  executeServerCommand(command: string, args: unknown[]): Promise<unknown>;
  restartServer(): Promise<void>;
  setToken(value: string | undefined): Promise<boolean>;
  hasToken(): boolean;
  /** Documents the server checks (matches the document selector). */
  isChecked(doc: { uri: { scheme: string; toString(): string }; languageId: string }): boolean;
}

export type ReportView =
  | { kind: 'html'; html: string; title: string }
  | { kind: 'text'; content: string; language: string; title: string }
  | { kind: 'none'; message: string };

/** Decide how to show what the server's report command returned. */
export function reportView(result: unknown, title = 'citecheck report'): ReportView {
  if (typeof result === 'string') {
    if (result.trim() === '') return { kind: 'none', message: 'The server returned an empty report.' };
    return looksLikeHtml(result)
      ? { kind: 'html', html: result, title }
      : { kind: 'text', content: result, language: 'markdown', title };
  }
  if (result && typeof result === 'object') {
    const r = result as Record<string, unknown>;
    const format = typeof r.format === 'string' ? r.format.toLowerCase() : undefined;
    const body = [r.html, r.content, r.report, r.text, r.markdown].find((v): v is string => typeof v === 'string');
    if (typeof r.html === 'string' || (format === 'html' && body !== undefined)) {
      return { kind: 'html', html: (r.html as string | undefined) ?? (body as string), title };
    }
    if (body !== undefined) {
      const language = format === 'json' ? 'json' : format === 'text' ? 'plaintext' : 'markdown';
      return { kind: 'text', content: body, language, title };
    }
    return { kind: 'text', content: JSON.stringify(result, null, 2), language: 'json', title };
  }
  return { kind: 'none', message: 'The server returned no report.' };
}

/** One line about a finished check: `{citations, findings: [{severity}]}` from the server. */
export function checkSummary(result: unknown): string {
  const r = (result ?? {}) as { citations?: unknown; findings?: unknown; checked?: unknown };
  if (r.checked === false) return 'the document changed during the check; it will be checked again.';
  const n = typeof r.citations === 'number' ? r.citations : undefined;
  const findings = Array.isArray(r.findings) ? (r.findings as { severity?: unknown }[]) : [];
  const by = (s: string) => findings.filter((f) => f?.severity === s).length;
  const cites = n === undefined ? 'checked' : `checked ${n} citation${n === 1 ? '' : 's'}`;
  if (findings.length === 0) return `${cites}: no findings.`;
  return `${cites}: ${by('error')} error(s), ${by('warning')} warning(s), ${by('info')} not verified / info.`;
}

function looksLikeHtml(s: string): boolean {
  return /^\s*(<!doctype html|<html[\s>])/i.test(s);
}

/** Register every command; returns the disposables. */
export function registerCommands(deps: CommandDeps): api.Disposable[] {
  const activeChecked = (): { uri: string; version: number } | undefined => {
    const doc = api.activeDocument();
    if (!doc) {
      void api.showInformationMessage('citecheck: open a document to check first.');
      return undefined;
    }
    if (!deps.isChecked(doc)) {
      void api.showInformationMessage(
        `citecheck does not check ${doc.languageId} documents. Add "${doc.languageId}" to citecheck.languages to check them.`,
        'Open settings',
      ).then((choice) => (choice ? api.openSettings('citecheck.languages') : undefined));
      return undefined;
    }
    return { uri: doc.uri.toString(), version: doc.version };
  };

  const onServer = async (what: string, command: string, args: unknown[]): Promise<unknown> => {
    if (!deps.isRunning()) {
      const choice = await api.showErrorMessage(`citecheck: cannot ${what}: the server is not running.`, 'Restart server');
      if (choice) await deps.restartServer();
      return undefined;
    }
    try {
      const result = await deps.executeServerCommand(command, args);
      const error = (result as { error?: unknown } | null)?.error;
      if (typeof error === 'string') {
        void api.showErrorMessage(`citecheck: cannot ${what}: ${error}`);
        return undefined;
      }
      return result ?? null;
    } catch (err) {
      void api.showErrorMessage(`citecheck: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  };

  return [
    api.registerCommand(COMMANDS.checkDocument, async () => {
      const doc = activeChecked();
      if (!doc) return;
      const result = await onServer('check the document', SERVER_COMMANDS.checkDocument, [{ uri: doc.uri }]);
      if (result) void api.showInformationMessage(`citecheck: ${checkSummary(result)}`);
    }),
    api.registerCommand(COMMANDS.showReport, async () => {
      const doc = activeChecked();
      if (!doc) return;
      const result = await onServer('make the report', SERVER_COMMANDS.showReport, [{ uri: doc.uri, format: 'html' }]);
      if (result === undefined) return;
      const view = reportView(result, `citecheck report: ${doc.uri.split('/').pop() ?? doc.uri}`);
      if (view.kind === 'html') api.showHtml(view.title, view.html);
      else if (view.kind === 'text') await api.openUntitled(view.content, view.language);
      else void api.showInformationMessage(`citecheck: ${view.message}`);
    }),
    api.registerCommand(COMMANDS.clearCache, async () => {
      const result = await onServer('clear the cache', SERVER_COMMANDS.clearCache, []);
      if (result === undefined) return;
      const cleared = typeof result === 'object' && result !== null && 'cleared' in result ? result.cleared : undefined;
      void api.showInformationMessage(
        cleared === false
          ? 'citecheck: there is no lookup cache to clear.'
          : 'citecheck: cache cleared; open documents are being re-checked.',
      );
    }),
    // Code actions carry their own arguments; pass them through unchanged.
    api.registerCommand(SERVER_COMMANDS.ignore, (...args: unknown[]) => onServer('ignore the finding', SERVER_COMMANDS.ignore, args)),
    api.registerCommand(COMMANDS.restartServer, () => deps.restartServer()),
    api.registerCommand(COMMANDS.setToken, async () => {
      const value = await api.showInputBox({
        title: 'CourtListener API token',
        prompt: deps.hasToken()
          ? 'A token is stored. Enter a new one, or leave empty and press Enter to remove it.'
          : 'Paste your token from https://www.courtlistener.com/profile/api/ (stored in the OS keychain, not in settings).',
        password: true,
        ignoreFocusOut: true,
        validateInput: (v: string) => tokenProblem(v),
      });
      if (value === undefined) return; // cancelled
      const stored = await deps.setToken(value);
      void api.showInformationMessage(stored ? 'citecheck: CourtListener token saved.' : 'citecheck: CourtListener token removed.');
    }),
    api.registerCommand(COMMANDS.revealCitation, (uri: string, range: api.LspRange) => api.revealRange(uri, range)),
  ];
}

/**
 * Forwarders for server commands this extension does not know (a newer server), so code actions
 * that use them still work. Returns the disposables; call again after each server start.
 */
export function registerForwarders(serverCommands: readonly string[], deps: Pick<CommandDeps, 'executeServerCommand'>): api.Disposable[] {
  const known = new Set<string>([...Object.values(COMMANDS), ...Object.values(SERVER_COMMANDS)]);
  return serverCommands
    .filter((id) => !known.has(id))
    .map((id) => api.registerCommand(id, (...args: unknown[]) => deps.executeServerCommand(id, args)));
}
