/**
 * Requests checked against the protos before they are sent, for callers in plain JavaScript.
 *
 * proto-loader drops what it does not know without a word: `scope: "shared"` is sent as no scope
 * (a private memory), `colour: "red"` as nothing; one string where a list is wanted fails as an
 * INTERNAL status. TypeScript's types catch these at build time; this catches them at run time.
 */

import type * as protoLoader from "@grpc/proto-loader";

interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName: string;
}

const PACKAGE = "memoryd.v1.";

/**
 * `fields` for the message `typeName` of `definition`, with enum short names ("shared") spelled as
 * their labels; a TypeError names an unknown field (and the closest name, among the fields and the
 * call's own `options`), one string given for a list, or an unknown enum name.
 */
export function checked(
  definition: protoLoader.PackageDefinition,
  typeName: string,
  fields: Record<string, unknown>,
  within = "",
  options: string[] = [],
): Record<string, unknown> {
  const message = definition[PACKAGE + typeName] as { type: { field: FieldDescriptor[] } };
  const byName = new Map(message.type.field.map((f) => [f.name, f]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const field = byName.get(key);
    const name = within + key;
    if (!field) {
      const close = closest(key, [...byName.keys(), ...options]);
      const hint = close ? `did you mean '${close}'${options.includes(close) ? " (an option of the call)" : ""}? ` : "";
      throw new TypeError(`${typeName} has no field '${name}'; ${hint}its fields: ${[...byName.keys()].sort().join(", ")}`);
    }
    out[key] = value === undefined || value === null ? value : checkedValue(definition, field, value, name);
  }
  return out;
}

function checkedValue(definition: protoLoader.PackageDefinition, field: FieldDescriptor, value: unknown, name: string): unknown {
  if (field.label === "LABEL_REPEATED") {
    if (!Array.isArray(value)) throw new TypeError(`${name}: a list is wanted, not ${JSON.stringify(value)}`);
    if (field.type === "TYPE_ENUM") return value.map((item) => enumLabel(definition, field.typeName, item, name));
    if (field.type === "TYPE_MESSAGE" && definition[PACKAGE + field.typeName]) {
      return value.map((item, i) => checkedValue(definition, { ...field, label: "LABEL_OPTIONAL" }, item, `${name}[${i}]`));
    }
    return value;
  }
  if (field.type === "TYPE_ENUM") return enumLabel(definition, field.typeName, value, name);
  if (field.type === "TYPE_MESSAGE" && definition[PACKAGE + field.typeName]) {
    const only = listWrapped(definition, field.typeName);
    const wrapped = Array.isArray(value) && only ? { [only]: value } : value;
    if (typeof wrapped !== "object") {
      throw new TypeError(`${name}: ${only ? "a list" : `a ${field.typeName}`} is wanted, not ${JSON.stringify(value)}`);
    }
    return checked(definition, field.typeName, wrapped as Record<string, unknown>, name + ".");
  }
  return value;
}

/** The list's name when the message wraps one list (TagList), which takes the list itself. */
function listWrapped(definition: protoLoader.PackageDefinition, typeName: string): string | undefined {
  const fields = (definition[PACKAGE + typeName] as { type: { field: FieldDescriptor[] } }).type.field;
  return fields.length === 1 && fields[0].label === "LABEL_REPEATED" ? fields[0].name : undefined;
}

function enumLabel(definition: protoLoader.PackageDefinition, typeName: string, value: unknown, name: string): unknown {
  const labels = (definition[PACKAGE + typeName] as { type: { value: { name: string; number: number }[] } }).type.value;
  if (typeof value !== "string" || labels.some((l) => l.name === value)) return value;
  const prefix = typeName.replace(/(?<!^)(?=[A-Z])/g, "_").toUpperCase() + "_";
  const label = prefix + value.trim().toUpperCase().replace(/[- ]/g, "_");
  const chosen = labels.filter((l) => !l.name.endsWith("_UNSPECIFIED"));
  if (chosen.some((l) => l.name === label)) return label;
  const choices = chosen.map((l) => l.name.slice(prefix.length).toLowerCase()).join(", ");
  throw new TypeError(`${name}: '${value}' is not one of ${choices}`);
}

/** The name most like `key` (edit distance within a quarter of the longer name), or undefined. */
function closest(key: string, names: string[]): string | undefined {
  let best: string | undefined;
  let bestScore = 0.75;
  for (const name of names) {
    const score = 1 - distance(key.toLowerCase(), name.toLowerCase()) / Math.max(key.length, name.length);
    if (score >= bestScore) [best, bestScore] = [name, score];
  }
  return best;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
