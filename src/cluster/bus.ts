/**
 * A connection to the cluster's NATS server with JetStream and the state bucket, and the few operations the
 * workers share: publish with a message id (and wait for the server's acknowledgement), read a subject from a
 * stream position.
 */
import {
  AckPolicy,
  type Consumer,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
  type PubAck,
} from "@nats-io/jetstream";
import { type KV, Kvm } from "@nats-io/kv";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { ensureStreams, STATE_BUCKET } from "./topology.ts";

export interface Bus {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly state: KV;
  close(): Promise<void>;
}

export async function openBus(url: string, name: string): Promise<Bus> {
  const nc = await connect({ servers: url, name, maxReconnectAttempts: 20, reconnectTimeWait: 250 });
  const jsm = await jetstreamManager(nc);
  await ensureStreams(jsm);
  const js = jetstream(nc);
  const state = await new Kvm(nc).create(STATE_BUCKET, { history: 1 });
  return {
    nc,
    js,
    jsm,
    state,
    async close() {
      await nc.drain();
    },
  };
}

/**
 * Publish under a message id and wait for the server's acknowledgement, retrying on a time-out: a retry carries
 * the same id, so a publish that did land the first time is dropped as a duplicate (never stored twice).
 */
export async function publish(
  bus: Bus,
  subject: string,
  data: Uint8Array,
  msgID: string | undefined,
  tries = 5,
): Promise<PubAck> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bus.js.publish(subject, data, {
        ...(msgID === undefined ? {} : { msgID }),
        timeout: 30_000,
      });
    } catch (e) {
      if (
        attempt >= tries ||
        !(e instanceof Error) ||
        !/timeout|no responders/i.test(`${e.name} ${e.message}`)
      )
        throw e;
      await new Promise((r) => setTimeout(r, 250 * attempt));
    }
  }
}

/**
 * A consumer of `subject` in `stream`, starting at stream sequence `startSeq` (1 = from the beginning), without
 * acknowledgements: the caller keeps its own position (an anonymizer's snapshot). Re-created on every start, so a
 * restarted worker reads from exactly where its snapshot says.
 */
export async function positionedConsumer(
  bus: Bus,
  stream: string,
  name: string,
  subject: string,
  startSeq: number,
): Promise<Consumer> {
  try {
    await bus.jsm.consumers.delete(stream, name);
  } catch {
    // not there
  }
  await bus.jsm.consumers.add(stream, {
    durable_name: name,
    filter_subject: subject,
    ack_policy: AckPolicy.None,
    ...(startSeq <= 1
      ? { deliver_policy: DeliverPolicy.All }
      : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: startSeq }),
  });
  return bus.js.consumers.get(stream, name);
}

/** A shared durable work consumer with explicit acks (classify workers, the profile writer). */
export async function workConsumer(
  bus: Bus,
  stream: string,
  name: string,
  subject: string,
  ackWaitMs = 30_000,
): Promise<Consumer> {
  try {
    await bus.jsm.consumers.info(stream, name);
  } catch {
    await bus.jsm.consumers.add(stream, {
      durable_name: name,
      filter_subject: subject,
      ack_policy: AckPolicy.Explicit,
      ack_wait: ackWaitMs * 1e6,
      max_deliver: -1,
    });
  }
  return bus.js.consumers.get(stream, name);
}

/**
 * Close `messages` when `signal` aborts — also when it aborted already: a worker told to stop while it was still
 * starting (loading the classifier, restoring a snapshot) registered its listener after the event and ran on
 * forever.
 */
export function closeOnAbort(messages: ConsumerMessages, signal: AbortSignal | undefined): void {
  if (signal === undefined) return;
  if (signal.aborted) void messages.close();
  else signal.addEventListener("abort", () => void messages.close(), { once: true });
}

/**
 * The messages of a consumer in groups: each group is one message plus those already delivered behind it (up to
 * `max`), so a busy consumer handles many at once (one transaction, one round of acknowledgements) and an idle
 * one handles each as it comes, without waiting for a group to fill.
 */
export async function* grouped(messages: ConsumerMessages, max: number): AsyncGenerator<JsMsg[]> {
  const it = messages[Symbol.asyncIterator]();
  try {
    for (;;) {
      const first = await it.next();
      if (first.done) return;
      const group = [first.value];
      while (group.length < max && messages.getPending() > 0) {
        const more = await it.next();
        if (more.done) break;
        group.push(more.value);
      }
      yield group;
    }
  } finally {
    await it.return?.(); // a caller that stops early stops the subscription, as leaving a for-await over it would
  }
}
