// Talking to `citecheck serve`, the page's own origin. Every call carries the install token the server
// put in this page's <meta name="citecheck-token">; nothing else is ever contacted.

import { parseCheckAnswer, type CheckAnswer, type IgnoreKey, type Part } from './findings';

export const TOKEN_HEADER = 'X-Citecheck-Token';
export const NOT_RUNNING = 'The citecheck backend is not running. Start it with `citecheck serve`, then press Check again.';

/** The backend could not be reached, refused us, or answered something we cannot use. */
export class BackendError extends Error {
  constructor(message: string, readonly status: number | null = null) {
    super(message);
  }
}

export type FetchLike = (input: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
  text(): Promise<string>;
  headers?: { get(name: string): string | null };
}>;

export class Api {
  constructor(private readonly token: string, private readonly fetchFn: FetchLike, private readonly base = '') {}

  private async call(path: string, body?: unknown): Promise<{ json(): Promise<unknown>; text(): Promise<string>; headers?: { get(name: string): string | null } }> {
    const headers: Record<string, string> = { [TOKEN_HEADER]: this.token };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res;
    try {
      res = await this.fetchFn(this.base + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new BackendError(NOT_RUNNING);
    }
    if (res.ok) return res;
    let detail = '';
    try {
      const j = (await res.json()) as { error?: unknown };
      detail = typeof j.error === 'string' ? j.error : '';
    } catch {
      /* not JSON: a proxy or another program on the port */
    }
    if (res.status === 401) throw new BackendError('The backend did not accept this pane’s token (it was restarted with a new install?). Reload the pane.', 401);
    if (res.status === 403 || res.status === 421) throw new BackendError(`The backend refused the request: ${detail || 'wrong origin'}.`, res.status);
    if (res.status === 413) throw new BackendError(`The document is too large for the backend: ${detail}`, 413);
    throw new BackendError(detail || `The backend answered HTTP ${res.status}.`, res.status);
  }

  async health(): Promise<{ version: string; sources: string; offline: boolean; ignore_file: string | null }> {
    return (await (await this.call('/api/v1/health')).json()) as { version: string; sources: string; offline: boolean; ignore_file: string | null };
  }

  async check(document: string, paragraphs: { text: string; part: Part }[]): Promise<CheckAnswer> {
    const raw = await (await this.call('/api/v1/check', { document, paragraphs })).json();
    try {
      return parseCheckAnswer(raw);
    } catch (e) {
      throw new BackendError(`The backend's answer is not one this pane understands (${(e as Error).message}); update citecheck or the pane.`);
    }
  }

  async ignore(key: IgnoreKey, scope: 'finding' | 'citation'): Promise<void> {
    await this.call('/api/v1/ignore', { key, scope });
  }

  /** The HTML report of the last check, and where the server also saved it (under its --root). */
  async reportHtml(document: string): Promise<{ html: string; savedTo: string | null }> {
    const res = await this.call('/api/v1/report', { document });
    return { html: await res.text(), savedTo: res.headers?.get('X-Citecheck-Saved') ?? null };
  }
}
