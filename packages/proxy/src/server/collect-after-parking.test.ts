import { afterEach, describe, expect, it, vi } from "vitest";
import { CollectAfterParking, fullCollection } from "./collect-after-parking";

afterEach(() => {
  vi.useRealTimers();
});

describe("collecting after a burst of parked sessions", () => {
  it("collects once the burst is over, not before enough sessions parked, and not while they still park", () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const collector = new CollectAfterParking({ quietMilliseconds: 500, minimumParked: 3, collect });
    collector.parked();
    collector.parked();
    vi.advanceTimersByTime(1_000);
    expect(collect).not.toHaveBeenCalled();
    collector.parked();
    vi.advanceTimersByTime(400);
    collector.parked();
    vi.advanceTimersByTime(400);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(collect).toHaveBeenCalledTimes(1);
    // Counting starts again after a collection.
    collector.parked();
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it("collects nothing once stopped", () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const collector = new CollectAfterParking({ quietMilliseconds: 500, minimumParked: 1, collect });
    collector.parked();
    collector.stop();
    vi.advanceTimersByTime(1_000);
    expect(collect).not.toHaveBeenCalled();
  });

  it("has V8's full, compacting collection in a process started without --expose-gc", () => {
    const collect = fullCollection();
    expect(collect).toBeTypeOf("function");
    expect(() => collect?.()).not.toThrow();
  });
});
