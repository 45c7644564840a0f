/**
 * IPv4 addresses written with dots ("24.118.62.3"). Private, loopback and link-local ranges ("192.168.1.1",
 * "10.0.0.1", "127.0.0.1") are router and tutorial look-ups shared by millions of users, not anyone's
 * identifier, so they are left alone. Dot-less digit groups are not taken: "4 8 15 16" is not an address.
 */
import { type Finding, finding, type Query, type Recognizer } from "../recognizer.ts";

const IPV4 = /(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\w]|\.\d)/g;

function isPublic(a: number, b: number): boolean {
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 192 && b === 168) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 169 && b === 254) return false;
  return true;
}

export const ipAddressRecognizer: Recognizer = {
  name: "ip-address",
  types: ["ip_address"],
  needsDigit: true,
  find(q: Query): Finding[] {
    const s = q.lower;
    if (!s.includes(".")) return [];
    const out: Finding[] = [];
    IPV4.lastIndex = 0;
    for (let m = IPV4.exec(s); m !== null; m = IPV4.exec(s)) {
      const parts = [m[1], m[2], m[3], m[4]].map(Number);
      if (parts.some((p) => p > 255) || !isPublic(parts[0]!, parts[1]!)) continue;
      out.push(finding(q, "ip_address", m.index, m.index + m[0].length, 0.9));
    }
    return out;
  },
};
