/**
 * Reads the extension's configuration and maps it to what the Python server accepts.
 *
 * Pure: it takes a `Configuration` (VS Code's `WorkspaceConfiguration` fits) and returns plain
 * objects, so it is unit-tested without VS Code. `serverSettings` builds the server's launch options
 * (`initializationOptions`) with the camelCase keys `citecheck.config` understands, sends only what the
 * user set (VS Code reports package.json defaults as values too; sending those would override the
 * server's own configuration — the user's citecheck.toml, CITECHECK_* variables), and adds the
 * CourtListener token from secret storage.
 *
 * Who may set what (docs/settings.md): the server takes the settings that choose a host or a file
 * (`USER_ONLY_KEYS`) and the token only from its launch options, which are the user's own; so they are
 * read here from the *user* settings alone (`globalValue`), never from `.vscode/settings.json` of the
 * folder being checked, and `workspaceSettings` (the answer to `workspace/configuration`, which the
 * server treats as the folder's) leaves them out. Changing one restarts the server.
 *
 * The settings that decide whether anything leaves the machine (`STRICTER_KEYS`: `offline`, `capFetch`)
 * go in the launch options from the user settings alone too, and in the
 * `workspace/configuration` answer as the workspace has them (`folderSettings`): the server takes the
 * folder's value only where it sends less (`offline` on, `capFetch` off), so `.vscode/settings.json` can
 * make them stricter, never undo what the user turned off.
 */

/** The part of `vscode.WorkspaceConfiguration` this module needs. */
export interface Configuration {
  get<T>(key: string): T | undefined;
  /** Where a value comes from; without it every value counts as set by the user. */
  inspect?<T>(key: string): InspectedValue<T> | undefined;
}

export interface InspectedValue<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
  globalLanguageValue?: T;
  workspaceLanguageValue?: T;
  workspaceFolderLanguageValue?: T;
}

export const SECTION = 'citecheck';
export const DEFAULT_LANGUAGES: readonly string[] = ['plaintext', 'markdown'];

/** Settings the extension itself uses (starting the server, choosing documents). */
export interface ClientSettings {
  serverPath: string | undefined;
  python: string | undefined;
  languages: string[];
}

/** The `citecheck` section as the server receives it (keys: citecheck/config.py `_ALIASES`). */
export interface ServerSettings {
  corpusPath?: string;
  cachePath?: string;
  courtlistenerUrl?: string;
  courtlistenerToken?: string;
  capFetch?: boolean;
  capUrl?: string;
  offline?: boolean;
  httpTimeout?: number;
  enabledKinds?: string[];
  severityOverrides?: Record<string, string>;
  languages?: string[];
  maxDocumentChars?: number;
  debounceMs?: number;
  modelUrl?: string;
  modelName?: string;
  cannotVerifyDiagnostics?: string;
  court?: string;
  question?: string;
}

/**
 * VS Code setting (under `citecheck.`) → server key. Every setting the server reads is listed
 * here once; package.json contributes the same keys (a test checks they agree).
 */
export const SERVER_SETTING_KEYS = {
  corpusPath: 'corpusPath',
  cachePath: 'cachePath',
  courtlistenerUrl: 'courtlistenerUrl',
  capFetch: 'capFetch',
  capUrl: 'capUrl',
  offline: 'offline',
  httpTimeout: 'httpTimeout',
  enabledKinds: 'enabledKinds',
  /** The former name of enabledKinds, read when it is unset. */
  enabledChecks: 'enabledKinds',
  severityOverrides: 'severityOverrides',
  languages: 'languages',
  sizeLimit: 'maxDocumentChars',
  debounceMs: 'debounceMs',
  modelUrl: 'modelUrl',
  modelName: 'modelName',
  cannotVerifyDiagnostics: 'cannotVerifyDiagnostics',
  court: 'court',
  question: 'question',
} as const satisfies Record<string, keyof ServerSettings>;

/**
 * Settings that choose where the draft, the citations or a key go, or which file is read as evidence:
 * from the user's own settings only (server: `config.Who.USER`).
 */
export const USER_ONLY_KEYS = ['corpusPath', 'cachePath', 'courtlistenerUrl', 'capUrl', 'modelUrl'] as const;

/**
 * Settings that decide whether something leaves the machine: a folder may make them stricter, never looser
 * (server: `config.Who.STRICTER`); the launch options carry the user's own value alone.
 */
export const STRICTER_KEYS = ['offline', 'capFetch'] as const;

/** Settings only the client reads. */
export const CLIENT_SETTING_KEYS = ['server.path', 'python', 'languages', 'trace.server'] as const;

export const SEVERITIES: readonly string[] = ['error', 'warning', 'info'];
/** How "could not be verified" shows in the editor (server: settings.cannot_verify_diagnostics). */
export const CANNOT_VERIFY_DISPLAY: readonly string[] = ['hint', 'information', 'none'];

export interface PathContext {
  /** Replaces `${workspaceFolder}`; undefined when no folder is open. */
  workspaceFolder?: string;
  /** Replaces a leading `~`. */
  home?: string;
}

export function readClientSettings(cfg: Configuration, ctx: PathContext = {}): ClientSettings {
  return {
    serverPath: optionalPath(cfg.get<string>('server.path'), ctx),
    python: optionalPath(cfg.get<string>('python'), ctx),
    languages: languagesOf(cfg.get<unknown>('languages')),
  };
}

/** The server's launch options (`initializationOptions`): the user's settings, the token included. */
export function serverSettings(config: Configuration, token: string | undefined, ctx: PathContext = {}): ServerSettings {
  const fromUser = [...USER_ONLY_KEYS, ...STRICTER_KEYS] as readonly string[];
  return readSettings(
    { get: <T>(key: string) => (fromUser.includes(key) ? globalValue<T>(config, key) : userValue<T>(config, key)) },
    config,
    token,
    ctx,
  );
}

/**
 * The answer to `workspace/configuration` (the server's folder layer): every setting as the workspace has
 * it (so it may make `offline` and `capFetch` stricter: the server checks the direction), without
 * the user-only keys and the token.
 */
export function folderSettings(config: Configuration, ctx: PathContext = {}): ServerSettings {
  return workspaceSettings(readSettings({ get: <T>(key: string) => userValue<T>(config, key) }, config, undefined, ctx));
}

function readSettings(cfg: Configuration, config: Configuration, token: string | undefined, ctx: PathContext): ServerSettings {
  const out: ServerSettings = {};
  const corpusPath = optionalPath(cfg.get<string>('corpusPath'), ctx);
  if (corpusPath) out.corpusPath = corpusPath;
  const cachePath = optionalPath(cfg.get<string>('cachePath'), ctx);
  if (cachePath) out.cachePath = cachePath;
  const url = trimmed(cfg.get<string>('courtlistenerUrl'));
  if (url) out.courtlistenerUrl = url;
  for (const key of ['capUrl', 'modelUrl', 'modelName', 'court'] as const) {
    const value = trimmed(cfg.get<string>(key));
    if (value) out[key] = value;
  }
  const display = cfg.get<unknown>('cannotVerifyDiagnostics');
  if (typeof display === 'string' && CANNOT_VERIFY_DISPLAY.includes(display)) out.cannotVerifyDiagnostics = display;
  const question = trimmed(cfg.get<string>('question'))?.toLowerCase();
  if (question === 'federal' || question === 'state') out.question = question;
  const timeout = cfg.get<unknown>('httpTimeout');
  if (typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0) out.httpTimeout = timeout;
  const capFetch = cfg.get<unknown>('capFetch');
  if (typeof capFetch === 'boolean') out.capFetch = capFetch;
  const offline = cfg.get<unknown>('offline');
  if (typeof offline === 'boolean') out.offline = offline;
  const kinds = cfg.get<unknown>('enabledKinds') ?? cfg.get<unknown>('enabledChecks');
  // Unset or empty means "all kinds": an empty list silencing everything is never what was meant.
  if (Array.isArray(kinds) && kinds.length > 0) {
    out.enabledKinds = kinds.filter((c): c is string => typeof c === 'string' && c.trim() !== '');
  }
  const overrides = cfg.get<unknown>('severityOverrides');
  if (overrides && typeof overrides === 'object' && !Array.isArray(overrides)) {
    const entries = Object.entries(overrides as Record<string, unknown>).filter(
      ([, v]) => typeof v === 'string' && SEVERITIES.includes(v.toLowerCase()),
    );
    if (entries.length > 0) {
      out.severityOverrides = Object.fromEntries(entries.map(([k, v]) => [k, (v as string).toLowerCase()]));
    }
  }
  // Always sent: the server must check the same languages the client sends it.
  out.languages = languagesOf(config.get<unknown>('languages'));
  const size = positiveInt(cfg.get<unknown>('sizeLimit'));
  if (size !== undefined) out.maxDocumentChars = size;
  const debounce = nonNegativeInt(cfg.get<unknown>('debounceMs'));
  if (debounce !== undefined) out.debounceMs = debounce;
  if (token && token.trim()) out.courtlistenerToken = token.trim();
  return out;
}

/** The answer to `workspace/configuration` (which may be the folder's): without the user-only keys and the token. */
export function workspaceSettings(settings: ServerSettings): ServerSettings {
  const out: ServerSettings = { ...settings };
  for (const key of USER_ONLY_KEYS) delete out[key];
  delete out.courtlistenerToken;
  return out;
}

/** Documents the client sends to the server: each language, saved files and untitled buffers. */
export function documentSelector(languages: readonly string[]): { scheme: string; language: string }[] {
  return languages.flatMap((language) => [
    { scheme: 'file', language },
    { scheme: 'untitled', language },
  ]);
}

/** True when a change to these settings needs a server restart (the rest is re-read live). */
export function needsRestart(affects: (key: string) => boolean): boolean {
  return ['server.path', 'python', 'languages', ...USER_ONLY_KEYS].some((k) => affects(`${SECTION}.${k}`));
}

/** The value in the user's own settings, undefined when only the workspace (or nobody) set it. */
function globalValue<T>(cfg: Configuration, key: string): T | undefined {
  if (!cfg.inspect) return cfg.get<T>(key);
  return cfg.inspect<T>(key)?.globalValue;
}

/** The value when the user (or workspace) set it, undefined when it is only the default. */
function userValue<T>(cfg: Configuration, key: string): T | undefined {
  if (!cfg.inspect) return cfg.get<T>(key);
  const i = cfg.inspect<T>(key);
  const set =
    i !== undefined &&
    [i.globalValue, i.workspaceValue, i.workspaceFolderValue, i.globalLanguageValue, i.workspaceLanguageValue, i.workspaceFolderLanguageValue].some(
      (v) => v !== undefined,
    );
  return set ? cfg.get<T>(key) : undefined;
}

function languagesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [...DEFAULT_LANGUAGES];
  const langs = value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean);
  return langs.length > 0 ? [...new Set(langs)] : [...DEFAULT_LANGUAGES];
}

function trimmed(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function optionalPath(value: unknown, ctx: PathContext): string | undefined {
  let p = trimmed(value);
  if (p === undefined) return undefined;
  if (p.includes('${workspaceFolder}')) {
    if (ctx.workspaceFolder === undefined) return undefined;
    p = p.split('${workspaceFolder}').join(ctx.workspaceFolder);
  }
  if (ctx.home !== undefined && (p === '~' || p.startsWith('~/') || p.startsWith('~\\'))) {
    p = ctx.home + p.slice(1);
  }
  return p;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

function nonNegativeInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}
