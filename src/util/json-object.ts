/** Reading parsed, untrusted JSON: a value is checked to be an object (not null, not a list) before its fields are read. */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value when it is a JSON object, else undefined. */
export const asJsonObject = (v: unknown): JsonObject | undefined => (isJsonObject(v) ? v : undefined);
