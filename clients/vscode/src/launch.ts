/**
 * Decides which command starts the language server, before anything is spawned.
 *
 * Order: `citecheck.server.path` (a `citecheck-lsp` executable) → `citecheck.python` with
 * `-m citecheck.lsp` → `citecheck-lsp` on PATH → `python3`/`python` on PATH with `-m citecheck.lsp`.
 * A configured path that does not exist is reported as `ServerNotFound` naming the setting to fix,
 * rather than left to a spawn error the user cannot act on. `--stdio` is passed explicitly and no
 * `transport` is set, because vscode-languageclient appends `--stdio` itself when one is.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { ClientSettings } from './settings';

export interface ServerCommand {
  command: string;
  args: string[];
  /** Which setting (or lookup) chose it, for messages. */
  origin: 'citecheck.server.path' | 'citecheck.python' | 'PATH';
}

/** The server cannot be started as configured; `setting` is the one to open. */
export class ServerNotFound extends Error {
  constructor(
    message: string,
    readonly setting: string,
  ) {
    super(message);
    this.name = 'ServerNotFound';
  }
}

export interface HostEnv {
  isFile(p: string): boolean;
  /** Full path of an executable on PATH, or undefined. */
  which(name: string): string | undefined;
}

export const MODULE_ARGS: readonly string[] = ['-m', 'citecheck.lsp', '--stdio'];

export function resolveServerCommand(settings: ClientSettings, env: HostEnv): ServerCommand {
  if (settings.serverPath) {
    const exe = looksLikePath(settings.serverPath) ? settings.serverPath : env.which(settings.serverPath);
    if (!exe || !env.isFile(exe)) {
      throw new ServerNotFound(
        `citecheck.server.path is "${settings.serverPath}", but no such file exists.`,
        'citecheck.server.path',
      );
    }
    return { command: exe, args: ['--stdio'], origin: 'citecheck.server.path' };
  }
  if (settings.python) {
    const exe = looksLikePath(settings.python) ? settings.python : env.which(settings.python);
    if (!exe || !env.isFile(exe)) {
      throw new ServerNotFound(
        `citecheck.python is "${settings.python}", but no such Python interpreter exists.`,
        'citecheck.python',
      );
    }
    return { command: exe, args: [...MODULE_ARGS], origin: 'citecheck.python' };
  }
  const lsp = env.which('citecheck-lsp');
  if (lsp) return { command: lsp, args: ['--stdio'], origin: 'PATH' };
  const python = env.which('python3') ?? env.which('python');
  if (python) return { command: python, args: [...MODULE_ARGS], origin: 'PATH' };
  throw new ServerNotFound(
    'Neither citecheck-lsp nor Python was found on PATH. Install citecheck-legal (pip install citecheck-legal) ' +
      'and set citecheck.server.path or citecheck.python.',
    'citecheck.server.path',
  );
}

function looksLikePath(p: string): boolean {
  return p.includes('/') || p.includes('\\');
}

/** The real host: the file system and PATH (with PATHEXT on Windows). */
export function hostEnv(environ: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): HostEnv {
  const isFile = (p: string): boolean => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const which = (name: string): string | undefined => {
    const dirs = (environ.PATH ?? environ.Path ?? '').split(path.delimiter).filter(Boolean);
    const exts = platform === 'win32' ? ['', ...(environ.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
    for (const dir of dirs) {
      for (const ext of exts) {
        const candidate = path.join(dir, name + ext);
        if (isFile(candidate)) return candidate;
      }
    }
    return undefined;
  };
  return { isFile, which };
}
