/**
 * The CourtListener API token, kept in VS Code's SecretStorage (the OS keychain), never in
 * settings.json. A copy is cached in memory because `workspace/configuration` answers must be
 * quick, and the server receives it only through that answer (`courtlistenerToken`).
 */

/** The part of `vscode.SecretStorage` this module needs. */
export interface Secrets {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

export const TOKEN_KEY = 'citecheck.courtlistenerToken';

export class TokenStore {
  private cached: string | undefined;

  constructor(private readonly secrets: Secrets) {}

  async load(): Promise<string | undefined> {
    this.cached = (await this.secrets.get(TOKEN_KEY)) || undefined;
    return this.cached;
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
      return false;
    }
    await this.secrets.store(TOKEN_KEY, token);
    this.cached = token;
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
