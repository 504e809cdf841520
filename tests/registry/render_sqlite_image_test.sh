#!/usr/bin/env bash
# A SQLite index image renders and migrates as its database file does: the database label
# names the file inside the image.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
SQL=$OPM_TESTS/data/sqlite
IMG=$WORK/index-image
mkdir -p "$IMG/database"
cp "$SQL/kiwi.db" "$IMG/database/index.db"
push_image "$R" ops/index v1 --files "$IMG" \
  --label operators.operatorframework.io.index.database.v1=/database/index.db > /dev/null

expect_ok "render a sqlite index image" render --use-http "$REG/ops/index:v1"
check "it renders as upstream renders the database" cmp -s "$WORK/out" "$SQL/render/kiwi.json"
check "the deprecation notice logged once" test "$(grep -c 'DEPRECATION NOTICE' "$WORK/err")" = 1
check "no unpack directory left" tmp_empty

expect_ok "render it as yaml" render --use-http "$REG/ops/index:v1" -o yaml
check "yaml as upstream" cmp -s "$WORK/out" "$SQL/render/kiwi.yaml"

expect_ok "alpha list packages of a sqlite index image" alpha list packages --use-http "$REG/ops/index:v1"
check "upstream's table" cmp -s "$WORK/out" "$SQL/list/kiwi-packages.txt"
expect_ok "alpha render-graph of a sqlite index image" alpha render-graph --use-http "$REG/ops/index:v1"
"$OPM" alpha render-graph "$SQL/kiwi.db" > "$WORK/db.graph" 2> /dev/null
check "the graph of its database" cmp -s "$WORK/out" "$WORK/db.graph"

# migrate takes --use-http as render does, logs upstream's line and the SQLite notice.
expect_ok "migrate a sqlite index image from a plain-HTTP registry" migrate --use-http "$REG/ops/index:v1" "$WORK/migrated-image"
check "migrate logs upstream's rendering line" grep -qF "level=info msg=\"rendering index \\\"$REG/ops/index:v1\\\" as file-based catalog\"" "$WORK/err"
check "migrate logs the deprecation notice once" test "$(grep -c 'DEPRECATION NOTICE' "$WORK/err")" = 1
"$OPM" migrate "$SQL/kiwi.db" "$WORK/migrated-file" 2> /dev/null
check "the image migrates as its database file" diff -r "$WORK/migrated-image" "$WORK/migrated-file"

finish
