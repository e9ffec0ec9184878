// The native pass-through relay of the nlq proxy: moves the bytes of ordinary SQL between a client and its upstream
// PostgreSQL connection on one thread of its own (epoll, non-blocking read/send), and hands a connection back to
// JavaScript the moment something needs the proxy's attention.
//
// Why: in Node.js every read and write of the pass-through path crosses libuv, the stream layer and the entry into
// JavaScript; a bare Node relay already costs about 1.5× PgBouncer's CPU per transaction (BENCHMARKS.md). This relay
// does what PgBouncer does per message: frame the five-byte headers in both directions, look at the few messages that
// matter, and forward the rest with one system call per received chunk. See docs/decisions/2026-11-26-native-relay.md.
//
// What it looks at, mirroring packages/proxy/src/session/client-message-router.ts and proxy-connection.ts:
// - client Query (Q) and Parse (P), whole: one whose text holds a comment opener followed by the question marker is
//   not forwarded; the connection is handed back with that message first (reason "question");
// - client Query, Sync (S) and FunctionCall (F) each make the upstream owe one ReadyForQuery; every other client
//   message marks "extended messages forwarded since the last Sync"; the Syncs since the last Execute (E), Query or
//   FunctionCall are counted, for a COPY that Execute may start (below);
// - upstream ReadyForQuery (Z), whole: the transaction status and one owed ReadyForQuery less.
// A message length outside PostgreSQL's limits is handed back unforwarded (reason "protocol"): JavaScript answers it.
// - upstream CopyInResponse (G) starts COPY FROM STDIN, CommandComplete (C), ErrorResponse (E) or ReadyForQuery ends
//   it (type bytes only), and so does the client's CopyDone (c) or CopyFail (f); meanwhile client messages are passed
//   on as PostgreSQL takes them (a Query or Parse is a protocol violation of the COPY, never a question; Sync owes no
//   ReadyForQuery; none marks forwarded-since-sync). A COPY started by an Execute reads the Syncs sent after it as part
//   of the COPY (PostgreSQL ignores them: libpq sends another after CopyDone or CopyFail, and that one is answered):
//   at its CopyInResponse they owe no ReadyForQuery any more, and their batch is open again (forwarded-since-sync).
// A socket error on either side, or the upstream's end of stream, hands the connection back at once ("client-closed",
// "upstream-closed"); the client's end of stream (it shut down its sending side and still reads) hands it back at the
// next message boundary ("client-ended"), so that it still gets its results. JavaScript asks for a connection back
// (`release`) before it shuts down; the relay returns it at the first point where both directions are at a message
// boundary, and alone writes to its sockets until then.
//
// The sockets stay owned by Node.js (libuv handles whose reading JavaScript stopped before adopting them), except for a
// parked connection (`adopt` with ownsDescriptors): the relay duplicates both descriptors, JavaScript closes its own
// sockets and keeps no object for the session, and the duplicates go back with the hand-back (JavaScript wraps them in
// new sockets); the relay closes them itself only when the connection is detached or the relay stops. Everything a connection holds when handed back (bytes read and not forwarded, bytes not yet
// written) goes back to JavaScript with it, so no byte is lost or reordered.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

enum { CLIENT = 0, UPSTREAM = 1 };

enum stop_reason {
  STOP_NONE = 0,
  STOP_QUESTION,
  STOP_RELEASE,
  STOP_PROTOCOL,
  STOP_CLIENT_CLOSED,
  STOP_UPSTREAM_CLOSED,
  STOP_CLIENT_ENDED,
};

static const char *const STOP_REASON_NAMES[] = {
    "", "question", "release", "protocol", "client-closed", "upstream-closed", "client-ended",
};

/** Bytes read per system call (one shared buffer for the relay thread: an idle connection holds no buffer). */
#define READ_SIZE 65536
/** A client Query or Parse longer than this is decided on its head (the marker there or not), never held whole. */
#define LARGE_MESSAGE_BYTES (1024u * 1024u)
/** PostgreSQL's own limit on a message's length. */
#define MAXIMUM_MESSAGE_LENGTH 0x40000000u
/** Connection slots: an id is generation << SLOT_BITS | slot. */
#define SLOT_BITS 20
#define SLOT_MASK ((1u << SLOT_BITS) - 1)
/** The epoll key of the wake-up eventfd (a connection key is id << 1 | side, never all ones). */
#define WAKE_KEY UINT64_MAX

typedef struct {
  uint8_t *data;
  size_t length;
  size_t capacity;
} byte_buffer;

typedef struct {
  int fd;
  /** Bytes read from this side and not forwarded yet: they start at a message boundary. */
  byte_buffer input;
  /** Bytes of the current forwarded (not inspected) message that have not been read yet. */
  uint32_t streaming;
  /** Bytes for this side that a send could not take yet (written from `output_offset`). */
  byte_buffer output;
  size_t output_offset;
  /** The epoll events registered for this side. */
  uint32_t interest;
} relay_side;

typedef struct {
  uint64_t id;
  relay_side sides[2];
  /** ReadyForQuery messages the upstream owes (forwarded Query, Sync, FunctionCall). */
  uint32_t pending_ready;
  /** Extended-protocol messages went upstream since the last Sync (or since the upstream owed nothing). */
  int forwarded_since_sync;
  /** The transaction status of the last ReadyForQuery ('I', 'T', 'E'). */
  uint8_t ready_status;
  /**
   * The upstream sent CopyInResponse and the COPY has not ended yet (upstream CommandComplete, ErrorResponse,
   * ReadyForQuery; client CopyDone, CopyFail).
   */
  int copy_in;
  /** Syncs forwarded (outside COPY) since the client's last Execute, Query or FunctionCall. */
  uint32_t syncs_after_command;
  enum stop_reason stop;
  /** The question marker, encoded by JavaScript (`QuestionMarker.encodedTokens`). */
  uint8_t *marker;
  size_t marker_length;
  /** The descriptors are the relay's own duplicates (a parked connection): closed when freed, unless handed back. */
  int owns_descriptors;
} relay_connection;

/** A connection handed back: what JavaScript needs to take it over. Freed once delivered. */
typedef struct {
  uint64_t id;
  enum stop_reason reason;
  uint32_t pending_ready;
  int forwarded_since_sync;
  uint8_t ready_status;
  int copy_in;
  uint32_t syncs_after_command;
  byte_buffer client_input;
  byte_buffer upstream_input;
  byte_buffer to_client;
  byte_buffer to_upstream;
  /** A parked connection's descriptors, now JavaScript's (-1 otherwise); closed here if never delivered. */
  int client_fd;
  int upstream_fd;
} hand_back;

typedef struct {
  napi_env env;
  int epoll_fd;
  int wake_fd;
  pthread_t thread;
  int thread_started;
  pthread_mutex_t mutex;
  int stopping;
  napi_threadsafe_function deliver;
  /** Adopted connections not yet handed back (kept on the JavaScript thread: it refs the delivery while > 0). */
  uint32_t adopted;
  relay_connection **slots;
  uint32_t *generations;
  uint32_t slot_count;
  uint32_t *free_slots;
  uint32_t free_count;
  uint8_t scratch[READ_SIZE];
} relay;

// ── bytes ─────────────────────────────────────────────────────────────────────────────────────────────────────

static int buffer_reserve(byte_buffer *buffer, size_t capacity) {
  if (buffer->capacity >= capacity) return 1;
  size_t grown = buffer->capacity == 0 ? 256 : buffer->capacity;
  while (grown < capacity) grown *= 2;
  uint8_t *data = realloc(buffer->data, grown);
  if (data == NULL) return 0;
  buffer->data = data;
  buffer->capacity = grown;
  return 1;
}

static int buffer_append(byte_buffer *buffer, const uint8_t *bytes, size_t length) {
  if (length == 0) return 1;
  if (!buffer_reserve(buffer, buffer->length + length)) return 0;
  memcpy(buffer->data + buffer->length, bytes, length);
  buffer->length += length;
  return 1;
}

static void buffer_free(byte_buffer *buffer) {
  free(buffer->data);
  buffer->data = NULL;
  buffer->length = 0;
  buffer->capacity = 0;
}

static uint32_t read_length(const uint8_t *bytes) {
  return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | (uint32_t)bytes[3];
}

// ── the question marker (the byte-level twin of QuestionMarker.mayOccurInBytes) ───────────────────────────────

enum { TOKEN_LETTER = 1, TOKEN_COLON = 2, TOKEN_SPACE = 3, TOKEN_BYTES = 4 };

static int is_whitespace(uint8_t byte) {
  return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r' || byte == '\f' || byte == '\v';
}

static size_t skip_whitespace(const uint8_t *bytes, size_t length, size_t position) {
  while (position < length && is_whitespace(bytes[position])) position++;
  return position;
}

static int marker_matches_at(const uint8_t *bytes, size_t length, size_t position, const uint8_t *tokens,
                             size_t tokens_length) {
  size_t token = 0;
  while (token < tokens_length) {
    switch (tokens[token]) {
      case TOKEN_LETTER:
        if (position >= length || (bytes[position] | 0x20) != tokens[token + 1]) return 0;
        position++;
        token += 2;
        break;
      case TOKEN_COLON:
        position = skip_whitespace(bytes, length, position);
        if (position >= length || bytes[position] != ':') return 0;
        position = skip_whitespace(bytes, length, position + 1);
        token += 1;
        break;
      case TOKEN_SPACE:
        position = skip_whitespace(bytes, length, position);
        token += 1;
        break;
      case TOKEN_BYTES: {
        size_t count = tokens[token + 1];
        if (position + count > length || memcmp(bytes + position, tokens + token + 2, count) != 0) return 0;
        position += count;
        token += 2 + count;
        break;
      }
      default:
        return 0;
    }
  }
  return 1;
}

/** Whether `bytes` hold a comment opener (slash-star or two dashes) followed by the marker. */
static int marker_may_occur(const uint8_t *bytes, size_t length, const uint8_t *tokens, size_t tokens_length) {
  static const char *const openers[] = {"/*", "--"};
  for (int opener = 0; opener < 2; opener++) {
    size_t from = 0;
    while (from + 1 < length) {
      const uint8_t *found = memmem(bytes + from, length - from, openers[opener], 2);
      if (found == NULL) break;
      size_t at = (size_t)(found - bytes);
      if (marker_matches_at(bytes, length, skip_whitespace(bytes, length, at + 2), tokens, tokens_length)) return 1;
      from = at + 1;
    }
  }
  return 0;
}

// ── connections ───────────────────────────────────────────────────────────────────────────────────────────────

static relay_connection *find_connection(relay *relay_state, uint64_t id) {
  uint32_t slot = (uint32_t)(id & SLOT_MASK);
  if (slot >= relay_state->slot_count) return NULL;
  relay_connection *connection = relay_state->slots[slot];
  return connection != NULL && connection->id == id ? connection : NULL;
}

static void set_interest(relay *relay_state, relay_connection *connection, int side_index, uint32_t events) {
  relay_side *side = &connection->sides[side_index];
  if (side->interest == events) return;
  struct epoll_event event = {.events = events, .data.u64 = (connection->id << 1) | (uint64_t)side_index};
  epoll_ctl(relay_state->epoll_fd, EPOLL_CTL_MOD, side->fd, &event);
  side->interest = events;
}

/**
 * Reads a side only while the other side has nothing pending (backpressure, as PgBouncer does); while stopping, only
 * a side in the middle of a forwarded message is read, up to its end.
 */
static void update_interest(relay *relay_state, relay_connection *connection) {
  for (int side_index = 0; side_index < 2; side_index++) {
    relay_side *side = &connection->sides[side_index];
    relay_side *other = &connection->sides[1 - side_index];
    int may_read = other->output.length == 0 && (connection->stop == STOP_NONE || side->streaming > 0);
    uint32_t events = (may_read ? EPOLLIN : 0) | (side->output.length > 0 ? EPOLLOUT : 0);
    set_interest(relay_state, connection, side_index, events);
  }
}

static void free_connection(relay *relay_state, relay_connection *connection) {
  uint32_t slot = (uint32_t)(connection->id & SLOT_MASK);
  for (int side_index = 0; side_index < 2; side_index++) {
    epoll_ctl(relay_state->epoll_fd, EPOLL_CTL_DEL, connection->sides[side_index].fd, NULL);
    if (connection->owns_descriptors) close(connection->sides[side_index].fd);
    buffer_free(&connection->sides[side_index].input);
    buffer_free(&connection->sides[side_index].output);
  }
  relay_state->slots[slot] = NULL;
  relay_state->generations[slot]++;
  relay_state->free_slots[relay_state->free_count++] = slot;
  free(connection->marker);
  free(connection);
}

/** Moves what the connection holds into a hand-back and frees the connection. */
static hand_back *take_hand_back(relay *relay_state, relay_connection *connection, enum stop_reason reason) {
  hand_back *taken = calloc(1, sizeof(hand_back));
  if (taken == NULL) abort();
  taken->id = connection->id;
  taken->reason = reason;
  taken->pending_ready = connection->pending_ready;
  taken->forwarded_since_sync = connection->forwarded_since_sync;
  taken->ready_status = connection->ready_status;
  taken->copy_in = connection->copy_in;
  taken->syncs_after_command = connection->syncs_after_command;
  taken->client_fd = connection->owns_descriptors ? connection->sides[CLIENT].fd : -1;
  taken->upstream_fd = connection->owns_descriptors ? connection->sides[UPSTREAM].fd : -1;
  // The descriptors go with the hand-back: freeing the connection must not close them.
  connection->owns_descriptors = 0;
  relay_side *client = &connection->sides[CLIENT];
  relay_side *upstream = &connection->sides[UPSTREAM];
  taken->client_input = client->input;
  taken->upstream_input = upstream->input;
  client->input = (byte_buffer){0};
  upstream->input = (byte_buffer){0};
  // What a send did not take yet, from where it stopped.
  if (!buffer_append(&taken->to_client, client->output.data + client->output_offset,
                     client->output.length - client->output_offset) ||
      !buffer_append(&taken->to_upstream, upstream->output.data + upstream->output_offset,
                     upstream->output.length - upstream->output_offset))
    abort();
  free_connection(relay_state, connection);
  return taken;
}

static void free_hand_back(hand_back *taken) {
  if (taken->client_fd >= 0) close(taken->client_fd);
  if (taken->upstream_fd >= 0) close(taken->upstream_fd);
  buffer_free(&taken->client_input);
  buffer_free(&taken->upstream_input);
  buffer_free(&taken->to_client);
  buffer_free(&taken->to_upstream);
  free(taken);
}

/** Hands the connection back through the thread-safe function (relay thread). */
static void deliver_hand_back(relay *relay_state, relay_connection *connection, enum stop_reason reason) {
  hand_back *taken = take_hand_back(relay_state, connection, reason);
  if (napi_call_threadsafe_function(relay_state->deliver, taken, napi_tsfn_nonblocking) != napi_ok)
    free_hand_back(taken);
}

/** A stopping connection goes back once both directions are at a message boundary (at once when it closed). */
static int hand_back_if_ready(relay *relay_state, relay_connection *connection) {
  if (connection->stop == STOP_NONE) return 0;
  int closed = connection->stop == STOP_CLIENT_CLOSED || connection->stop == STOP_UPSTREAM_CLOSED;
  if (!closed && (connection->sides[CLIENT].streaming > 0 || connection->sides[UPSTREAM].streaming > 0)) return 0;
  deliver_hand_back(relay_state, connection, connection->stop);
  return 1;
}

static void stop_connection(relay_connection *connection, enum stop_reason reason) {
  // A closed side ends the relaying whatever stop was under way.
  if (connection->stop == STOP_NONE || reason == STOP_CLIENT_CLOSED || reason == STOP_UPSTREAM_CLOSED)
    connection->stop = reason;
}

static enum stop_reason closed_reason(int side_index) {
  return side_index == CLIENT ? STOP_CLIENT_CLOSED : STOP_UPSTREAM_CLOSED;
}

/** Sends `bytes` to a side after what it has pending; keeps what the socket does not take. False when it failed. */
static int send_to(relay_connection *connection, int side_index, const uint8_t *bytes, size_t length) {
  relay_side *side = &connection->sides[side_index];
  if (length == 0) return 1;
  size_t sent = 0;
  if (side->output.length == 0) {
    for (;;) {
      ssize_t written = send(side->fd, bytes + sent, length - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (written > 0) {
        sent += (size_t)written;
        if (sent == length) return 1;
        continue;
      }
      if (written < 0 && errno == EINTR) continue;
      if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      return 0;
    }
  }
  if (!buffer_append(&side->output, bytes + sent, length - sent)) abort();
  return 1;
}

static void on_writable(relay *relay_state, relay_connection *connection, int side_index) {
  relay_side *side = &connection->sides[side_index];
  while (side->output_offset < side->output.length) {
    ssize_t written = send(side->fd, side->output.data + side->output_offset, side->output.length - side->output_offset,
                           MSG_NOSIGNAL | MSG_DONTWAIT);
    if (written > 0) {
      side->output_offset += (size_t)written;
      continue;
    }
    if (written < 0 && errno == EINTR) continue;
    if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    stop_connection(connection, closed_reason(side_index));
    hand_back_if_ready(relay_state, connection);
    return;
  }
  if (side->output_offset == side->output.length) {
    buffer_free(&side->output);
    side->output_offset = 0;
  }
  update_interest(relay_state, connection);
}

/**
 * An upstream message's type byte: CopyInResponse starts COPY FROM STDIN (the Syncs forwarded after the command that
 * started it are part of it: they owe no ReadyForQuery, and their batch is open again); CommandComplete, ErrorResponse
 * or ReadyForQuery ends it. As CopyInState.note and ClientMessageRouter.noteUpstream.
 */
static void note_copy_in(relay_connection *connection, uint8_t type) {
  if (type == 'G') {
    connection->copy_in = 1;
    uint32_t ignored = connection->syncs_after_command;
    connection->syncs_after_command = 0;
    if (ignored > 0) {
      connection->pending_ready = connection->pending_ready > ignored ? connection->pending_ready - ignored : 0;
      connection->forwarded_since_sync = 1;
    }
  } else if (type == 'C' || type == 'E' || type == 'Z') {
    connection->copy_in = 0;
  }
}

/**
 * Frames `length` bytes read from a side (starting at a message boundary, or inside a forwarded message while
 * `streaming`), updating the connection's state. Returns how many leading bytes may be forwarded; the rest (a partial
 * header, a partial inspected message, or the message that stopped the relaying) stays with the side.
 */
static size_t frame(relay_connection *connection, int side_index, const uint8_t *bytes, size_t length) {
  relay_side *side = &connection->sides[side_index];
  size_t position = 0;
  while (position < length) {
    if (side->streaming > 0) {
      size_t take = length - position < side->streaming ? length - position : side->streaming;
      position += take;
      side->streaming -= (uint32_t)take;
      continue;
    }
    // Stopping: go no further than the first boundary.
    if (connection->stop != STOP_NONE) break;
    if (length - position < 5) break;
    uint8_t type = bytes[position];
    uint32_t declared = read_length(bytes + position + 1);
    if (declared < 4 || declared > MAXIMUM_MESSAGE_LENGTH) {
      stop_connection(connection, STOP_PROTOCOL);
      break;
    }
    size_t total = (size_t)declared + 1;
    if (side_index == UPSTREAM) note_copy_in(connection, type);
    int inspected = side_index == CLIENT ? (type == 'Q' || type == 'P') : type == 'Z';
    if (inspected) {
      // A client Query or Parse is looked at whole, or, past LARGE_MESSAGE_BYTES, on its head only: without the marker
      // there it streams on (as packages/proxy/src/session/client-message-router.ts `routeLarge`).
      size_t seen = length - position < total ? length - position : total;
      int large = side_index == CLIENT && total > LARGE_MESSAGE_BYTES;
      if (seen < total && !(large && seen >= LARGE_MESSAGE_BYTES)) break;
      size_t looked_at = large ? LARGE_MESSAGE_BYTES : total;
      if (side_index == CLIENT && connection->copy_in) {
        // During COPY FROM STDIN PostgreSQL takes a Query or Parse as a protocol violation (ERROR, then FATAL 08P01:
        // the session ends): passed on as it is, never a question, owing no ReadyForQuery of its own.
      } else if (side_index == CLIENT) {
        if (marker_may_occur(bytes + position + 5, looked_at - 5, connection->marker, connection->marker_length)) {
          stop_connection(connection, STOP_QUESTION);
          break;
        }
        if (type == 'Q') {
          connection->pending_ready++;
          connection->forwarded_since_sync = 0;
          connection->syncs_after_command = 0;
        } else {
          connection->forwarded_since_sync = 1;
        }
      } else {
        if (total < 6) {
          stop_connection(connection, STOP_PROTOCOL);
          break;
        }
        connection->ready_status = bytes[position + 5];
        if (connection->pending_ready > 0) connection->pending_ready--;
        if (connection->pending_ready == 0) connection->forwarded_since_sync = 0;
      }
      if (seen < total) side->streaming = (uint32_t)(total - seen);
      position += seen;
      continue;
    }
    if (side_index == CLIENT && connection->copy_in) {
      // PostgreSQL takes every message during COPY FROM STDIN as part of the COPY (CopyData, CopyDone, CopyFail; a Sync
      // or Flush it ignores; anything else ends the COPY with an error): none owes a ReadyForQuery or opens an
      // extended-protocol batch (as CopyInState in client-message-router.ts; relay-rules.vectors.json). The client's
      // CopyDone or CopyFail ends it: what follows is read as usual.
      if (type == 'c' || type == 'f') connection->copy_in = 0;
    } else if (side_index == CLIENT) {
      if (type == 'S') {
        connection->pending_ready++;
        connection->forwarded_since_sync = 0;
        connection->syncs_after_command++;
      } else if (type == 'F') {
        connection->pending_ready++;
        connection->syncs_after_command = 0;
      } else {
        connection->forwarded_since_sync = 1;
        if (type == 'E') connection->syncs_after_command = 0;
      }
    }
    if (length - position >= total) {
      position += total;
    } else {
      side->streaming = (uint32_t)(total - (length - position));
      position = length;
    }
  }
  return position;
}

static void on_readable(relay *relay_state, relay_connection *connection, int side_index) {
  relay_side *side = &connection->sides[side_index];
  int other_index = 1 - side_index;
  const uint8_t *bytes;
  size_t length;
  ssize_t received;
  if (side->input.length == 0) {
    do received = recv(side->fd, relay_state->scratch, READ_SIZE, MSG_DONTWAIT);
    while (received < 0 && errno == EINTR);
    bytes = relay_state->scratch;
    length = received > 0 ? (size_t)received : 0;
  } else {
    if (!buffer_reserve(&side->input, side->input.length + READ_SIZE)) abort();
    do received = recv(side->fd, side->input.data + side->input.length, READ_SIZE, MSG_DONTWAIT);
    while (received < 0 && errno == EINTR);
    if (received > 0) side->input.length += (size_t)received;
    bytes = side->input.data;
    length = side->input.length;
  }
  if (received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
  if (received <= 0) {
    // A client that only shut down its sending side still gets the results of what it sent, as from PostgreSQL: the
    // connection goes back at the next message boundary (as for a release); JavaScript finishes and closes it.
    if (received == 0 && side_index == CLIENT && side->streaming == 0)
      stop_connection(connection, STOP_CLIENT_ENDED);
    else
      stop_connection(connection, closed_reason(side_index));
    hand_back_if_ready(relay_state, connection);
    return;
  }
  size_t forward = frame(connection, side_index, bytes, length);
  if (!send_to(connection, other_index, bytes, forward)) stop_connection(connection, closed_reason(other_index));
  size_t rest = length - forward;
  if (bytes == relay_state->scratch) {
    if (!buffer_append(&side->input, bytes + forward, rest)) abort();
  } else if (rest == 0) {
    buffer_free(&side->input);
  } else {
    memmove(side->input.data, side->input.data + forward, rest);
    side->input.length = rest;
  }
  if (hand_back_if_ready(relay_state, connection)) return;
  update_interest(relay_state, connection);
}

// ── the relay thread ──────────────────────────────────────────────────────────────────────────────────────────

static void *run_relay(void *argument) {
  relay *relay_state = argument;
  struct epoll_event events[64];
  pthread_setname_np(pthread_self(), "nlq-relay");
  for (;;) {
    int count = epoll_wait(relay_state->epoll_fd, events, 64, -1);
    if (count < 0) {
      if (errno == EINTR) continue;
      return NULL;
    }
    pthread_mutex_lock(&relay_state->mutex);
    if (relay_state->stopping) {
      pthread_mutex_unlock(&relay_state->mutex);
      return NULL;
    }
    for (int index = 0; index < count; index++) {
      uint64_t key = events[index].data.u64;
      if (key == WAKE_KEY) {
        uint64_t ignored;
        if (read(relay_state->wake_fd, &ignored, sizeof ignored) < 0) { /* nothing to drain */
        }
        continue;
      }
      uint64_t id = key >> 1;
      int side_index = (int)(key & 1);
      uint32_t happened = events[index].events;
      relay_connection *connection = find_connection(relay_state, id);
      if (connection == NULL) continue;
      if (happened & EPOLLOUT) {
        on_writable(relay_state, connection, side_index);
        connection = find_connection(relay_state, id);
        if (connection == NULL) continue;
      }
      if (happened & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
        if (connection->sides[side_index].interest & EPOLLIN) {
          on_readable(relay_state, connection, side_index);
        } else if (happened & (EPOLLERR | EPOLLHUP)) {
          // Not being read (level-triggered: it would fire again at once): the side is gone.
          stop_connection(connection, closed_reason(side_index));
          hand_back_if_ready(relay_state, connection);
        }
      }
    }
    pthread_mutex_unlock(&relay_state->mutex);
  }
}

// ── JavaScript ────────────────────────────────────────────────────────────────────────────────────────────────

#define CHECK(call)                                                                                                 \
  do {                                                                                                              \
    if ((call) != napi_ok) {                                                                                        \
      napi_throw_error(env, NULL, "nlq native relay: " #call " failed");                                            \
      return NULL;                                                                                                  \
    }                                                                                                               \
  } while (0)

static napi_value buffer_value(napi_env env, const byte_buffer *buffer) {
  napi_value value;
  if (buffer->length == 0) {
    napi_get_undefined(env, &value);
    return value;
  }
  void *ignored;
  napi_create_buffer_copy(env, buffer->length, buffer->data, &ignored, &value);
  return value;
}

static void set_named(napi_env env, napi_value object, const char *name, napi_value value) {
  napi_set_named_property(env, object, name, value);
}

/** The hand-back as a JavaScript object (see native-relay.ts, `RelayHandBack`). */
static napi_value hand_back_value(napi_env env, const hand_back *taken) {
  napi_value object, value;
  napi_create_object(env, &object);
  napi_create_double(env, (double)taken->id, &value);
  set_named(env, object, "id", value);
  napi_create_string_utf8(env, STOP_REASON_NAMES[taken->reason], NAPI_AUTO_LENGTH, &value);
  set_named(env, object, "reason", value);
  napi_create_uint32(env, taken->pending_ready, &value);
  set_named(env, object, "pendingReady", value);
  napi_get_boolean(env, taken->forwarded_since_sync != 0, &value);
  set_named(env, object, "forwardedSinceSync", value);
  char status[2] = {(char)taken->ready_status, 0};
  napi_create_string_latin1(env, status, 1, &value);
  set_named(env, object, "readyStatus", value);
  napi_get_boolean(env, taken->copy_in != 0, &value);
  set_named(env, object, "copyIn", value);
  napi_create_uint32(env, taken->syncs_after_command, &value);
  set_named(env, object, "syncsAfterCommand", value);
  set_named(env, object, "clientInput", buffer_value(env, &taken->client_input));
  set_named(env, object, "upstreamInput", buffer_value(env, &taken->upstream_input));
  set_named(env, object, "toClient", buffer_value(env, &taken->to_client));
  set_named(env, object, "toUpstream", buffer_value(env, &taken->to_upstream));
  if (taken->client_fd >= 0 && taken->upstream_fd >= 0) {
    napi_create_int32(env, taken->client_fd, &value);
    set_named(env, object, "clientDescriptor", value);
    napi_create_int32(env, taken->upstream_fd, &value);
    set_named(env, object, "upstreamDescriptor", value);
  }
  return object;
}

/** The hand-back's descriptors were given to JavaScript: freeing it must not close them. */
static void descriptors_delivered(hand_back *taken) {
  taken->client_fd = -1;
  taken->upstream_fd = -1;
}

/** One connection fewer is adopted; the delivery stops holding the event loop open at none. */
static void count_returned(relay *relay_state) {
  if (relay_state->adopted > 0 && --relay_state->adopted == 0)
    napi_unref_threadsafe_function(relay_state->env, relay_state->deliver);
}

static void call_deliver(napi_env env, napi_value callback, void *context, void *data) {
  relay *relay_state = context;
  hand_back *taken = data;
  if (env != NULL && callback != NULL) {
    count_returned(relay_state);
    napi_value argument = hand_back_value(env, taken), receiver;
    napi_get_undefined(env, &receiver);
    descriptors_delivered(taken);
    napi_call_function(env, receiver, callback, 1, &argument, NULL);
  }
  free_hand_back(taken);
}

static void stop_relay(void *argument) {
  relay *relay_state = argument;
  pthread_mutex_lock(&relay_state->mutex);
  relay_state->stopping = 1;
  pthread_mutex_unlock(&relay_state->mutex);
  if (relay_state->thread_started) {
    uint64_t one = 1;
    if (write(relay_state->wake_fd, &one, sizeof one) < 0) { /* the thread still sees `stopping` at its next wake */
    }
    pthread_join(relay_state->thread, NULL);
  }
  for (uint32_t slot = 0; slot < relay_state->slot_count; slot++)
    if (relay_state->slots[slot] != NULL) free_connection(relay_state, relay_state->slots[slot]);
  close(relay_state->epoll_fd);
  close(relay_state->wake_fd);
}

static void finalize_relay(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  relay *relay_state = data;
  free(relay_state->slots);
  free(relay_state->generations);
  free(relay_state->free_slots);
  pthread_mutex_destroy(&relay_state->mutex);
  free(relay_state);
}

static relay *unwrap_relay(napi_env env, napi_value value) {
  void *data = NULL;
  if (napi_get_value_external(env, value, &data) != napi_ok) return NULL;
  return data;
}

/** createRelay(onHandBack): starts the relay thread; returns its handle. */
static napi_value create_relay(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  relay *relay_state = calloc(1, sizeof(relay));
  if (relay_state == NULL) {
    napi_throw_error(env, NULL, "nlq native relay: out of memory");
    return NULL;
  }
  relay_state->env = env;
  pthread_mutex_init(&relay_state->mutex, NULL);
  relay_state->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  relay_state->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (relay_state->epoll_fd < 0 || relay_state->wake_fd < 0) {
    napi_throw_error(env, NULL, "nlq native relay: could not create its epoll instance");
    return NULL;
  }
  struct epoll_event wake = {.events = EPOLLIN, .data.u64 = WAKE_KEY};
  epoll_ctl(relay_state->epoll_fd, EPOLL_CTL_ADD, relay_state->wake_fd, &wake);
  napi_value name;
  CHECK(napi_create_string_utf8(env, "nlq-pass-through-relay", NAPI_AUTO_LENGTH, &name));
  CHECK(napi_create_threadsafe_function(env, argv[0], NULL, name, 0, 1, NULL, NULL, relay_state, call_deliver,
                                        &relay_state->deliver));
  CHECK(napi_unref_threadsafe_function(env, relay_state->deliver));
  // The relay thread takes no signals: they stay with Node's main thread.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  int started = pthread_create(&relay_state->thread, NULL, run_relay, relay_state);
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  if (started != 0) {
    napi_throw_error(env, NULL, "nlq native relay: could not start its thread");
    return NULL;
  }
  relay_state->thread_started = 1;
  napi_add_env_cleanup_hook(env, stop_relay, relay_state);
  napi_value handle;
  CHECK(napi_create_external(env, relay_state, finalize_relay, NULL, &handle));
  return handle;
}

static int take_slot(relay *relay_state, uint32_t *slot) {
  if (relay_state->free_count > 0) {
    *slot = relay_state->free_slots[--relay_state->free_count];
    return 1;
  }
  if (relay_state->slot_count > SLOT_MASK) return 0;
  uint32_t grown = relay_state->slot_count == 0 ? 64 : relay_state->slot_count * 2;
  if (grown > SLOT_MASK + 1) grown = SLOT_MASK + 1;
  relay_connection **slots = realloc(relay_state->slots, grown * sizeof *slots);
  uint32_t *generations = realloc(relay_state->generations, grown * sizeof *generations);
  uint32_t *free_slots = realloc(relay_state->free_slots, grown * sizeof *free_slots);
  if (slots == NULL || generations == NULL || free_slots == NULL) abort();
  for (uint32_t index = relay_state->slot_count; index < grown; index++) {
    slots[index] = NULL;
    generations[index] = 1;
  }
  relay_state->slots = slots;
  relay_state->generations = generations;
  relay_state->free_slots = free_slots;
  *slot = relay_state->slot_count;
  // The new slots above the one taken are free (pushed so the lowest is taken next).
  for (uint32_t index = grown - 1; index > relay_state->slot_count; index--)
    relay_state->free_slots[relay_state->free_count++] = index;
  relay_state->slot_count = grown;
  return 1;
}

/**
 * adopt(relay, clientFd, upstreamFd, marker, pendingReady, forwardedSinceSync, readyStatus, copyIn, syncsAfterCommand,
 * ownsDescriptors): the relay takes both sockets over (their reading must be stopped in Node first); returns the
 * connection's id, or -1 when it cannot. With ownsDescriptors it relays duplicates of both descriptors, so JavaScript
 * may close its sockets (a parked connection): the hand-back carries the duplicates (clientDescriptor,
 * upstreamDescriptor).
 */
static napi_value adopt(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value argv[10];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  relay *relay_state = unwrap_relay(env, argv[0]);
  int32_t client_fd, upstream_fd;
  uint32_t pending_ready, syncs_after_command = 0;
  bool forwarded, copy_in = false, owns = false;
  void *marker_data;
  size_t marker_length;
  char status[4] = {0};
  size_t status_length;
  if (relay_state == NULL || napi_get_value_int32(env, argv[1], &client_fd) != napi_ok ||
      napi_get_value_int32(env, argv[2], &upstream_fd) != napi_ok ||
      napi_get_buffer_info(env, argv[3], &marker_data, &marker_length) != napi_ok ||
      napi_get_value_uint32(env, argv[4], &pending_ready) != napi_ok ||
      napi_get_value_bool(env, argv[5], &forwarded) != napi_ok ||
      napi_get_value_string_latin1(env, argv[6], status, sizeof status, &status_length) != napi_ok ||
      (argc >= 8 && napi_get_value_bool(env, argv[7], &copy_in) != napi_ok) ||
      (argc >= 9 && napi_get_value_uint32(env, argv[8], &syncs_after_command) != napi_ok) ||
      (argc >= 10 && napi_get_value_bool(env, argv[9], &owns) != napi_ok)) {
    napi_throw_type_error(env, NULL, "nlq native relay: adopt(relay, clientFd, upstreamFd, marker, pending, "
                                     "forwardedSinceSync, readyStatus, copyIn, syncsAfterCommand, ownsDescriptors)");
    return NULL;
  }
  if (owns) {
    int client_copy = fcntl(client_fd, F_DUPFD_CLOEXEC, 0);
    int upstream_copy = client_copy < 0 ? -1 : fcntl(upstream_fd, F_DUPFD_CLOEXEC, 0);
    if (upstream_copy < 0) {
      if (client_copy >= 0) close(client_copy);
      napi_value failed;
      napi_create_double(env, -1, &failed);
      return failed;
    }
    client_fd = client_copy;
    upstream_fd = upstream_copy;
  }
  napi_value result;
  relay_connection *connection = calloc(1, sizeof(relay_connection));
  uint8_t *marker = malloc(marker_length > 0 ? marker_length : 1);
  if (connection == NULL || marker == NULL) abort();
  memcpy(marker, marker_data, marker_length);
  connection->marker = marker;
  connection->marker_length = marker_length;
  connection->pending_ready = pending_ready;
  connection->forwarded_since_sync = forwarded ? 1 : 0;
  connection->ready_status = status_length > 0 ? (uint8_t)status[0] : 'I';
  connection->copy_in = copy_in ? 1 : 0;
  connection->syncs_after_command = syncs_after_command;
  connection->sides[CLIENT].fd = client_fd;
  connection->sides[UPSTREAM].fd = upstream_fd;
  connection->owns_descriptors = owns ? 1 : 0;
  pthread_mutex_lock(&relay_state->mutex);
  uint32_t slot;
  int added = take_slot(relay_state, &slot);
  if (added) {
    connection->id = ((uint64_t)relay_state->generations[slot] << SLOT_BITS) | slot;
    relay_state->slots[slot] = connection;
    for (int side_index = 0; side_index < 2 && added; side_index++) {
      struct epoll_event event = {.events = EPOLLIN, .data.u64 = (connection->id << 1) | (uint64_t)side_index};
      if (epoll_ctl(relay_state->epoll_fd, EPOLL_CTL_ADD, connection->sides[side_index].fd, &event) != 0) {
        added = 0;
        if (side_index == 1) epoll_ctl(relay_state->epoll_fd, EPOLL_CTL_DEL, connection->sides[CLIENT].fd, NULL);
      }
      connection->sides[side_index].interest = EPOLLIN;
    }
    if (!added) {
      relay_state->slots[slot] = NULL;
      relay_state->free_slots[relay_state->free_count++] = slot;
    }
  }
  if (added) {
    if (relay_state->adopted++ == 0) napi_ref_threadsafe_function(env, relay_state->deliver);
    napi_create_double(env, (double)connection->id, &result);
  } else {
    if (owns) {
      close(client_fd);
      close(upstream_fd);
    }
    free(marker);
    free(connection);
    napi_create_double(env, -1, &result);
  }
  pthread_mutex_unlock(&relay_state->mutex);
  return result;
}

static int read_id(napi_env env, napi_value value, uint64_t *id) {
  double number;
  if (napi_get_value_double(env, value, &number) != napi_ok || number < 0) return 0;
  *id = (uint64_t)number;
  return 1;
}

/**
 * release(relay, id): asks for the connection back. Returns its hand-back at once when both directions are at a
 * message boundary; otherwise undefined, and the hand-back is delivered (reason "release") as soon as they are, or
 * was already on its way.
 */
static napi_value release(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  relay *relay_state = unwrap_relay(env, argv[0]);
  uint64_t id;
  napi_value result;
  napi_get_undefined(env, &result);
  if (relay_state == NULL || !read_id(env, argv[1], &id)) return result;
  pthread_mutex_lock(&relay_state->mutex);
  relay_connection *connection = find_connection(relay_state, id);
  hand_back *taken = NULL;
  if (connection != NULL) {
    stop_connection(connection, STOP_RELEASE);
    if (connection->sides[CLIENT].streaming == 0 && connection->sides[UPSTREAM].streaming == 0)
      taken = take_hand_back(relay_state, connection, connection->stop);
    else
      update_interest(relay_state, connection);
  }
  pthread_mutex_unlock(&relay_state->mutex);
  if (taken != NULL) {
    count_returned(relay_state);
    result = hand_back_value(env, taken);
    descriptors_delivered(taken);
    free_hand_back(taken);
  }
  return result;
}

/**
 * detach(relay, id): drops the connection at once, whatever it holds (its sockets are about to be destroyed); true
 * when it was still adopted, false when its hand-back is already on its way.
 */
static napi_value detach(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  relay *relay_state = unwrap_relay(env, argv[0]);
  uint64_t id;
  int detached = 0;
  if (relay_state != NULL && read_id(env, argv[1], &id)) {
    pthread_mutex_lock(&relay_state->mutex);
    relay_connection *connection = find_connection(relay_state, id);
    if (connection != NULL) {
      free_connection(relay_state, connection);
      detached = 1;
    }
    pthread_mutex_unlock(&relay_state->mutex);
    if (detached) count_returned(relay_state);
  }
  napi_value result;
  napi_get_boolean(env, detached, &result);
  return result;
}

/** markerMayOccur(marker, bytes): the relay's marker test alone (for tests against QuestionMarker). */
static napi_value marker_may_occur_value(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void *marker, *bytes;
  size_t marker_length, length;
  CHECK(napi_get_buffer_info(env, argv[0], &marker, &marker_length));
  CHECK(napi_get_buffer_info(env, argv[1], &bytes, &length));
  napi_value result;
  napi_get_boolean(env, marker_may_occur(bytes, length, marker, marker_length), &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor properties[] = {
      {"createRelay", NULL, create_relay, NULL, NULL, NULL, napi_enumerable, NULL},
      {"adopt", NULL, adopt, NULL, NULL, NULL, napi_enumerable, NULL},
      {"release", NULL, release, NULL, NULL, NULL, napi_enumerable, NULL},
      {"detach", NULL, detach, NULL, NULL, NULL, napi_enumerable, NULL},
      {"markerMayOccur", NULL, marker_may_occur_value, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
  return exports;
}
