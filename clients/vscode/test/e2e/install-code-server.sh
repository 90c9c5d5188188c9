#!/usr/bin/env bash
# Install code-server (a real VS Code served to a browser) for the real-editor end-to-end test,
# offline-friendly and cached outside the repository.
#
#   clients/vscode/test/e2e/install-code-server.sh        # prints the entry script's path on stdout
#
# code-server 4.100.3 is the last release whose engine accepts node 20. Its install scripts would
# download ripgrep and prebuilt binaries; instead: `--ignore-scripts`, Debian's ripgrep copied where
# @vscode/ripgrep looks for it, and the native modules rebuilt from the node headers Debian's nodejs
# package installs (kerberos is left out: it needs libkrb5-dev and only serves proxy authentication).
# Cache: $CITECHECK_E2E_CACHE or ~/.cache/citecheck-e2e. Progress goes to stderr; exit 1 with one
# line saying why when it cannot be installed.
set -euo pipefail

VERSION="${CODE_SERVER_VERSION:-4.100.3}"
CACHE="${CITECHECK_E2E_CACHE:-$HOME/.cache/citecheck-e2e}"
PREFIX="$CACHE/code-server-$VERSION"
ENTRY="$PREFIX/node_modules/code-server/out/node/entry.js"
DONE="$PREFIX/.installed"

fail() { echo "install-code-server: $*" >&2; exit 1; }
say() { echo "install-code-server: $*" >&2; }

if [ -f "$DONE" ] && [ -f "$ENTRY" ]; then
  echo "$ENTRY"
  exit 0
fi

command -v node >/dev/null || fail "node is not installed"
command -v npm >/dev/null || fail "npm is not installed"
major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$major" = 20 ] || fail "code-server $VERSION needs node 20 (found $(node --version))"
RG="$(command -v rg || true)"
[ -n "$RG" ] || fail "ripgrep (rg) is not installed (apt-get install ripgrep)"
command -v make >/dev/null && command -v g++ >/dev/null || fail "make and g++ are needed to build native modules"

export npm_config_yes=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
LOG="$CACHE/install-$VERSION.log"
mkdir -p "$PREFIX"
: >"$LOG"
run() { "$@" >>"$LOG" 2>&1 || fail "'$*' failed in $(pwd); see $LOG"; }

cd "$PREFIX"
[ -f package.json ] || echo '{"name":"citecheck-e2e-code-server","private":true}' >package.json
say "npm install code-server@$VERSION (scripts off) into $PREFIX"
run npm install --no-save --ignore-scripts "code-server@$VERSION"
say "building argon2"
run env npm_config_build_from_source=true npm rebuild argon2

cd node_modules/code-server/lib/vscode
say "installing VS Code's own dependencies (scripts off)"
run npm install --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$RG" node_modules/@vscode/ripgrep/bin/rg
say "rebuilding native modules (a minute or two)"
run npm rebuild node-pty @parcel/watcher native-watchdog @vscode/spdlog @vscode/ripgrep
# what code-server's postinstall.sh does after installing
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)

node "$ENTRY" --version >>"$LOG" 2>&1 || fail "code-server does not start; see $LOG"
touch "$DONE"
say "ready"
echo "$ENTRY"
