/**
 * A small fake of the `vscode` API: just what src/vscodeapi.ts and the view adapters use.
 * Test bundles alias `vscode` to this file (esbuild.mjs). `fake` lets a test set configuration,
 * the active document and answers to prompts, and see what the extension asked VS Code to do.
 */

type Listener<T> = (e: T) => unknown;

export class Disposable {
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
  text = '';
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
  commands: new Map<string, (...args: any[]) => unknown>(),
  executed: [] as { id: string; args: unknown[] }[],
  messages: [] as { level: 'error' | 'warning' | 'info'; text: string; actions: string[] }[],
  /** Answer the next prompt (message button or input box) with this, in order. */
  answers: [] as (string | undefined)[],
  inputBoxes: [] as Record<string, unknown>[],
  statusItems: [] as FakeStatusBarItem[],
  webviews: [] as { title: string; html: string; options: unknown }[],
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
  reset(): void {
    this.config.clear();
    this.commands.clear();
    this.executed = [];
    this.messages = [];
    this.answers = [];
    this.inputBoxes = [];
    this.statusItems = [];
    this.webviews = [];
    this.untitled = [];
    this.shown = [];
    this.revealed = [];
    this.activeDocument = undefined;
    this.documents = [];
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

export const workspace = {
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
};

export const commands = {
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

export const window = {
  createOutputChannel(name: string) {
    const write = (l: unknown) => void outputLines.push(String(l));
    return { name, appendLine: write, append: write, info: write, warn: write, error: write, debug: write, trace: write, show: () => undefined, clear: () => undefined, dispose: () => undefined };
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
    return { id, ...options, dispose: () => undefined };
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
};

export const languages = {
  getDiagnostics(uri: Uri) {
    return fake.diagnostics.get(uri.toString()) ?? [];
  },
  onDidChangeDiagnostics: fake.onDiagnostics.event,
};

// vscode-languageclient subclasses these at module load; the fake only needs them to exist.
export class CallHierarchyItem {}
export class CodeLens {}
export class CompletionItem {}
export class DocumentLink {}
export class InlayHint {}
export class SymbolInformation {}
export class TypeHierarchyItem {}
export class CodeAction {}
export class Diagnostic {}
export class CancellationError extends Error {}
