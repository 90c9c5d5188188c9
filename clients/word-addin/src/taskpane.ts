// Entry point of the task pane (bundled to taskpane.js). Office.onReady → read the token the server
// put in the page → wire Word, the API client, the panel and the controller, then check once.

import { Api } from './api';
import { Controller } from './controller';
import { Panel } from './panel';
import type { Support, WordHost } from './word';

function documentId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function save(html: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function supported(version: string): boolean {
  return Office.context.requirements.isSetSupported('WordApi', version);
}

function start(): void {
  const root = document.getElementById('app');
  if (!root) return;
  const token = document.querySelector('meta[name="citecheck-token"]')?.getAttribute('content') ?? '';
  const support: Support = { expand: supported('1.3'), comments: supported('1.4'), notes: supported('1.5'), events: supported('1.6') };
  const panel = new Panel(root);
  const api = new Api(token, (url, init) => fetch(url, { ...init, credentials: 'same-origin', cache: 'no-store' }));
  const host: WordHost = Word as unknown as WordHost;
  const controller = new Controller(host, support, api, panel, documentId(), { debounceMs: 1200, save });
  panel.bind(controller);
  panel.render(controller.state);
  void controller.watch().then(() => controller.check());
}

void Office.onReady((info) => {
  if (info.host === Office.HostType.Word) {
    start();
  } else {
    const root = document.getElementById('app');
    if (root) root.textContent = 'citecheck’s panel works in Word. Open this add-in from Word’s Home tab (“Check citations”).';
  }
});
