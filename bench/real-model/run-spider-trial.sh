#!/usr/bin/env bash
# A real-model trial of nlq eval on a Spider training sample (issue 18 item 6), through the model relay
# (../shared/tools/model-relay): every request is answered by whoever answers the relay's queue (an LLM agent that
# sees only the queued prompt, or auto-answer.py for plumbing). Figures from it are "LLM agent through the model
# relay", never a named model's.
#
#   bench/real-model/run-spider-trial.sh <warehouse|single> <sample.csv> <out-dir> [relay-url] [preset]
#
# warehouse: the sample's questions on the indexed 4,080-column warehouse (postgresql://…/$NLQ_TRIAL_WAREHOUSE, default
#            spider_warehouse, loaded by bench/spider-warehouse/load-spider-warehouse.ts), indexed first in the run's
#            own NLQ_HOME (or the metadata store NLQ_METADATA_URL names).
# single:    each question on a database holding only its own Spider database (spider_one_<db>, loaded with
#            load-spider-warehouse.ts --only <db> --url …/spider_one_<db>).
# Run from the root of the nlq checkout to measure. NLQ_HOME is <out-dir>/home unless set.
set -euo pipefail
setting=$1 sample=$2 out=$3 relay=${4:-http://127.0.0.1:18100/v1} preset=${5:-balanced}
server=${NLQ_TRIAL_SERVER:-postgresql://postgres@127.0.0.1:5432}
warehouse=${NLQ_TRIAL_WAREHOUSE:-spider_warehouse}   # the warehouse database's name on $server
mkdir -p "$out"
export NLQ_HOME=${NLQ_HOME:-$out/home}
export NLQ_MODEL=openai:relay OPENAI_BASE_URL=$relay OPENAI_API_KEY=relay NLQ_DEADLINE_MS=${NLQ_DEADLINE_MS:-7200000}
nlq() { npx tsx apps/cli/src/cli/main.ts "$@"; }
case "$setting" in
  warehouse)
    [ -f "$out/indexed" ] || { nlq index --url "$server/$warehouse" > "$out/index.log" 2>&1 && touch "$out/indexed"; }
    nlq eval --questions "$sample" --url "$server/$warehouse" --preset "$preset" --json > "$out/warehouse.json" 2> "$out/warehouse.log"
    ;;
  single)
    header=$(head -n 1 "$sample")
    tail -n +2 "$sample" | while IFS= read -r line; do
      database=$(printf '%s' "$line" | cut -d, -f1 | tr -d '"')
      lower=$(printf '%s' "$database" | tr 'A-Z' 'a-z')
      printf '%s\n%s\n' "$header" "$line" > "$out/single-$lower.csv"
      nlq eval --questions "$out/single-$lower.csv" --url "$server/spider_one_$lower" --preset "$preset" --json \
        > "$out/single-$lower.json" 2> "$out/single-$lower.log" || echo "eval failed: $database" >&2
    done
    ;;
  *) echo "setting must be warehouse or single" >&2; exit 2 ;;
esac
