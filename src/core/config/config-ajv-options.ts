/** The ajv options config.yaml is validated with: by the generated code (scripts/generate-validators.ts) and the plain path the tests compare with. */
export const configAjvOptions = { allErrors: true, strict: true, strictTypes: false } as const;
