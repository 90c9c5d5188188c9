/**
 * The Explorer's "Citations" tree: the active document's citations from `CitationStore`, each with
 * its status; findings as children; clicking an item reveals the citation in the editor.
 */
import type * as vscode from 'vscode';

import { citationNodes, CitationStore, type DocumentCitations, type TreeNode } from './citations';
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
    return doc ? citationNodes(doc, this.documentText(this.activeUri)) : [];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = api.newTreeItem(node.label, node.type === 'citation' && node.children.length > 0);
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = api.themeIcon(node.icon);
    item.contextValue = node.type;
    if (node.range) {
      item.command = { title: 'Reveal citation', command: REVEAL_COMMAND, arguments: [node.uri, node.range] };
    }
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
