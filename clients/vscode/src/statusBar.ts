/**
 * Shows `StatusModel` in a status bar item and feeds it from VS Code events.
 *
 * Findings are counted from the diagnostics VS Code holds for each document (source "citecheck"),
 * so the count always matches the Problems view the item opens.
 */
import type * as vscode from 'vscode';

import { type Counts, StatusModel, type StatusView } from './status';
import * as api from './vscodeapi';

export const DIAGNOSTIC_SOURCE = 'citecheck';

export class StatusBar {
  readonly model = new StatusModel();
  private readonly item: api.StatusBarItem;
  private last: StatusView | undefined;

  constructor() {
    this.item = api.createStatusBarItem('citecheck.status', 100);
    this.item.name = 'citecheck';
    this.render();
    this.item.show();
  }

  /** Re-render after changing `model`. */
  render(): StatusView {
    const v = this.model.view();
    this.last = v;
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.command = v.command;
    this.item.backgroundColor =
      v.level === 'error'
        ? api.themeColor('statusBarItem.errorBackground')
        : v.level === 'warning'
          ? api.themeColor('statusBarItem.warningBackground')
          : undefined;
    return v;
  }

  get view(): StatusView | undefined {
    return this.last;
  }

  /** Recount the findings of the given documents from VS Code's diagnostics. */
  refreshCounts(uris: readonly vscode.Uri[]): void {
    for (const uri of uris) {
      this.model.setFindings(uri.toString(), countDiagnostics(api.getDiagnostics(uri)));
    }
    this.render();
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** Count citecheck's diagnostics by severity (VS Code: 0 error, 1 warning, 2 information, 3 hint). */
export function countDiagnostics(diags: readonly { source?: string; severity: number }[]): Counts {
  const c: Counts = { error: 0, warning: 0, info: 0 };
  for (const d of diags) {
    if (d.source !== DIAGNOSTIC_SOURCE) continue;
    if (d.severity === 0) c.error += 1;
    else if (d.severity === 1) c.warning += 1;
    else if (d.severity === 2) c.info += 1;
    // hints (3) are "could not be verified": counted once, from the citations notification
  }
  return c;
}
