/**
 * Text from a log (a user id, a query, a category, a file name) is printed to a terminal only through
 * {@link printable}: a control character — the escape that starts a sequence to clear the screen or set the
 * window's title, a carriage return that overwrites a line, a C1 control — is shown as `\xHH` instead of acted on.
 */

/** C0 controls (tab and line breaks included: a table cell is one line), DEL, and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `text` with each control character written `\xHH`. */
export function printable(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
