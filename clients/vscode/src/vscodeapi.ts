/**
 * The one module of ours that calls the `vscode` API; the others import only its types (and
 * vscode-languageclient, which server.ts drives, calls it on its own).
 *
 * Keeping every call here lets the unit tests swap `vscode` for the small fake in
 * test/fake-vscode.ts (an esbuild alias) and check what the extension asked VS Code to do.
 */
import * as vscode from 'vscode';

export type Disposable = vscode.Disposable;
export type StatusBarItem = vscode.StatusBarItem;

export function getConfiguration(section: string, scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(section, scope);
}

export function onDidChangeConfiguration(listener: (e: vscode.ConfigurationChangeEvent) => unknown): Disposable {
  return vscode.workspace.onDidChangeConfiguration(listener);
}

export function workspaceFolderPath(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code's own type: a command's arguments are whatever its caller passes
export function registerCommand(id: string, handler: (...args: any[]) => unknown): Disposable {
  return vscode.commands.registerCommand(id, handler);
}

export function executeCommand<T = unknown>(id: string, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}

export function createStatusBarItem(id: string, priority: number): StatusBarItem {
  return vscode.window.createStatusBarItem(id, vscode.StatusBarAlignment.Left, priority);
}

export function themeColor(id: string): vscode.ThemeColor {
  return new vscode.ThemeColor(id);
}

export function themeIcon(id: string): vscode.ThemeIcon {
  return new vscode.ThemeIcon(id);
}

export function showErrorMessage(message: string, ...actions: string[]): Thenable<string | undefined> {
  return vscode.window.showErrorMessage(message, ...actions);
}

export function showWarningMessage(message: string, ...actions: string[]): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(message, ...actions);
}

export function showInformationMessage(message: string, ...actions: string[]): Thenable<string | undefined> {
  return vscode.window.showInformationMessage(message, ...actions);
}

export function showInputBox(options: vscode.InputBoxOptions): Thenable<string | undefined> {
  return vscode.window.showInputBox(options);
}

export function openSettings(settingId: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openSettings', settingId);
}

export function createLogOutputChannel(name: string): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel(name, { log: true });
}

export function activeEditor(): vscode.TextEditor | undefined {
  return vscode.window.activeTextEditor;
}

export function activeDocument(): vscode.TextDocument | undefined {
  return vscode.window.activeTextEditor?.document;
}

export function onDidChangeActiveTextEditor(listener: (e: vscode.TextEditor | undefined) => unknown): Disposable {
  return vscode.window.onDidChangeActiveTextEditor(listener);
}

export function visibleTextEditors(): readonly vscode.TextEditor[] {
  return vscode.window.visibleTextEditors;
}

export function onDidChangeVisibleTextEditors(listener: (e: readonly vscode.TextEditor[]) => unknown): Disposable {
  return vscode.window.onDidChangeVisibleTextEditors(listener);
}

export function onDidChangeTextEditorVisibleRanges(
  listener: (e: vscode.TextEditorVisibleRangesChangeEvent) => unknown,
): Disposable {
  return vscode.window.onDidChangeTextEditorVisibleRanges(listener);
}

export function onDidChangeTextDocument(listener: (e: vscode.TextDocumentChangeEvent) => unknown): Disposable {
  return vscode.workspace.onDidChangeTextDocument(listener);
}

export function onDidCloseTextDocument(listener: (d: vscode.TextDocument) => unknown): Disposable {
  return vscode.workspace.onDidCloseTextDocument(listener);
}

export function onDidChangeDiagnostics(listener: (e: vscode.DiagnosticChangeEvent) => unknown): Disposable {
  return vscode.languages.onDidChangeDiagnostics(listener);
}

export function getDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri);
}

export function parseUri(uri: string): vscode.Uri {
  return vscode.Uri.parse(uri);
}

export function findOpenDocument(uri: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
}

export function makeRange(startLine: number, startChar: number, endLine: number, endChar: number): vscode.Range {
  return new vscode.Range(startLine, startChar, endLine, endChar);
}

/** Open `uri` and select `range` (LSP coordinates, UTF-16), scrolling it into view. */
export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export async function revealRange(uri: string, range: LspRange): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  const r = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
  const editor = await vscode.window.showTextDocument(doc, { selection: r, preserveFocus: false });
  editor.revealRange(r, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

export function createTreeView<T>(id: string, provider: vscode.TreeDataProvider<T>): vscode.TreeView<T> {
  return vscode.window.createTreeView(id, { treeDataProvider: provider, showCollapseAll: true });
}

export function newEventEmitter<T>(): vscode.EventEmitter<T> {
  return new vscode.EventEmitter<T>();
}

export function newTreeItem(label: string, collapsible: boolean): vscode.TreeItem {
  return new vscode.TreeItem(
    label,
    collapsible ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
  );
}

/** Show server-produced HTML in a webview with scripts disabled. */
export function showHtml(title: string, html: string): void {
  const panel = vscode.window.createWebviewPanel('citecheck.report', title, vscode.ViewColumn.Beside, {
    enableScripts: false,
  });
  panel.webview.html = html;
}

export async function openUntitled(content: string, language: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ content, language });
  await vscode.window.showTextDocument(doc, { preview: false });
}
