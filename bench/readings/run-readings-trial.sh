#!/usr/bin/env bash
# The issue 26 measurement (item 5): one sample through nlq eval with the model relay (../shared/tools/model-relay),
# `openai:` provider (Responses API, strict schemas), `balanced` by default. Every request is answered by whoever
# answers the relay's queue: LLM agents for figures ("LLM agent through the model relay", never a named model's), or
# auto-answer.py for plumbing only (its SQL is SELECT 1 / SELECT 2: no accuracy figure means anything then).
#
#   bench/readings/run-readings-trial.sh <ambiqt|spider|defog> <out-dir> [relay-url] [preset]
#
# ambiqt: 10 AmbiQT examples of each type (C, T, J, P) made real by bench/ambiqt/load-ambiqt.ts, seed 26, one
#         database each (nlq_ambiqt_NN); NLQ_TRIAL_AMBIQT_FILE=<AmbiQT rows.jsonl> materialises every row of that file
#         instead (a held-out set); NLQ_TRIAL_PER_TYPE changes the 10.
# spider: 30 Spider training questions held out from tuning (bench/readings/sample-spider-questions.ts, seed 26),
#         each on a database holding only its Spider database (spider_one_<db>).
# defog:  30 defog questions the earlier trial did not draw (bench/readings/sample-defog-questions.ts, seed 26),
#         each on a database holding only its defog database (nlq_defog_<db>).
# The sample is built (and its databases loaded) into <out-dir>/questions.jsonl unless that file exists already
# (NLQ_TRIAL_QUESTIONS=<file> uses another); then nlq eval writes <out-dir>/report.json (every question) and
# summarise-readings.mjs <out-dir>/summary.txt. Run from the root of the nlq checkout measured. NLQ_HOME is
# <out-dir>/home unless set; NLQ_TRIAL_SERVER (default postgresql://postgres@127.0.0.1:5432) must be a superuser's.
set -euo pipefail
sample=$1 out=$2 relay=${3:-http://127.0.0.1:18093/v1} preset=${4:-balanced}
server=${NLQ_TRIAL_SERVER:-postgresql://postgres@127.0.0.1:5432}
seed=${NLQ_TRIAL_SEED:-26}
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
    *) echo "sample must be ambiqt, spider or defog" >&2; exit 2 ;;
  esac
  tail -n 1 "$out/sample.log"
fi
export NLQ_HOME=${NLQ_HOME:-$out/home}
export NLQ_MODEL=openai:relay OPENAI_BASE_URL=$relay OPENAI_API_KEY=relay NLQ_DEADLINE_MS=${NLQ_DEADLINE_MS:-7200000}
# Every question names its database: --url only gives the server and the user.
npx tsx apps/cli/src/cli/main.ts eval --questions "$questions" --url "$server/postgres" --preset "$preset" --json \
  > "$out/report.json" 2> "$out/eval.log"
node bench/readings/summarise-readings.mjs "$out/report.json" | tee "$out/summary.txt"
