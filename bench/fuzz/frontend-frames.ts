import { serialize } from "pg-protocol";

/** A source of uniform floats in [0, 1) (a seeded generator, so that a run can be replayed). */
export type Random = () => number;

export const pick = <Item>(random: Random, items: readonly Item[]): Item => items[Math.floor(random() * items.length)]!;
export const between = (random: Random, low: number, high: number): number =>
  low + Math.floor(random() * (high - low + 1));

/** Statement texts of the recorded sessions: ordinary SQL, questions, malformed questions, errors. */
export const STATEMENT_TEXTS = [
  "select 1",
  "select 1 as a, 'x' as b",
  "select $1::int",
  "begin",
  "commit",
  "rollback",
  "select 1/0",
  "select nothing from nowhere",
  "copy (select 1) to stdout",
  "copy pg_temp.nothing from stdin",
  "/* nl: how many rows are there? */",
  "/* nl: how many rows are there? */;",
  "-- nl: list the tables\n",
  "-- Metabase:: userID: 1\n/* nl: top five? */",
  "/* nl: */",
  "/* nl: first */; /* nl: second */",
  "/* nl: a question */ select 1",
  "select 1 /* nl: after sql */",
  "",
  ";",
];

const STATEMENT_NAMES = ["", "q1", "s1", "unnamed", "nl"];

/** Message type bytes a client may send (and a few it may not). */
export const FRONTEND_TYPES = [..."QPBDECHSXFdcfp", "Z", "\u0000", "\u00ff"].map((character) =>
  character.charCodeAt(0),
);

/** One recorded valid frontend message, chosen at random. */
export function validMessage(random: Random): Buffer {
  const name = pick(random, STATEMENT_NAMES);
  switch (between(random, 0, 11)) {
    case 0:
    case 1:
      return serialize.query(pick(random, STATEMENT_TEXTS));
    case 2:
    case 3:
      return serialize.parse({ name, text: pick(random, STATEMENT_TEXTS), types: random() < 0.2 ? [23] : [] });
    case 4:
      return serialize.bind({
        portal: random() < 0.5 ? "" : "p",
        statement: name,
        values: random() < 0.7 ? [] : ["1", null],
        binary: random() < 0.1,
      });
    case 5:
      return serialize.describe({ type: random() < 0.5 ? "S" : "P", name: random() < 0.5 ? name : "p" });
    case 6:
      return serialize.execute({ portal: random() < 0.7 ? "" : "p", rows: between(random, 0, 3) });
    case 7:
      return serialize.close({ type: random() < 0.5 ? "S" : "P", name });
    case 8:
      return serialize.flush();
    case 9:
      return random() < 0.5 ? serialize.copyData(Buffer.from("1\n")) : serialize.copyDone();
    default:
      return serialize.sync();
  }
}

/** An extended-protocol batch whose statement is a question, as drivers send it. */
export function questionBatch(random: Random): Buffer[] {
  const name = pick(random, ["", "q1"]);
  const text = pick(
    random,
    STATEMENT_TEXTS.filter((text) => text.includes("nl:")),
  );
  const batch = [serialize.parse({ name, text }), serialize.bind({ statement: name })];
  if (random() < 0.7) batch.push(serialize.describe({ type: "P", name: "" }));
  batch.push(serialize.execute({}));
  if (random() < 0.8) batch.push(serialize.sync());
  return batch;
}

/** A message of a client type with a random body (sometimes holding the question marker). */
export function randomBodyMessage(random: Random): Buffer {
  const body = Buffer.from(Array.from({ length: between(random, 0, 48) }, () => between(random, 0, 255)));
  if (random() < 0.3 && body.length > 8) body.write("nl:", between(random, 0, body.length - 3), "latin1");
  if (random() < 0.3) body[body.length - 1] = 0;
  return withHeader(pick(random, FRONTEND_TYPES), body);
}

/** A valid message with a few bytes changed, its body cut short, or its length field changed. */
export function mutatedMessage(random: Random): Buffer {
  const message = Buffer.from(validMessage(random));
  switch (between(random, 0, 3)) {
    case 0: {
      for (let flip = between(random, 1, 3); flip > 0; flip--) {
        message[between(random, 0, message.length - 1)] = between(random, 0, 255);
      }
      return message;
    }
    case 1: {
      const body = message.subarray(5, 5 + between(random, 0, Math.max(0, message.length - 6)));
      return withHeader(message[0]!, body);
    }
    case 2: {
      message.writeInt32BE(message.readInt32BE(1) + between(random, -6, 6), 1);
      return message;
    }
    default:
      return Buffer.concat([message, Buffer.from([between(random, 0, 255)])]);
  }
}

/** A header whose length is impossible (negative, below 4, beyond 1 GiB) or huge with no body behind it. */
export function badLengthMessage(random: Random): Buffer {
  const header = Buffer.alloc(5);
  header[0] = pick(random, FRONTEND_TYPES);
  header.writeInt32BE(pick(random, [-1, -5, 0, 3, 0x40000001, 0x7fffffff, 100_000_000, 70_000]), 1);
  return header;
}

export function withHeader(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = type;
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
