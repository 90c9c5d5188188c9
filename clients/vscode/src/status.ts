/**
 * The status bar's state machine: server state, checks in flight, findings, CourtListener reachability.
 *
 * Pure: events in, a `StatusView` (text, tooltip, click command) out. `statusBar.ts` applies the view
 * to a real status bar item. Priority when several things are true: a server that is not running,
 * then "checking…" for the active document, then the findings count (with a CourtListener warning
 * appended when the last check could not reach it).
 */

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';
export type Reachability = 'ok' | 'unreachable' | 'unknown';

export interface Counts {
  error: number;
  warning: number;
  info: number;
}

export interface StatusView {
  text: string;
  tooltip: string;
  /** Command run on click. */
  command: string;
  /** Colour hint: error and warning map to the status bar's error/warning backgrounds. */
  level: 'error' | 'warning' | undefined;
}

export const SHOW_PROBLEMS = 'workbench.actions.view.problems';
export const RESTART_COMMAND = 'citecheck.restartServer';

/** A check that has not reported back after this long no longer shows as "checking…". */
export const STALE_CHECK_MS = 30_000;

const ZERO: Counts = { error: 0, warning: 0, info: 0 };

/** Said once (status bar tooltip, Citations view): what "not verified" means and how to enable verification. */
export function unverifiedExplanation(n: number): string {
  const them = n === 1 ? 'citation' : 'citations';
  return (
    `${n} ${them} could not be verified: no source available to citecheck covers ${n === 1 ? 'it' : 'them'}. ` +
    'This is not a finding that anything is wrong. To enable verification: import a corpus ' +
    '(`citecheck corpus import PATH`, then set citecheck.corpusPath), allow CAP volume downloads ' +
    '(citecheck.capFetch, needs network access to static.case.law), or run "citecheck: Set CourtListener token".'
  );
}

export class StatusModel {
  private server: ServerState = 'starting';
  private serverDetail = '';
  private active: string | undefined;
  private readonly pending = new Map<string, { version: number; since: number }>();
  private readonly counts = new Map<string, Counts>();
  private reach: Reachability = 'unknown';
  private readonly unverified = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  setServer(state: ServerState, detail = ''): void {
    this.server = state;
    this.serverDetail = detail;
    if (state !== 'running') this.pending.clear();
  }

  setActive(uri: string | undefined): void {
    this.active = uri;
  }

  /** A check of `uri` at `version` started (a change was sent, or the server said so). */
  checking(uri: string, version = 0): void {
    const old = this.pending.get(uri)?.version ?? 0;
    this.pending.set(uri, { version: Math.max(version, old), since: this.now() });
  }

  /** A check of `uri` finished for `version`; older results leave a newer check pending. */
  checked(uri: string, version?: number): void {
    const waiting = this.pending.get(uri);
    if (waiting === undefined) return;
    if (version === undefined || version >= waiting.version) this.pending.delete(uri);
  }

  setFindings(uri: string, counts: Counts): void {
    this.counts.set(uri, { ...counts });
  }

  forget(uri: string): void {
    this.pending.delete(uri);
    this.counts.delete(uri);
    this.unverified.delete(uri);
  }

  /** How many of the document's citations could not be verified (from the citations notification:
   * they are hints, not squiggles, so the diagnostics do not count them). */
  setUnverified(uri: string, n: number): void {
    this.unverified.set(uri, n);
  }

  setCourtListener(reach: Reachability): void {
    this.reach = reach;
  }

  isChecking(uri: string): boolean {
    const p = this.pending.get(uri);
    return p !== undefined && this.now() - p.since < STALE_CHECK_MS;
  }

  view(): StatusView {
    if (this.server === 'starting') {
      return { text: '$(sync~spin) citecheck: starting…', tooltip: 'Starting the citecheck server', command: SHOW_PROBLEMS, level: undefined };
    }
    if (this.server === 'stopped' || this.server === 'failed') {
      const why = this.serverDetail ? `: ${this.serverDetail}` : '';
      return {
        text: '$(error) citecheck: server stopped',
        tooltip: `The citecheck server is not running${why}. Click to restart it.`,
        command: RESTART_COMMAND,
        level: 'error',
      };
    }
    if (this.active !== undefined && this.isChecking(this.active)) {
      return { text: '$(sync~spin) citecheck: checking…', tooltip: 'Checking citations in this document', command: SHOW_PROBLEMS, level: undefined };
    }
    const scoped = this.active !== undefined && this.counts.has(this.active);
    const c = scoped ? (this.counts.get(this.active as string) as Counts) : this.total();
    const n = c.error + c.warning + c.info;
    const where = scoped ? 'in this document' : 'in open documents';
    const parts = [`${c.error} error(s)`, `${c.warning} warning(s)`, `${c.info} info`];
    const u = scoped ? (this.unverified.get(this.active as string) ?? 0) : [...this.unverified.values()].reduce((a, b) => a + b, 0);
    let text = n === 0 ? '$(check) citecheck: no findings' : `${c.error > 0 ? '$(error)' : c.warning > 0 ? '$(warning)' : '$(info)'} citecheck: ${n} finding${n === 1 ? '' : 's'}`;
    let tooltip = n === 0 ? `No citation findings ${where}.` : `${parts.join(', ')} ${where}. Click to open the Problems view.`;
    if (u > 0) {
      text += ` · ${u} not verified`;
      tooltip += `\n\n${unverifiedExplanation(u)}`;
    }
    let level: StatusView['level'] = c.error > 0 ? 'error' : c.warning > 0 ? 'warning' : undefined;
    if (this.reach === 'unreachable') {
      text = `$(cloud-offline) citecheck: cannot reach CourtListener${n > 0 ? ` · ${n} finding${n === 1 ? '' : 's'}` : ''}${u > 0 ? ` · ${u} not verified` : ''}`;
      tooltip =
        'CourtListener did not answer, so citations outside the local corpus were not verified ' +
        `(reported as "cannot-verify", never as fabricated). ${tooltip}`;
      level = level ?? 'warning';
    }
    return { text, tooltip, command: SHOW_PROBLEMS, level };
  }

  private total(): Counts {
    const t = { ...ZERO };
    for (const c of this.counts.values()) {
      t.error += c.error;
      t.warning += c.warning;
      t.info += c.info;
    }
    return t;
  }
}
