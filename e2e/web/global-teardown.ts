import { dropE2eDatabase } from "./e2e-database";

/** Drops the throwaway database `serve-web.ts` created (the web server may still hold connections). */
export default async function globalTeardown(): Promise<void> {
  await dropE2eDatabase();
}
