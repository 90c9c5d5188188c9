/**
 * Which document the status bar and the Citations view follow.
 *
 * VS Code makes the Output panel (and settings, diff and log views) the "active text editor" when
 * it takes focus; following it emptied the Citations view exactly when a user looked at the log.
 * They follow the last editor showing a document citecheck checks, for as long as it is open.
 */
export interface EditorLike {
  uri: string;
  scheme: string;
  languageId: string;
}

export function followedUri(
  current: string | undefined,
  editor: EditorLike | undefined,
  languages: readonly string[],
  isOpen: (uri: string) => boolean,
): string | undefined {
  const checked = editor !== undefined && ['file', 'untitled'].includes(editor.scheme) && languages.includes(editor.languageId);
  if (checked) return editor.uri;
  return current !== undefined && isOpen(current) ? current : undefined;
}
