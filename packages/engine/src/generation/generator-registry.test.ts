import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error";
import { candidateGenerators, generatorByName, generatorNames } from "./generator-registry";

describe("generator registry", () => {
  it("maps each name to the generator of that name", () => {
    expect(generatorNames).toEqual(["one-shot", "divide-and-conquer", "query-plan", "synthetic-examples"]);
    for (const name of generatorNames) {
      expect(generatorByName(name)).toBe(candidateGenerators[name]);
      expect(generatorByName(name).name).toBe(name);
    }
  });

  it("refuses an unknown name with a ConfigurationError listing the valid ones", () => {
    expect(() => generatorByName("chain-of-thought")).toThrow(ConfigurationError);
    expect(() => generatorByName("toString")).toThrow(
      'unknown candidate generator "toString"; use one of one-shot, divide-and-conquer, query-plan, synthetic-examples',
    );
  });
});
