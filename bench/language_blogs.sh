#!/usr/bin/env bash
# The German and French relevance benchmark end to end (`make relevance-languages`; issue 53,
# point 6; docs/benchmarks.md#german-and-french-blogs): the language lists, the two blogs at their
# commits, each in its own database and index prefix with its SEARCH_LANGUAGE, then
# bench/language_relevance.py on each. Idempotent; everything it writes is under .state/.
#   BLOG_DE_GIT, BLOG_FR_GIT: the blogs' git directories (default: bare clones in .state/blogs/)
#   RELEVANCE_ARGS: more arguments for bench/language_relevance.py (--per-kind 20, --show 3 ...)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
STATE="${STATE_DIR:-$PWD/.state}"
LISTS="$STATE/lists"
if [ -z "${DATABASE_URL:-}" ] && [ -f .env.dev ]; then set -a; source .env.dev; set +a; fi  # run by hand
BASE_URL="${DATABASE_URL:?run make setup once (it writes .env.dev), or set DATABASE_URL}"

# The blogs and the commits measured (their sources and licences: docs/benchmarks.md).
declare -A REPO=([de]=funktionale-programmierung/funktionale-programmierung.github.com [fr]=nhoizey/nicolas-hoizey.com)
declare -A COMMIT=([de]=e8eb088b47cd6c8cb7a7203bdbee28db5b983462 [fr]=8c86ab16f7be9073bbcde124353c04901c5f08bd)
declare -A LAYOUT=([de]=fp-de [fr]=hoizey-fr)
declare -A GIT=([de]="${BLOG_DE_GIT:-$STATE/blogs/de.git}" [fr]="${BLOG_FR_GIT:-$STATE/blogs/fr.git}")

# Benchmark-only libraries: PyYAML (front matter) comes with requirements-dev.txt; wordfreq tells
# which inflected forms people write.
$PY -c 'import wordfreq' 2>/dev/null || $PY -m pip install -q wordfreq==3.1.1

# LibreOffice's autocorrect lists and the Hunspell dictionaries, from Debian's packages, unpacked
# (not installed) into $LISTS: usr/lib/libreoffice/share/autocorr, usr/share/hunspell.
if [ ! -s "$LISTS/usr/share/hunspell/fr.aff" ] || [ ! -s "$LISTS/usr/lib/libreoffice/share/autocorr/acor_de.dat" ]; then
  mkdir -p "$LISTS/debs"
  (cd "$LISTS/debs" && apt-get download libreoffice-common hunspell-de-de hunspell-fr-classical)
  for deb in "$LISTS"/debs/*.deb; do dpkg-deb -x "$deb" "$LISTS"; done
fi

# A command run on one blog's database, index prefix and language (set in the loop).
blog() { DATABASE_URL="$url" SEARCH_INDEX_PREFIX="$prefix" SEARCH_LANGUAGE="$lang" "$@"; }

for lang in de fr; do
  git_dir="${GIT[$lang]}" corpus="$STATE/corpus-$lang" db="blogsearch_$lang" prefix="blog$lang"
  if ! git --git-dir "$git_dir" cat-file -e "${COMMIT[$lang]}^{commit}" 2>/dev/null; then
    mkdir -p "$(dirname "$git_dir")"
    git clone -q --bare "https://github.com/${REPO[$lang]}.git" "$git_dir"
  fi
  [ -s "$corpus/posts.ndjson" ] || $PY bench/blog_corpus.py "${LAYOUT[$lang]}" "$git_dir" --commit "${COMMIT[$lang]}" --out "$corpus" >&2
  url="${BASE_URL%/*}/$db"
  psql "${BASE_URL%/*}/postgres" -tAc "select 1 from pg_database where datname='$db'" | grep -q 1 \
    || psql "${BASE_URL%/*}/postgres" -qc "create database \"$db\""
  # The site's Elasticsearch user reaches only its roles' prefixes: the site's and both blogs'.
  $PY manage.py search_security --prefix "${SEARCH_INDEX_PREFIX:-blog}" --prefix blogde --prefix blogfr >&2
  blog $PY manage.py migrate -v 0
  blog $PY manage.py import_corpus "$corpus" --no-progress >&2
  blog $PY manage.py reindex --no-progress >&2
  # shellcheck disable=SC2086
  blog $PY bench/language_relevance.py --corpus "$corpus" --lists "$LISTS" ${RELEVANCE_ARGS:-}
done
