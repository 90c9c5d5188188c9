/**
 * The server's process, spawned while the rest of the extension is still loading (issue 40, the first
 * squiggle).
 *
 * `prestart.ts`, the bundle's first module, calls `spawnEarly` as the extension's code starts to run:
 * the Python server then imports its modules (0.5 s quiet, ~1 s while VS Code starts) while the extension
 * host evaluates the rest of the bundle (vscode-languageclient most of it) and prepares the extension's
 * context before calling `activate()` — 0.3–0.9 s in code-server, during which nothing was running before.
 * The first start takes the process (`takeEarly`) and the LanguageClient talks to it exactly as to one
 * it spawned itself (the same command, arguments, environment and working directory). Anything else —
 * a different command by then, a spawn that failed, a process that already exited — and the early one is
 * killed and the client spawns its own, which reports any error the usual way. A process nobody takes is
 * killed after `UNCLAIMED_MS`.
 */
import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process';

import type { ServerCommand } from './launch';

/** How long a process spawned early waits to be taken before it is killed. */
export const UNCLAIMED_MS = 60_000;

export type Spawn = (command: string, args: readonly string[]) => ChildProcess;

// As vscode-languageclient spawns an `Executable` without options: the extension host's environment and
// working directory, stdin/stdout/stderr piped.
const defaultSpawn: Spawn = (command, args) => nodeSpawn(command, args);

interface Early {
  command: ServerCommand;
  process: ChildProcess;
  failed: boolean;
  timer: NodeJS.Timeout;
}

let early: Early | undefined;

/** Spawn the server now for the first start to take; a process spawned earlier and not taken is killed. */
export function spawnEarly(command: ServerCommand, spawn: Spawn = defaultSpawn, unclaimedMs = UNCLAIMED_MS): ChildProcess {
  takeEarly(undefined);
  const child = spawn(command.command, command.args);
  const entry: Early = { command, process: child, failed: false, timer: setTimeout(() => takeEarly(undefined), unclaimedMs) };
  entry.timer.unref();
  // Without a listener a spawn error would be thrown in the extension host; the client's own spawn reports it.
  child.on('error', () => (entry.failed = true));
  early = entry;
  return child;
}

/**
 * The process spawned early, when it runs `command` and is still alive; it is the caller's from then on.
 * It can be taken once: every call empties the slot, and a process that does not fit (or `undefined`
 * asked) is killed.
 */
export function takeEarly(command: ServerCommand | undefined): ChildProcess | undefined {
  const entry = early;
  early = undefined;
  if (!entry) return undefined;
  clearTimeout(entry.timer);
  const child = entry.process;
  const alive = !entry.failed && child.pid !== undefined && child.exitCode === null && child.signalCode === null;
  if (alive && command && sameCommand(entry.command, command)) return child;
  if (alive) child.kill();
  return undefined;
}

function sameCommand(a: ServerCommand, b: ServerCommand): boolean {
  return a.command === b.command && a.args.length === b.args.length && a.args.every((x, i) => x === b.args[i]);
}
