import { Chat } from "../components/chat";
import { readSuggestedQuestions } from "../lib/suggested-questions";

/** Read the suggestions on every request: the demo fixture may change without a rebuild. */
export const dynamic = "force-dynamic";

export default function HomePage() {
  return (
    <main className="page">
      <header className="page-header">
        <h1>
          nlq <span className="page-header-subtitle">ask your PostgreSQL database in plain language</span>
        </h1>
      </header>
      <Chat suggestions={readSuggestedQuestions()} />
    </main>
  );
}
