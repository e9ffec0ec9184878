export * from "./decode-text-file";
export * from "./external-descriptions";
export * from "./merge-external-descriptions";
export * from "./parse-bird-description";
export * from "./parse-csv";
export * from "./parse-csv-records";
export * from "./parse-defog-description";
export * from "./read-catalog-files";
