/**
 * Keeps a long-running command alive and quiet when the reader of its output goes away: `npm start | tee log`, then
 * Ctrl-C, and tee exits before nlq has written its last lines. Writing to that pipe fails with EPIPE, emitted on the
 * stream; without a listener it is an uncaught exception. This drops those errors (the output has nowhere to go)
 * so shutdown proceeds; any other stream error is reported on stderr once.
 */
export function ignoreBrokenPipe(
  streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr],
): () => void {
  const listeners = streams.map((stream) => {
    let reported = false;
    const listener = (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED" || reported) return;
      reported = true;
      if (stream !== process.stderr) process.stderr.write(`nlq: writing output failed: ${error.message}\n`);
    };
    stream.on("error", listener);
    return () => stream.off("error", listener);
  });
  return () => {
    for (const remove of listeners) remove();
  };
}
