// The floor of a Node.js proxy: a TCP relay that pipes bytes both ways without reading them (no protocol, no
// questions), the same socket options as the nlq proxy (no Nagle delay). `npm run bench:proxy -- --node-relay`
// measures it beside nlq, so the cost of Node's event loop and streams is told apart from the cost of nlq's own code.
//
//   node bench/proxy/node-relay.mjs <listen port> <upstream port>   (both on 127.0.0.1)
import { connect, createServer } from "node:net";

const [listenPort, upstreamPort] = process.argv.slice(2).map(Number);
const server = createServer((client) => {
  const upstream = connect({ host: "127.0.0.1", port: upstreamPort });
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  client.pipe(upstream);
  upstream.pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", close).on("close", close);
  upstream.on("error", close).on("close", close);
});
server.listen(listenPort, "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
