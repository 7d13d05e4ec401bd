#!/usr/bin/env bash
# Reproduce book/_vendor/: the JavaScript the static site needs, self-hosted so that no page
# loads anything from a CDN. Run from the repository root:  bash tools/vendor_assets.sh
#
# Packages come from the npm registry with `npm pack` (pinned versions), are unpacked in a
# temporary folder, and only the files the site uses are copied. The tarball integrity
# (as npm reports it) and a sha256 of every committed file are written to
# book/_vendor/README.md, so a re-run shows in `git diff` whether anything changed.
set -euo pipefail

HTML_MANAGER=@jupyter-widgets/html-manager@1.0.15   # 1.x is the embed manager for ipywidgets 8
REQUIREJS=requirejs@2.3.8
MATHJAX=mathjax@3.2.2                                # MathJax 3, not 4

root=$(cd "$(dirname "$0")/.." && pwd)
static="$root/book/_vendor/static"   # -> sphinx html_static_path (served under _static/)
py="$root/.venv/bin/python"
[ -x "$py" ] || py=python3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A integrity
unpack() {  # unpack SPEC DIR: npm pack SPEC, record its integrity, unpack into $work/DIR
  local spec=$1 dir=$2 json tgz
  json=$(cd "$work" && npm pack --json --silent "$spec")
  tgz=$(printf '%s' "$json" | "$py" -c 'import json,sys; print(json.load(sys.stdin)[0]["filename"])')
  integrity[$spec]=$(printf '%s' "$json" | "$py" -c 'import json,sys; print(json.load(sys.stdin)[0]["integrity"])')
  mkdir -p "$work/$dir"
  tar -xzf "$work/$tgz" -C "$work/$dir" --strip-components=1
}

unpack "$HTML_MANAGER" html-manager
unpack "$REQUIREJS" requirejs
unpack "$MATHJAX" mathjax

# Replace only what this script owns (static/widgets-setup.js is hand-written).
rm -rf "$static/requirejs" "$static/html-manager" "$static/mathjax"
mkdir -p "$static/requirejs" "$static/html-manager" "$static/mathjax"

# RequireJS: the loader myst-nb puts before the widget manager. MIT; the package ships no
# LICENSE file, its header names the licence, so we keep the header and write the MIT text.
cp "$work/requirejs/require.js" "$static/requirejs/"
{
  echo "RequireJS $(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$work/requirejs/package.json")"
  sed -n '2,3p' "$work/requirejs/require.js" | sed 's/^ \* \{0,1\}//'
  echo
  cat <<'MIT'
Permission is hereby granted, free of charge, to any person obtaining a copy of this software
and associated documentation files (the "Software"), to deal in the Software without
restriction, including without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
MIT
} > "$static/requirejs/LICENSE"

# Widget manager: the AMD embed bundle (defines @jupyter-widgets/base, controls,
# html-manager, libembed-amd; the Output widget is built in). Each bundle's webpack public
# path is derived from its RequireJS module URL, which static/widgets-setup.js points at this
# folder, so the hashed Font Awesome files must sit beside embed-amd.js. Browsers that read
# woff2/woff never ask for the .eot/.ttf/.svg variants, so those are left out. (The bundle
# also carries Font Awesome's stock CSS with url(../webfonts/...); its @font-face rules come
# first and are overridden by the hashed ones, so browsers never request ../webfonts/.)
cp "$work/html-manager/dist/embed-amd.js" "$static/html-manager/"
cp "$work/html-manager/dist/"*.woff2 "$work/html-manager/dist/"*.woff "$static/html-manager/"
cp "$work/html-manager/dist/embed.js.LICENSE.txt" "$static/html-manager/THIRD-PARTY-NOTICES.txt"
# The package ships no LICENSE file (package.json: BSD-3-Clause). Its licence is the one of
# the jupyter-widgets/ipywidgets monorepo, which the ipywidgets wheel carries.
"$py" - "$static/html-manager/LICENSE" <<'PY'
import sys
from importlib.metadata import distribution
dist = distribution("ipywidgets")
lic = next(f for f in dist.files if f.name.upper().startswith("LICENSE"))
text = lic.read_text()
open(sys.argv[1], "w").write(
    "@jupyter-widgets/html-manager is part of the jupyter-widgets/ipywidgets repository,\n"
    "licensed BSD-3-Clause (package.json). Licence text from the ipywidgets distribution:\n\n"
    + text)
PY

# MathJax 3: one self-contained component (TeX input with every extension, SVG output, so no
# web fonts and no runtime component loads).
cp "$work/mathjax/es5/tex-svg-full.js" "$static/mathjax/"
cp "$work/mathjax/LICENSE" "$static/mathjax/LICENSE"

# README with versions and checksums.
{
  cat <<'HEAD'
# Vendored front-end assets

Generated by `tools/vendor_assets.sh`; do not edit by hand, re-run the script.

The static site must render offline: no request may leave the host serving it. myst-nb would
otherwise load RequireJS and `@jupyter-widgets/html-manager` from cdnjs/jsDelivr, and Sphinx
would load MathJax from jsDelivr. `_config.yml` points `nb_ipywidgets_js` and `mathjax_path`
at the copies below (`static/` is an `html_static_path`, served under `_static/`).
`static/widgets-setup.js` is hand-written: it configures RequireJS so the widget bundles
fetch their icon fonts from `_static/html-manager/`, and shims the MathJax 2 call the widgets
make (the site runs MathJax 3).

This folder is deliberately not a top-level `_static/`: Jupyter Book 1 injects every
`*.js`/`*.css` of a top-level `_static/` into every page.

| npm package | tarball integrity (npm) |
|---|---|
HEAD
  for spec in "$HTML_MANAGER" "$REQUIREJS" "$MATHJAX"; do
    echo "| \`$spec\` | \`${integrity[$spec]}\` |"
  done
  echo
  echo "| file | sha256 |"
  echo "|---|---|"
  (cd "$root/book/_vendor" && find static -type f ! -name widgets-setup.js | LC_ALL=C sort | while read -r f; do
     echo "| \`$f\` | \`$(sha256sum "$f" | cut -d' ' -f1)\` |"
   done)
} > "$root/book/_vendor/README.md"

du -sh "$static"
