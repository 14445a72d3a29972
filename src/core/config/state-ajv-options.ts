/**
 * The ajv options state.json is validated with: by the generated code (scripts/generate-validators.ts) and the plain
 * path the tests compare with. Formats are annotations here: times are checked where they are used (normalizeTime).
 */
export const stateAjvOptions = { allErrors: true, strict: false, validateFormats: false } as const;
