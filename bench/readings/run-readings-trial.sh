#!/usr/bin/env bash
# The issue 26 measurement (item 5): one sample through nlq eval with the model relay (../shared/tools/model-relay),
# `openai:` provider (Responses API, strict schemas), `balanced` by default. Every request is answered by whoever
# answers the relay's queue: LLM agents for figures ("LLM agent through the model relay", never a named model's), or
# auto-answer.py for plumbing only (its SQL is SELECT 1 / SELECT 2: no accuracy figure means anything then).
#
#   bench/readings/run-readings-trial.sh <ambiqt|spider|defog|defog-instruct> <out-dir> [relay-url] [preset]
#
# ambiqt: 10 AmbiQT examples of each type (C, T, J, P) made real by bench/ambiqt/load-ambiqt.ts, seed 26, one
#         database each (nlq_ambiqt_NN); NLQ_TRIAL_AMBIQT_FILE=<AmbiQT rows.jsonl> materialises every row of that file
#         instead (a held-out set); NLQ_TRIAL_PER_TYPE changes the 10.
# spider: 30 Spider training questions held out from tuning (bench/readings/sample-spider-questions.ts, seed 26),
#         each on a database holding only its Spider database (spider_one_<db>).
# defog:  30 defog questions the earlier trial did not draw (bench/readings/sample-defog-questions.ts, seed 26),
#         each on a database holding only its defog database (nlq_defog_<db>).
# defog-instruct: issue 27 item 5, defog's instruct_advanced and instruct_basic questions
#         (bench/knowledge/sample-defog-instruct.ts; NLQ_TRIAL_PER_DATABASE=N draws N per set and database, seed
#         NLQ_TRIAL_SEED; NLQ_TRIAL_SETS=instruct_advanced for one set) in the condition NLQ_TRIAL_CONDITION: none (default), question-hint, glossary-hint, or
#         knowledge (each database's glossary imported first with nlq knowledge import, from
#         bench/knowledge/make-defog-knowledge.ts; no hint). Every other condition refuses to run while the metadata
#         store holds knowledge for those databases (NLQ_METADATA_URL, default a database nlq_trial_store_<out-dir>
#         created on the server). With NLQ_TRIAL_RELAY_DIR=<the relay's --dir>, the prompts it
#         captured during the run are counted per question (bench/knowledge/count-prompt-characters.ts) into
#         <out-dir>/prompts.json and appended to summary.txt. Run each condition into its own <out-dir>, with fresh
#         answerers, one after the other.
# The sample is built (and its databases loaded) into <out-dir>/questions.jsonl unless that file exists already
# (NLQ_TRIAL_QUESTIONS=<file> uses another); then nlq eval writes <out-dir>/report.json (every question) and
# summarise-readings.mjs <out-dir>/summary.txt. Run from the root of the nlq checkout measured. NLQ_HOME is
# <out-dir>/home unless set; NLQ_TRIAL_SERVER (default postgresql://postgres@127.0.0.1:5432) must be a superuser's.
set -euo pipefail
sample=$1 out=$2 relay=${3:-http://127.0.0.1:18093/v1} preset=${4:-balanced}
server=${NLQ_TRIAL_SERVER:-postgresql://postgres@127.0.0.1:5432}
seed=${NLQ_TRIAL_SEED:-26}
condition=${NLQ_TRIAL_CONDITION:-none}
mkdir -p "$out"
questions=${NLQ_TRIAL_QUESTIONS:-$out/questions.jsonl}
if [ ! -s "$questions" ]; then
  case "$sample" in
    ambiqt)
      if [ -n "${NLQ_TRIAL_AMBIQT_FILE:-}" ]; then rows=(--all --ambiqt "$NLQ_TRIAL_AMBIQT_FILE"); else rows=(--per-type "${NLQ_TRIAL_PER_TYPE:-10}"); fi
      npx tsx bench/ambiqt/load-ambiqt.ts --out "$questions" "${rows[@]}" --seed "$seed" --server "$server/postgres" \
        --report "$out/materialised.json" > "$out/sample.log" 2>&1
      ;;
    spider) npx tsx bench/readings/sample-spider-questions.ts --out "$questions" --seed "$seed" --server "$server/postgres" > "$out/sample.log" 2>&1 ;;
    defog) npx tsx bench/readings/sample-defog-questions.ts --out "$questions" --seed "$seed" --server "$server/postgres" > "$out/sample.log" 2>&1 ;;
    defog-instruct)
      if [ -n "${NLQ_TRIAL_PER_DATABASE:-}" ]; then draw=(--per-database "$NLQ_TRIAL_PER_DATABASE"); else draw=(); fi
      npx tsx bench/knowledge/sample-defog-instruct.ts --out "$questions" --condition "$condition" --seed "$seed" \
        --sets "${NLQ_TRIAL_SETS:-instruct_advanced,instruct_basic}" --server "$server/postgres" "${draw[@]}" \
        > "$out/sample.log" 2>&1
      ;;
    *) echo "sample must be ambiqt, spider, defog or defog-instruct" >&2; exit 2 ;;
  esac
  tail -n 1 "$out/sample.log"
fi
export NLQ_HOME=${NLQ_HOME:-$out/home}
export NLQ_MODEL=openai:relay OPENAI_BASE_URL=$relay OPENAI_API_KEY=relay NLQ_DEADLINE_MS=${NLQ_DEADLINE_MS:-7200000}
if [ "$sample" = defog-instruct ]; then
  # Knowledge lives in a metadata store: without NLQ_METADATA_URL, one database per <out-dir> on the trial's server.
  if [ -z "${NLQ_METADATA_URL:-}" ]; then
    store=nlq_trial_store_$(basename "$out" | tr -c 'a-z0-9_\n' _ | tr -d '\n')
    psql -q "$server/postgres" -tAc "SELECT 1 FROM pg_database WHERE datname = '$store'" | grep -q 1 ||
      psql -q "$server/postgres" -c "CREATE DATABASE $store"
    export NLQ_METADATA_URL=$server/$store
  fi
  databases=$(node -e 'const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
    console.log([...new Set(lines.map((line) => JSON.parse(line).database))].join(" "))' "$questions")
  if [ "$condition" = knowledge ]; then
    npx tsx bench/knowledge/make-defog-knowledge.ts --out-dir "$out/knowledge" > "$out/knowledge.log" 2>&1
    for database in $databases; do
      npx tsx apps/cli/src/cli/main.ts knowledge import "$out/knowledge/${database#nlq_defog_}.yaml" --replace \
        --url "$server/$database" | tee -a "$out/knowledge.log"
    done
  else
    for database in $databases; do
      held=$(npx tsx apps/cli/src/cli/main.ts knowledge list --json --no-comments --url "$server/$database" |
        node -e 'let t = ""; process.stdin.on("data", (c) => (t += c)).on("end", () => console.log(JSON.parse(t).entries.length))')
      if [ "$held" != 0 ]; then
        echo "condition $condition: the metadata store holds $held knowledge entries for $database; use a fresh NLQ_HOME" >&2
        exit 2
      fi
    done
  fi
fi
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
# Every question names its database: --url only gives the server and the user.
npx tsx apps/cli/src/cli/main.ts eval --questions "$questions" --url "$server/postgres" --preset "$preset" --json \
  > "$out/report.json" 2> "$out/eval.log"
node bench/readings/summarise-readings.mjs "$out/report.json" | tee "$out/summary.txt"
if [ -n "${NLQ_TRIAL_RELAY_DIR:-}" ]; then
  npx tsx bench/knowledge/count-prompt-characters.ts --relay-dir "$NLQ_TRIAL_RELAY_DIR" --questions "$questions" \
    --since "$started" --out "$out/prompts.json" | tee -a "$out/summary.txt"
fi
