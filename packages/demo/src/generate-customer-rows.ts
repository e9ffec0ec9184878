import { DAY_MS, formatTimestamp, parseDate, timeOfDay } from "./demo-calendar";
import { demoCountries, messyCityName } from "./demo-places";
import type { DemoRandom } from "./demo-random";
import type { DemoRow } from "./demo-types";
import { asciiHandle } from "./generate-organization-rows";

/** A customer before the loyalty tier is known (the tier follows from the orders). */
export interface CustomerProfile {
  readonly customerId: number;
  readonly country: string;
  /** The city as the customer typed it (possibly messy). */
  readonly typedCity: string;
  readonly signedUpAt: number;
  readonly row: Omit<DemoRow, "loyalty_tier">;
}

const emailProviders = [
  "gmail.example",
  "outlook.example",
  "yahoo.example",
  "icloud.example",
  "proton.example",
  "web.example",
];

/** Generates customer profiles: locale-appropriate names, real cities typed inconsistently, missing phones and regions. */
export function generateCustomerProfiles(
  random: DemoRandom,
  options: { anchorDate: string; count: number },
): CustomerProfile[] {
  const anchor = parseDate(options.anchorDate);
  const firstSignup = parseDate("2020-01-01");
  const span = Math.floor((anchor - firstSignup) / DAY_MS) - 1;
  const usedEmails = new Set<string>();
  const profiles: CustomerProfile[] = [];
  const signups: number[] = [];
  for (let index = 0; index < options.count; index++) {
    // Growth: later days are more likely (square root of a uniform number).
    signups.push(timeOfDay(random, firstSignup + Math.floor(span * Math.sqrt(random.float())) * DAY_MS));
  }
  signups.sort((left, right) => left - right);
  signups.forEach((signedUpAt, index) => {
    const country = random.weighted(demoCountries.map((candidate) => [candidate, candidate.weight] as const));
    const faker = random.fakerFor(country.code);
    const city = random.weighted(country.cities.map((candidate) => [candidate, candidate.weight] as const));
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    const separator = random.pick([".", "_", ""]);
    let email = `${asciiHandle(firstName)}${separator}${asciiHandle(lastName)}@${random.pick(emailProviders)}`;
    for (let suffix = random.int(1, 99); usedEmails.has(email); suffix++) {
      email = `${asciiHandle(firstName)}${separator}${asciiHandle(lastName)}${suffix}@${random.pick(emailProviders)}`;
    }
    usedEmails.add(email);
    const typedCity = messyCityName(random, city);
    const isBusiness = random.chance(0.12);
    profiles.push({
      customerId: index + 1,
      country: country.code,
      typedCity,
      signedUpAt,
      row: {
        customer_id: index + 1,
        first_name: firstName,
        last_name: lastName,
        email: random.chance(0.03) ? email.toUpperCase() : email,
        phone: random.chance(0.78) ? faker.phone.number() : null,
        company_name: isBusiness ? faker.company.name() : null,
        city: typedCity,
        region: city.region !== null && random.chance(0.9) ? city.region : null,
        postal_code: random.chance(0.88) ? faker.location.zipCode() : null,
        country: country.code,
        marketing_opt_in: random.chance(0.55),
        signed_up_at: formatTimestamp(signedUpAt),
      },
    });
  });
  return profiles;
}

/** Loyalty tier from lifetime spend in US dollars. */
export function loyaltyTier(lifetimeSpendUsd: number): string {
  if (lifetimeSpendUsd >= 3_000) return "platinum";
  if (lifetimeSpendUsd >= 1_000) return "gold";
  if (lifetimeSpendUsd >= 300) return "silver";
  return "bronze";
}
