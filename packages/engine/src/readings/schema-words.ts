/**
 * Words of identifiers and questions as the reading step compares them: lower case, split at `_`, spaces, digits and
 * camelCase, each reduced to a crude singular (`countries` → `country`, `classes` → `class`), so `singer_names`,
 * `SingerName` and "the singers' names" share `singer` and `name`.
 */

/** A crude English singular: enough to match `countries`/`country`, `addresses`/`address`, `names`/`name`. */
export function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|zz)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/**
 * The words of a schema identifier: `artist_name` → [`artist`, `name`]; `FlightNo` → [`flight`, `no`]; `line2` →
 * [`line`, `2`].
 */
export function identifierWords(identifier: string): string[] {
  return identifier
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .map(singular);
}

/** The words of a question, in order, singular and lower case (apostrophes and punctuation dropped). */
export function questionWords(question: string): string[] {
  return question
    .toLowerCase()
    .replace(/'s\b/g, "")
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .map(singular);
}

/** Whether `words` (a phrase's words) occur in `sentence` one after another. */
export function containsPhrase(sentence: readonly string[], words: readonly string[]): boolean {
  if (words.length === 0 || words.length > sentence.length) return false;
  for (let start = 0; start + words.length <= sentence.length; start += 1) {
    if (words.every((word, offset) => sentence[start + offset] === word)) return true;
  }
  return false;
}

/** Words that qualify nothing when they differ between two columns (`id`, `code`…) or carry no meaning alone. */
export const identifierNoise: ReadonlySet<string> = new Set(["id", "code", "no", "num", "key", "ref", "fk", "pk"]);

/**
 * Pairs of qualifiers that name two different things, never two readings of one (`first_name`/`last_name`,
 * `home_team`/`away_team`, `start_date`/`end_date`): columns that differ by them are not synonyms.
 */
const complementaryQualifiers: ReadonlyArray<readonly [string, string]> = [
  ["first", "last"],
  ["first", "second"],
  ["first", "middle"],
  ["middle", "last"],
  ["given", "family"],
  ["start", "end"],
  ["begin", "end"],
  ["from", "to"],
  ["open", "close"],
  ["opening", "closing"],
  ["min", "max"],
  ["minimum", "maximum"],
  ["low", "high"],
  ["lowest", "highest"],
  ["upper", "lower"],
  ["home", "away"],
  ["host", "guest"],
  ["home", "visitor"],
  ["winner", "loser"],
  ["win", "loss"],
  ["source", "destination"],
  ["source", "target"],
  ["origin", "destination"],
  ["departure", "arrival"],
  ["sender", "receiver"],
  ["sender", "recipient"],
  ["buyer", "seller"],
  ["birth", "death"],
  ["old", "new"],
  ["before", "after"],
  ["previous", "next"],
  ["primary", "secondary"],
  ["male", "female"],
  ["in", "out"],
  ["x", "y"],
  ["latitude", "longitude"],
  ["lat", "long"],
  ["width", "height"],
  ["date", "time"],
];

const complementary = new Set(
  complementaryQualifiers.flatMap(([left, right]) => [`${left}|${right}`, `${right}|${left}`]),
);

/** Whether two qualifiers name two different things (`first`/`last`) rather than two words for one. */
export function areComplementary(left: string, right: string): boolean {
  return complementary.has(`${left}|${right}`) || /^[a-z]?[0-9]+$/.test(left) || /^[a-z]?[0-9]+$/.test(right);
}

/**
 * Whether the question's `words` name a column, loosely, for detectors whose evidence is the schema's structure: its
 * words in order (`birth date`), its last word (`amount` of `charge_amount`, `ticket` of `num_of_ticket`), or two
 * adjacent words run together (`surface area` for `surfacearea`).
 */
export function mentionsColumn(words: readonly string[], column: string): boolean {
  const columnWords = identifierWords(column);
  if (containsPhrase(words, columnWords)) return true;
  const last = columnWords.at(-1);
  if (last !== undefined && last.length >= 3 && !identifierNoise.has(last) && words.includes(last)) return true;
  const joined = columnWords.join("");
  return words.some((word, index) => index + 1 < words.length && singular(`${word}${words[index + 1]}`) === joined);
}

/**
 * Words that name a unit, a currency or a clock rather than a thing: `price_usd` and `price_eur`, `weight_kg` and
 * `weight_lb`, `created_utc` and `created_local` are one quantity in two units — an unqualified question ("the price")
 * may mean either.
 */
export const unitWords: ReadonlySet<string> = new Set([
  "usd",
  "eur",
  "gbp",
  "jpy",
  "chf",
  "cad",
  "aud",
  "dollar",
  "euro",
  "pound",
  "yen",
  "cent",
  "kg",
  "kilogram",
  "lb",
  "gram",
  "ounce",
  "oz",
  "km",
  "kilometer",
  "kilometre",
  "mile",
  "meter",
  "metre",
  "cm",
  "mm",
  "inch",
  "ft",
  "feet",
  "foot",
  "yard",
  "celsius",
  "fahrenheit",
  "kelvin",
  "utc",
  "local",
  "gmt",
  "percent",
  "pct",
  "liter",
  "litre",
  "gallon",
]);
