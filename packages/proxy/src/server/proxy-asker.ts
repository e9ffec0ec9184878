import type { Socket } from "node:net";
import type { QuestionAsker } from "@nlq/adapters";
import { MessageReader } from "../protocol/message-reader";

/** The parameters of a StartupMessage (whole packet, length included); an unreadable packet gives none. */
export function startupParameters(packet: Buffer): Map<string, string> {
  const parameters = new Map<string, string>();
  try {
    const reader = new MessageReader(packet, "startup", 8);
    while (reader.remaining > 1) {
      const name = reader.cString();
      parameters.set(name, reader.cString());
    }
  } catch {
    // A malformed packet: PostgreSQL refuses it, and no question is ever answered on its connection.
  }
  return parameters;
}

/**
 * Who asks on one proxy connection, for the audit trail: the StartupMessage's `user` (the role PostgreSQL — or the
 * proxy's own SCRAM check — authenticated), its `database` (default: the user's name, as PostgreSQL does) on the
 * upstream server, its `application_name`, and the client socket's address. Undefined without a user.
 */
export function proxyAsker(
  packet: Buffer,
  client: Pick<Socket, "remoteAddress">,
  upstream: { readonly host: string; readonly port: number },
): QuestionAsker | undefined {
  const parameters = startupParameters(packet);
  const role = parameters.get("user");
  if (!role) return undefined;
  const database = parameters.get("database") || role;
  const applicationName = parameters.get("application_name");
  return {
    surface: "proxy",
    role,
    dataSource: `${upstream.host}:${upstream.port}/${database}`,
    ...(client.remoteAddress === undefined ? {} : { clientAddress: client.remoteAddress }),
    ...(applicationName ? { applicationName } : {}),
  };
}
