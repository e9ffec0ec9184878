import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error";
import { candidateSelector, selectorCallsModel, selectorNames } from "./selector-registry";

describe("selector registry", () => {
  it("names each selector once, by the name it carries", () => {
    expect(selectorNames).toEqual(["self-consistency", "random", "pairwise", "unit-tests"]);
    for (const name of selectorNames) expect(candidateSelector(name).name).toBe(name);
    expect(selectorNames.filter(selectorCallsModel)).toEqual(["pairwise", "unit-tests"]);
  });

  it("refuses an unknown name with ConfigurationError listing the valid ones", () => {
    expect(() => candidateSelector("majority")).toThrow(ConfigurationError);
    expect(() => candidateSelector("toString")).toThrow(
      'unknown candidate selector "toString"; use one of self-consistency, random, pairwise, unit-tests',
    );
  });
});
