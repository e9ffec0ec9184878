import { DAY_MS } from "./demo-calendar";
import type { DemoRandom } from "./demo-random";

/** Countries, cities, currencies and carriers of the demo retailer. Real city names so questions like "customers from Berlin" have answers. */

export interface DemoCity {
  readonly name: string;
  readonly region: string | null;
  /** Relative share of the country's customers. */
  readonly weight: number;
  /** Other spellings customers type (abbreviations, exonyms, missing accents). */
  readonly variants: readonly string[];
}

export interface DemoCountry {
  readonly code: string;
  readonly currency: string;
  /** Share of customers. */
  readonly weight: number;
  /** Sales tax / VAT rate applied to orders. */
  readonly taxRate: number;
  readonly carriers: readonly string[];
  readonly cities: readonly DemoCity[];
}

const city = (name: string, region: string | null, weight: number, variants: string[] = []): DemoCity => ({
  name,
  region,
  weight,
  variants,
});

export const demoCountries: readonly DemoCountry[] = [
  {
    code: "US",
    currency: "USD",
    weight: 48,
    taxRate: 0.07,
    carriers: ["UPS", "FedEx", "USPS"],
    cities: [
      city("New York", "NY", 14, ["NYC", "New York City"]),
      city("Los Angeles", "CA", 10, ["LA"]),
      city("Chicago", "IL", 8),
      city("Houston", "TX", 5),
      city("Austin", "TX", 4),
      city("San Francisco", "CA", 5, ["SF", "San Fransisco"]),
      city("Seattle", "WA", 4),
      city("Boston", "MA", 3),
      city("Denver", "CO", 2),
      city("Miami", "FL", 3),
      city("Portland", "OR", 2),
      city("Philadelphia", "PA", 2, ["Philly"]),
    ],
  },
  {
    code: "GB",
    currency: "GBP",
    weight: 15,
    taxRate: 0.2,
    carriers: ["Royal Mail", "DPD", "Evri"],
    cities: [
      city("London", null, 12),
      city("Manchester", null, 4),
      city("Birmingham", null, 3),
      city("Leeds", null, 2),
      city("Glasgow", null, 2),
      city("Bristol", null, 2),
      city("Edinburgh", null, 2),
    ],
  },
  {
    code: "DE",
    currency: "EUR",
    weight: 12,
    taxRate: 0.19,
    carriers: ["DHL", "Hermes", "DPD"],
    cities: [
      city("Berlin", "BE", 8),
      city("München", "BY", 5, ["Munich", "Muenchen"]),
      city("Hamburg", "HH", 4),
      city("Köln", "NW", 3, ["Cologne", "Koeln"]),
      city("Frankfurt am Main", "HE", 3, ["Frankfurt"]),
      city("Düsseldorf", "NW", 2, ["Dusseldorf"]),
    ],
  },
  {
    code: "FR",
    currency: "EUR",
    weight: 8,
    taxRate: 0.2,
    carriers: ["La Poste", "DHL", "Chronopost"],
    cities: [
      city("Paris", "IDF", 10),
      city("Lyon", "ARA", 3),
      city("Marseille", "PAC", 3),
      city("Toulouse", "OCC", 2),
      city("Nice", "PAC", 1),
      city("Bordeaux", "NAQ", 1),
    ],
  },
  {
    code: "CA",
    currency: "CAD",
    weight: 11,
    taxRate: 0.13,
    carriers: ["Canada Post", "Purolator", "UPS"],
    cities: [
      city("Toronto", "ON", 8),
      city("Montréal", "QC", 5, ["Montreal"]),
      city("Vancouver", "BC", 4),
      city("Calgary", "AB", 2),
      city("Ottawa", "ON", 2),
    ],
  },
  {
    code: "BR",
    currency: "BRL",
    weight: 6,
    taxRate: 0.17,
    carriers: ["Correios", "Jadlog"],
    cities: [
      city("São Paulo", "SP", 8, ["Sao Paulo", "Sampa"]),
      city("Rio de Janeiro", "RJ", 5),
      city("Belo Horizonte", "MG", 2),
      city("Curitiba", "PR", 2),
      city("Porto Alegre", "RS", 1),
    ],
  },
];

/** US dollars per unit of each currency at the start of 2022; drifts a little over time (see `usdRate`). */
const baseUsdRates: Record<string, number> = { USD: 1, EUR: 1.13, GBP: 1.35, CAD: 0.79, BRL: 0.18 };

/** US dollars per unit of `currency` on a day, with a deterministic slow drift (no randomness). */
export function usdRate(currency: string, instant: number): number {
  const base = baseUsdRates[currency] ?? 1;
  if (currency === "USD") return 1;
  const months = instant / (30 * DAY_MS);
  const drift = 1 + 0.04 * Math.sin(months / 7 + currency.charCodeAt(0)) - 0.01 * Math.cos(months / 3);
  return Math.round(base * drift * 1_000_000) / 1_000_000;
}

export function countryByCode(code: string): DemoCountry {
  const country = demoCountries.find((candidate) => candidate.code === code);
  if (country === undefined) throw new Error(`unknown demo country ${code}`);
  return country;
}

/**
 * The city as a customer might type it: usually the canonical name, sometimes an alternative spelling,
 * lower or upper case, or with stray spaces.
 */
export function messyCityName(random: DemoRandom, demoCity: DemoCity): string {
  const roll = random.float();
  if (roll < 0.06 && demoCity.variants.length > 0) return random.pick(demoCity.variants);
  if (roll < 0.1) return demoCity.name.toLowerCase();
  if (roll < 0.12) return demoCity.name.toUpperCase();
  if (roll < 0.16) return `${demoCity.name} `;
  if (roll < 0.18) return ` ${demoCity.name}`;
  return demoCity.name;
}
