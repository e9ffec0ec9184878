import { describe, expect, it } from "vitest";
import { CompoundIdentifierSplitter } from "./compound-identifier-splitter";

describe("CompoundIdentifierSplitter", () => {
  const splitter = CompoundIdentifierSplitter.fromNames([
    "base_price",
    "RoomName",
    "bed",
    "type_code",
    "home_town",
    "s_id",
  ]);

  it("splits run-together words into words the catalog spells separately", () => {
    expect(splitter.split("baseprice")).toEqual(["base", "price"]);
    expect(splitter.split("roomname")).toEqual(["room", "name"]);
    expect(splitter.split("bedtypecode")).toEqual(["bed", "type", "code"]);
  });

  it("leaves words alone that are not made of vocabulary words, or are too short", () => {
    expect(splitter.split("price")).toEqual([]);
    expect(splitter.split("basement")).toEqual([]);
    expect(splitter.split("sid")).toEqual([]);
  });

  it("prefers the fewest parts", () => {
    const words = new CompoundIdentifierSplitter(["home", "town", "hometown", "price"]);
    expect(words.split("hometownprice")).toEqual(["hometown", "price"]);
  });
});
