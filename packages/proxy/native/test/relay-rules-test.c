// C-level tests of the native relay's rules (packages/proxy/native/pass-through-relay.c), against the same vectors as the
// TypeScript router (relay-rules.vectors.json, written as lines by write-relay-vectors.ts), then a bounded fuzz loop.
// Built and run by scripts/test-native-relay.mjs (`npm run test:native`, `--sanitize` for AddressSanitizer and
// UndefinedBehaviorSanitizer); run in CI by packages/proxy/src/relay/relay-rules-native.test.ts.
//
//   relay-rules-test <vectors file> [fuzz iterations] [seed]
//
// The relay's file is included whole, so its static functions are reachable: `marker_may_occur` (the marker
// pre-check) and `frame` (framing, ReadyForQuery accounting, COPY FROM STDIN, where a connection is handed back). The
// Node-API functions it calls are never called here (relay-test-node-api-stubs.c, generated, stands in for them).
//
// A stream is fed the way `on_readable` feeds it: each chunk after the bytes the side still holds; `frame` says how
// many leading bytes go on; the rest stays held. Where the relay stops (a question, a protocol error), the rest of the
// step is held too: that is what the hand-back returns to JavaScript.
#include "../pass-through-relay.c"

#include <stdio.h>

static int failures = 0;
static int checks = 0;

#define EXPECT(condition, ...)                                                                                      \
  do {                                                                                                              \
    checks++;                                                                                                       \
    if (!(condition)) {                                                                                             \
      failures++;                                                                                                   \
      fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                        \
      fputc('\n', stderr);                                                                                          \
    }                                                                                                               \
  } while (0)

// ── reading the vectors ───────────────────────────────────────────────────────────────────────────────────────

static int hex_digit(char digit) {
  if (digit >= '0' && digit <= '9') return digit - '0';
  if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
  return -1;
}

/** Decodes hex (`-` for none) into a new buffer; the length goes to `length`. Exits on malformed input. */
static uint8_t *decode_hex(const char *hex, size_t *length) {
  if (strcmp(hex, "-") == 0) {
    *length = 0;
    return calloc(1, 1);
  }
  size_t digits = strlen(hex);
  if (digits % 2 != 0) {
    fprintf(stderr, "relay-rules-test: odd hex length\n");
    exit(2);
  }
  uint8_t *bytes = malloc(digits / 2 + 1);
  if (bytes == NULL) abort();
  for (size_t index = 0; index < digits / 2; index++) {
    int high = hex_digit(hex[2 * index]), low = hex_digit(hex[2 * index + 1]);
    if (high < 0 || low < 0) {
      fprintf(stderr, "relay-rules-test: bad hex\n");
      exit(2);
    }
    bytes[index] = (uint8_t)(high << 4 | low);
  }
  *length = digits / 2;
  bytes[*length] = 0;
  return bytes;
}

/** The next space-separated field of `*line` (NUL-terminated in place). */
static char *next_field(char **line) {
  char *field = *line;
  while (*field == ' ') field++;
  char *end = field;
  while (*end != ' ' && *end != '\n' && *end != '\0') end++;
  if (*end != '\0') *end++ = '\0';
  *line = end;
  return field;
}

static long next_number(char **line) { return strtol(next_field(line), NULL, 10); }

static char *read_line(FILE *file) {
  static char *line = NULL;
  static size_t capacity = 0;
  return getline(&line, &capacity, file) < 0 ? NULL : line;
}

// ── the marker pre-check ──────────────────────────────────────────────────────────────────────────────────────

static void check_marker(char *line) {
  size_t name_length, tokens_length, text_length;
  uint8_t *name = decode_hex(next_field(&line), &name_length);
  uint8_t *tokens = decode_hex(next_field(&line), &tokens_length);
  uint8_t *text = decode_hex(next_field(&line), &text_length);
  long may_ask = next_number(&line), asks = next_number(&line);
  // A copy of exactly the text's length: a read past it is an AddressSanitizer error.
  uint8_t *exact = malloc(text_length > 0 ? text_length : 1);
  if (exact == NULL) abort();
  memcpy(exact, text, text_length);
  int found = marker_may_occur(exact, text_length, tokens, tokens_length);
  EXPECT(found == may_ask, "marker \"%s\": marker_may_occur says %d, the vector %ld", name, found, may_ask);
  EXPECT(asks != 1 || found, "marker \"%s\": the text asks but the pre-check says no", name);
  free(exact);
  free(name);
  free(tokens);
  free(text);
}

// ── streams ───────────────────────────────────────────────────────────────────────────────────────────────────

typedef struct {
  int side;
  uint8_t *bytes;
  size_t length;
  size_t *cuts;
  size_t cut_count;
} stream_step;

typedef struct {
  enum stop_reason stop;
  size_t forwarded[2];
  size_t held[2];
  uint32_t pending_ready;
  int forwarded_since_sync;
  uint8_t ready_status;
  int copy_in;
  uint32_t syncs_after_command;
} stream_outcome;

typedef struct {
  uint32_t pending_ready;
  int forwarded_since_sync;
  uint8_t ready_status;
  int copy_in;
  uint32_t syncs_after_command;
} start_state;

static void start_connection(relay_connection *connection, const start_state *start, uint8_t *tokens,
                             size_t tokens_length) {
  memset(connection, 0, sizeof *connection);
  connection->marker = tokens;
  connection->marker_length = tokens_length;
  connection->pending_ready = start->pending_ready;
  connection->forwarded_since_sync = start->forwarded_since_sync;
  connection->ready_status = start->ready_status;
  connection->copy_in = start->copy_in;
  connection->syncs_after_command = start->syncs_after_command;
}

/** Appends `bytes` to what the side holds and frames it all, as `on_readable` does; returns the bytes forwarded. */
static size_t feed(relay_connection *connection, int side, const uint8_t *bytes, size_t length) {
  byte_buffer *held = &connection->sides[side].input;
  byte_buffer data = {0};
  if (!buffer_append(&data, held->data, held->length) || !buffer_append(&data, bytes, length)) abort();
  // Exactly the bytes read, in a buffer of their size (no slack for an over-read to hide in).
  uint8_t *exact = malloc(data.length > 0 ? data.length : 1);
  if (exact == NULL) abort();
  memcpy(exact, data.data, data.length);
  size_t forward = frame(connection, side, exact, data.length);
  if (forward > data.length) abort();
  held->length = 0;
  if (!buffer_append(held, exact + forward, data.length - forward)) abort();
  free(exact);
  buffer_free(&data);
  return forward;
}

/** Feeds every step, each cut at `cuts` (NULL: whole), and says what came of it. */
static stream_outcome run_stream(const start_state *start, uint8_t *tokens, size_t tokens_length,
                                 const stream_step *steps, size_t step_count, int use_cuts) {
  relay_connection connection;
  start_connection(&connection, start, tokens, tokens_length);
  stream_outcome outcome = {0};
  for (size_t step_index = 0; step_index < step_count && connection.stop == STOP_NONE; step_index++) {
    const stream_step *step = &steps[step_index];
    size_t from = 0;
    size_t cut_count = use_cuts ? step->cut_count : 0;
    for (size_t cut = 0; cut <= cut_count && connection.stop == STOP_NONE; cut++) {
      size_t to = cut < cut_count ? step->cuts[cut] : step->length;
      outcome.forwarded[step->side] += feed(&connection, step->side, step->bytes + from, to - from);
      from = to;
    }
    // Stopped: the rest of the step was read too, and is held with the message that stopped the relaying.
    if (!buffer_append(&connection.sides[step->side].input, step->bytes + from, step->length - from)) abort();
  }
  outcome.stop = connection.stop;
  for (int side = 0; side < 2; side++) {
    outcome.held[side] = connection.sides[side].input.length;
    buffer_free(&connection.sides[side].input);
  }
  outcome.pending_ready = connection.pending_ready;
  outcome.forwarded_since_sync = connection.forwarded_since_sync;
  outcome.ready_status = connection.ready_status;
  outcome.copy_in = connection.copy_in;
  outcome.syncs_after_command = connection.syncs_after_command;
  return outcome;
}

static const char *const STOP_NAMES[] = {"none", "question", "release", "protocol", "client-closed",
                                         "upstream-closed", "client-ended"};

/**
 * `loose`: a protocol stop, where JavaScript ends the connection: it may have passed on (and so routed) fewer of the
 * ordinary messages before the bad header in the same chunk than the relay, so forwarded and held bytes and
 * forwarded-since-sync are not compared; the decision, the ReadyForQuery count, the status and COPY are.
 */
static void compare(const char *name, const char *strategy, const stream_outcome *got, const stream_outcome *want,
                    int loose) {
  EXPECT(got->stop == want->stop, "stream \"%s\" (%s): stop %s, expected %s", name, strategy, STOP_NAMES[got->stop],
         STOP_NAMES[want->stop]);
  for (int side = 0; side < 2 && !loose; side++) {
    const char *side_name = side == CLIENT ? "client" : "upstream";
    EXPECT(got->forwarded[side] == want->forwarded[side], "stream \"%s\" (%s): forwarded %zu %s bytes, expected %zu",
           name, strategy, got->forwarded[side], side_name, want->forwarded[side]);
    EXPECT(got->held[side] == want->held[side], "stream \"%s\" (%s): holds %zu %s bytes, expected %zu", name, strategy,
           got->held[side], side_name, want->held[side]);
  }
  EXPECT(got->pending_ready == want->pending_ready, "stream \"%s\" (%s): pendingReady %u, expected %u", name, strategy,
         got->pending_ready, want->pending_ready);
  EXPECT(loose || got->forwarded_since_sync == want->forwarded_since_sync,
         "stream \"%s\" (%s): forwardedSinceSync %d, expected %d", name, strategy, got->forwarded_since_sync,
         want->forwarded_since_sync);
  EXPECT(got->ready_status == want->ready_status, "stream \"%s\" (%s): readyStatus '%c', expected '%c'", name,
         strategy, got->ready_status, want->ready_status);
  EXPECT(got->copy_in == want->copy_in, "stream \"%s\" (%s): copyIn %d, expected %d", name, strategy, got->copy_in,
         want->copy_in);
  EXPECT(got->syncs_after_command == want->syncs_after_command,
         "stream \"%s\" (%s): syncsAfterCommand %u, expected %u", name, strategy, got->syncs_after_command,
         want->syncs_after_command);
}

static void check_stream(char *line, FILE *file) {
  size_t name_length, tokens_length;
  uint8_t *name = decode_hex(next_field(&line), &name_length);
  uint8_t *tokens = decode_hex(next_field(&line), &tokens_length);
  start_state start;
  start.pending_ready = (uint32_t)next_number(&line);
  start.forwarded_since_sync = (int)next_number(&line);
  start.ready_status = (uint8_t)next_number(&line);
  start.copy_in = (int)next_number(&line);
  start.syncs_after_command = (uint32_t)next_number(&line);
  size_t step_count = (size_t)next_number(&line);
  stream_step *steps = calloc(step_count, sizeof *steps);
  if (steps == NULL) abort();
  for (size_t index = 0; index < step_count; index++) {
    char *step_line = read_line(file);
    if (step_line == NULL || strcmp(next_field(&step_line), "step") != 0) exit(2);
    steps[index].side = strcmp(next_field(&step_line), "c") == 0 ? CLIENT : UPSTREAM;
    steps[index].bytes = decode_hex(next_field(&step_line), &steps[index].length);
  }
  char *expect_line = read_line(file);
  if (expect_line == NULL || strcmp(next_field(&expect_line), "expect") != 0) exit(2);
  stream_outcome want = {0};
  long stop = next_number(&expect_line);
  want.stop = stop == 0 ? STOP_NONE : stop == 1 ? STOP_QUESTION : STOP_PROTOCOL;
  want.forwarded[CLIENT] = (size_t)next_number(&expect_line);
  want.forwarded[UPSTREAM] = (size_t)next_number(&expect_line);
  want.held[CLIENT] = (size_t)next_number(&expect_line);
  want.held[UPSTREAM] = (size_t)next_number(&expect_line);
  want.pending_ready = (uint32_t)next_number(&expect_line);
  want.forwarded_since_sync = (int)next_number(&expect_line);
  want.ready_status = (uint8_t)next_number(&expect_line);
  want.copy_in = (int)next_number(&expect_line);
  want.syncs_after_command = (uint32_t)next_number(&expect_line);
  int loose = (int)next_number(&expect_line);
  for (;;) {
    char *chunking_line = read_line(file);
    if (chunking_line == NULL) exit(2);
    char *kind = next_field(&chunking_line);
    if (strcmp(kind, "end") == 0) break;
    if (strcmp(kind, "chunking") != 0) exit(2);
    size_t strategy_length;
    uint8_t *strategy = decode_hex(next_field(&chunking_line), &strategy_length);
    for (size_t index = 0; index < step_count; index++) {
      char *cuts_line = read_line(file);
      if (cuts_line == NULL || strcmp(next_field(&cuts_line), "cuts") != 0) exit(2);
      free(steps[index].cuts);
      steps[index].cut_count = (size_t)next_number(&cuts_line);
      steps[index].cuts = calloc(steps[index].cut_count + 1, sizeof(size_t));
      if (steps[index].cuts == NULL) abort();
      for (size_t cut = 0; cut < steps[index].cut_count; cut++) steps[index].cuts[cut] = (size_t)next_number(&cuts_line);
    }
    stream_outcome got = run_stream(&start, tokens, tokens_length, steps, step_count, 1);
    compare((const char *)name, (const char *)strategy, &got, &want, loose);
    free(strategy);
  }
  for (size_t index = 0; index < step_count; index++) {
    free(steps[index].bytes);
    free(steps[index].cuts);
  }
  free(steps);
  free(tokens);
  free(name);
}

// ── the fuzz loop ─────────────────────────────────────────────────────────────────────────────────────────────

static uint64_t fuzz_state;

static uint32_t fuzz_next(void) {
  fuzz_state ^= fuzz_state << 13;
  fuzz_state ^= fuzz_state >> 7;
  fuzz_state ^= fuzz_state << 17;
  return (uint32_t)(fuzz_state >> 16);
}

static void put_length(uint8_t *at, uint32_t value) {
  at[0] = (uint8_t)(value >> 24);
  at[1] = (uint8_t)(value >> 16);
  at[2] = (uint8_t)(value >> 8);
  at[3] = (uint8_t)value;
}

/** A random stream: mostly well-framed messages of the types the relay looks at, with markers, now and then an
 * impossible length or a cut-off end. */
static size_t fuzz_stream(uint8_t *bytes, size_t capacity) {
  static const char types[] = "QPSFHBDECdcXZGpf";
  static const char *const pieces[] = {"/*", "--", "nl", "NL", ":", " ", "\r", "\n", "\v", "*/", "select 1", "x",
                                       "-", "/", "ask", "\0"};
  size_t length = 0;
  int messages = 1 + (int)(fuzz_next() % 12);
  for (int message = 0; message < messages && length + 5 < capacity; message++) {
    size_t start = length;
    bytes[length] = (uint8_t)types[fuzz_next() % (sizeof types - 1)];
    length += 5;
    int parts = (int)(fuzz_next() % 10);
    for (int part = 0; part < parts; part++) {
      const char *piece = pieces[fuzz_next() % (sizeof pieces / sizeof pieces[0])];
      size_t piece_length = piece[0] == '\0' ? 1 : strlen(piece);
      if (length + piece_length > capacity) break;
      memcpy(bytes + length, piece, piece_length);
      length += piece_length;
    }
    uint32_t declared = (uint32_t)(length - start - 1);
    uint32_t roll = fuzz_next() % 64;
    if (roll == 0) declared = fuzz_next() % 4;
    else if (roll == 1) declared = 0x40000000u + 1 + fuzz_next() % 16;
    else if (roll == 2) declared = 0xffffffffu - fuzz_next() % 4;
    else if (roll == 3) declared += fuzz_next() % 64;
    put_length(bytes + start + 1, declared);
  }
  if (fuzz_next() % 8 == 0 && length > 0) length -= fuzz_next() % (length < 7 ? length : 7);
  return length;
}

/** Whatever the cuts, a stream frames to the same outcome; and nothing reads out of bounds (the sanitizers). */
static void fuzz(long iterations, uint64_t seed) {
  static const char *const markers[] = {"\x01n\x01l\x02", "\x01" "a\x01s\x01k\x02", "\x01n\x01l\x03\x01x\x02",
                                        "\x04\x01?"};
  static const size_t marker_lengths[] = {5, 7, 8, 3};
  uint8_t stream[512];
  fuzz_state = seed * 0x9e3779b97f4a7c15ull + 1;
  for (long iteration = 0; iteration < iterations; iteration++) {
    int marker = (int)(fuzz_next() % 4);
    uint8_t *tokens = malloc(marker_lengths[marker]);
    if (tokens == NULL) abort();
    memcpy(tokens, markers[marker], marker_lengths[marker]);
    start_state start = {fuzz_next() % 3, (int)(fuzz_next() % 2), "ITE"[fuzz_next() % 3], (int)(fuzz_next() % 4 == 0),
                         fuzz_next() % 3};
    stream_step step = {.side = fuzz_next() % 4 == 0 ? UPSTREAM : CLIENT};
    step.length = fuzz_stream(stream, sizeof stream);
    step.bytes = malloc(step.length > 0 ? step.length : 1);
    if (step.bytes == NULL) abort();
    memcpy(step.bytes, stream, step.length);
    size_t cuts[8];
    step.cuts = cuts;
    step.cut_count = 0;
    size_t last = 0;
    for (int cut = 0; cut < 8 && step.length > 0; cut++) {
      size_t at = last + fuzz_next() % (step.length / 4 + 1);
      if (at <= last || at >= step.length) continue;
      cuts[step.cut_count++] = at;
      last = at;
    }
    stream_outcome whole = run_stream(&start, tokens, marker_lengths[marker], &step, 1, 0);
    stream_outcome cut = run_stream(&start, tokens, marker_lengths[marker], &step, 1, 1);
    char label[64];
    snprintf(label, sizeof label, "fuzz iteration %ld", iteration);
    compare(label, "random cuts against whole", &cut, &whole, 0);
    EXPECT(whole.forwarded[step.side] + whole.held[step.side] == step.length,
           "%s: forwarded and held bytes do not add up", label);
    // The pre-check over raw random bytes (no message around them).
    marker_may_occur(step.bytes, step.length, tokens, marker_lengths[marker]);
    free(step.bytes);
    free(tokens);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: relay-rules-test <vectors file> [fuzz iterations] [seed]\n");
    return 2;
  }
  FILE *file = fopen(argv[1], "r");
  if (file == NULL) {
    perror(argv[1]);
    return 2;
  }
  int markers = 0, streams = 0;
  char *line;
  while ((line = read_line(file)) != NULL) {
    char *kind = next_field(&line);
    if (strcmp(kind, "marker") == 0) {
      check_marker(line);
      markers++;
    } else if (strcmp(kind, "stream") == 0) {
      check_stream(line, file);
      streams++;
    } else if (kind[0] != '\0') {
      fprintf(stderr, "relay-rules-test: unknown line \"%s\"\n", kind);
      return 2;
    }
  }
  fclose(file);
  long iterations = argc > 2 ? strtol(argv[2], NULL, 10) : 20000;
  uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
  fuzz(iterations, seed);
  printf("relay-rules-test: %d marker and head vectors, %d stream vectors, %ld fuzz iterations (seed %llu): "
         "%d checks, %d failed\n",
         markers, streams, iterations, (unsigned long long)seed, checks, failures);
  return failures == 0 ? 0 : 1;
}
