/** Canned review and return texts by sentiment (faker's lorem would be Latin, useless for retrieval demos). */

export const reviewTexts: Record<
  "negative" | "mixed" | "positive",
  ReadonlyArray<readonly [title: string, body: string]>
> = {
  negative: [
    ["Broke after a week", "Looked nice at first but it broke after a week of normal use. Returned it."],
    ["Not as pictured", "The colour is completely different from the photos and the finish feels cheap."],
    ["Disappointed", "Arrived with a scratch and the customer service took days to answer."],
    ["Poor quality", "Wobbly and badly finished. Would not buy again."],
    ["Too small", "Much smaller than the listed size suggests."],
  ],
  mixed: [
    ["Okay for the price", "Does the job, but the materials could be better."],
    ["Decent", "Good design, assembly instructions were confusing."],
    ["Mixed feelings", "Works well but delivery took longer than promised."],
    ["Fine", "Nothing special, nothing wrong."],
  ],
  positive: [
    ["Love it", "Exactly as described, sturdy and beautiful. Would buy again."],
    ["Great quality", "Solid build, fast delivery, looks even better in person."],
    ["Perfect gift", "Bought it as a gift and they loved it."],
    ["Five stars", "Excellent value. Arrived well packed and on time."],
    ["Better than expected", "Feels premium and the colour matches our kitchen perfectly."],
    ["Use it every day", "After months of daily use it still looks new."],
  ],
};

export const returnComments: readonly string[] = [
  "Arrived broken.",
  "Wrong colour sent.",
  "Does not fit the space.",
  "Quality is not what I expected.",
  "Found it cheaper elsewhere.",
  "Ordered two by mistake.",
  "box was damaged, item scratched",
  "Not like the photo",
];
