/**
 * The Explorer's "Citations" tree: the active document's citations from `CitationStore`, each with
 * its status; findings as children; clicking an item reveals the citation in the editor.
 */
import type * as vscode from 'vscode';

import { citationNodes, CitationStore, type DocumentCitations, type NoteNode, type TreeNode, unverifiedCount } from './citations';
import { unverifiedExplanation } from './status';
import * as api from './vscodeapi';

export const VIEW_ID = 'citecheck.citations';
export const REVEAL_COMMAND = 'citecheck.revealCitation';

export class CitationsProvider implements vscode.TreeDataProvider<TreeNode> {
  readonly store = new CitationStore();
  private readonly changed = api.newEventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private activeUri: string | undefined;

  constructor(private readonly documentText: (uri: string) => string | undefined = () => undefined) {}

  /** Apply a notification; refreshes the tree when it concerns the active document. */
  update(doc: DocumentCitations): void {
    if (this.store.update(doc) && doc.uri === this.activeUri) this.changed.fire(undefined);
  }

  setActive(uri: string | undefined): void {
    if (uri === this.activeUri) return;
    this.activeUri = uri;
    this.changed.fire(undefined);
  }

  forget(uri: string): void {
    this.store.forget(uri);
    if (uri === this.activeUri) this.changed.fire(undefined);
  }

  clear(): void {
    this.store.clear();
    this.changed.fire(undefined);
  }

  getChildren(element?: TreeNode): TreeNode[] {
    if (element) return element.type === 'citation' ? element.children : [];
    if (this.activeUri === undefined) return [];
    const doc = this.store.get(this.activeUri);
    if (!doc) return [];
    const nodes: TreeNode[] = citationNodes(doc, this.documentText(this.activeUri));
    const n = unverifiedCount(doc);
    return n > 0 ? [unverifiedNote(doc.uri, n), ...nodes] : nodes;
  }

  /** The active document, or undefined when the tree shows nothing. */
  get active(): string | undefined {
    return this.activeUri;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = api.newTreeItem(node.label, node.type === 'citation' && node.children.length > 0);
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = api.themeIcon(node.icon);
    item.contextValue = node.type;
    if (node.type === 'note') {
      item.command = { title: 'Open citecheck settings', command: 'workbench.action.openSettings', arguments: ['citecheck'] };
    } else if (node.range) {
      item.command = { title: 'Reveal citation', command: REVEAL_COMMAND, arguments: [node.uri, node.range] };
    }
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The one line that says how many citations could not be verified and how to change that. */
export function unverifiedNote(uri: string, n: number): NoteNode {
  return {
    type: 'note',
    uri,
    label: `${n} citation${n === 1 ? '' : 's'} could not be verified`,
    description: 'how to enable verification',
    tooltip: unverifiedExplanation(n),
    icon: 'info',
    range: undefined,
    children: [],
  };
}
