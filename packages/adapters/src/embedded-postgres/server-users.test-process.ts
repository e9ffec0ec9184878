/**
 * A separate process for server-users.test.ts: waits until the start time it is given, then takes the lifetime lock of
 * a directory `rounds` times, appending `in <pid>` and `out <pid>` to a log file while it holds it.
 * Arguments: <directory> <log file> <start time, ms since the epoch> <rounds>.
 */
import { appendFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { withLifetimeLock } from "./server-users";

const [directory, log, startAt, rounds] = process.argv.slice(2);
if (directory === undefined || log === undefined) throw new Error("usage: <directory> <log> <start time> <rounds>");
await sleep(Math.max(0, Number(startAt) - Date.now()));
for (let round = 0; round < Number(rounds ?? 1); round++) {
  await withLifetimeLock(directory, async () => {
    appendFileSync(log, `in ${process.pid}\n`);
    await sleep(5);
    appendFileSync(log, `out ${process.pid}\n`);
  });
}
