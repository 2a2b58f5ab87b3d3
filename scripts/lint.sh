#!/usr/bin/env bash
# The checks CI runs beside the tests: no tracked file over 1 MB, gofmt,
# go vet and staticcheck (its default checks). staticcheck is installed at
# a pinned version into .cache/bin, outside the module's dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
STATICCHECK_VERSION="${STATICCHECK_VERSION:-v0.8.2}"
status=0

big=$(git ls-files -z | xargs -0 -r stat -c '%s %n' -- 2>/dev/null | awk '$1 > 1048576 { print "  " $2 " (" $1 " bytes)" }')
if [[ -n "$big" ]]; then
  printf 'lint: tracked files over 1 MB:\n%s\n' "$big" >&2
  status=1
fi

unformatted=$(gofmt -l $(git ls-files '*.go'))
if [[ -n "$unformatted" ]]; then
  printf 'lint: gofmt would change:\n%s\n' "$unformatted" >&2
  status=1
fi

go vet ./... || status=1

bin="$PWD/.cache/bin"
if [[ ! -x "$bin/staticcheck" ]] || ! "$bin/staticcheck" -version 2>/dev/null | grep -qF "(${STATICCHECK_VERSION#v})"; then
  GOBIN="$bin" go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi
"$bin/staticcheck" ./... || status=1

if [[ $status = 0 ]]; then echo "lint: ok"; fi
exit $status
