/**
 * Fake personal identifiers, so scrubbers and attacks have something to find. Each user has one fake identity;
 * most identifier queries use it (people search for themselves, their street, their number — the AOL 4417749
 * pattern), the rest name a stranger. Everything is a random combination of common words and is fake by
 * construction: phone numbers use the 555-01xx lines reserved for fiction, SSN-like numbers start with 9
 * (a range never issued as a Social Security number).
 */
import type { Rng } from "../util/random.ts";
import type { PiiKind } from "./calibration.ts";
import {
  AREA_CODES,
  FIRST_NAMES,
  LAST_NAMES,
  MAIL_DOMAINS,
  NAME_CONTEXT,
  PLACES,
  STREET_TYPES,
  STREETS,
} from "./words.ts";

export interface Identity {
  readonly first: string;
  readonly last: string;
  /** "1234 oak st" */
  readonly street: string;
  readonly city: string;
  /** "212 555 0147" */
  readonly phone: string;
  /** "jsmith aol com" */
  readonly email: string;
  /** "912 45 6789" */
  readonly ssn: string;
}

/** The ODP category an identifier query is filed under, for `--truth`. */
export const PII_CATEGORY: Record<PiiKind, string> = {
  person_name: "Top/Society/People",
  street_address: "Top/Regional",
  phone: "Top/Reference/Directories/Address_and_Phone_Numbers",
  email: "Top/Computers/Internet",
  id_number: "Top/Society/Government",
};

const digits = (rng: Rng, n: number): string => {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(48 + rng.int(10));
  return s;
};

export function fakeIdentity(rng: Rng): Identity {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const house = 1 + rng.int(rng.float() < 0.5 ? 999 : 9999);
  const emailUser =
    rng.float() < 0.5
      ? `${first[0]}${last}${rng.float() < 0.5 ? rng.int(100) : ""}`
      : `${first}${last}${rng.int(1000)}`;
  return {
    first,
    last,
    street: `${house} ${rng.pick(STREETS)} ${rng.pick(STREET_TYPES)}`,
    city: rng.pick(PLACES),
    phone: `${rng.pick(AREA_CODES)} 555 01${digits(rng, 2)}`,
    email: `${emailUser} ${rng.pick(MAIL_DOMAINS)}`,
    ssn: `9${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 4)}`,
  };
}

/** A query carrying one identifier of `kind` from `id`, in a few common shapes. */
export function piiQuery(kind: PiiKind, id: Identity, rng: Rng): string {
  const u = rng.float();
  switch (kind) {
    case "person_name":
      if (u < 0.45) return `${id.first} ${id.last}`;
      if (u < 0.75) return `${id.first} ${id.last} ${rng.pick(NAME_CONTEXT)}`;
      if (u < 0.9) return `${id.first} ${id.last} ${id.city}`;
      return `${id.last} ${id.first}`;
    case "street_address":
      if (u < 0.5) return id.street;
      if (u < 0.85) return `${id.street} ${id.city}`;
      return `${id.first} ${id.last} ${id.street}`;
    case "phone":
      if (u < 0.6) return id.phone;
      if (u < 0.8) return id.phone.replace(/ /g, "");
      return `${id.phone} ${rng.float() < 0.5 ? "reverse lookup" : `${id.first} ${id.last}`}`;
    case "email":
      return u < 0.7 ? id.email : `${id.email} ${rng.float() < 0.5 ? "login" : "password"}`;
    case "id_number":
      if (u < 0.6) return id.ssn;
      if (u < 0.8) return id.ssn.replace(/ /g, "");
      return `ssn ${id.ssn}`;
  }
}
