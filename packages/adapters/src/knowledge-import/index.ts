export * from "./defog-glossary-knowledge";
export * from "./import-knowledge-file";
export * from "./imported-knowledge";
export * from "./knowledge-import-error";
export * from "./knowledge-yaml";
export * from "./parse-dbt-manifest";
