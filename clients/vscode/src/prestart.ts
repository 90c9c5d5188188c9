/**
 * Imported first by extension.ts, so it runs as soon as the extension host starts evaluating the bundle:
 * the server's process is spawned here, before vscode-languageclient and the rest are even loaded
 * (`early.ts` says why and how the first start takes it). The command is resolved from the same settings
 * and in the same way as `activate()` does; when that fails nothing is spawned and `activate()` reports it.
 */
import * as os from 'node:os';

import { spawnEarly } from './early';
import { hostEnv, resolveServerCommand } from './launch';
import { readClientSettings, SECTION } from './settings';
import * as api from './vscodeapi';

/** The command `activate()` would start the server with now, or undefined when it cannot be resolved. */
export function serverCommandNow(): ReturnType<typeof resolveServerCommand> | undefined {
  try {
    const ctx = { workspaceFolder: api.workspaceFolderPath(), home: os.homedir() };
    return resolveServerCommand(readClientSettings(api.getConfiguration(SECTION), ctx), hostEnv());
  } catch {
    return undefined;
  }
}

const command = serverCommandNow();
if (command) {
  try {
    spawnEarly(command);
  } catch {
    // the first start spawns it the usual way and says what went wrong
  }
}
