/**
 * A worker told to stop while it is still starting stops: `closeOnAbort` closes the subscription whether the
 * signal aborts later or had aborted already (the kill -9 test hung on a classify worker that got SIGTERM while
 * loading the classifier). No servers needed.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConsumerMessages } from "@nats-io/jetstream";
import { closeOnAbort } from "../../src/cluster/bus.ts";

function fakeMessages(): { messages: ConsumerMessages; closed: () => number } {
  let n = 0;
  const messages = {
    close: async () => {
      n++;
    },
  } as unknown as ConsumerMessages;
  return { messages, closed: () => n };
}

test("a signal that aborted before the subscription existed closes it at once", () => {
  const stop = new AbortController();
  stop.abort();
  const m = fakeMessages();
  closeOnAbort(m.messages, stop.signal);
  assert.equal(m.closed(), 1);
});

test("a later abort closes the subscription once; no signal, no close", () => {
  const stop = new AbortController();
  const m = fakeMessages();
  closeOnAbort(m.messages, stop.signal);
  assert.equal(m.closed(), 0);
  stop.abort();
  stop.abort();
  assert.equal(m.closed(), 1);
  const none = fakeMessages();
  closeOnAbort(none.messages, undefined);
  assert.equal(none.closed(), 0);
});
