/**
 * The JSON Schema of an experiment config (`querymask experiment --json-schema`), for editors and CI that check
 * configs before a run. Each method entry's `params` come from that method's own schema (a value or a list of
 * values: a list is a grid axis); the rest restates what src/experiment/config.ts accepts, whose checks stay the
 * authority (a config the schema accepts may still fail there, e.g. a dp calibration with no usable threshold).
 */
import { LOG_FORMATS } from "../log/record.ts";
import { methods } from "../methods/registry.ts";
import { yardsticks } from "../metrics/registry.ts";

type Json = Record<string, unknown>;

/** A value, or a non-empty list of them (a grid axis). */
const orList = (s: Json): Json => ({ anyOf: [s, { type: "array", items: s, minItems: 1 }] });

export async function configJsonSchema(): Promise<Json> {
  const entries = await Promise.all(
    methods.map(async (m) => {
      const params = await m.params.jsonSchema();
      const props = Object.fromEntries(
        Object.entries((params.properties ?? {}) as Record<string, Json>).map(([k, s]) => [k, orList(s)]),
      );
      return {
        type: "object",
        description: m.summary,
        properties: { method: { const: m.name }, params: { ...params, properties: props } },
        required: ["method"],
        additionalProperties: false,
      };
    }),
  );
  const paths = orList({ type: "string", minLength: 1 });
  const ints = (min: number) => orList({ type: "integer", minimum: min });
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "querymask experiment config",
    type: "object",
    properties: {
      log: paths,
      format: { enum: ["auto", ...LOG_FORMATS] },
      classify: { anyOf: [{ type: "boolean" }, { const: "auto" }] },
      seeds: ints(0),
      methods: {
        type: "array",
        minItems: 1,
        items: { anyOf: [{ enum: methods.map((m) => m.name) }, ...entries] },
      },
      yardsticks: { type: "array", items: { enum: yardsticks.map((y) => y.name) } },
      options: {
        type: "object",
        properties: {
          backgroundM: ints(1),
          backgroundTargets: ints(1),
          topQueries: ints(1),
          bids: { type: "string", minLength: 1 },
        },
        additionalProperties: false,
      },
      jobs: ints(1),
      frontier: {
        type: "object",
        properties: {
          privacy: { type: "string" },
          utility: { type: "string" },
          budget: { type: "number", minimum: 0 },
        },
        additionalProperties: false,
      },
      allowList: { type: "string", minLength: 1 },
    },
    required: ["log", "methods"],
    additionalProperties: false,
  };
}
