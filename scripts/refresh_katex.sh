#!/usr/bin/env bash
# Refresh the local copy of KaTeX that the site serves (math renders offline;
# no CDN is ever contacted at view time). Needs npm and the npm registry; the
# result is committed, so nobody else needs either. Pinned version and checksum.
set -euo pipefail
VERSION=0.19.1
INTEGRITY="sha512-jG8uKntjSEcm2EpQOh0XturpPuuC9r3Sq5HLHdsFdWZT27E672SF19QEi+of0/YeOy15lDgRhKvr5614uRrEfA=="
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack "katex@$VERSION" --silent >/dev/null
actual="sha512-$(openssl dgst -sha512 -binary "katex-$VERSION.tgz" | base64 -w0)"
if [ "$actual" != "$INTEGRITY" ]; then
  echo "katex-$VERSION.tgz checksum mismatch: $actual" >&2
  exit 1
fi
tar xzf "katex-$VERSION.tgz"
target="$here/docs/assets/katex"
rm -rf "$target"
mkdir -p "$target/fonts"
cp package/dist/katex.min.css "$target/"
cp package/dist/katex.min.js "$here/kreport/site/vendored/katex.min.js"   # run at build time only (kreport/site/katex.py)
cp package/LICENSE "$here/kreport/site/vendored/KATEX_LICENSE"
cp package/dist/fonts/*.woff2 "$target/fonts/"   # every current browser takes woff2
cp package/LICENSE "$target/LICENSE"
echo "KaTeX $VERSION copied into $target"
