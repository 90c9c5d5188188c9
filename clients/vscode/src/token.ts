/**
 * The CourtListener API token, kept in VS Code's SecretStorage (the OS keychain), never in
 * settings.json. A copy is cached in memory because `workspace/configuration` answers must be
 * quick, and the server receives it only through that answer (`courtlistenerToken`). Whether there is
 * one is also noted in globalState (`HAS_TOKEN_KEY`), so that a start need not wait for the secret.
 */

/** The part of `vscode.SecretStorage` this module needs. */
export interface Secrets {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

/** The part of `vscode.Memento` (`context.globalState`) this module needs. */
export interface Memo {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export const TOKEN_KEY = 'citecheck.courtlistenerToken';
/** Whether this machine's secret storage held a token when last read (a boolean, never the token). */
export const HAS_TOKEN_KEY = 'citecheck.hasCourtListenerToken';

export class TokenStore {
  private cached: string | undefined;

  constructor(
    private readonly secrets: Secrets,
    private readonly memo?: Memo,
  ) {}

  /**
   * True only when the last read or change on this machine found a token. Read from globalState, which
   * the extension host holds already: unlike the secret (a round trip to the workbench, 0.1–2 s while
   * VS Code starts), it needs no wait, so a start waits for the secret only when a token is expected.
   * Never read here (a new profile: a new user, who has no token yet) counts as no token; a token found
   * after all restarts the server with it (extension.ts).
   */
  get lastSawToken(): boolean {
    return this.memo?.get<boolean>(HAS_TOKEN_KEY) === true;
  }

  async load(): Promise<string | undefined> {
    this.cached = (await this.secrets.get(TOKEN_KEY)) || undefined;
    this.remember();
    return this.cached;
  }

  private remember(): void {
    const has = this.cached !== undefined;
    if (this.memo && this.memo.get<boolean>(HAS_TOKEN_KEY) !== has) {
      this.memo.update(HAS_TOKEN_KEY, has).then(undefined, () => undefined); // a hint: losing it costs a wait
    }
  }

  get value(): string | undefined {
    return this.cached;
  }

  /** Store a token; an empty value removes it. Returns whether a token is now set. */
  async set(value: string | undefined): Promise<boolean> {
    const token = (value ?? '').trim();
    if (token === '') {
      await this.secrets.delete(TOKEN_KEY);
      this.cached = undefined;
      this.remember();
      return false;
    }
    await this.secrets.store(TOKEN_KEY, token);
    this.cached = token;
    this.remember();
    return true;
  }
}

/** A CourtListener token is a 40-character hex string; anything else is probably a paste mistake. */
export function tokenProblem(value: string): string | undefined {
  const t = value.trim();
  if (t === '') return undefined; // empty = remove the token
  if (/^token\s/i.test(t)) return 'Paste the token only, without the word "Token".';
  if (/\s/.test(t)) return 'The token must not contain spaces.';
  if (!/^[0-9a-fA-F]{40}$/.test(t)) return 'A CourtListener token is 40 hexadecimal characters.';
  return undefined;
}
