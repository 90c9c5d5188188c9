/**
 * A small fake of the `vscode` API: just what src/vscodeapi.ts and the view adapters use.
 * Test bundles alias `vscode` to this file (esbuild.mjs). `fake` lets a test set configuration,
 * the active document and answers to prompts, and see what the extension asked VS Code to do.
 */

type Listener<T> = (e: T) => unknown;

export class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  constructor(private readonly fn: () => void = () => undefined) {}
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  fired: T[] = [];
  event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };
  fire(e: T): void {
    this.fired.push(e);
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    private readonly raw: string,
  ) {}
  static parse(value: string): Uri {
    const m = /^([a-z][a-z0-9+.-]*):(.*)$/i.exec(value);
    if (!m) throw new Error(`bad uri ${value}`);
    return new Uri(m[1], m[2].replace(/^\/\//, ''), value);
  }
  static file(p: string): Uri {
    return new Uri('file', p, `file://${p}`);
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return this.raw;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(sl: number, sc: number, el: number, ec: number) {
    this.start = new Position(sl, sc);
    this.end = new Position(el, ec);
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}
export class ThemeIcon {
  constructor(readonly id: string) {}
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}
export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}
export enum ViewColumn {
  Active = -1,
  Beside = -2,
}
export enum TextEditorRevealType {
  Default = 0,
  InCenter = 1,
  InCenterIfOutsideViewport = 2,
  AtTop = 3,
}
/** vscode-languageclient shows server-initiated `$/progress` with `window.withProgress` in the window area. */
export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class TreeItem {
  description?: string;
  tooltip?: string;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: { title: string; command: string; arguments?: unknown[] };
  constructor(
    readonly label: string,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export interface FakeDocument {
  uri: Uri;
  languageId: string;
  version: number;
  getText(): string;
}

export class FakeStatusBarItem {
  /** Every text the item showed, in order. */
  readonly history: string[] = [];
  private _text = '';
  get text(): string {
    return this._text;
  }
  set text(v: string) {
    if (v !== this._text) this.history.push(v);
    this._text = v;
  }
  tooltip: string | undefined;
  command: string | undefined;
  name: string | undefined;
  backgroundColor: ThemeColor | undefined;
  visible = false;
  disposed = false;
  constructor(
    readonly id: string,
    readonly alignment: StatusBarAlignment,
    readonly priority: number,
  ) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
  }
}

/** Test control and recording. */
export const fake = {
  config: new Map<string, unknown>(),
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code's own type for a command's handler
  commands: new Map<string, (...args: any[]) => unknown>(),
  executed: [] as { id: string; args: unknown[] }[],
  messages: [] as { level: 'error' | 'warning' | 'info'; text: string; actions: string[] }[],
  /** Answer the next prompt (message button or input box) with this, in order. */
  answers: [] as (string | undefined)[],
  inputBoxes: [] as Record<string, unknown>[],
  statusItems: [] as FakeStatusBarItem[],
  webviews: [] as { title: string; html: string; options: unknown }[],
  treeViews: [] as { id: string; treeDataProvider: unknown }[],
  untitled: [] as { content: string; language: string }[],
  shown: [] as { uri: string; selection: Range | undefined }[],
  revealed: [] as Range[],
  activeDocument: undefined as FakeDocument | undefined,
  documents: [] as FakeDocument[],
  diagnostics: new Map<string, { source?: string; severity: number }[]>(),
  onConfig: new EventEmitter<{ affectsConfiguration(key: string): boolean }>(),
  onActiveEditor: new EventEmitter<{ document: FakeDocument } | undefined>(),
  onDiagnostics: new EventEmitter<{ uris: Uri[] }>(),
  onDocChange: new EventEmitter<unknown>(),
  onDocClose: new EventEmitter<FakeDocument>(),
  onDocOpen: new EventEmitter<FakeDocument>(),
  /** Editors shown, with their visible ranges (window.visibleTextEditors). */
  visibleEditors: [] as { document: FakeDocument; visibleRanges: Range[] }[],
  onVisibleEditors: new EventEmitter<unknown>(),
  onVisibleRanges: new EventEmitter<unknown>(),
  reset(): void {
    this.config.clear();
    this.commands.clear();
    this.executed = [];
    this.messages = [];
    this.answers = [];
    this.inputBoxes = [];
    this.statusItems = [];
    this.webviews = [];
    this.treeViews = [];
    this.untitled = [];
    this.shown = [];
    this.revealed = [];
    this.activeDocument = undefined;
    this.documents = [];
    this.visibleEditors = [];
    this.diagnostics.clear();
  },
  document(uri: string, text: string, languageId = 'plaintext', version = 1): FakeDocument {
    const doc = { uri: Uri.parse(uri), languageId, version, getText: () => text };
    this.documents.push(doc);
    return doc;
  },
};

function message(level: 'error' | 'warning' | 'info') {
  return (text: string, ...actions: string[]): Promise<string | undefined> => {
    fake.messages.push({ level, text, actions });
    return Promise.resolve(fake.answers.shift());
  };
}

/**
 * Members vscode-languageclient registers but these tests never exercise (providers, file
 * events, notebooks) answer with a no-op: `register*` and `on*` give a Disposable.
 */
function lenient<T extends object>(target: T): T {
  return new Proxy(target, {
    get(t, key, receiver) {
      if (Reflect.has(t, key)) return Reflect.get(t, key, receiver);
      if (typeof key === 'string' && /^(register|on[A-Z])/.test(key)) return () => new Disposable();
      return undefined;
    },
  });
}

export const workspace = lenient({
  getConfiguration(section: string) {
    return {
      get<T>(key: string, dflt?: T): T | undefined {
        const full = `${section}.${key}`;
        return fake.config.has(full) ? (fake.config.get(full) as T) : dflt;
      },
    };
  },
  onDidChangeConfiguration: fake.onConfig.event,
  onDidChangeTextDocument: fake.onDocChange.event,
  onDidCloseTextDocument: fake.onDocClose.event,
  get workspaceFolders() {
    return undefined;
  },
  get textDocuments() {
    return fake.documents;
  },
  async openTextDocument(arg: Uri | { content: string; language: string }) {
    if (arg instanceof Uri) {
      return fake.documents.find((d) => d.uri.toString() === arg.toString()) ?? fake.document(arg.toString(), '');
    }
    fake.untitled.push(arg);
    return fake.document(`untitled:Untitled-${fake.untitled.length}`, arg.content, arg.language);
  },
  notebookDocuments: [] as unknown[],
  getWorkspaceFolder: () => undefined,
  createFileSystemWatcher: () => ({ onDidCreate: () => new Disposable(), onDidChange: () => new Disposable(), onDidDelete: () => new Disposable(), dispose: () => undefined }),
  onDidOpenTextDocument: fake.onDocOpen.event,
});

export const commands = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code's own type for a command's handler
  registerCommand(id: string, handler: (...args: any[]) => unknown): Disposable {
    if (fake.commands.has(id)) throw new Error(`command '${id}' already exists`);
    fake.commands.set(id, handler);
    return new Disposable(() => fake.commands.delete(id));
  },
  async executeCommand(id: string, ...args: unknown[]) {
    fake.executed.push({ id, args });
    const handler = fake.commands.get(id);
    return handler ? handler(...args) : undefined;
  },
};

/** Lines written to output channels (never shown). */
export const outputLines: string[] = [];

export const window = lenient({
  createOutputChannel(name: string) {
    const write = (l: unknown) => void outputLines.push(String(l));
    return {
      name,
      logLevel: 3, // LogLevel.Info
      onDidChangeLogLevel: () => new Disposable(),
      appendLine: write,
      append: write,
      replace: write,
      info: write,
      warn: write,
      error: write,
      debug: write,
      trace: write,
      show: () => undefined,
      hide: () => undefined,
      clear: () => undefined,
      dispose: () => undefined,
    };
  },
  createStatusBarItem(id: string, alignment: StatusBarAlignment, priority: number) {
    const item = new FakeStatusBarItem(id, alignment, priority);
    fake.statusItems.push(item);
    return item;
  },
  showErrorMessage: message('error'),
  showWarningMessage: message('warning'),
  showInformationMessage: message('info'),
  async showInputBox(options: Record<string, unknown>) {
    fake.inputBoxes.push(options);
    return fake.answers.shift();
  },
  get activeTextEditor() {
    return fake.activeDocument ? { document: fake.activeDocument } : undefined;
  },
  onDidChangeActiveTextEditor: fake.onActiveEditor.event,
  async showTextDocument(doc: FakeDocument, options?: { selection?: Range }) {
    fake.shown.push({ uri: doc.uri.toString(), selection: options?.selection });
    return { document: doc, revealRange: (r: Range) => fake.revealed.push(r) };
  },
  createTreeView(id: string, options: { treeDataProvider: unknown }) {
    const view = { id, ...options, dispose: () => undefined };
    fake.treeViews.push(view);
    return view;
  },
  createWebviewPanel(_viewType: string, title: string, _column: ViewColumn, options: unknown) {
    const entry = { title, html: '', options };
    fake.webviews.push(entry);
    return {
      webview: {
        set html(v: string) {
          entry.html = v;
        },
        get html() {
          return entry.html;
        },
      },
    };
  },
  get visibleTextEditors() {
    return fake.visibleEditors;
  },
  onDidChangeVisibleTextEditors: fake.onVisibleEditors.event,
  onDidChangeTextEditorVisibleRanges: fake.onVisibleRanges.event,
  /** Every fake document is open in a tab (the language client pulls diagnostics for those). */
  tabGroups: {
    get all() {
      return [{ tabs: fake.documents.map((d) => ({ input: new TabInputText(d.uri) })) }];
    },
    onDidChangeTabs: () => new Disposable(),
    onDidChangeTabGroups: () => new Disposable(),
  },
  withProgress: async (_options: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
    task({ report: () => undefined }, { isCancellationRequested: false, onCancellationRequested: () => new Disposable() }),
});

export const languages = lenient({
  getDiagnostics(uri: Uri) {
    return fake.diagnostics.get(uri.toString()) ?? [];
  },
  onDidChangeDiagnostics: fake.onDiagnostics.event,
  /** Diagnostics the language client sets land in `fake.diagnostics`, as in VS Code. */
  createDiagnosticCollection(name: string) {
    const own = new Map<string, unknown[]>();
    const publish = (uri: Uri, diags: unknown[] | undefined) => {
      own.set(uri.toString(), diags ?? []);
      fake.diagnostics.set(uri.toString(), (diags ?? []) as { source?: string; severity: number }[]);
      fake.onDiagnostics.fire({ uris: [uri] });
    };
    return {
      name,
      set: (uri: Uri, diags: unknown[] | undefined) => publish(uri, diags),
      delete: (uri: Uri) => publish(uri, []),
      get: (uri: Uri) => own.get(uri.toString()),
      has: (uri: Uri) => own.has(uri.toString()),
      forEach: (cb: (uri: Uri, d: unknown[]) => void) => own.forEach((d, u) => cb(Uri.parse(u), d)),
      clear: () => own.clear(),
      dispose: () => own.clear(),
    };
  },
  match(selector: { language?: string; scheme?: string }[] | { language?: string; scheme?: string }, doc: FakeDocument): number {
    const list = Array.isArray(selector) ? selector : [selector];
    return list.some((f) => (!f.language || f.language === doc.languageId) && (!f.scheme || f.scheme === doc.uri.scheme)) ? 10 : 0;
  },
});

export const version = '1.91.0';

export enum LogLevel {
  Off = 0,
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warning = 4,
  Error = 5,
}

export const env = { appName: 'fake-vscode', language: 'en', openExternal: async () => true };

// vscode-languageclient subclasses these at module load; the fake only needs them to exist.
export class CallHierarchyItem {}
export class CodeLens {}
export class CompletionItem {}
export class DocumentLink {}
export class InlayHint {}
export class SymbolInformation {}
export class TypeHierarchyItem {}
export class CodeAction {}
export class Diagnostic {
  source?: string;
  code?: unknown;
  relatedInformation?: unknown[];
  tags?: unknown[];
  constructor(
    public range: Range,
    public message: string,
    public severity: DiagnosticSeverity = DiagnosticSeverity.Error,
  ) {}
}
export class DiagnosticRelatedInformation {
  constructor(
    public location: Location,
    public message: string,
  ) {}
}
export class Location {
  constructor(
    public uri: Uri,
    public range: Range,
  ) {}
}
export class MarkdownString {
  constructor(public value = '') {}
}
export class TabInputText {
  constructor(readonly uri: Uri) {}
}
export class TabInputTextDiff {
  constructor(
    readonly original: Uri,
    readonly modified: Uri,
  ) {}
}
export class TabInputCustom {
  constructor(readonly uri: Uri) {}
}
export class TabInputNotebook {
  constructor(readonly uri: Uri) {}
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}
export class CancellationError extends Error {}

/** An enum-like namespace: any member is its own name (the client only maps them around). */
function anyEnum(): Record<string, unknown> {
  return new Proxy({}, { get: (_t, key) => (typeof key === 'string' ? key : undefined) });
}
export const CodeActionKind = anyEnum();
export const CompletionItemKind = anyEnum();
export const CompletionItemTag = anyEnum();
export const SymbolKind = anyEnum();
export const SymbolTag = anyEnum();
export const DiagnosticTag = anyEnum();
export const DocumentHighlightKind = anyEnum();
export const InlayHintKind = anyEnum();
export const FoldingRangeKind = anyEnum();
export const SignatureHelpTriggerKind = anyEnum();
export const CodeActionTriggerKind = anyEnum();
export const TextDocumentSaveReason = anyEnum();
export const InlineCompletionTriggerKind = anyEnum();
