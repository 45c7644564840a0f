/**
 * The recognizer registry: every recognizer querymask ships, in one list. Adding a recognizer = one file under
 * ./recognizers plus one line here; the engine never changes (Presidio's RecognizerRegistry).
 */
import type { Recognizer } from "./recognizer.ts";
import { dateRecognizer } from "./recognizers/date.ts";
import { emailRecognizer } from "./recognizers/email.ts";
import { idNumberRecognizer } from "./recognizers/id-number.ts";
import { ipAddressRecognizer } from "./recognizers/ip-address.ts";
import { personNameRecognizer } from "./recognizers/person-name.ts";
import { phoneRecognizer } from "./recognizers/phone.ts";
import { ssnRecognizer } from "./recognizers/ssn.ts";
import { streetAddressRecognizer } from "./recognizers/street-address.ts";
import { urlRecognizer } from "./recognizers/url.ts";
import { zipRecognizer } from "./recognizers/zip.ts";

const RECOGNIZERS: readonly Recognizer[] = [
  emailRecognizer,
  phoneRecognizer,
  ssnRecognizer,
  idNumberRecognizer,
  streetAddressRecognizer,
  zipRecognizer,
  personNameRecognizer,
  urlRecognizer,
  ipAddressRecognizer,
  dateRecognizer,
];

/** The default recognizers, in a stable order (the engine's result does not depend on it). */
export function defaultRecognizers(): readonly Recognizer[] {
  return RECOGNIZERS;
}
