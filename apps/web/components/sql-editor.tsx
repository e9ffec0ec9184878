"use client";

import { PostgreSQL, sql as sqlLanguage } from "@codemirror/lang-sql";
import { basicSetup, EditorView } from "codemirror";
import { useEffect, useRef } from "react";

export interface SqlEditorProps {
  readonly initialSql: string;
  /** Called with the text on every change. */
  readonly onChange: (sql: string) => void;
  /** Accessible name of the editor. */
  readonly label: string;
  /** Ctrl/Cmd+Enter. */
  readonly onRun?: () => void;
  /** Takes the keyboard focus when it opens (the user just asked to edit: Enter on "Edit SQL" lands in the text). */
  readonly autoFocus?: boolean;
}

/** A CodeMirror 6 editor with PostgreSQL highlighting. */
export function SqlEditor({ initialSql, onChange, label, onRun, autoFocus = false }: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const changeRef = useRef(onChange);
  const runRef = useRef(onRun);
  changeRef.current = onChange;
  runRef.current = onRun;

  useEffect(() => {
    if (!host.current) return;
    const view = new EditorView({
      doc: initialSql,
      parent: host.current,
      extensions: [
        // Before basicSetup: its keymap binds Mod-Enter to "insert blank line", and earlier extensions go first.
        EditorView.domEventHandlers({
          keydown: (event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              runRef.current?.();
              return true;
            }
            return false;
          },
        }),
        basicSetup,
        sqlLanguage({ dialect: PostgreSQL }),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changeRef.current(update.state.doc.toString());
        }),
      ],
    });
    if (autoFocus) view.focus();
    return () => view.destroy();
    // The editor owns its text after the first render.
  }, [initialSql, label, autoFocus]);

  return <div className="sql-editor" ref={host} />;
}
